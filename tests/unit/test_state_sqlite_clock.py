"""The SQLite store judges by one wall clock, whichever of its modules runs the rows.

Why: the store's statements and row functions live in modules of their own
(``_sqlite_rows``, ``_sqlite_orphan``), and the tests step the store's clock by replacing
``time`` in :mod:`websearch_core.state.sqlite` (as ``test_state_clock`` and
``test_state_seen`` do). A row function reading ``time.time()`` in its own module would
judge a count's expiry by another clock than the store's methods: these tests step the
store's clock past a window's end and see that the reservation, and the exit's flush of a
store never closed, both take it as ended. Both are guards: they passed before the split
too, when every one of those functions read the clock of ``sqlite.py`` itself.
"""

import asyncio
import gc
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from websearch_core.state import SQLiteStore, UsageWindow

PERIOD = "month:2026-12"


@dataclass
class SteppedClock:
    """``time`` of the SQLite store's module, with a wall clock the test sets."""

    now: float

    monotonic = staticmethod(time.monotonic)
    sleep = staticmethod(time.sleep)

    def time(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> SteppedClock:
    stepped = SteppedClock(time.time())
    monkeypatch.setattr("websearch_core.state.sqlite.time", stepped)
    return stepped


def _usage_rows(path: Path) -> list[tuple[str, str, int]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT provider, period, count FROM usage").fetchall()
    finally:
        conn.close()


async def test_a_capped_reservation_ends_its_window_by_the_stores_clock(
    tmp_path: Path, clock: SteppedClock
) -> None:
    """Guard: the count of a window the store's clock has ended starts again at 1.

    By the machine's clock the window is still live: a reservation judged by it would count
    2 (and a budget of 1 would refuse it).
    """
    start = clock.now
    async with SQLiteStore(tmp_path / "state.sqlite3") as store:
        first = await store.reserve_usage("brave", (UsageWindow(PERIOD, start + 60, limit=1),))
        clock.now = start + 120  # the window ended, by the store's clock only
        second = await store.reserve_usage("brave", (UsageWindow(PERIOD, start + 600, limit=1),))
    assert (first.granted, first.counts) == (True, (1,))
    assert (second.granted, second.counts) == (True, (1,))


def test_the_exit_flush_of_a_dropped_store_ends_counts_by_the_stores_clock(
    tmp_path: Path, clock: SteppedClock, flushed_by_hand: None
) -> None:
    """Guard: a count whose window the store's clock has ended is not written at the exit.

    The store is dropped unclosed, so its finalizer writes what it owes: a count held in
    memory, whose window is live by the machine's clock and ended by the store's. Its
    control, a count still live by both, is written by the same flush.
    """
    path = tmp_path / "state.sqlite3"
    start = clock.now
    store = SQLiteStore(path)
    ended = (UsageWindow(PERIOD, start + 60),)
    live = (UsageWindow(PERIOD, start + 3600),)
    asyncio.run(store.reserve_unless_marked("brave", ended, start))
    asyncio.run(store.reserve_unless_marked("exa", live, start))
    assert _usage_rows(path) == []  # both held in memory: no flush for an hour
    clock.now = start + 120
    store._executor.shutdown(wait=True)
    del store
    gc.collect()  # the finalizer's flush of what the store owes
    assert _usage_rows(path) == [("exa", PERIOD, 1)]
