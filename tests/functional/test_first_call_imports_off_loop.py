"""A process's first provider status and first page fetch import their modules off the loop.

As a first search did before it moved its imports to a worker thread, a first
``provider_status()`` imported every provider on the event loop (0.2-0.4 s during which the
loop ran nothing else) and a first ``fetch()`` the page fetcher and its parsers (about
0.1 s). Each case runs in a fresh interpreter, where nothing is imported yet, and records the
modules imported on the loop's thread while the call runs.
"""

import textwrap

from tests.loop_imports import run_watched
from websearch_core.providers import PROVIDER_REGISTRY

_SCRIPT = textwrap.dedent(
    """
    import asyncio, json, tempfile
    from websearch_core import WebSearch

    PAGE = "<html><head><title>T</title></head><body><main><h1>Notes</h1>"
    PAGE += "<p>A paragraph long enough to be the page's main text, read as such.</p>" * 9
    PAGE += "</main></body></html>"

    async def main():
        global loop_thread
        runner, url = await serve_page(PAGE.encode(), "text/html")
        async with WebSearch(state_backend="memory", state_dir=tempfile.mkdtemp()) as ws:
            loop_thread = threading.get_ident()
            if CALL == "status":
                answer = len(await ws.provider_status())
            else:
                answer = (await ws.fetch(url, allow_private_addresses=True)).title
            loop_thread = None
        await runner.cleanup()
        return answer

    answer = asyncio.run(main())
    print(json.dumps({"answer": answer, "on_loop": on_loop}))
    """
)


def _first_call(call: str) -> dict[str, object]:
    return run_watched(_SCRIPT, CALL=call)


def _heavy(names: object) -> list[str]:
    """The imports that cost the loop: ours, lxml's, and the text codecs a fetch loads."""
    assert isinstance(names, list)
    roots = ("websearch_core", "lxml", "cssselect", "chardetng_py", "encodings")
    return [name for name in names if name.split(".")[0] in roots]


def test_the_first_provider_status_imports_the_providers_off_the_loop() -> None:
    found = _first_call("status")
    assert found["answer"] == len(PROVIDER_REGISTRY)  # every provider, the aggregate too
    assert _heavy(found["on_loop"]) == []


def test_the_first_fetch_imports_the_fetcher_and_its_parsers_off_the_loop() -> None:
    found = _first_call("fetch")
    assert found["answer"] == "T"  # the page's <title>, not its <h1> (stop 57, extract61)
    assert _heavy(found["on_loop"]) == []
