"""Pages behind search results: fetched within one deadline, rendered fenced."""

import re
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from tests.content._server import PageServer, serve
from websearch_core import WebSearch
from websearch_core.content import FetchFailedError
from websearch_core.content.enrich import content_text, fetch_source_pages
from websearch_core.models import SearchSource

_BODY = "Result pages hold the details a snippet leaves out, in full sentences here. " * 6


@pytest_asyncio.fixture
async def server(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[PageServer]:
    monkeypatch.setenv("WEBSEARCH_FETCH_ALLOW_PRIVATE", "1")  # the pages are on loopback
    async for running in serve():
        for name in ("a", "b", "c"):
            running.page(
                f"/{name}",
                f"<html><head><title>Page {name}</title></head><body><article>"
                f"<h1>Page {name}</h1><p>{_BODY}</p></article></body></html>",
            )
        yield running


async def test_top_results_are_fetched_in_order(server: PageServer) -> None:
    sources = [
        SearchSource(title="A", url=server.url("/a")),
        SearchSource(title="A again", url=server.url("/a")),
        SearchSource(title="Gone", url=server.url("/gone")),
        SearchSource(title="B", url=server.url("/b")),
        SearchSource(title="C", url=server.url("/c")),
    ]
    async with WebSearch(state_backend="memory") as ws:
        pages = await fetch_source_pages(ws, sources, limit=3)
    assert [p.source.title for p in pages] == ["A", "Gone", "B"]
    assert pages[0].page is not None and pages[0].page.title == "Page a"
    assert pages[1].page is None and isinstance(pages[1].error, FetchFailedError)
    assert server.hits["/c"] == 0 and server.hits["/a"] == 1

    text = content_text(pages, max_chars=300)
    lines = text.splitlines()
    assert lines[0] == "Page content of the top results:"
    assert lines[1] == "[1]"
    assert re.fullmatch(r"The text between the PAGE-[0-9a-f]{16} markers .*", lines[2])
    assert f"[2] {server.url('/gone')}: not fetched (cannot fetch {server.url('/gone')}: " in text
    assert text.count("<<<END PAGE-") == 2
    assert "[cut: " in text


async def test_nothing_to_fetch() -> None:
    async with WebSearch(state_backend="memory") as ws:
        assert await fetch_source_pages(ws, []) == []
        with pytest.raises(ValueError, match=r"limit must be 1\.\.20 pages, got 0"):
            await fetch_source_pages(ws, [], limit=0)
    assert content_text([]) == ""
