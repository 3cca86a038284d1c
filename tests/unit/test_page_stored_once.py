"""A page whose Markdown is its text is stored once, and read back as one string.

A page a provider sends (Tavily's raw content, Exa's text, Firecrawl's Markdown, Jina's
content) fills both ``text`` and ``markdown`` with the same string, as does a fetched PDF or
plain-text document. Held once in memory after the search, it was written twice to a cache
row (a 10 MiB page made a 20 MiB row) and read back as two strings. The rows (the result
cache's, the page cache's) now hold it once; ``--json`` and a tool's details keep both
fields, as programs read either. The searches serve a real capture from
``../shared/fixtures`` through the loopback simulator with its page grown.
"""

import json
import sqlite3
from pathlib import Path
from typing import Final

from aiohttp import web

from tests.unit.test_page_bounds import RESPONSE_CAP, _page_body, _search
from websearch_core import WebSearch
from websearch_core.cache import dump_response, load_response
from websearch_core.content.models import PageContent
from websearch_core.models import SearchResponse, SearchSource, SearchToolResult
from websearch_core.state.base import STATE_FILE_NAME
from websearch_core.testing import Fault, Simulator

PAGE: Final = 2_000_000
"""Characters of the page served: big enough that the row's other fields do not count."""
ROOM: Final = 100_000
"""Room in a row for everything but the page: the capture's other fields, the JSON."""


def _rows(state: Path) -> list[int]:
    with sqlite3.connect(state / STATE_FILE_NAME) as store:
        return [size for (size,) in store.execute("SELECT length(value) FROM cache")]


async def _searched_twice(provider: str, page: str, state: Path) -> list[SearchToolResult]:
    """Search ``provider`` serving ``page`` twice with one client and a SQLite store."""
    async with Simulator([provider]) as sim:
        served = json.dumps(_page_body(provider, page))
        sim[provider].always(Fault.http(200, served, {"Content-Type": "application/json"}))
        settings = sim.settings(
            provider=provider,
            rate_limit_wait_seconds=0,
            max_response_bytes=RESPONSE_CAP,
            state_backend="sqlite",
            state_dir=state,
        )
        async with WebSearch(settings, api_keys=sim.api_keys()) as search:
            return [await search.run("python asyncio") for _ in range(2)]


async def test_a_provider_s_page_is_one_text_in_the_cache_row(tmp_path: Path) -> None:
    page = "M" * PAGE
    served = await _search("tavily", _page_body("tavily", page), tmp_path)
    assert served.cache_rows and max(served.cache_rows) < PAGE + ROOM  # 2 x PAGE before


async def test_a_cached_page_is_read_back_as_one_string(tmp_path: Path) -> None:
    page = "M" * PAGE
    first, again = await _searched_twice("exa", page, tmp_path)
    assert again.response.cached
    content = again.response.sources[0].content
    assert content is not None
    assert content.text == content.markdown == page
    assert content.markdown is content.text  # two 2 MB strings before
    # What a program reads is as before: both fields, the same JSON as the fresh answer's.
    fresh = first.to_metadata()["response"]["sources"][0]["content"]
    kept = again.to_metadata()["response"]["sources"][0]["content"]
    assert (kept["text"], kept["markdown"]) == (fresh["text"], fresh["markdown"]) == (page, page)


def test_a_page_s_own_markdown_is_stored_beside_its_text() -> None:
    """A guard: Markdown that is not the text (a fetched HTML page's) is kept as it was."""
    page = PageContent(url="https://a.example/", text="A\n\nB", markdown="# A\n\nB")
    source = SearchSource(title="A", url="https://a.example/", content=page)
    row = dump_response(SearchResponse(provider="exa", sources=(source,)))
    assert b'"markdown":"# A\\n\\nB"' in row
    loaded = load_response(row)
    assert loaded is not None and loaded.sources[0].content == page


def test_a_row_written_with_both_fields_is_still_read() -> None:
    """A guard: a row an earlier release wrote (the text twice) reads as before."""
    page = PageContent(url="https://a.example/", text="Body", markdown="Body")
    source = SearchSource(title="A", url="https://a.example/", content=page)
    earlier = SearchResponse(provider="exa", sources=(source,)).model_dump_json().encode()
    loaded = load_response(earlier)
    assert loaded is not None and loaded.sources[0].content == page


async def test_a_plain_text_page_is_one_text_in_the_page_cache(tmp_path: Path) -> None:
    body = ("plain text " * (PAGE // 11)).encode()

    async def serve(_: web.Request) -> web.Response:
        return web.Response(body=body, content_type="text/plain")

    app = web.Application()
    app.router.add_get("/page.txt", serve)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    url = f"http://127.0.0.1:{runner.addresses[0][1]}/page.txt"
    try:
        async with WebSearch(state_backend="sqlite", state_dir=tmp_path) as search:
            fetched = await search.fetch(url, allow_private_addresses=True)
            again = await search.fetch(url, allow_private_addresses=True)
    finally:
        await runner.cleanup()
    assert fetched.markdown == fetched.text and len(fetched.text) > PAGE - ROOM
    rows = _rows(tmp_path)
    assert rows and max(rows) < len(fetched.text) + ROOM  # the text twice before
    assert again.cached and again.text == fetched.text
    assert again.markdown is again.text
