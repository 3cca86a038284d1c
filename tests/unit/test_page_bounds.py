"""A page a provider sends with a result, and its notes, cannot fill ``--json`` or the cache.

Stop 52 bounded every other field of a response (``test_response_bounds``). The page text
Tavily (``raw_content``), Exa (``text``), Firecrawl (``markdown``) and Jina (``content``)
may send with a result stayed whole, twice (as the page's text and its Markdown): an 11 MB
field made 22 MB of JSON and of cache row. It is now held to the fetch path's rule for a
page, 10 MiB (a fetched body's cap), masked first, the cut said. A response's notes
(SearXNG sends up to 200 engines' reasons) are held to 20, the last saying how many more
there were. These searches serve a real capture from ``../shared/fixtures`` through the
loopback simulator with one field grown, and read the details, the command's JSON and the
row the cache stored.
"""

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import pytest

from tests.conftest import read_capture
from tests.unit._served_bodies import Served, serve_body
from websearch_core.redaction import MASK
from websearch_core.utf16_text import utf16_len

PAGE_LIMIT: Final = 10 * 1024 * 1024
"""The fetch path's cap on a page's body, as the README gives it (10 MiB)."""
PAGE_MARK: Final = "…\n\n[Page text cut: longer than 10,485,760 characters.]"
OVER: Final = 11_000_000
"""A page field past the cap (the provider's body cap raised to let it through)."""
RESPONSE_CAP: Final = 64 << 20
MAX_NOTES: Final = 20
SHORT: Final = 300_000
"""Room for everything in a response but its page: a capture's other fields, and JSON."""

Body = dict[str, Any]
Edit = Callable[[Body, str], None]


def _tavily(body: Body, text: str) -> None:
    body["results"][0]["raw_content"] = text


def _exa(body: Body, text: str) -> None:
    body["results"][0]["text"] = text


def _firecrawl(body: Body, text: str) -> None:
    body["data"]["web"][0]["markdown"] = text


def _jina(body: Body, text: str) -> None:
    body["data"][0]["content"] = text


PAGES: Final[dict[str, tuple[str, Edit]]] = {
    "tavily": ("tavily/search_basic_pydantic_ai.json", _tavily),
    "exa": ("exa/search_doc_example_latest_llm_research.json", _exa),
    "firecrawl": ("firecrawl/v2_search_firecrawl_with_markdown.json", _firecrawl),
    "jina": ("jina/s_jina_ai_search_doc_example.json", _jina),
}
"""Each provider that sends a page: its real capture and where the page goes in it."""
SEARXNG: Final = "searxng/search_format_json_espresso_2026.json"


async def _search(
    provider: str, body: Body, state: Path | None = None, key_in: bool = False
) -> Served:
    """Search ``provider`` answering ``body`` (as JSON) through the loopback simulator.

    Args:
        provider: The provider searched.
        body: Its 200 body.
        state: A directory for a SQLite store (the cache on); ``None``: no cache.
        key_in: Write the call's key where the body says ``{key}`` (known once served).
    """

    def body_for(key: str) -> tuple[str, str]:
        served = json.dumps(body, ensure_ascii=False)
        return served.replace("{key}", key) if key_in else served, "application/json"

    return await serve_body(provider, body_for, state, max_response_bytes=RESPONSE_CAP)


def _page_body(provider: str, text: str) -> Body:
    """``provider``'s real capture with its first result's page set to ``text``."""
    relative, edit = PAGES[provider]
    body: Body = json.loads(read_capture(relative))
    edit(body, text)
    return body


def _first_page(served: Served) -> tuple[str, str]:
    """The first source's page text and Markdown."""
    page = served.result.response.sources[0].content
    assert page is not None
    return page.text, page.markdown


@pytest.mark.parametrize("provider", sorted(PAGES))
async def test_a_page_past_the_fetch_cap_is_cut_and_the_cut_is_said(
    provider: str, tmp_path: Path
) -> None:
    served = await _search(provider, _page_body(provider, "M" * OVER), tmp_path)
    text, markdown = _first_page(served)
    assert text == markdown
    assert utf16_len(text) == PAGE_LIMIT
    assert text.endswith(f"M{PAGE_MARK}")
    # Text and Markdown are each in the JSON and the cache: 22 MB each before.
    assert len(served.json) < 2 * PAGE_LIMIT + SHORT
    assert served.cache_rows and max(served.cache_rows) < 2 * PAGE_LIMIT + SHORT


async def test_a_page_at_the_cap_is_kept_whole() -> None:
    """A guard: a page of exactly the cap is not touched (passes before and after)."""
    page = "A" * (PAGE_LIMIT - 2) + "😀"
    served = await _search("tavily", _page_body("tavily", page))
    assert _first_page(served) == (page, page)


async def test_the_page_cut_counts_utf16_units() -> None:
    served = await _search("jina", _page_body("jina", "😀" * (OVER // 2)))
    text, _ = _first_page(served)
    assert text.endswith(PAGE_MARK)
    assert utf16_len(text) <= PAGE_LIMIT
    assert text.removesuffix(PAGE_MARK).strip("😀") == ""


async def test_a_key_across_the_page_s_cut_is_masked_whole() -> None:
    head = PAGE_LIMIT - utf16_len(PAGE_MARK) - 5
    body = _page_body("exa", "a" * head + "{key}" + "M" * 1000)
    served = await _search("exa", body, key_in=True)
    text, _ = _first_page(served)
    assert text.endswith(PAGE_MARK)
    assert text.startswith("a" * head + MASK + "M")  # masked whole, then cut
    assert served.key[:4] not in text


async def test_the_real_firecrawl_pages_stay_whole() -> None:
    """A guard: the captured Markdown pages (up to 40,511 characters) pass unchanged."""
    body: Body = json.loads(read_capture(PAGES["firecrawl"][0]))
    web = body["data"]["web"]
    sent = {item["url"]: item["markdown"].strip() for item in web if item.get("markdown")}
    served = await _search("firecrawl", body)
    kept = {
        source.url: source.content.markdown
        for source in served.result.response.sources
        if source.content is not None
    }
    assert len(kept) == len(sent) == 3
    assert all(kept[url] == sent[url] for url in kept)


def _engines(count: int) -> Body:
    body: Body = json.loads(read_capture(SEARXNG))
    body["unresponsive_engines"] = [[f"engine{n}", "R" * 900] for n in range(count)]
    return body


async def test_two_hundred_engine_notes_are_twenty_the_last_counting_the_rest() -> None:
    served = await _search("searxng", _engines(200))
    notes = served.result.response.notes
    assert len(notes) == MAX_NOTES
    assert notes[-1] == "181 more notes were left out."
    assert notes[0].startswith("SearXNG engine did not answer: engine0: RRR")
    assert notes[MAX_NOTES - 2].startswith("SearXNG engine did not answer: engine18: ")
    assert len(served.json) < MAX_NOTES * 1_000 + 20_000  # 200 notes made 190,000 and more


async def test_twenty_notes_are_kept_as_sent() -> None:
    """A guard: notes up to the bound are all kept, none counted (passes before and after)."""
    served = await _search("searxng", _engines(MAX_NOTES))
    notes = served.result.response.notes
    assert [note.split(": ")[1] for note in notes] == [f"engine{n}" for n in range(MAX_NOTES)]


def test_the_page_bound_is_the_fetch_s_body_cap() -> None:
    """The two rules for one kind of text stay one number."""
    from websearch_core.content.fetch import DEFAULT_MAX_PAGE_BYTES
    from websearch_core.sanitize import PAGE_TEXT_LIMIT

    assert PAGE_TEXT_LIMIT == DEFAULT_MAX_PAGE_BYTES == PAGE_LIMIT
