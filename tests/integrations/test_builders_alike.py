"""Every adapter builder refuses, keeps and passes on its options alike, whatever the framework.

Left by the parity work: a bad option was a pydantic ``ValidationError`` from LangChain's
builders and a ``TypeError`` or ``ConfigurationError`` from LlamaIndex's, so no one class
caught both; LlamaIndex's retriever checked an option beyond its config's fields twice;
``model_copy(update=...)`` on a LangChain tool kept an option where nothing read it; and a
given ``session`` was never shown to carry the searches.
"""

from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import aiohttp
import pytest
from pydantic import ValidationError

from langchain_websearch import WebFetchTool, WebSearchRetriever, WebSearchTool
from llamaindex_websearch import WebSearchRetriever as LlamaIndexRetriever
from llamaindex_websearch import WebSearchToolSpec, create_web_fetch_tool, create_web_search_tool
from tests.integrations._helpers import sim_settings
from websearch_core import ConfigurationError, WebSearch, settings_given
from websearch_core.testing import Simulator

LANGCHAIN_BUILDERS: list[Callable[..., object]] = [WebSearchTool, WebSearchRetriever, WebFetchTool]
"""LangChain's pydantic-model builders: they refused with ``ValidationError``."""
LLAMAINDEX_BUILDERS: list[Callable[..., object]] = [
    create_web_search_tool,
    WebSearchToolSpec,
    LlamaIndexRetriever,
    create_web_fetch_tool,
]
"""LlamaIndex's builders: ``TypeError`` or ``ConfigurationError`` (its retriever, all three)."""

BAD_OPTIONS: list[dict[str, object]] = [
    {"deadline_second": 30},  # misspelt
    {"deadline_seconds": 0},  # a value its setting refuses
    {"exclude": "altavista"},
    {"session": "not a session"},  # an object of the wrong kind
    {"provider": "bravee"},  # the old four, fields of LangChain's models
    {"timeout_seconds": 0},
    {"api_keys": {"brave": "two\nlines"}},
    {"settings": "brave"},
    {"web_search": WebSearch(), "deadline_seconds": 30},  # a client beside options
]


def _owner(build: Callable[..., object]) -> str:
    return getattr(build, "__name__", repr(build))


def _id(build: Callable[..., object]) -> str:
    """The builder and its framework (both have a ``WebSearchRetriever``)."""
    return f"{build.__module__.split('_')[0]}.{_owner(build)}"


@pytest.mark.parametrize("build", LANGCHAIN_BUILDERS + LLAMAINDEX_BUILDERS, ids=_id)
@pytest.mark.parametrize("options", BAD_OPTIONS, ids=lambda options: next(iter(options)))
def test_a_bad_option_is_a_configuration_error_from_every_builder(
    build: Callable[..., object], options: dict[str, object]
) -> None:
    """One class, ``ConfigurationError``, catches every refusal when built, in both frameworks.

    Failed before for every LangChain case (``ValidationError``) and every LlamaIndex
    case refused as ``TypeError`` or by its retriever's config (46 of 63); LlamaIndex's
    value refusals were ``ConfigurationError`` already (17 pins, passing before).
    """
    with pytest.raises(ConfigurationError):
        build(**options)


@pytest.mark.parametrize("build", LANGCHAIN_BUILDERS, ids=_id)
@pytest.mark.parametrize("options", BAD_OPTIONS, ids=lambda options: next(iter(options)))
def test_guard_langchain_refusals_are_still_validation_errors(
    build: Callable[..., object], options: dict[str, object]
) -> None:
    """Guard (passes before and after): code catching pydantic's class still catches it."""
    with pytest.raises(ValidationError) as raised:
        build(**options)
    assert raised.value.title == _owner(build)
    assert raised.value.errors()  # the line errors are pydantic's, with their locations


@pytest.mark.parametrize("build", LLAMAINDEX_BUILDERS, ids=_id)
@pytest.mark.parametrize(
    "options",
    [{"deadline_second": 30}, {"session": "not a session"}, {"settings": "brave"}],
    ids=lambda options: next(iter(options)),
)
def test_guard_llamaindex_type_errors_are_still_type_errors(
    build: Callable[..., object], options: dict[str, object]
) -> None:
    """Guard (passes before and after): a keyword or object refused as ``TypeError`` still is.

    (LlamaIndex's retriever refuses ``settings="brave"`` in its config: that is also a
    ``ValidationError`` there, as before.)
    """
    with pytest.raises((TypeError, ValidationError)):
        build(**options)


@pytest.fixture
def checked_settings(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Each setting name whose given value was checked, once per check (the check still runs)."""
    checked: list[str] = []
    real = settings_given.check_given_settings

    def counting(values: Any) -> None:
        checked.extend(values)
        real(values)

    monkeypatch.setattr(settings_given, "check_given_settings", counting)
    yield checked


@pytest.mark.parametrize(
    "build",
    [WebSearchTool, WebSearchRetriever, create_web_search_tool, LlamaIndexRetriever],
    ids=_id,
)
def test_each_option_is_checked_once_when_built(
    checked_settings: list[str], build: Callable[..., object]
) -> None:
    """An option beyond the old four is checked once, counted, not timed.

    Failed before for LlamaIndex's retriever (the factories' path, then its config) and
    ``create_web_search_tool`` (the factory, then its tool spec): two checks each. The
    LangChain cases are pins (once before too).
    """
    build(deadline_seconds=20, exclude="bing")
    assert sorted(checked_settings) == ["deadline_seconds", "exclude"]


def test_model_copy_updates_an_option_of_the_copy_alone() -> None:
    """``model_copy(update=...)`` changes the copy's option, checked; the original keeps its own.

    Failed before: the copy searched with the original's deadline (the update was kept
    where nothing read it).
    """
    tool = WebSearchTool(deadline_seconds=30, exclude="bing")
    copied = tool.model_copy(update={"deadline_seconds": 5, "name": "web_search_fast"})
    assert copied.new_client().settings.deadline_seconds == 5
    assert copied.new_client().settings.exclude == ("bing",)
    assert copied.name == "web_search_fast"
    assert tool.new_client().settings.deadline_seconds == 30


@pytest.mark.parametrize(
    ("update", "said"),
    [
        (
            {"deadline_seconds": 0},
            "deadline_seconds\n  must be more than 0 and at most 900 seconds",
        ),
        ({"deadline_second": 5}, "'deadline_second' in update is neither a field nor a"),
    ],
)
def test_model_copy_refuses_a_bad_option_saying_what_to_pass(
    update: dict[str, object], said: str
) -> None:
    """A bad value or name in the update is refused as when built, never kept unread.

    Failed before: both were taken silently.
    """
    with pytest.raises(ConfigurationError) as raised:
        WebSearchRetriever().model_copy(update=update)
    assert said in str(raised.value)


def test_model_copy_refuses_a_client_beside_an_option() -> None:
    """A copy of a tool on a given client cannot also take an option to build one.

    Failed before: the copy took it and searched through the client, the option unread.
    """
    tool = WebSearchTool(web_search=WebSearch())
    with pytest.raises(ConfigurationError) as raised:
        tool.model_copy(update={"deadline_seconds": 5})
    assert "pass either web_search or the options to build a client (deadline_seconds)" in str(
        raised.value
    )


async def _langchain_tool(options: dict[str, Any]) -> None:
    async with WebSearchTool(**options) as tool:
        await tool.ainvoke({"query": "python"})


async def _langchain_retriever(options: dict[str, Any]) -> None:
    async with WebSearchRetriever(**options) as retriever:
        await retriever.ainvoke("python")


async def _llamaindex_tool(options: dict[str, Any]) -> None:
    async with create_web_search_tool(**options) as tool:
        await tool.acall(query="python")


async def _llamaindex_spec(options: dict[str, Any]) -> None:
    async with WebSearchToolSpec(**options) as spec:
        await spec.aweb_search("python")


async def _llamaindex_retriever(options: dict[str, Any]) -> None:
    async with LlamaIndexRetriever(**options) as retriever:
        await retriever.aretrieve("python")


SEARCHES: list[Callable[[dict[str, Any]], Awaitable[None]]] = [
    _langchain_tool,
    _langchain_retriever,
    _llamaindex_tool,
    _llamaindex_spec,
    _llamaindex_retriever,
]
"""One search through each builder's adapter, built from the options given."""


@pytest.mark.parametrize("search", SEARCHES, ids=lambda search: search.__name__.lstrip("_"))
async def test_guard_a_given_session_carries_the_search(
    sim: Simulator, search: Callable[[dict[str, Any]], Awaitable[None]]
) -> None:
    """Guard (passes before and after): every request goes through the session given.

    Counted by the session's own trace hooks against the simulator's requests; the session
    stays open after the adapter closes (it is the caller's).
    """
    sent: list[str] = []

    async def started(_: object, __: object, params: aiohttp.TraceRequestStartParams) -> None:
        sent.append(str(params.url))

    tracing = aiohttp.TraceConfig()
    tracing.on_request_start.append(started)
    async with aiohttp.ClientSession(trace_configs=[tracing]) as session:
        options = {"settings": sim_settings(sim), "api_keys": sim.api_keys(), "session": session}
        await search(options)
        assert not session.closed
    served = len(sim["brave"].requests) + len(sim["duckduckgo"].requests)
    assert served >= 1
    assert len(sent) == served
