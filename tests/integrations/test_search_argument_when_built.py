"""A search argument given when a tool is built is refused naming it and where it goes.

``WebSearchTool(count=5)`` (or ``max_results=5``, ``k=5``, ``num_results=5``) meant the
number of results: LangChain said ``unexpected keyword argument`` alone, or ``did you mean
fence_results?``; the LlamaIndex factories and ``WebSearch`` the same. The number is each
call's ``limit`` (the model gives it, and no setting holds a default), a retriever's ``k``.
"""

from collections.abc import Callable
from typing import Any

import pytest
from pydantic import ValidationError

from langchain_websearch import WebFetchTool, WebSearchTool
from langchain_websearch import WebSearchRetriever as LangChainRetriever
from llamaindex_websearch import WebSearchFunctionTool, WebSearchToolSpec, create_web_search_tool
from llamaindex_websearch import WebSearchRetriever as LlamaIndexRetriever
from tests.integrations._helpers import sim_settings
from websearch_core import WebSearch
from websearch_core.testing import Simulator

RESULT_COUNTS = ["count", "max_results", "k", "num_results", "top_k", "limit"]
"""Names other tools and APIs give the number of results, and this package's own."""


def _refusal(build: Callable[..., object], **given: Any) -> str:
    """What building with ``given`` says: pydantic's message for the name, or the TypeError."""
    with pytest.raises((ValidationError, TypeError)) as caught:
        build(**given)
    if isinstance(caught.value, ValidationError):
        ((message,),) = [[e["msg"]] for e in caught.value.errors()]
        return str(message)
    return str(caught.value)


@pytest.mark.parametrize("name", RESULT_COUNTS)
@pytest.mark.parametrize(
    "build",
    [WebSearchTool, create_web_search_tool, WebSearchToolSpec],
    ids=lambda build: build.__name__,
)
def test_a_tool_built_with_a_result_count_names_limit_and_each_call(
    build: Callable[..., object], name: str
) -> None:
    message = _refusal(build, **{name: 5})
    assert "an argument of each search, given with the query" in message
    assert '{"query": "...", "limit": ...}' in message
    assert "did you mean" not in message  # the nearest spelling (fence_results) was wrong
    if name != "limit":
        assert f"{name} means limit here" in message


@pytest.mark.parametrize("name", RESULT_COUNTS)
@pytest.mark.parametrize(
    "build",
    [WebSearchFunctionTool, WebSearchFunctionTool.from_defaults],
    ids=["class", "from_defaults"],
)
def test_the_llamaindex_tool_class_built_with_a_result_count_names_limit_too(
    build: Callable[..., object], name: str
) -> None:
    # `WebSearchFunctionTool(count=5)` said `unexpected keyword argument` alone (and
    # `max_results=5` `did you mean fence_results?`) while its factory named `limit`.
    message = _refusal(build, **{name: 5})
    assert '{"query": "...", "limit": ...}' in message
    assert "did you mean" not in message
    assert "create_web_search_tool() builds one from WebSearch options" in message


@pytest.mark.parametrize("name", ["count", "max_results", "limit", "top_k"])
@pytest.mark.parametrize("build", [LangChainRetriever, LlamaIndexRetriever], ids=["lc", "li"])
def test_a_retriever_built_with_a_result_count_names_k(
    build: Callable[..., object], name: str
) -> None:
    assert "; did you mean k?" in _refusal(build, **{name: 5})


def test_another_apis_recency_names_the_tools_recency() -> None:
    assert "freshness means recency here" in _refusal(WebSearchTool, freshness="week")


@pytest.mark.parametrize("name", ["count", "max_results"])
def test_a_client_built_with_a_result_count_names_limit(name: str) -> None:
    assert f"{name} means limit here, a search parameter" in _refusal(WebSearch, **{name: 5})


def test_the_argument_named_reaches_brave_as_its_count(threaded_sim: Simulator) -> None:
    """Done as the refusal says, the number reaches Brave (its ``count``)."""
    message = _refusal(WebSearchTool, count=2)
    meant = message.split(" means ", 1)[1].split(" ", 1)[0]
    tool = WebSearchTool(settings=sim_settings(threaded_sim), api_keys=threaded_sim.api_keys())
    tool.invoke({"query": "python asyncio", meant: 2})
    assert threaded_sim["brave"].requests[0].query_dict()["count"] == "2"


@pytest.mark.parametrize(
    ("build", "name", "expected"),
    [
        (WebSearchTool, "max_result", "did you mean fence_results?"),
        (WebFetchTool, "count", "unexpected keyword argument"),
        (create_web_search_tool, "api_key", "did you mean api_keys?"),
    ],
    ids=["typo", "fetch", "option"],
)
def test_other_names_keep_their_answer(
    build: Callable[..., object], name: str, expected: str
) -> None:
    """A guard (passes before and after): a typo, the fetch tool (no result count) and a
    misspelt option are answered as before."""
    message = _refusal(build, **{name: 5})
    assert expected in message
    assert "each search" not in message
