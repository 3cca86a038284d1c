"""The status table names a store this process already knows to be silent, without waiting.

``websearch providers`` asks the store first, for the error's own words, and waits 3 s
(``STATE_WAIT_SECONDS``) for it. In a process whose search had already given up on the
store (a SQLite file another process holds locked, a Redis that never replies), that ask
queued behind the call still unanswered and waited its full 3 s again (measured: 3.28 s
with the locked file, 3.18 s with the silent Redis, for the table after the search). And
with a file whose reads still went through, the table showed no problem and Brave's
usage as 0, read from the fail-safe store already bypassing it. The store now says it is
known silent, and the table names that at once, as it does an unreadable store.

A process's first status table imports every provider first (0.7 s to 3.9 s measured on
a loaded machine), which is no wait for the store: a table on a client of its own, with
its state in memory, has done that before the timed one.
"""

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

from tests.functional._locked_store import (
    behind_a_held_lock,
    budgeted_brave_first,
    write_lock_held,
)
from tests.functional._sim_helpers import SILENT
from tests.store_threads import calls_made
from websearch_core import Settings, WebSearch
from websearch_core.state import StateStore
from websearch_core.status import state_problem
from websearch_core.testing import Simulator

OPENING_WAIT_SECONDS = 2.0
"""The store's wait in a search of the 4 s deadline these tests share: the most it may be."""


async def test_the_status_names_a_store_known_silent_at_once(silent_state: dict[str, Any]) -> None:
    async with Simulator(["brave", "tavily"]) as sim:
        settings = budgeted_brave_first(sim, cache=False, **silent_state)
        async with WebSearch(state_backend="memory") as other:
            assert len(await other.provider_status()) > 1  # every provider imported
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            assert (await ws.search("rust tokio")).provider == "tavily"  # gave up on the store
            store = await ws.state()
            calls = calls_made(store)
            problem = await state_problem(store)
            rows = {row.id: row for row in await ws.provider_status()}
            asked = calls_made(store) - calls
    assert problem is not None and SILENT in problem
    assert rows["brave"].budget == "1000/month"
    assert asked == 0  # one call would have queued behind the unanswered one, for 3 s


def _sqlite_settings(sim: Simulator, state_dir: Path) -> Settings:
    """Brave budgeted first, then Tavily, on a SQLite file the first search can open in time."""
    settings: Settings = budgeted_brave_first(
        sim,
        cache=False,
        state_backend="sqlite",
        state_dir=state_dir,
        state_wait_seconds=OPENING_WAIT_SECONDS,
    )
    return settings


async def test_the_status_does_not_pass_off_a_bypassed_store_as_readable(
    tmp_path: Path, locked_file: sqlite3.Connection
) -> None:
    # Opened before the lock, the file's reads still go through while its writes wait:
    # the ask found no problem, and the rows (read from the fail-safe store, which the
    # search had left bypassing it) showed Brave's one request as 0 used.
    async with Simulator(["brave", "tavily"]) as sim:
        # The first search opens the file: on a loaded machine that outlasted the 0.4 s a
        # 4 s deadline gives the store, and Brave, whose budget needs it, was passed over.
        # Half the deadline for the store (the most it may have) opens it in time; the
        # search behind the lock still gives up on it long before SQLite's 10 s.
        settings = _sqlite_settings(sim, tmp_path)
        async with behind_a_held_lock(sim, settings, locked_file) as (ws, first):
            assert first.provider == "brave"  # the search that opened the store
            assert (await ws.search("rust tokio")).provider == "tavily"  # gave up on it
            problem = await state_problem(await ws.state())
    assert problem is not None and SILENT in problem


async def _until_answered(store: StateStore) -> None:
    """Return once no call this process gave up on is still waiting on ``store``.

    An event, polled: the store says whether the call it gave up on has been answered
    (``known_silent``); the outer 60 s only turns a store that never answers into a
    failure instead of a hang.
    """
    async with asyncio.timeout(60):
        while store.known_silent() is not None:
            await asyncio.sleep(0.01)


async def test_the_status_reads_a_store_that_answers_again_after_a_search_gave_up(
    tmp_path: Path, locked_file: sqlite3.Connection
) -> None:
    # A search that gave up on the store leaves it bypassed by searches for 30 s. The
    # table read its rows through that bypass too: 120 searches at once on a loaded
    # machine, one of them queued for more than its 1 s, and the table showed Brave's
    # spent budget as 0 used and "ready" while the store answered in milliseconds.
    async with Simulator(["brave", "tavily"]) as sim:
        settings = _sqlite_settings(sim, tmp_path)
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            first = await ws.search("python asyncio")  # opens the store; Brave counted
            with write_lock_held(locked_file):
                gave_up = await ws.search("rust tokio")
            await _until_answered(await ws.state())  # the lock is gone: the call ends
            rows = {row.id: row for row in await ws.provider_status()}
    assert (first.provider, gave_up.provider) == ("brave", "tavily")
    assert rows["brave"].budget_used == 1 and rows["brave"].used_this_month == 1
