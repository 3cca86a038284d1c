"""The spec's functions called with a model's name for ``query`` say ``did you mean query?``.

``WebSearchToolSpec.web_search(q="rust")`` (and ``aweb_search``), the functions
``to_tool_list()`` users meet and hand to other frameworks, gave Python's ``got an
unexpected keyword argument 'q'`` alone, while the tools answer the same name with ``(did
you mean query?)``. Searched against the loopback simulator: a refused call sends nothing,
and a right one still searches.
"""

import inspect
from typing import Any

import pytest

from llamaindex_websearch import WebSearchToolSpec
from websearch_core.testing import Simulator

from ._helpers import MODEL_FIELDS, sim_settings

_TAKES = ", ".join(MODEL_FIELDS)


def _refusal(function: str, name: str, meant: str | None) -> str:
    hint = f"; did you mean {meant}?" if meant is not None else ""
    owner = f"WebSearchToolSpec.{function}()"
    return f"{owner} got an unexpected keyword argument {name!r}{hint} ({owner} takes {_TAKES})"


@pytest.mark.parametrize(
    ("name", "meant"),
    [("q", "query"), ("search_query", "query"), ("question", "query"), ("input", "query"),
     ("count", "limit"), ("limt", "limit"), ("link", None)],
)  # fmt: skip
async def test_the_spec_s_functions_name_the_argument_meant(
    sim: Simulator, name: str, meant: str | None
) -> None:
    spec = WebSearchToolSpec(settings=sim_settings(sim), api_keys=sim.api_keys())
    given: dict[str, Any] = {"query": "rust"} if name != "q" and meant != "query" else {}
    given[name] = "rust async" if meant == "query" else 3
    with pytest.raises(TypeError) as synchronous:
        spec.web_search(**given)
    with pytest.raises(TypeError) as awaited:
        await spec.aweb_search(**given)
    assert str(synchronous.value) == _refusal("web_search", name, meant)
    assert str(awaited.value) == _refusal("aweb_search", name, meant)
    assert sim["brave"].requests == []
    await spec.aclose()


async def test_guard_right_calls_and_other_refusals_are_as_before(sim: Simulator) -> None:
    """A guard (passes before and after): the right call searches, the signatures LlamaIndex
    reads are the functions' own, and Python's other refusals stand as Python words them."""
    spec = WebSearchToolSpec(settings=sim_settings(sim), api_keys=sim.api_keys())
    found = await spec.aweb_search(query="rust", limit=2)
    assert found.text.startswith("[1] rust result 1") and "[3]" not in found.text
    assert list(inspect.signature(spec.web_search).parameters) == MODEL_FIELDS
    assert list(inspect.signature(spec.aweb_search).parameters) == MODEL_FIELDS
    assert inspect.iscoroutinefunction(spec.aweb_search)
    with pytest.raises(TypeError, match=r"^WebSearchToolSpec.web_search\(\) missing 1 required"):
        spec.web_search()  # type: ignore[call-arg]
    with pytest.raises(TypeError, match=r"got multiple values for argument 'query'$"):
        spec.web_search("rust", query="go")  # type: ignore[misc]
    await spec.aclose()


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ({"q": "rust", "num": 3}, "'q' and 'num'; did you mean query for 'q', limit for 'num'?"),
        ({"question": "rust", "count": 3, "link": "x"},
         "'question', 'count' and 'link'; did you mean query for 'question', limit for 'count'?"),
        ({"query": "rust", "link": "x", "href": "y"}, "'link' and 'href'"),
    ],
)  # fmt: skip
async def test_the_spec_s_functions_name_every_unknown_keyword_at_once(
    sim: Simulator, given: dict[str, Any], said: str
) -> None:
    """A model that invents names invents several: Python named the first alone, so a model
    (or a user) fixing it was refused again for the next. Every one is named, each known
    near-miss with the name meant; nothing is sent."""
    spec = WebSearchToolSpec(settings=sim_settings(sim), api_keys=sim.api_keys())
    for function in ("web_search", "aweb_search"):
        owner = f"WebSearchToolSpec.{function}()"
        with pytest.raises(TypeError) as refused:
            call = getattr(spec, function)(**given)
            await call if function == "aweb_search" else None
        assert str(refused.value) == (
            f"{owner} got unexpected keyword arguments {said} ({owner} takes {_TAKES})"
        )
    assert sim["brave"].requests == []
    await spec.aclose()
