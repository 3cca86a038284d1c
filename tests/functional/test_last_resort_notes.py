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


async def test_a_provider_s_own_notes_come_before_its_uncounted_note(
    tmp_path: Path, locked_file: sqlite3.Connection
) -> None:
    # SearXNG answers without two of its engines and says so in its own notes.
    async with Simulator(["searxng"]) as sim:
        cast(SearxngProtocol, sim["searxng"].protocol).unresponsive_engines = [["qwant", "timeout"]]
        settings = sim.settings(
            deadline_seconds=20.0,
            providers=("searxng",),
            budget={"searxng": "100/day"},
            state_backend="sqlite",
            state_dir=tmp_path,
            cache=False,
        )
        async with behind_a_held_lock(sim, settings, locked_file) as (ws, _):
            response = await ws.search("rust tokio")
    assert response.provider == "searxng" and response.sources
    assert response.notes == ("SearXNG engine did not answer: qwant: timeout", SEARXNG_UNCOUNTED)
