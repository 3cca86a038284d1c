"""A retriever reads a query that is exactly ``{"query": "..."}`` as that query's text.

A model reaches a retriever through a wrapper tool (LangChain's ``create_retriever_tool``
or a user's own) that passes its string on; a model that writes its arguments as one
JSON object in that string had ``{"query": "rust async"}`` sent to the engine, braces and
all. Now the text is searched, as the search and fetch tools read such an object (Stop 49,
toolinputs); an object holding more than the query is refused naming the keys (a
retriever takes none per query: they could only be dropped). A query that merely holds
braces, an object without ``query`` and broken JSON are searched as typed. Searches
come from the loopback simulator; what was searched is what the simulated Brave was sent.
"""

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from langchain_core.tools import create_retriever_tool
from pydantic import ValidationError

from langchain_websearch import WebSearchRetriever
from llamaindex_websearch import WebSearchRetriever as LlamaRetriever
from websearch_core import WebSearch
from websearch_core.testing import Simulator

Retrieve = Callable[[Simulator, str], Awaitable[object]]


@pytest.fixture
async def sim() -> AsyncIterator[Simulator]:
    async with Simulator(["brave"]) as simulator:
        yield simulator


def _options(sim: Simulator) -> dict[str, Any]:
    return {"settings": sim.settings(cache=False), "api_keys": sim.api_keys()}


async def _langchain(sim: Simulator, query: str) -> object:
    return await WebSearchRetriever(**_options(sim)).ainvoke(query)


def _langchain_sync(sim: Simulator, query: str) -> object:
    return WebSearchRetriever(**_options(sim)).invoke(query)


async def _wrapper_tool(sim: Simulator, query: str) -> object:
    tool = create_retriever_tool(WebSearchRetriever(**_options(sim)), "web", "Searches.")
    return await tool.ainvoke({"query": query})


async def _llamaindex(sim: Simulator, query: str) -> object:
    return await LlamaRetriever(**_options(sim)).aretrieve(query)


_RETRIEVERS: dict[str, Retrieve] = {
    "langchain": _langchain,
    "wrapper_tool": _wrapper_tool,
    "llamaindex": _llamaindex,
}


async def _searched(sim: Simulator, query: str) -> str:
    """What the client itself sends the engine for ``query``."""
    async with WebSearch(**_options(sim)) as client:
        await client.search(query)
    return sim["brave"].requests.pop().query_dict()["q"]


@pytest.mark.parametrize("retriever", _RETRIEVERS)
@pytest.mark.parametrize("written", ['{"query": "rust async"}', ' {"query":"rust async"}\n'])
async def test_a_query_written_as_one_json_object_searches_its_text(
    sim: Simulator, retriever: str, written: str
) -> None:
    expected = await _searched(sim, "rust async")
    found = await _RETRIEVERS[retriever](sim, written)
    assert found  # the documents (or the tool's text) of the simulated results
    (request,) = sim["brave"].requests
    assert request.query_dict()["q"] == expected == "rust async"


def test_the_sync_retriever_reads_it_too() -> None:
    with Simulator(["brave"]).running_in_thread() as sim:
        _langchain_sync(sim, '{"query": "rust async"}')
        assert [request.query_dict()["q"] for request in sim["brave"].requests] == ["rust async"]


@pytest.mark.parametrize("retriever", ["langchain", "llamaindex"])
@pytest.mark.parametrize(
    ("written", "named"),
    [
        ('{"query": "rust", "limit": 3}', "'limit'"),
        ('{"query": "rust", "k": 3, "x": 1}', "'k', 'x'"),
    ],
)
async def test_an_object_holding_more_than_the_query_is_refused_naming_it(
    sim: Simulator, retriever: str, written: str, named: str
) -> None:
    with pytest.raises(ValidationError) as caught:
        await _RETRIEVERS[retriever](sim, written)
    (error,) = caught.value.errors()
    assert error["loc"] == ("query",)
    assert error["msg"].startswith(f"query is one JSON object holding {named} beside the query")
    assert "send the search text alone" in error["msg"]
    assert caught.value.title == "WebSearchRetriever"
    assert not sim["brave"].requests


@pytest.mark.parametrize("retriever", _RETRIEVERS)
@pytest.mark.parametrize(
    "written",
    [
        'rust {"query": "x"} json',
        '{"q": "rust"}',
        '{"query": "rust"',
        "rust {} syntax",
        '{"query": 5}',
    ],
)
async def test_a_query_that_only_holds_braces_is_searched_as_typed(
    sim: Simulator, retriever: str, written: str
) -> None:
    """A guard: braces in a query, an object without ``query``, broken JSON, as before."""
    expected = await _searched(sim, written)
    await _RETRIEVERS[retriever](sim, written)
    (request,) = sim["brave"].requests
    assert request.query_dict()["q"] == expected
