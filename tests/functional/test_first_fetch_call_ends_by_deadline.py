"""A process's first page fetch through an entered adapter ends by its deadline.

A fetch imports the page fetcher and its parsers (the extractors, pypdf: 0.5-1.2 s on a
loaded machine) before its deadline begins, so the deadline holds but the call overran it
by the import. Entering a search client or tool imported the chain only: a fetch tool's
first fetch, and the first search of a retriever that fetches its results' pages
(``include_content=True``), still waited for the fetcher's import. Entering them now imports
it too, off the loop. A fresh interpreter, where nothing is imported yet, makes that import
take 0.5 s (as a loaded machine does); the page's server accepts and never answers, and the
call is timed from a clock read just before it, against its deadline plus the store's grace
the README allows a call past it.
"""

import textwrap

import pytest

from tests.loop_imports import SLOW_FETCH_IMPORT, run_watched
from websearch_core.deadline import STORE_GRACE_SECONDS

_DEADLINE_SECONDS = 1.5

_SCRIPT = SLOW_FETCH_IMPORT + textwrap.dedent(
    """
    import asyncio, json, os, time

    os.environ["WEBSEARCH_FETCH_ALLOW_PRIVATE"] = "1"  # a retriever's pages, on loopback

    from websearch_core.testing import SimResult, Simulator

    async def first_call(settings, api_keys, url):
        if ADAPTER == "langchain fetch tool":
            from langchain_websearch import WebFetchTool

            tool = WebFetchTool(settings=settings, allow_private_addresses=True)
            async with tool:
                started = time.monotonic()
                text = await tool.ainvoke({"url": url})
                return time.monotonic() - started, text
        if ADAPTER == "llamaindex fetch tool":
            from llamaindex_websearch import create_web_fetch_tool

            tool = create_web_fetch_tool(settings=settings, allow_private_addresses=True)
            async with tool:
                started = time.monotonic()
                output = await tool.acall(url=url)
                return time.monotonic() - started, output.content
        if ADAPTER == "langchain retriever":
            from langchain_websearch import WebSearchRetriever

            retriever = WebSearchRetriever(
                settings=settings, api_keys=api_keys, k=1, include_content=True
            )
            async with retriever:
                started = time.monotonic()
                (document,) = await retriever.ainvoke("python asyncio")
                return time.monotonic() - started, document.metadata["content"]
        from llamaindex_websearch import WebSearchRetriever

        retriever = WebSearchRetriever(
            settings=settings, api_keys=api_keys, k=1, include_content=True
        )
        async with retriever:
            started = time.monotonic()
            (node,) = await retriever.aretrieve("python asyncio")
            return time.monotonic() - started, node.metadata["content"]

    async def hold(reader, writer):
        await asyncio.sleep(60)  # accepts the page's request and never answers it

    async def main():
        server = await asyncio.start_server(hold, "127.0.0.1", 0)
        url = f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/page"
        async with Simulator(["brave"]) as sim:
            sim["brave"].results = [SimResult(title="Page", url=url, snippet="Snippet.")]
            settings = sim.settings(
                providers=("brave",), deadline_seconds=DEADLINE, timeout_seconds=DEADLINE
            )
            took, said = await first_call(settings, sim.api_keys(), url)
        server.close()
        return {"took": took, "said": said}

    print(json.dumps(asyncio.run(main())))
    """
)


@pytest.mark.parametrize(
    ("adapter", "says"),
    [
        ("langchain fetch tool", "Error: cannot fetch"),
        ("llamaindex fetch tool", "Error: cannot fetch"),
        ("langchain retriever", "snippet"),
        ("llamaindex retriever", "snippet"),
    ],
)
def test_the_first_fetch_of_an_entered_adapter_ends_by_its_deadline(
    adapter: str, says: str
) -> None:
    found = run_watched(_SCRIPT, DEADLINE=_DEADLINE_SECONDS, ADAPTER=adapter)
    said, took = found["said"], found["took"]
    assert isinstance(said, str) and says in said, found
    assert isinstance(took, float) and took <= _DEADLINE_SECONDS + STORE_GRACE_SECONDS, found
