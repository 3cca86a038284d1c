"""Every tool, spec and retriever can be copied, and a copy opens its own session.

LangChain and LangGraph deep-copy tools (binding them, keeping them in graph state) and
``model_copy(update=...)`` derives a variant; a copy used to fail on the client set's lock
(``cannot pickle '_thread.lock' object``) or, shallow, to search through the original's
session. The rule (``websearch_core.tool_copies``): a copy shares the configuration and a
given client, opens its own session when first used, and closing one leaves the other's
session open.
"""

import copy
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

import langchain_websearch as lc
import llamaindex_websearch as li
from tests.content._server import PageServer, serve
from tests.integrations._helpers import sim_settings
from websearch_core import WebSearch
from websearch_core.testing import Simulator

_ARTICLE = (
    "<html><head><title>Copied</title></head><body><article><h1>Copied</h1><p>"
    + "Copied tools fetch this page with enough words in a paragraph to keep it. " * 6
    + "</p></article></body></html>"
)

Succeeds = Callable[[Any], Awaitable[bool]]
"""One call through an adapter object that needs its HTTP session; whether it succeeded."""


@pytest_asyncio.fixture
async def pages() -> AsyncIterator[PageServer]:
    async for running in serve():
        running.page("/a", _ARTICLE)
        yield running


def _subjects(sim: Simulator, pages: PageServer) -> dict[str, tuple[Callable[[], Any], Succeeds]]:
    """Each adapter object we ship: how to build it and one call that must succeed."""
    options: dict[str, Any] = {"settings": sim_settings(sim), "api_keys": sim.api_keys()}
    url = pages.url("/a")

    async def lc_tool(tool: Any) -> bool:
        return str(await tool.ainvoke({"query": "python"})).startswith("[1] python result 1")

    async def lc_fetch(tool: Any) -> bool:
        return "Copied tools fetch" in str(await tool.ainvoke({"url": url}))

    async def lc_retriever(retriever: Any) -> bool:
        return len(await retriever.ainvoke("python")) == 5

    async def li_tool(tool: Any) -> bool:
        output = await tool.acall(query="python")
        return not output.is_error and output.content.startswith("[1] python result 1")

    async def li_spec(spec: Any) -> bool:
        return not (await spec.aweb_search("python")).is_error

    async def li_fetch(tool: Any) -> bool:
        output = await tool.acall(url=url)
        return not output.is_error and "Copied tools fetch" in output.content

    async def li_retriever(retriever: Any) -> bool:
        return len(await retriever.aretrieve("python")) == 5

    return {
        "langchain tool": (lambda: lc.WebSearchTool(**options), lc_tool),
        "langchain fetch tool": (
            lambda: lc.WebFetchTool(**options, allow_private_addresses=True),
            lc_fetch,
        ),
        "langchain retriever": (lambda: lc.WebSearchRetriever(**options), lc_retriever),
        "llamaindex tool": (lambda: li.create_web_search_tool(**options), li_tool),
        "llamaindex spec tool": (
            lambda: li.WebSearchToolSpec(**options).to_tool_list()[0],
            li_tool,
        ),
        "llamaindex spec": (lambda: li.WebSearchToolSpec(**options), li_spec),
        "llamaindex fetch tool": (
            lambda: li.create_web_fetch_tool(**options, allow_private_addresses=True),
            li_fetch,
        ),
        "llamaindex retriever": (lambda: li.WebSearchRetriever(**options), li_retriever),
    }


NAMES = [
    "langchain tool",
    "langchain fetch tool",
    "langchain retriever",
    "llamaindex tool",
    "llamaindex spec tool",
    "llamaindex spec",
    "llamaindex fetch tool",
    "llamaindex retriever",
]
COPIES: dict[str, Callable[[Any], Any]] = {"copy": copy.copy, "deepcopy": copy.deepcopy}


@pytest.mark.parametrize("how", list(COPIES))
@pytest.mark.parametrize("name", NAMES)
async def test_a_copy_of_a_used_object_runs_on_its_own_session(
    name: str,
    how: str,
    sim: Simulator,
    pages: PageServer,
    sessions: list[aiohttp.ClientSession],
) -> None:
    build, succeeds = _subjects(sim, pages)[name]
    keeps_a_session = "fetch" not in name  # a page fetch opens and closes its own
    original = build()
    assert await succeeds(original)
    originals = list(sessions)

    duplicate = COPIES[how](original)
    assert await succeeds(duplicate)
    its_own = sessions[len(originals) :]
    if keeps_a_session:
        assert originals
        assert its_own, "the copy searched through the original's session"

    await original.aclose()
    assert all(session.closed for session in originals)
    if keeps_a_session:
        assert not any(session.closed for session in its_own)
    assert await succeeds(duplicate)  # closing the original left the copy working
    assert await succeeds(original)  # and the original opens a new session, as after aclose
    await original.aclose()
    await duplicate.aclose()
    assert all(session.closed for session in sessions)


@pytest.mark.parametrize("how", list(COPIES))
@pytest.mark.parametrize(
    "build",
    [
        lambda ws: lc.WebSearchTool(web_search=ws),
        lambda ws: lc.WebSearchRetriever(web_search=ws),
        lambda ws: li.create_web_search_tool(web_search=ws),
        lambda ws: li.WebSearchRetriever(web_search=ws),
    ],
    ids=["langchain tool", "langchain retriever", "llamaindex tool", "llamaindex retriever"],
)
async def test_copies_share_a_given_client_and_leave_it_open(
    build: Callable[[WebSearch], Any],
    how: str,
    sim: Simulator,
    sessions: list[aiohttp.ClientSession],
) -> None:
    async with WebSearch(sim_settings(sim), api_keys=sim.api_keys()) as web_search:
        original = build(web_search)
        duplicate = COPIES[how](original)
        for adapter, query in ((original, "python"), (duplicate, "rust")):
            if isinstance(adapter, li.WebSearchFunctionTool):
                assert not (await adapter.acall(query=query)).is_error
            elif isinstance(adapter, lc.WebSearchTool):
                await adapter.ainvoke({"query": query})
            elif isinstance(adapter, lc.WebSearchRetriever):
                await adapter.ainvoke(query)
            else:
                await adapter.aretrieve(query)
        await duplicate.aclose()
        assert len(sessions) == 1  # the given client's, used by both
        assert not sessions[0].closed
        assert (await web_search.run("go")).error is None
        assert len(sim["brave"].requests) == 3


@pytest.mark.parametrize(
    "cls", [lc.WebSearchTool, lc.WebSearchRetriever], ids=["tool", "retriever"]
)
async def test_model_copy_with_other_options_searches_with_them(
    cls: type[Any], sim: Simulator
) -> None:
    # The copy must build its own client from its options, not reuse the original's.
    original = cls(settings=sim_settings(sim), api_keys=sim.api_keys())
    if cls is lc.WebSearchTool:
        await original.ainvoke({"query": "python"})
    else:
        await original.ainvoke("python")
    derived = original.model_copy(update={"provider": "duckduckgo"})
    if cls is lc.WebSearchTool:
        await derived.ainvoke({"query": "python"})
    else:
        await derived.ainvoke("python")
    assert len(sim["brave"].requests) == 1
    assert len(sim["duckduckgo"].requests) == 1
    await original.aclose()
    await derived.aclose()


def test_deep_copies_search_from_synchronous_code(threaded_sim: Simulator) -> None:
    # LangGraph deep-copies tools held in a graph's state, and then calls them from sync code.
    options: dict[str, Any] = {
        "settings": sim_settings(threaded_sim),
        "api_keys": threaded_sim.api_keys(),
    }
    langchain = lc.WebSearchTool(**options)
    llamaindex = li.create_web_search_tool(**options)
    assert langchain.invoke({"query": "python"}).startswith("[1] python result 1")
    assert not llamaindex.call(query="python").is_error
    copies = copy.deepcopy({"tools": [langchain, llamaindex]})
    assert copies["tools"][0].invoke({"query": "rust"}).startswith("[1] rust result 1")
    assert not copies["tools"][1].call(query="rust").is_error
    assert len(threaded_sim["brave"].requests) == 4
