"""A process's first page fetch through an entered adapter ends by its deadline.

A fetch imports the page fetcher and its parsers (the extractors, pypdf: 0.5-1.2 s on a
loaded machine) before its deadline begins, so the deadline holds but the call overran it
by the import. Entering a search client or tool imported the chain only: a fetch tool's
first fetch, and the first search of a retriever that fetches its results' pages
(``include_content=True``), still waited for the fetcher's import. Entering them now imports
it too, off the loop. A fresh interpreter, where nothing is imported yet, makes that import
take 0.5 s (as a loaded machine does); the page's server accepts and never answers.

The test checks the order, not a margin: the fetcher's import was done when the call began,
and the call ended on its deadline's cut, well before the page's 60 s hang. It timed the
call against the deadline plus the store's grace (0.25 s), a margin a loaded machine eats
(the first search tool's twin took 1.96 s against 1.75 s at load 5, stop 45).
"""

import textwrap

import pytest

from tests.loop_imports import SLOW_FETCH_IMPORT, frameworks_of, run_watched

_DEADLINE_SECONDS = 1.5
_HANG_SECONDS = 60

_SCRIPT = SLOW_FETCH_IMPORT + textwrap.dedent(
    """
    import asyncio, json, os, time

    os.environ["WEBSEARCH_FETCH_ALLOW_PRIVATE"] = "1"  # a retriever's pages, on loopback

    from websearch_core.testing import SimResult, Simulator

    began = {}

    def begin():
        # Just before the call: was the fetcher's import done by then, and when it started.
        began["imported_first"] = SLOWED in sys.modules
        began["at"] = time.monotonic()

    async def first_call(settings, api_keys, url):
        if ADAPTER == "langchain fetch tool":
            from langchain_websearch import WebFetchTool

            tool = WebFetchTool(settings=settings, allow_private_addresses=True)
            async with tool:
                begin()
                text = await tool.ainvoke({"url": url})
                return time.monotonic() - began["at"], text
        if ADAPTER == "llamaindex fetch tool":
            from llamaindex_websearch import create_web_fetch_tool

            tool = create_web_fetch_tool(settings=settings, allow_private_addresses=True)
            async with tool:
                begin()
                output = await tool.acall(url=url)
                return time.monotonic() - began["at"], output.content
        if ADAPTER == "langchain retriever":
            from langchain_websearch import WebSearchRetriever

            retriever = WebSearchRetriever(
                settings=settings, api_keys=api_keys, k=1, include_content=True
            )
            async with retriever:
                begin()
                (document,) = await retriever.ainvoke("python asyncio")
                return time.monotonic() - began["at"], document.metadata["content"]
        from llamaindex_websearch import WebSearchRetriever

        retriever = WebSearchRetriever(
            settings=settings, api_keys=api_keys, k=1, include_content=True
        )
        async with retriever:
            begin()
            (node,) = await retriever.aretrieve("python asyncio")
            return time.monotonic() - began["at"], node.metadata["content"]

    async def hold(reader, writer):
        await asyncio.sleep(HANG)  # accepts the page's request and never answers it

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
        return {"took": took, "said": said, "imported_first": began["imported_first"]}

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
    found = run_watched(
        _SCRIPT,
        DEADLINE=_DEADLINE_SECONDS,
        HANG=_HANG_SECONDS,
        preload_imports_of=frameworks_of(adapter),
        ADAPTER=adapter,
    )
    said, took = found["said"], found["took"]
    assert found["imported_first"] is True, found  # entering paid for it, not the call
    assert isinstance(said, str) and says in said, found
    assert isinstance(took, float) and took < _HANG_SECONDS / 2, found  # cut, not waited out
