"""A first call of a tool or retriever not entered builds its client with no import on the loop.

The tools and retrievers build their client at their first call on a loop, and lend it the
one state store: building imported the settings' checks and the state store's package (0.1-0.2
s at load 5) on the event loop, so a server's other requests waited, when the tool was used
without ``async with`` (entering imports the chain, which brings most of them). They are now
imported on a worker thread first. A fresh interpreter, where nothing is imported yet,
records the modules imported on the loop's thread while the first call runs.
"""

import textwrap

import pytest

from tests.loop_imports import frameworks_of, run_watched

_SCRIPT = textwrap.dedent(
    """
    import asyncio, json, os, threading

    os.environ["WEBSEARCH_FETCH_ALLOW_PRIVATE"] = "1"  # the page is on loopback
    from websearch_core.testing import Simulator

    PAGE = b"<html><head><title>Notes</title></head><body><p>Some text.</p></body></html>"

    def build(settings, api_keys):
        if ADAPTER == "langchain tool":
            from langchain_websearch import WebSearchTool

            tool = WebSearchTool(settings=settings, api_keys=api_keys)
            return lambda url: tool.ainvoke({"query": "python asyncio"})
        if ADAPTER == "langchain fetch tool":
            from langchain_websearch import WebFetchTool

            tool = WebFetchTool(settings=settings)
            return lambda url: tool.ainvoke({"url": url})
        if ADAPTER == "langchain retriever":
            from langchain_websearch import WebSearchRetriever

            retriever = WebSearchRetriever(settings=settings, api_keys=api_keys)
            return lambda url: retriever.ainvoke("python asyncio")
        if ADAPTER == "llamaindex tool":
            from llamaindex_websearch import create_web_search_tool

            tool = create_web_search_tool(settings=settings, api_keys=api_keys)
            return lambda url: tool.acall(query="python asyncio")
        if ADAPTER == "llamaindex fetch tool":
            from llamaindex_websearch import create_web_fetch_tool

            tool = create_web_fetch_tool(settings=settings)
            return lambda url: tool.acall(url=url)
        from llamaindex_websearch import WebSearchRetriever

        retriever = WebSearchRetriever(settings=settings, api_keys=api_keys)
        return lambda url: retriever.aretrieve("python asyncio")

    async def main():
        global loop_thread
        runner, url = await serve_page(PAGE, "text/html")
        async with Simulator(["brave"]) as sim:
            call = build(sim.settings(providers=("brave",)), sim.api_keys())
            loop_thread = threading.get_ident()
            answer = str(await call(url))
            loop_thread = None
        await runner.cleanup()
        return answer

    answer = asyncio.run(main())
    print(json.dumps({"answer": answer, "on_loop": on_loop}))
    """
)

_HEAVY = ("websearch_core", "platformdirs", "lxml", "readability", "trafilatura", "pypdf")
"""Our modules, the state directory's lookup, the fetcher's parsers: what costs the loop."""


@pytest.mark.parametrize(
    ("adapter", "says"),
    [
        ("langchain tool", "python asyncio"),
        ("langchain fetch tool", "Notes"),
        ("langchain retriever", "python asyncio"),
        ("llamaindex tool", "python asyncio"),
        ("llamaindex fetch tool", "Notes"),
        ("llamaindex retriever", "python asyncio"),
    ],
)
def test_a_first_call_not_entered_imports_nothing_of_ours_on_the_loop(
    adapter: str, says: str
) -> None:
    found = run_watched(_SCRIPT, preload_imports_of=frameworks_of(adapter), ADAPTER=adapter)
    assert isinstance(found["answer"], str) and says in found["answer"], found
    on_loop = found["on_loop"]
    assert isinstance(on_loop, list)
    assert [name for name in on_loop if name.split(".")[0] in _HEAVY] == []
