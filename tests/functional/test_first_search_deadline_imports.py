"""A process's first search imports its chain and providers before its deadline starts.

The first search imported the chain and the providers its plan asks on a worker thread, but
after its deadline had begun: 0.1-0.2 s on an idle machine and seconds on a loaded one, so
a 1 s search failed with "the 1s deadline for the whole search ran out; not tried: brave"
before Brave was asked. A fresh interpreter, where nothing is imported yet, records every
module of ours imported on any thread once the search's deadline has been made (a
``Deadline`` built by the client: watched, not replaced).
"""

import textwrap

from tests.loop_imports import WATCH_DEADLINE, run_watched

_SCRIPT = textwrap.dedent(
    """
    import asyncio, json
    from websearch_core import WebSearch
    from websearch_core.testing import Simulator

    async def main():
        global watching
        async with Simulator(["brave", "tavily"]) as sim:
            settings = sim.settings(providers=("brave", "tavily"), state_backend="memory")
            # Not entered: entering imports the chain, which the first search must then too.
            ws = WebSearch(settings, api_keys=sim.api_keys())
            try:
                answer = (await ws.search("python asyncio")).provider
                watching = False
            finally:
                await ws.aclose()
        return answer

    answer = asyncio.run(main())
    print(json.dumps({"answer": answer, "after_begun": while_watching}))
    """
)


def test_the_first_search_imports_its_chain_and_providers_before_its_deadline() -> None:
    found = run_watched(WATCH_DEADLINE + _SCRIPT)
    assert found["answer"] == "brave"
    after_begun = found["after_begun"]
    assert isinstance(after_begun, list)
    ours = [name for name in after_begun if name.split(".")[0] == "websearch_core"]
    assert not [name for name in ours if ".providers." in name or "call_setup" in name], ours


_CONTENT_SCRIPT = textwrap.dedent(
    """
    import asyncio, json, os
    from websearch_core import WebSearch
    from websearch_core.testing import SimResult, Simulator

    os.environ["WEBSEARCH_FETCH_ALLOW_PRIVATE"] = "1"  # the page is on loopback

    async def main():
        global watching
        runner, url = await serve_page(PAGE, "text/html")
        async with Simulator(["brave"]) as sim:
            sim["brave"].results = [SimResult(title="Page", url=url, snippet="Snippet.")]
            settings = sim.settings(providers=("brave",), state_backend="memory")
            ws = WebSearch(settings, api_keys=sim.api_keys())  # not entered
            try:
                response = await ws.search("python asyncio", include_content=True)
                watching = False
            finally:
                await ws.aclose()
        await runner.cleanup()
        page = response.sources[0].content
        return page.text if page else None

    answer = asyncio.run(main())
    print(json.dumps({"answer": answer, "after_begun": while_watching}))
    """
)

_PAGE = (
    "<html><head><title>T</title></head><body><main><h1>Notes</h1>"
    + "<p>A paragraph long enough to be the page's main text, read as such.</p>" * 9
    + "</main></body></html>"
).encode()

_FETCHER = ("lxml", "readability", "trafilatura", "justext", "htmldate", "pypdf")
"""The extractors' packages (and theirs that weigh most) and pypdf, besides our fetcher."""


def test_a_first_search_with_pages_imports_the_fetcher_before_its_deadline() -> None:
    """The pages share the search's deadline: importing the fetcher after it began spent it."""
    found = run_watched(WATCH_DEADLINE + _CONTENT_SCRIPT, PAGE=_PAGE)
    assert isinstance(found["answer"], str) and "long enough" in found["answer"], found
    after_begun = found["after_begun"]
    assert isinstance(after_begun, list)
    fetcher = [
        name
        for name in after_begun
        if name.split(".")[0] in _FETCHER or name.startswith("websearch_core.content.")
    ]
    assert fetcher == [], fetcher
