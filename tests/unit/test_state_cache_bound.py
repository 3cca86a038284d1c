"""The SQLite result cache is bounded in count, like the memory store's.

A search's entry is a few KB and stays a week past its freshness for serve-stale; before,
the SQLite file only lost entries once they expired, so a busy agent's state file grew
without limit. Now the store keeps the ``max_cache_entries`` latest written (10,000 by
default, as in memory): its periodic sweep on the store's thread and its opening of the
file trim the rest, oldest writes first. Redis entries expire by their TTL instead.
"""

import sqlite3
import time
from pathlib import Path

import pytest

from websearch_core.state import MemoryStore, SQLiteStore
from websearch_core.state.base import DEFAULT_MAX_CACHE_ENTRIES
from websearch_core.state.sqlite import _PURGE_EVERY

WEEK = 7 * 86_400.0


def _rows(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("SELECT count(*) FROM cache").fetchone()[0])
    finally:
        conn.close()


async def _fill(store: SQLiteStore, keys: range, now: float) -> None:
    for i in keys:
        await store.cache_set(f"k{i}", b"x" * 100, now=now, ttl=900.0, keep_stale_for=WEEK)


async def _kept(store: SQLiteStore, written: int, now: float) -> None:
    first_kept = written - DEFAULT_MAX_CACHE_ENTRIES
    assert await store.cache_get(f"k{first_kept}", now) is not None
    assert await store.cache_get(f"k{first_kept - 1}", now) is None
    assert await store.cache_get(f"k{written - 1}", now) is not None


async def test_a_busy_store_keeps_the_latest_entries_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("websearch_core.state.sqlite.FLUSH_AFTER", 3600.0)  # by the close
    path = tmp_path / "state.sqlite3"
    now = time.time()
    sweeps = DEFAULT_MAX_CACHE_ENTRIES // _PURGE_EVERY + 1
    written = sweeps * _PURGE_EVERY  # more than the bound
    async with SQLiteStore(path) as store:
        await _fill(store, range(written), now)
        await _kept(store, written, now)  # held in memory (written behind), bounded there too
    assert _rows(path) == DEFAULT_MAX_CACHE_ENTRIES  # the close wrote them, swept
    async with SQLiteStore(path) as reopened:
        await _kept(reopened, written, now)  # read from the file


async def test_opening_the_file_trims_it_and_a_rewrite_counts_as_new(tmp_path: Path) -> None:
    """Short-lived processes (a CLI call) never reach a sweep: the next one opening trims."""
    path = tmp_path / "state.sqlite3"
    now = time.time()
    async with SQLiteStore(path) as first:
        await _fill(first, range(300), now)
        await first.cache_set("k0", b"again", now=now, ttl=900.0, keep_stale_for=WEEK)
    assert _rows(path) == 300
    async with SQLiteStore(path, max_cache_entries=100) as second:
        assert await second.cache_get("k0", now) is not None  # rewritten last: among the latest
        assert await second.cache_get("k201", now) is not None
        assert await second.cache_get("k200", now) is None
    assert _rows(path) == 100


def test_the_bound_is_checked_and_shared_with_the_memory_store(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="max_cache_entries must be at least 1"):
        SQLiteStore(tmp_path / "state.sqlite3", max_cache_entries=0)
    assert DEFAULT_MAX_CACHE_ENTRIES == 10_000
    assert "max_cache_entries=10000" in repr(MemoryStore())
