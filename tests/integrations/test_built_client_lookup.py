"""A call whose client is built already works out no first call's build bound.

Every call built the :class:`~websearch_core.build_deadline.BuildBound` that only a first
call's build reads (the config file's deadlines, worked out from the call's options) and
handed it to a lookup that took a lock: the retrievers and the fetch tools on a loop, and
every adapter's synchronous path. A call after the first now reaches the built client
without it, and answers as the first did. The search tools' loop path is tested beside them
(``test_a_call_on_a_loop_with_its_client_works_out_no_build_bound``).
"""

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
import pytest_asyncio
from llama_index.core.schema import NodeWithScore

import langchain_websearch
import llamaindex_websearch
from llamaindex_websearch import fetch_tool as llamaindex_fetch_module
from llamaindex_websearch import tool as llamaindex_tool_module
from tests.content._server import PageServer, serve, serve_in_thread
from tests.integrations._helpers import sim_settings
from websearch_core import client_options
from websearch_core.testing import Simulator

_PAGE = (
    "<html><head><title>Lookup page</title></head><body><article><h1>Lookup page</h1>"
    + "<p>"
    + "A page with enough words in its paragraph to be kept as the article text. " * 6
    + "</p></article></body></html>"
)


@pytest.fixture
def bounds(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The module of each build bound made, by any adapter (the args hold the keys)."""
    made: list[str] = []
    for module in (client_options, llamaindex_tool_module, llamaindex_fetch_module):
        real = module.BuildBound

        def counting(
            *args: Any, _real: Any = real, _name: str = module.__name__, **kwargs: Any
        ) -> Any:
            made.append(_name)
            return _real(*args, **kwargs)

        monkeypatch.setattr(module, "BuildBound", counting)
    return made


@pytest_asyncio.fixture
async def server() -> AsyncIterator[PageServer]:
    async for running in serve():
        running.page("/a", _PAGE)
        yield running


@pytest.fixture
def server_in_thread() -> Iterator[str]:
    yield from serve_in_thread({"/a": _PAGE})


def _texts(nodes: list[NodeWithScore]) -> list[str]:
    return [node.node.get_content() for node in nodes]


# --- on a loop -----------------------------------------------------------------------------


async def test_a_langchain_retriever_call_on_a_loop_with_its_client_works_out_no_build_bound(
    sim: Simulator, bounds: list[str]
) -> None:
    retriever = langchain_websearch.WebSearchRetriever(
        settings=sim_settings(sim), api_keys=sim.api_keys(), k=2
    )
    first = await retriever.ainvoke("rust")
    second = await retriever.ainvoke("rust")
    await retriever.aclose()
    assert [doc.page_content for doc in first] == [
        "Snippet 1 about rust.",
        "Snippet 2 about rust.",
    ]
    assert second == first
    assert len(bounds) == 1


async def test_a_llamaindex_retriever_call_on_a_loop_with_its_client_works_out_no_build_bound(
    sim: Simulator, bounds: list[str]
) -> None:
    retriever = llamaindex_websearch.WebSearchRetriever(
        settings=sim_settings(sim), api_keys=sim.api_keys(), k=2
    )
    first = await retriever.aretrieve("rust")
    second = await retriever.aretrieve("rust")
    await retriever.aclose()
    assert len(first) == 2 and "Snippet 1 about rust." in _texts(first)[0]
    assert _texts(second) == _texts(first)
    assert len(bounds) == 1


async def test_a_langchain_fetch_on_a_loop_with_its_client_works_out_no_build_bound(
    server: PageServer, bounds: list[str]
) -> None:
    async with langchain_websearch.WebFetchTool(allow_private_addresses=True) as tool:
        first = await tool.ainvoke({"url": server.url("/a")})
        second = await tool.ainvoke({"url": server.url("/a")})
    assert "Title: Lookup page" in str(first)
    assert "Title: Lookup page" in str(second)
    assert len(bounds) == 1


async def test_a_llamaindex_fetch_on_a_loop_with_its_client_works_out_no_build_bound(
    server: PageServer, bounds: list[str]
) -> None:
    async with llamaindex_websearch.create_web_fetch_tool(allow_private_addresses=True) as tool:
        first = await tool.acall(url=server.url("/a"))
        second = await tool.acall(url=server.url("/a"))
    assert not first.is_error and not second.is_error
    assert "Title: Lookup page" in first.content and "Title: Lookup page" in second.content
    assert len(bounds) == 1


# --- synchronous ---------------------------------------------------------------------------


def test_a_langchain_tool_sync_call_with_its_client_works_out_no_build_bound(
    threaded_sim: Simulator, bounds: list[str]
) -> None:
    tool = langchain_websearch.WebSearchTool(
        settings=sim_settings(threaded_sim), api_keys=threaded_sim.api_keys()
    )
    first = tool.invoke({"query": "rust"})
    second = tool.invoke({"query": "rust"})
    assert first.startswith("[1] rust result 1")
    assert second == first
    assert len(bounds) == 1


def test_a_llamaindex_tool_sync_call_with_its_client_works_out_no_build_bound(
    threaded_sim: Simulator, bounds: list[str]
) -> None:
    tool = llamaindex_websearch.create_web_search_tool(
        settings=sim_settings(threaded_sim), api_keys=threaded_sim.api_keys()
    )
    first = tool.call(query="rust")
    second = tool.call(query="rust")
    assert str(first.content).startswith("[1] rust result 1")
    assert second.content == first.content and not second.is_error
    assert len(bounds) == 1


def test_a_langchain_retriever_sync_call_with_its_client_works_out_no_build_bound(
    threaded_sim: Simulator, bounds: list[str]
) -> None:
    retriever = langchain_websearch.WebSearchRetriever(
        settings=sim_settings(threaded_sim), api_keys=threaded_sim.api_keys(), k=2
    )
    first = retriever.invoke("rust")
    second = retriever.invoke("rust")
    assert [doc.page_content for doc in first] == [
        "Snippet 1 about rust.",
        "Snippet 2 about rust.",
    ]
    assert second == first
    assert len(bounds) == 1


def test_a_llamaindex_retriever_sync_call_with_its_client_works_out_no_build_bound(
    threaded_sim: Simulator, bounds: list[str]
) -> None:
    retriever = llamaindex_websearch.WebSearchRetriever(
        settings=sim_settings(threaded_sim), api_keys=threaded_sim.api_keys(), k=2
    )
    first = retriever.retrieve("rust")
    second = retriever.retrieve("rust")
    assert len(first) == 2 and "Snippet 1 about rust." in _texts(first)[0]
    assert _texts(second) == _texts(first)
    assert len(bounds) == 1


def test_a_langchain_fetch_sync_call_with_its_client_works_out_no_build_bound(
    server_in_thread: str, bounds: list[str]
) -> None:
    tool = langchain_websearch.WebFetchTool(allow_private_addresses=True)
    first = tool.invoke({"url": f"{server_in_thread}/a"})
    second = tool.invoke({"url": f"{server_in_thread}/a"})
    assert "Title: Lookup page" in str(first) and "Title: Lookup page" in str(second)
    assert len(bounds) == 1


def test_a_llamaindex_fetch_sync_call_with_its_client_works_out_no_build_bound(
    server_in_thread: str, bounds: list[str]
) -> None:
    tool = llamaindex_websearch.create_web_fetch_tool(allow_private_addresses=True)
    first = tool.call(url=f"{server_in_thread}/a")
    second = tool.call(url=f"{server_in_thread}/a")
    assert not first.is_error and not second.is_error
    assert "Title: Lookup page" in first.content and "Title: Lookup page" in second.content
    assert len(bounds) == 1
