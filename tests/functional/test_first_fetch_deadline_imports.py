"""A process's first page fetch imports its parsers before its deadline starts, not within it.

The HTML extractors (readability-lxml, trafilatura and what they import) were imported by
the first page's extraction, on a worker thread but inside the fetch's deadline: 0.5-1.2 s
of a 4 s fetch on a loaded machine, and a loopback page behind a locked state file failed
with "no content within the 4 s deadline". A first PDF paid the same way for pypdf. Both
are now imported with the rest of the fetcher, before the deadline starts. A fresh
interpreter, where nothing is imported yet, records every module imported on any thread
once the page's server has been asked: what the page's own time paid for.

The PDF is written here, in the test's process, so that the fresh interpreter has not
imported pypdf before its fetch.
"""

import textwrap

import pytest

from tests.content._pdf import text_pdf
from tests.loop_imports import run_watched

_SCRIPT = textwrap.dedent(
    """
    import asyncio, json
    from websearch_core import WebSearch

    def asked():
        global watching
        watching = True

    async def main():
        global watching
        runner, url = await serve_page(BODY, CONTENT_TYPE, on_request=asked)
        async with WebSearch(state_backend="memory") as ws:
            answer = (await ws.fetch(url, allow_private_addresses=True)).title
            watching = False
        await runner.cleanup()
        return answer

    answer = asyncio.run(main())
    print(json.dumps({"answer": answer, "after_asked": while_watching}))
    """
)

_HTML = (
    "<html><head><title>T</title></head><body><main><h1>Notes</h1>"
    + "<p>A paragraph long enough to be the page's main text, read as such.</p>" * 9
    + "</main></body></html>"
).encode()

_PARSERS = ("websearch_core", "lxml", "readability", "trafilatura", "justext", "htmldate", "pypdf")
"""The fetcher's own modules, the extractors' packages (and theirs that weigh most), pypdf."""


@pytest.mark.parametrize(
    ("body", "content_type", "title"),
    [
        pytest.param(_HTML, "text/html", "T", id="html"),
        pytest.param(
            text_pdf(["Quarterly report.", "Revenue grew."], title="Report", author="Ann Lee"),
            "application/pdf",
            "Report",
            id="pdf",
        ),
    ],
)
def test_the_first_fetch_imports_its_parsers_before_the_page_is_asked(
    body: bytes, content_type: str, title: str
) -> None:
    found = run_watched(_SCRIPT, BODY=body, CONTENT_TYPE=content_type)
    assert found["answer"] == title
    after_asked = found["after_asked"]
    assert isinstance(after_asked, list)
    assert [name for name in after_asked if name.split(".")[0] in _PARSERS] == []
