"""The SQLite store writes result-cache entries behind, with the pending usage counts.

What must hold (issue 11): a search that missed the cache paid for one write transaction
on the event loop's thread; now its entry waits in memory for the store's next flush. This
process finds it at once (a second search is a hit before any flush), another process once
the flush or the close has written it, a store left open writes it at exit, expiry and
serve-stale read it as they read the file, and a flush that fails keeps it and says so.
"""

import asyncio
import logging
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import websearch_core.cache as cache_module
from tests.state_file_observer import MONTH, Observer
from tests.unit.test_state_write_behind import CommitRefusal
from websearch_core import SearchResponse, WebSearch
from websearch_core.state import CachedEntry, MemoryStore, SQLiteStore, UsageWindow
from websearch_core.state.sqlite import _PURGE_EVERY, FLUSH_AFTER
from websearch_core.testing import Simulator

WEEK = 7 * 86_400.0


async def _flushed(store: SQLiteStore) -> None:
    """Flush now, as the timer would, and return once the store's thread has run it."""
    store._flush_due()
    await store._run(lambda conn: None)


async def _set(store: SQLiteStore, key: str, value: bytes, now: float, **times: float) -> None:
    ttl = times.get("ttl", 60.0)
    await store.cache_set(key, value, now=now, ttl=ttl, keep_stale_for=times.get("stale", 300.0))


async def test_a_second_search_is_a_hit_before_any_flush(
    tmp_path: Path, observer: Observer, flushed_by_hand: None
) -> None:
    async with Simulator(["brave"]) as sim:
        settings = sim.settings(provider="brave", state_backend="sqlite", state_dir=tmp_path)
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            first = await ws.search("python asyncio")
            second = await ws.search("python asyncio")
            assert observer.rows() == 0  # nothing written yet: the entry is in memory
        assert not first.cached and second.cached
        assert second.sources == first.sources
        assert len(sim["brave"].requests) == 1  # the second never reached the provider
    assert observer.rows() == 1  # the close wrote it


async def test_another_store_sees_an_entry_once_it_is_flushed_or_closed(
    path: Path, observer: Observer, flushed_by_hand: None
) -> None:
    now = time.time()
    async with SQLiteStore(path) as ours, SQLiteStore(path) as theirs:
        await _set(ours, "flushed", b"one", now)
        assert await ours.cache_get("flushed", now) == CachedEntry(b"one", now, now + 60)
        assert await theirs.cache_get("flushed", now) is None  # not in the file yet
        await _flushed(ours)
        assert await theirs.cache_get("flushed", now) == CachedEntry(b"one", now, now + 60)
        await _set(ours, "closed", b"two", now)
        await ours.aclose()
        assert await theirs.cache_get("closed", now) == CachedEntry(b"two", now, now + 60)


async def test_another_connection_sees_an_entry_within_the_flush_interval(
    path: Path, observer: Observer
) -> None:
    async with SQLiteStore(path) as store:
        await _set(store, "k", b"v", time.time())
        assert observer.value("k") is None
        assert observer.wait_for_entry("k") < FLUSH_AFTER + 2


async def test_an_entry_in_memory_is_fresh_stale_and_gone_as_in_the_file(
    path: Path, observer: Observer, flushed_by_hand: None
) -> None:
    now = time.time()
    async with SQLiteStore(path) as store:
        await _set(store, "k", b"v", now, ttl=60.0, stale=300.0)
        # The older write of "old" is in the file; its newer one, in memory, is expired.
        await _set(store, "old", b"then", now, ttl=600.0)
        await _flushed(store)
        await _set(store, "old", b"now", now, ttl=0.0, stale=0.0)
        assert observer.value("k") == b"v" and observer.value("old") == b"then"
        await _set(store, "k", b"v2", now, ttl=60.0, stale=300.0)  # in memory only

        async def answers() -> list[CachedEntry | None]:
            fresh = CachedEntry(b"v2", now, now + 60)
            got = [
                await store.cache_get("k", now + 59.9),
                await store.cache_get("k", now + 60),  # stale: hidden by default
                await store.cache_get("k", now + 60, allow_stale=True),
                await store.cache_get("k", now + 360, allow_stale=True),  # removed
                await store.cache_get("old", now, allow_stale=True),  # the newer write rules
            ]
            assert got == [fresh, None, fresh, None, None]
            return got

        in_memory = await answers()
        assert observer.value("k") == b"v"  # they were read from memory
        await _flushed(store)
        assert observer.value("k") == b"v2"
        assert await answers() == in_memory  # the file says the same


async def test_a_failed_flush_keeps_the_entry_and_says_so(
    path: Path,
    observer: Observer,
    flushed_by_hand: None,
    caplog: pytest.LogCaptureFixture,
) -> None:
    now = time.time()
    async with SQLiteStore(path) as store:
        await _set(store, "k", b"v", now)  # opens the file
        assert await store.cache_get("absent", now) is None  # opens the inline connection
        refusal = await CommitRefusal.armed_on(store)
        with caplog.at_level(logging.DEBUG, logger="websearch_core.state"):
            await _flushed(store)  # the flush has run, and failed
        assert refusal.refused == 1
        assert "pending usage counts and cache entries not written yet" in caplog.text
        assert observer.value("k") is None
        assert await store.cache_get("k", now) == CachedEntry(b"v", now, now + 60)  # kept
        await _flushed(store)
        assert observer.value("k") == b"v"


async def test_a_close_that_cannot_write_the_entries_warns(
    path: Path, observer: Observer, flushed_by_hand: None, caplog: pytest.LogCaptureFixture
) -> None:
    store = SQLiteStore(path)
    now = time.time()
    for key in ("a", "b"):
        await _set(store, key, b"v", now)
    assert await store.cache_get("absent", now) is None  # opens the inline connection
    await CommitRefusal.armed_on(store)
    with caplog.at_level(logging.WARNING, logger="websearch_core.state"):
        await store.aclose()
    assert "2 pending cache entries were not written" in caplog.text
    assert observer.rows() == 0


def test_an_entry_is_read_while_the_flush_writing_it_commits(
    path: Path, observer: Observer, flushed_by_hand: None
) -> None:
    """From the write to the commit an entry is in memory, then in the file: never neither.

    The flush's ``COMMIT`` is held; a read meanwhile, on another thread, must find it.
    """
    store = SQLiteStore(path)
    now = time.time()
    asyncio.run(_set(store, "k", b"v", now))  # opens the file
    assert asyncio.run(store.cache_get("absent", now)) is None  # opens the inline connection
    at_commit, go_on = threading.Event(), threading.Event()

    def trace(statement: str) -> None:
        if statement == "COMMIT" and not at_commit.is_set():
            at_commit.set()
            go_on.wait(10)

    asyncio.run(store._run(lambda conn: conn.set_trace_callback(trace)))
    store._flush_due()
    try:
        assert at_commit.wait(10)
        read = asyncio.run(store.cache_get("k", now))
    finally:
        go_on.set()
    assert read == CachedEntry(b"v", now, now + 60)
    asyncio.run(store.aclose())
    assert observer.value("k") == b"v"


async def test_the_flush_sweeps_the_cache_every_so_many_entries(
    path: Path, observer: Observer, flushed_by_hand: None
) -> None:
    now = time.time()
    per_flush = 100
    async with SQLiteStore(path, max_cache_entries=per_flush) as store:
        written = 0
        while written < _PURGE_EVERY:
            for index in range(written, written + per_flush):
                await _set(store, f"k{index}", b"v", now, stale=WEEK)
            written += per_flush
            await _flushed(store)
        assert observer.rows() == per_flush  # swept down to the latest, in the flush
        assert observer.value(f"k{written - per_flush}") is not None
        assert observer.value(f"k{written - per_flush - 1}") is None


_EXIT_OPEN = """
import asyncio, sys, time
from pathlib import Path
from websearch_core.state import SQLiteStore

store = SQLiteStore(Path(sys.argv[1]))
for key in ("a", "b", "c"):
    asyncio.run(store.cache_set(key, b"v", now=time.time(), ttl=60, keep_stale_for=60))
"""


def test_a_process_exiting_with_the_store_open_writes_its_entries(
    path: Path, observer: Observer
) -> None:
    subprocess.run([sys.executable, "-c", _EXIT_OPEN, str(path)], check=True, timeout=60)
    assert observer.rows() == 3


async def test_a_missed_search_serialises_its_answer_at_the_flush_off_the_loop(
    tmp_path: Path, observer: Observer, flushed_by_hand: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Serialising the answer cost the search 10-20 us on the loop's thread, for bytes that
    # wait in memory for the flush anyway: the flush makes them now, on the store's thread.
    real = cache_module.dump_response
    threads: list[int] = []

    def recorded(response: SearchResponse) -> bytes:
        threads.append(threading.get_ident())
        return real(response)

    monkeypatch.setattr("websearch_core.client.dump_response", recorded)
    async with Simulator(["brave"]) as sim:
        settings = sim.settings(provider="brave", state_backend="sqlite", state_dir=tmp_path)
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            answer = await ws.search("python asyncio")
            assert threads == []  # held unserialised
            store = await ws.state()
            assert isinstance(store, SQLiteStore)
            await _flushed(store)
            assert len(threads) == 1 and threads[0] != threading.get_ident()
            assert observer.rows() == 1
            hit = await ws.search("python asyncio")
    (stored,) = sqlite3.connect(tmp_path / "state.sqlite3").execute("SELECT value FROM cache")
    assert stored[0] == real(answer)  # the bytes a search serialised at once wrote
    assert hit.cached and hit.sources == answer.sources
    assert len(threads) == 1


async def test_an_entry_read_before_the_flush_is_serialised_once(
    path: Path, observer: Observer, flushed_by_hand: None
) -> None:
    now = time.time()
    calls: list[int] = []

    def serialise() -> bytes:
        calls.append(threading.get_ident())
        return b"answer"

    async with SQLiteStore(path) as store:
        await store.cache_set_deferred("k", serialise, now=now, ttl=60.0, keep_stale_for=0.0)
        assert calls == []
        assert await store.cache_get("k", now) == CachedEntry(b"answer", now, now + 60)
        assert calls == [threading.get_ident()]  # this process read it first: made here
        await _flushed(store)
        assert observer.value("k") == b"answer"
        assert len(calls) == 1  # the flush wrote the same bytes, not made again
    async with MemoryStore() as memory:  # a store that writes at once serialises at once
        await memory.cache_set_deferred("k", serialise, now=now, ttl=60.0, keep_stale_for=0.0)
        assert len(calls) == 2
        assert await memory.cache_get("k", now) == CachedEntry(b"answer", now, now + 60)


async def test_an_entry_that_cannot_be_serialised_is_dropped_not_the_counts(
    path: Path, observer: Observer, flushed_by_hand: None, caplog: pytest.LogCaptureFixture
) -> None:
    now = time.time()

    def broken() -> bytes:
        raise ValueError("cannot serialise this answer")

    async with SQLiteStore(path) as store:
        await store.cache_set_deferred("bad", broken, now=now, ttl=60.0, keep_stale_for=0.0)
        await _set(store, "good", b"v", now)
        window = (UsageWindow(MONTH, now + 600),)
        await store.reserve_unless_marked("brave", window, now)
        assert await store.cache_get("bad", now) is None  # read first: a miss, not an error
        with caplog.at_level(logging.WARNING, logger="websearch_core.state"):
            await _flushed(store)
        assert "cache entry not written: ValueError: cannot serialise this answer" in caplog.text
        assert observer.count() == 1  # the flush went on without it
        assert observer.value("good") == b"v" and observer.value("bad") is None
        assert await store.cache_get("bad", now) is None  # dropped, as a refused write is
