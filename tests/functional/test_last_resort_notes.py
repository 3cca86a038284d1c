"""Where a last resort's uncounted note stands among an answer's notes: right after its own.

The spec and the reference are silent on this note (they know only the notes of relaxed
constraints). The chain says it after what the provider said of its answer, as a failed
turn's text says it after the error and its notes.
"""

import sqlite3
from pathlib import Path
from typing import cast

from tests.functional._locked_store import behind_a_held_lock
from tests.functional.test_budget_last_resort import PUBLIC_UNCOUNTED, public_web_asked_last
from websearch_core import SearchResponse
from websearch_core.note_bound import MAX_NOTES
from websearch_core.testing import Simulator
from websearch_core.testing.protocols.searxng import SearxngProtocol

SEARXNG_UNCOUNTED = (
    "SearXNG budget of 100/day not checked (state store unavailable); asked as the last "
    "resort, the request uncounted."
)


async def test_public_web_s_uncounted_note_follows_the_engines_that_did_not_answer(
    tmp_path: Path, locked_file: sqlite3.Connection
) -> None:
    _, response = await public_web_asked_last(tmp_path, locked_file, "failing")
    assert response.notes == (
        "Engines that did not answer: duckduckgo: failed (HTTP 503)",
        PUBLIC_UNCOUNTED,
    )


async def _searxng_uncounted(
    tmp_path: Path, locked_file: sqlite3.Connection, unresponsive: list[list[str]]
) -> SearchResponse:
    """SearXNG's answer without the ``unresponsive`` engines, asked behind a held lock."""
    async with Simulator(["searxng"]) as sim:
        cast(SearxngProtocol, sim["searxng"].protocol).unresponsive_engines = unresponsive
        settings = sim.settings(
            deadline_seconds=20.0,
            providers=("searxng",),
            budget={"searxng": "100/day"},
            state_backend="sqlite",
            state_dir=tmp_path,
            cache=False,
        )
        async with behind_a_held_lock(sim, settings, locked_file) as (ws, _):
            return await ws.search("rust tokio")


async def test_a_provider_s_own_notes_come_before_its_uncounted_note(
    tmp_path: Path, locked_file: sqlite3.Connection
) -> None:
    # SearXNG answers without two of its engines and says so in its own notes.
    response = await _searxng_uncounted(tmp_path, locked_file, [["qwant", "timeout"]])
    assert response.provider == "searxng" and response.sources
    assert response.notes == ("SearXNG engine did not answer: qwant: timeout", SEARXNG_UNCOUNTED)


async def test_an_uncounted_note_after_twenty_engine_notes_keeps_the_bound(
    tmp_path: Path, locked_file: sqlite3.Connection
) -> None:
    """A guard (passes before and after): the uncounted note pushed past the bound of 20.

    SearXNG answers without 200 of its engines: its cleaning keeps 19 of their notes and
    says 181 more; the chain then adds the request's uncounted note. The bound holds, the
    chain's note is kept right after the engines' and the one count, last, is 182.
    """
    engines = [[f"engine{n}", "timeout"] for n in range(200)]
    response = await _searxng_uncounted(tmp_path, locked_file, engines)
    assert response.provider == "searxng" and response.sources
    notes = response.notes
    assert len(notes) == MAX_NOTES
    assert notes[-1] == "182 more notes were left out."  # 181 engines' notes, then one more
    assert notes[-2] == SEARXNG_UNCOUNTED
    assert notes[:-2] == tuple(
        f"SearXNG engine did not answer: engine{n}: timeout" for n in range(MAX_NOTES - 2)
    )
    assert response.notes_left_out == 182
    said = [note for note in notes if note.endswith(" more notes were left out.")]
    assert said == [notes[-1]]
