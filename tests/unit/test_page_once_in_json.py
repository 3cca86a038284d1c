"""A page whose Markdown is its text is given once in JSON: ``--json``, details, ``fetch``.

A page a provider sends with a result (Tavily's raw content, Exa's text, Firecrawl's
Markdown, Jina's content) fills both ``text`` and ``markdown`` of its ``PageContent`` with
the same string, as does a fetched PDF or plain-text document. Stop 53 (caps54) stored it
once in the cache rows, but ``websearch --json`` and a tool's details (the LangChain
artifact, LlamaIndex's raw output) printed it twice: a 2 MB page made 4 MB of JSON, up to
20 MiB for a page at the 10 MiB bound. The spec's output section names no page field (the
page is this project's addition), so it is given once: ``markdown`` is ``null`` when it is
the ``text`` (as in a cache row), every field still there; the Python objects keep both
attributes, and the JSON read back into the models gives the same string to both.

The searches serve a real capture from ``../shared/fixtures`` through the loopback
simulator with its page grown; ``fetch --json`` reads a plain-text page from a loopback
server.
"""

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Final

import pytest
from aiohttp import web

from tests.unit.test_page_bounds import _page_body, _search
from websearch_core.cli import main
from websearch_core.content.models import PageContent
from websearch_core.models import SearchResponse, SearchSource, SearchToolResult

PAGE: Final = 2_000_000
"""Characters of the page served: big enough that the rest of the JSON does not count."""
ROOM: Final = 100_000
"""Room in the JSON for everything but the page: the capture's other fields."""


async def test_a_provider_s_page_is_one_text_in_the_command_s_json() -> None:
    """Failed before: the JSON held the page twice (4,005,297 characters for 2,000,000)."""
    page = "M" * PAGE
    served = await _search("tavily", _page_body("tavily", page))
    assert len(served.json) < PAGE + ROOM
    content = json.loads(served.json)["response"]["sources"][0]["content"]
    assert content["text"] == page and content["markdown"] is None
    assert served.result.to_metadata()["response"]["sources"][0]["content"] == content


async def test_the_details_read_back_give_the_page_to_both_fields() -> None:
    """A guard (passes before and after): the JSON read back is the page, in both fields.

    A program that loads ``--json`` or the details into ``SearchResponse`` reads
    ``markdown`` as before: ``null`` is read back as the text, the same string.
    """
    page = "# Page\n\n" + "M" * 1000
    served = await _search("exa", _page_body("exa", page))
    again = SearchResponse.model_validate(served.result.to_metadata()["response"])
    content = again.sources[0].content
    assert content is not None and content.text == content.markdown == page
    assert again == served.result.response


def test_a_page_s_own_markdown_is_given_beside_its_text() -> None:
    """A guard (passes before and after): Markdown that is not the text is given as it is.

    A fetched HTML page's Markdown keeps its headings and links; its text does not.
    """
    page = PageContent(url="https://a.example/", text="A\n\nB", markdown="# A\n\nB")
    source = SearchSource(title="A", url="https://a.example/", content=page)
    result = SearchToolResult(text="A", response=SearchResponse(provider="exa", sources=(source,)))
    content = result.to_metadata()["response"]["sources"][0]["content"]
    assert (content["text"], content["markdown"]) == ("A\n\nB", "# A\n\nB")
    assert page.model_dump()["markdown"] == "# A\n\nB"  # Python's dump: both, always


@pytest.fixture
async def plain_text_url() -> AsyncIterator[str]:
    """A loopback server's plain-text page (its Markdown is its text)."""
    body = ("plain text " * (PAGE // 11)).encode()

    async def serve(_: web.Request) -> web.Response:
        return web.Response(body=body, content_type="text/plain")

    app = web.Application()
    app.router.add_get("/page.txt", serve)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    try:
        yield f"http://127.0.0.1:{runner.addresses[0][1]}/page.txt"
    finally:
        await runner.cleanup()


async def test_fetch_json_gives_a_plain_text_page_once(
    plain_text_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Failed before: ``websearch fetch --json`` printed the plain-text page twice."""
    argv = ["fetch", plain_text_url, "--json", "--allow-private", "--no-browser", "--no-cache"]
    # main runs its own event loop: in a worker thread, away from the test's.
    assert await asyncio.to_thread(main, argv) == 0
    printed = capsys.readouterr().out
    data = json.loads(printed)
    assert data["text"].startswith("plain text plain text") and data["markdown"] is None
    assert len(printed) < len(data["text"]) + ROOM
    assert PageContent.model_validate(data).markdown == data["text"]
