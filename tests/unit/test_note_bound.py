"""One bound on a response's notes, the core's own included, the count of the rest said once.

Stop 52 held a provider's notes to 20 (SearXNG may name 200 engines that did not answer),
the last saying how many more there were. The notes the core adds after it (a page
``include_content`` could not fetch, an unreadable credential store, a stale answer's age,
a request that went uncounted) came on top: 20 engines' notes and three pages made 23, and
a second count was never said. Each search here serves a real SearXNG capture from
``../shared/fixtures`` through the loopback simulator, with its unresponsive engines grown.
"""

import json
import re
from pathlib import Path
from typing import Any, Final

import pytest

from tests.conftest import read_capture
from websearch_core import WebSearch
from websearch_core.models import SearchToolResult
from websearch_core.testing import Fault, Simulator

SEARXNG: Final = "searxng/search_format_json_espresso_2026.json"
MAX_NOTES: Final = 20
COUNT: Final = re.compile(r"[0-9,]+ more notes were left out\.")
PAGES: Final = 3


def _body(engines: int, loopback_pages: int) -> dict[str, Any]:
    """The capture with ``engines`` unresponsive and its first results' pages on loopback.

    A loopback page is refused without a connection (no private address by default), so
    each one ``include_content`` asks for adds a note, offline.
    """
    body: dict[str, Any] = json.loads(read_capture(SEARXNG))
    body["unresponsive_engines"] = [[f"engine{n}", "R" * 900] for n in range(engines)]
    for n, item in enumerate(body["results"][:loopback_pages]):
        item["url"] = f"http://127.0.0.1:9/page{n}"
    return body


async def _run(
    body: dict[str, Any], also: tuple[str, ...] = (), **options: Any
) -> SearchToolResult:
    """Search SearXNG serving ``body``; ``also`` simulated beside it (not searched)."""
    async with Simulator(["searxng", *also]) as sim:
        served = json.dumps(body)
        sim["searxng"].always(Fault.http(200, served, {"Content-Type": "application/json"}))
        settings = sim.settings(provider="searxng", rate_limit_wait_seconds=0, cache=False)
        async with WebSearch(settings) as search:
            result = await search.run("python asyncio", **options)
    assert not result.text.startswith("Error:"), result.text[:300]
    return result


def _counts(notes: tuple[str, ...]) -> list[str]:
    return [note for note in notes if COUNT.fullmatch(note)]


async def test_pages_not_fetched_after_twenty_engine_notes_keep_the_bound() -> None:
    result = await _run(_body(200, PAGES), include_content=True, content_limit=PAGES)
    notes = result.response.notes
    assert len(notes) == MAX_NOTES  # 23 before: the pages' notes on top of the 20
    assert _counts(notes) == [notes[-1]] == ["184 more notes were left out."]  # 181 + 3
    pages = [note for note in notes if note.startswith("cannot fetch http://127.0.0.1:9/")]
    assert len(pages) == PAGES  # the core's own are kept; the engines' make room
    assert notes[: MAX_NOTES - 1 - PAGES] == tuple(
        note for note in notes if note.startswith("SearXNG engine did not answer: ")
    )


async def test_an_unreadable_store_after_twenty_engine_notes_keeps_the_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = tmp_path / "credentials.json"
    broken.write_text('{"brave": {', encoding="utf-8")
    monkeypatch.setenv("WEBSEARCH_CREDENTIALS_FILE", str(broken))
    # A keyed provider beside it, whose key the store would hold: the problem is said.
    notes = (await _run(_body(200, 0), also=("brave",))).response.notes
    assert len(notes) == MAX_NOTES  # 21 before
    assert notes[-1] == "182 more notes were left out."
    assert notes[-2].startswith(f"credential store {broken} is not valid JSON")
    assert len(_counts(notes)) == 1


async def test_a_few_notes_are_all_kept_in_order() -> None:
    """A guard: notes within the bound pass as before, no count (passes before and after)."""
    result = await _run(_body(4, PAGES), include_content=True, content_limit=PAGES)
    notes = result.response.notes
    assert [note.split(": ")[0] for note in notes] == [
        *["SearXNG engine did not answer"] * 4,
        *[f"cannot fetch http://127.0.0.1:9/page{n}" for n in range(PAGES)],
    ]
    assert _counts(notes) == []
