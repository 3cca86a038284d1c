"""A call whose client is built already works out no first call's build bound.

Every call built the :class:`~websearch_core.build_deadline.BuildBound` that only a first
call's build reads (the config file's deadlines, worked out from the call's options) and
handed it to a lookup that took a lock: here the retrievers and the fetch tools on a loop.
A call after the first now reaches the built client without it, and answers as the first
did. The search tools' loop path is tested beside them
(``test_a_call_on_a_loop_with_its_client_works_out_no_build_bound``).
"""

from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from llama_index.core.schema import NodeWithScore

import langchain_websearch
import llamaindex_websearch
from llamaindex_websearch import fetch_tool as llamaindex_fetch_module
from llamaindex_websearch import tool as llamaindex_tool_module
from tests.content._server import PageServer, serve
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
def bounds(monkeypatch: pytest.MonkeyPatch) -> list[tuple[object, ...]]:
    """Each build bound made, by any adapter (the modules that make them)."""
    made: list[tuple[object, ...]] = []
    for module in (client_options, llamaindex_tool_module, llamaindex_fetch_module):
        real = module.BuildBound

        def counting(*args: Any, _real: Any = real, **kwargs: Any) -> Any:
            made.append(args)
            return _real(*args, **kwargs)

        monkeypatch.setattr(module, "BuildBound", counting)
    return made


@pytest_asyncio.fixture
async def server() -> AsyncIterator[PageServer]:
    async for running in serve():
        running.page("/a", _PAGE)
        yield running


def _texts(nodes: list[NodeWithScore]) -> list[str]:
    return [node.node.get_content() for node in nodes]


# --- on a loop --------------------------------------------------------------------------------


async def test_a_langchain_retriever_call_on_a_loop_with_its_client_works_out_no_build_bound(
    sim: Simulator, bounds: list[tuple[object, ...]]
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
    sim: Simulator, bounds: list[tuple[object, ...]]
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
    server: PageServer, bounds: list[tuple[object, ...]]
) -> None:
    async with langchain_websearch.WebFetchTool(allow_private_addresses=True) as tool:
        first = await tool.ainvoke({"url": server.url("/a")})
        second = await tool.ainvoke({"url": server.url("/a")})
    assert "Title: Lookup page" in str(first)
    assert "Title: Lookup page" in str(second)
    assert len(bounds) == 1


async def test_a_llamaindex_fetch_on_a_loop_with_its_client_works_out_no_build_bound(
    server: PageServer, bounds: list[tuple[object, ...]]
) -> None:
    async with llamaindex_websearch.create_web_fetch_tool(allow_private_addresses=True) as tool:
        first = await tool.acall(url=server.url("/a"))
        second = await tool.acall(url=server.url("/a"))
    assert not first.is_error and not second.is_error
    assert "Title: Lookup page" in first.content and "Title: Lookup page" in second.content
    assert len(bounds) == 1
