"""``model_copy(update=...)`` of fields alone is checked as when built, in LangChain's classes.

Pydantic writes an update unchecked, and frameworks2 checked only an update naming an
option. With fields alone: ``update={"api_keys": {"brave": key}}`` left the key a plain
``str`` that the copy's ``repr`` and ``model_dump`` printed (a secret in output);
``update={"web_search": client}`` on a tool built with options gave a copy searching
through that client with the options silently unread (building it so is refused); and a
value the class refuses (``timeout_seconds="soon"``, an unknown provider, ``k="4"``) was
kept, to fail at the first search or never. Searches go to the loopback simulator.
"""

from collections.abc import AsyncIterator
from typing import Any

import pytest
from pydantic import BaseModel

from langchain_websearch import WebFetchTool, WebSearchRetriever, WebSearchTool
from websearch_core import ConfigurationError, WebSearch
from websearch_core.build_errors import OptionTypeError
from websearch_core.testing import Simulator

KEY = "copied-key-7f3a9c51e2"
CLASSES = [WebSearchTool, WebSearchRetriever, WebFetchTool]


@pytest.fixture
async def sim() -> AsyncIterator[Simulator]:
    async with Simulator(["brave"]) as simulator:
        yield simulator


@pytest.mark.parametrize("model", CLASSES)
def test_a_key_given_in_a_copys_update_is_kept_secret(model: type[BaseModel]) -> None:
    copied = model(deadline_seconds=5).model_copy(update={"api_keys": {"brave": KEY}})
    for shown in (repr(copied), str(copied), str(copied.model_dump()), str(copied.__dict__)):
        assert KEY not in shown
    assert copied.api_keys["brave"].get_secret_value() == KEY  # type: ignore[attr-defined]


async def test_the_copy_searches_with_the_key_its_update_gave(sim: Simulator) -> None:
    """A guard: the key is the copy's, and sent (it was before, as a plain ``str``)."""
    options: dict[str, Any] = {"settings": sim.settings(cache=False), "api_keys": sim.api_keys()}
    tool = WebSearchTool(**options, deadline_seconds=20)
    copied = tool.model_copy(update={"api_keys": {"brave": KEY}})
    await copied.ainvoke({"query": "rust async"})
    (request,) = sim["brave"].requests
    assert request.header("X-Subscription-Token") == KEY


@pytest.mark.parametrize("model", CLASSES)
async def test_a_client_in_a_copys_update_beside_options_is_refused(
    model: type[BaseModel],
) -> None:
    async with WebSearch(state_backend="memory") as client:
        original = model(deadline_seconds=5)
        with pytest.raises(OptionTypeError, match=r"model_copy\(\): pass either web_search"):
            original.model_copy(update={"web_search": client})
        # Built without options, a client is what the copy searches through (a guard).
        plain: Any = model().model_copy(update={"web_search": client})
        assert plain.web_search is client


@pytest.mark.parametrize(
    ("model", "update", "field"),
    [
        (WebSearchTool, {"timeout_seconds": "soon"}, "timeout_seconds"),
        (WebFetchTool, {"provider": "no-such-engine"}, "provider"),
        (WebSearchRetriever, {"k": "4"}, "k"),
        (WebSearchRetriever, {"settings": {"no_such_setting": 1}}, "settings"),
        (WebSearchTool, {"api_keys": {"brave": "a key\nwith a line break"}}, "api_keys"),
    ],
)
def test_a_field_value_the_class_refuses_is_refused_in_a_copy(
    model: type[BaseModel], update: dict[str, Any], field: str
) -> None:
    original = model(deadline_seconds=5)
    with pytest.raises(ConfigurationError) as caught:
        original.model_copy(update=update)
    assert field in str(caught.value)
    assert getattr(original, field) != update[field]  # the original is left as it was
