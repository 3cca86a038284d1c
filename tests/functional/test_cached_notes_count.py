"""A cached answer's notes' count, read back from a row of this release or an earlier one.

Stop 53 (caps55) made the count of notes left out the core's own field
(``SearchResponse.notes_left_out``), written into a cache row by the cache; a row written
before held the count only as its last note's text (``181 more notes were left out.``),
and was read back with that note as an ordinary one. Served stale when every provider
failed, the answer's age was added and the cut ran again: the old count was dropped as a
note and the new one said ``2 more notes were left out.`` for 183 left out.

Each test searches SearXNG (its real capture from ``../shared/fixtures`` served by the
loopback simulator) so the client writes its cache row, rewrites that row through the real
SQLite store as stale with 20 notes, then searches again with SearXNG failing: the stale
answer is served with its age, through the real read of the row.
"""

import json
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Final

from tests.conftest import read_capture
from websearch_core import WebSearch
from websearch_core.cache import dump_response, load_response
from websearch_core.models import SearchResponse, SearchToolResult
from websearch_core.note_bound import MAX_NOTES, notes_left_out
from websearch_core.state.base import STATE_FILE_NAME
from websearch_core.state.sqlite import SQLiteStore
from websearch_core.testing import Fault, Simulator

SEARXNG: Final = "searxng/search_format_json_espresso_2026.json"
QUERY: Final = "python asyncio"
TTL: Final = 900.0
WEEK: Final = 7 * 24 * 3600.0
LEFT_OUT: Final = 181
AGE: Final = "every provider failed; this cached answer is from "
ENGINE_NOTES: Final = tuple(
    f"SearXNG engine did not answer: engine{n}: timeout" for n in range(MAX_NOTES - 1)
)
"""What a cut of 200 engines' notes kept before its count."""

Rewrite = Callable[[SearchResponse], bytes]


def _old_row(answer: SearchResponse) -> bytes:
    """The row a release before caps55 wrote: the count only as the last note's text."""
    cut = answer.model_copy(update={"notes": (*ENGINE_NOTES, notes_left_out(LEFT_OUT))})
    return cut.model_dump_json(exclude={"attempts", "cached", "stale"}).encode()


def _row_of_this_release(answer: SearchResponse) -> bytes:
    """The row the cache writes now: the count in its own field as well."""
    cut = answer.model_copy(
        update={"notes": (*ENGINE_NOTES, notes_left_out(LEFT_OUT)), "notes_left_out": LEFT_OUT}
    )
    return dump_response(cut)


async def _stale_after(rewrite: Rewrite, state: Path) -> SearchToolResult:
    """The stale answer served from the search's cache row as ``rewrite`` wrote it again."""
    body = json.loads(read_capture(SEARXNG))
    body["unresponsive_engines"] = []  # a partial answer is never cached
    async with Simulator(["searxng"]) as sim:
        served = json.dumps(body)
        sim["searxng"].always(Fault.http(200, served, {"Content-Type": "application/json"}))
        settings = sim.settings(
            provider="searxng",
            rate_limit_wait_seconds=0,
            cache_ttl_seconds=TTL,
            state_backend="sqlite",
            state_dir=state,
        )
        async with WebSearch(settings) as search:
            fresh = await search.run(QUERY)
        assert not fresh.is_error and fresh.response.notes == ()
        with sqlite3.connect(state / STATE_FILE_NAME) as db:
            ((key, value),) = db.execute("SELECT key, value FROM cache").fetchall()
        answer = load_response(value)
        assert answer is not None
        async with SQLiteStore(state / STATE_FILE_NAME) as store:
            past = time.time() - 2 * TTL  # stale: past its TTL, kept for a week more
            await store.cache_set(key, rewrite(answer), now=past, ttl=TTL, keep_stale_for=WEEK)
        sim["searxng"].always(Fault.server_error())
        async with WebSearch(settings) as search:
            stale = await search.run(QUERY)
    assert not stale.is_error and stale.response.stale, stale.text[:300]
    return stale


async def test_an_old_row_s_count_is_read_as_the_count(tmp_path: Path) -> None:
    """Failed before: ``2 more notes were left out.``, the old count dropped as a note."""
    notes = (await _stale_after(_old_row, tmp_path)).response.notes
    assert len(notes) == MAX_NOTES
    assert notes[-1] == notes_left_out(LEFT_OUT + 1)  # the old 181 and one engine's note
    assert notes[-2].startswith(AGE)
    assert notes[:-2] == ENGINE_NOTES[:-1]
    assert sum(note.endswith(" more notes were left out.") for note in notes) == 1


async def test_a_row_of_this_release_keeps_its_count_past_the_age(tmp_path: Path) -> None:
    """A guard (passes before and after): the stale age pushed past the bound of 20.

    The client adds the age after 19 notes and a count: the bound holds, the age is kept
    and the count, said once and last, is the row's and the engine's note it displaced.
    """
    stale = await _stale_after(_row_of_this_release, tmp_path)
    notes = stale.response.notes
    assert len(notes) == MAX_NOTES
    assert notes[-1] == notes_left_out(LEFT_OUT + 1)
    assert notes[-2].startswith(AGE) and stale.text.startswith(f"Note: {AGE}")
    assert notes[:-2] == ENGINE_NOTES[:-1]
    assert stale.to_metadata()["response"]["notes"] == list(notes)


async def test_an_old_row_s_look_alike_among_fewer_notes_stays_a_note(tmp_path: Path) -> None:
    """A guard (passes before and after): only a cut's shape (20 notes) is read as a count.

    A count-like last note among three was never the core's (a cut always left 20), so it
    is the provider's words, kept in place, and the age is added with no count.
    """

    def few(answer: SearchResponse) -> bytes:
        said = (*ENGINE_NOTES[:2], notes_left_out(3))
        return answer.model_copy(update={"notes": said}).model_dump_json().encode()

    notes = (await _stale_after(few, tmp_path)).response.notes
    assert notes[:3] == (*ENGINE_NOTES[:2], notes_left_out(3))
    assert len(notes) == 4 and notes[-1].startswith(AGE)


async def test_a_row_of_this_release_with_a_count_like_20th_note_keeps_it_a_note(
    tmp_path: Path,
) -> None:
    """Failed before: a provider's 20th note reading as the count was read back as one.

    The row holds 20 notes and nothing was cut, so it has no count; its last note is a
    provider's, worded exactly as :func:`notes_left_out` words the count. Read back as an
    old row's count of 5, that note was dropped when the age was added and the answer
    said ``6 more notes were left out.`` where two were (the age took one place, the
    count another). The cache now says ``notes_left_out`` in every row of 20 notes.
    """

    def twenty(answer: SearchResponse) -> bytes:
        said = (*ENGINE_NOTES, notes_left_out(5))
        return dump_response(answer.model_copy(update={"notes": said}))

    notes = (await _stale_after(twenty, tmp_path)).response.notes
    assert len(notes) == MAX_NOTES
    assert notes[:-2] == ENGINE_NOTES[:-1]
    assert notes[-2].startswith(AGE)
    assert notes[-1] == notes_left_out(2)  # the provider's 19th and 20th notes


def test_the_round_trip_tells_a_count_like_note_from_the_count() -> None:
    """Failed before: ``load_response(dump_response(r))`` gave a count ``r`` did not have.

    Both ways round: a response of 20 notes ending in a count-like note and no count, and
    one whose 20th note is the core's count of the same words, read back as they were.
    """
    said = (*ENGINE_NOTES, notes_left_out(5))
    provider_words = SearchResponse(provider="searxng", notes=said)
    cut = SearchResponse(provider="searxng", notes=said, notes_left_out=5)

    for written in (provider_words, cut):
        read = load_response(dump_response(written))
        assert read is not None
        assert (read.notes, read.notes_left_out) == (written.notes, written.notes_left_out)
