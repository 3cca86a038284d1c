"""A cache miss told from the keys known to be in the SQLite file, without a read.

What must hold (stop 38): while nothing has committed to the file since the store read its
keys (or since its own flush, the only commit, added its own), a key not among them is a
miss without a statement; a key another process wrote is found all the same, however
close its commit comes to the store's own; a key known is read, with its expiry, as before.
"""

import asyncio
import concurrent.futures
import contextlib
import sqlite3
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import pytest

from tests.unit.test_state_cache_write_behind import _flushed, _set
from websearch_core.state import CachedEntry, ProviderMark, SQLiteStore, UsageWindow, _known_keys
from websearch_core.state._journal import Journal, write_journal
from websearch_core.state._known_keys import RELOAD_AFTER, KnownKeys
from websearch_core.state._wal_index import WalIndex

_WRITE = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute(
    "INSERT INTO cache (key, value, stored_at, fresh_until, expires_at) VALUES (?, ?, ?, ?, ?)",
    (sys.argv[2], b"theirs", float(sys.argv[3]), float(sys.argv[3]) + 60, float(sys.argv[3]) + 60),
)
conn.close()
"""


def _write_elsewhere(path: Path, key: str, now: float) -> None:
    """Another process writes ``key`` to the file (an older release, another client)."""
    subprocess.run([sys.executable, "-c", _WRITE, str(path), key, repr(now)], check=True)


async def _keys_read(store: SQLiteStore, now: float) -> None:
    """Two misses read from the file ask for the keys; return once the store's thread read them."""
    for key in ("a key never written", "another"):
        assert await store.cache_get(key, now) is None
    await store._run(lambda conn: None)


async def _miss_told_unread(store: SQLiteStore, key: str, now: float) -> bool:
    """Whether ``key`` is a miss told from the known keys, without a statement on the file."""
    statements = _traced(store)
    missed = await store.cache_get(key, now) is None
    return missed and statements == []


@contextlib.contextmanager
def _at_header_read_after_commit(
    reader: WalIndex, action: Callable[[], object]
) -> Iterator[list[int]]:
    """Run ``action`` when ``reader``'s header is read the second time: after the ``COMMIT``.

    The first read is inside the transaction, the second the commit's own check; ``action``
    lands between that ``COMMIT`` and the check. Yields the reads counted, for the test to
    see that the header was read just twice; the reader is put back on leaving.
    """
    read_header = reader.header
    reads: list[int] = []

    def header() -> bytes | None:
        reads.append(1)
        if len(reads) == 2:
            action()
        return read_header()

    reader.header = header  # type: ignore[method-assign]
    try:
        yield reads
    finally:
        reader.header = read_header  # type: ignore[method-assign]


def _traced(store: SQLiteStore) -> list[str]:
    """The statements the inline connection runs from now on."""
    statements: list[str] = []
    assert store._inline is not None
    store._inline.set_trace_callback(statements.append)
    return statements


async def test_a_miss_is_told_without_a_read_while_the_file_is_unchanged(
    path: Path, flushed_by_hand: None
) -> None:
    now = time.time()
    async with SQLiteStore(path) as store:
        await _set(store, "k", b"v", now)
        await _flushed(store)
        await _keys_read(store, now)
        statements = _traced(store)
        assert await store.cache_get("new", now) is None
        assert statements == []  # no read: "new" is not among the file's keys
        assert await store.cache_get("k", now) == CachedEntry(b"v", now, now + 60)
        assert await store.cache_get("k", now + 3600) is None  # known, read, expired
        assert len(statements) == 2


async def test_a_key_another_process_wrote_is_found(path: Path, flushed_by_hand: None) -> None:
    now = time.time()
    async with SQLiteStore(path) as store:
        await _set(store, "k", b"v", now)
        await _flushed(store)
        await _keys_read(store, now)
        statements = _traced(store)
        assert await store.cache_get("theirs", now) is None
        assert statements == []  # told from the keys known
        _write_elsewhere(path, "theirs", now)
        assert await store.cache_get("theirs", now) == CachedEntry(b"theirs", now, now + 60)


async def test_the_stores_own_flush_keeps_the_keys_known(path: Path, flushed_by_hand: None) -> None:
    now = time.time()
    async with SQLiteStore(path) as store:
        await _set(store, "k", b"v", now)  # opens the file
        await _keys_read(store, now)
        await _set(store, "mine", b"m", now)
        await _flushed(store)  # the only commit since the keys were read
        assert await _miss_told_unread(store, "new", now)  # still told without a read
        assert await store.cache_get("mine", now) == CachedEntry(b"m", now, now + 60)
        assert await store.cache_get("k", now) == CachedEntry(b"v", now, now + 60)


async def test_a_commit_elsewhere_right_after_the_flushs_is_not_missed(
    path: Path, flushed_by_hand: None
) -> None:
    """Another process commits between the flush's ``COMMIT`` and its reading of the header."""
    now = time.time()
    async with SQLiteStore(path) as store:
        await _set(store, "k", b"v", now)
        await _keys_read(store, now)
        await _set(store, "mine", b"m", now)
        reader = store._conn_wal_index
        assert reader is not None
        with _at_header_read_after_commit(
            reader, lambda: _write_elsewhere(path, "theirs", now)
        ) as reads:
            await _flushed(store)
        assert len(reads) == 2
        assert await store.cache_get("theirs", now) == CachedEntry(b"theirs", now, now + 60)
        assert await store.cache_get("mine", now) == CachedEntry(b"m", now, now + 60)


async def test_an_entry_a_journal_brings_in_with_the_flush_is_found(
    path: Path, flushed_by_hand: None
) -> None:
    """A journal another store left is written in the flush's own transaction (stop 38).

    That commit is the only one since the keys were read, but it wrote more than the
    flush's batch: kept, the set would tell the journaled key absent, a miss for an entry
    the file holds.
    """
    now = time.time()
    async with SQLiteStore(path) as store:
        await _set(store, "k", b"v", now)
        await _keys_read(store, now)
        write_journal(path, Journal(cache=[("journaled", b"j", now, now + 60, now + 60)]))
        await _set(store, "mine", b"m", now)
        await _flushed(store)
        assert await store.cache_get("journaled", now) == CachedEntry(b"j", now, now + 60)
        assert await store.cache_get("mine", now) == CachedEntry(b"m", now, now + 60)


def _budgeted() -> tuple[UsageWindow, ...]:
    """A month's count with a budget: its reservation is one commit to the file, each time."""
    until = time.time() + 600
    return (UsageWindow("month:test", until), UsageWindow("budget:test", until, limit=1000))


async def _commit_as_a_user_with_a_budget(store: SQLiteStore, now: float) -> None:
    """What a search commits for a user with a budget, a cooldown or a rate (stop 39)."""
    assert (await store.reserve_unless_marked("brave", _budgeted(), now)).granted
    assert (await store.reserve_usage("brave", _budgeted())).granted
    await store.release_usage("brave", _budgeted())
    await store.record_failure("brave")
    await store.take_rate_slot("brave", 0.001, 1.0)
    await store.set_mark("tavily", ProviderMark("rate_limited", now + 60, "429", 1, now))


async def test_the_stores_own_reservations_keep_the_keys_known(
    path: Path, flushed_by_hand: None
) -> None:
    """A budgeted search commits its reservation: that commit too leaves the keys true.

    Kept through the flush's commit only, the keys were out of date after each
    reservation: every miss of a user with a budget read the file (stop 39).
    """
    now = time.time()
    async with SQLiteStore(path) as store:
        await _set(store, "k", b"v", now)
        await _flushed(store)
        await _keys_read(store, now)
        await _commit_as_a_user_with_a_budget(store, now)
        assert await _miss_told_unread(store, "new", now)  # told without a read
        assert await store.cache_get("k", now) == CachedEntry(b"v", now, now + 60)
        _write_elsewhere(path, "theirs", now)  # and another process's commit is not missed
        assert await store.cache_get("theirs", now) == CachedEntry(b"theirs", now, now + 60)


async def test_reservations_on_the_stores_thread_keep_the_keys_known(
    path: Path, flushed_by_hand: None
) -> None:
    """The same commits queued to the store's thread (the inline connection busy)."""
    now = time.time()
    async with SQLiteStore(path) as store:
        await _set(store, "k", b"v", now)
        await _keys_read(store, now)
        with store._inline_lock:  # another thread's call under way: every call is queued
            await _commit_as_a_user_with_a_budget(store, now)
            await _set(store, "mine", b"m", now)
            await _flushed(store)
        assert await _miss_told_unread(store, "new", now)
        assert await store.cache_get("mine", now) == CachedEntry(b"m", now, now + 60)
        assert await store.cache_get("k", now) == CachedEntry(b"v", now, now + 60)


async def test_a_commit_elsewhere_right_after_a_reservations_is_not_missed(
    path: Path, flushed_by_hand: None
) -> None:
    """Another process commits between a reservation's ``COMMIT`` and its header read."""
    now = time.time()
    async with SQLiteStore(path) as store:
        await _set(store, "k", b"v", now)
        await _flushed(store)
        await _keys_read(store, now)
        reader = store._wal_index
        assert reader is not None
        with _at_header_read_after_commit(
            reader, lambda: _write_elsewhere(path, "theirs", now)
        ) as reads:
            assert (await store.reserve_unless_marked("brave", _budgeted(), now)).granted
        assert len(reads) == 2
        assert await store.cache_get("theirs", now) == CachedEntry(b"theirs", now, now + 60)


async def test_the_stores_flush_right_after_a_reservations_commit_keeps_the_keys(
    path: Path, flushed_by_hand: None
) -> None:
    """The store's thread flushes between a reservation's ``COMMIT`` and its header read.

    Both commits are the store's own, but the reservation then read a header two commits
    on, and the flush found the set not yet moved past the reservation's: either forgot
    it (stop 39, now and then on a loaded machine, where a thread stalls there).
    """
    now = time.time()
    async with SQLiteStore(path) as store:
        await _set(store, "k", b"v", now)
        await _flushed(store)
        await _keys_read(store, now)
        await _set(store, "mine", b"m", now)
        reader = store._wal_index
        assert reader is not None

        def flush_now() -> None:  # the flush now, if it can come first
            flush = store._executor.submit(store._flush)
            with contextlib.suppress(concurrent.futures.TimeoutError):
                flush.result(timeout=1.0)

        with _at_header_read_after_commit(reader, flush_now) as reads:
            assert (await store.reserve_unless_marked("brave", _budgeted(), now)).granted
        await store._run(lambda conn: None)  # the flush has committed
        assert len(reads) == 2
        # both commits were the store's own: still told unread
        assert await _miss_told_unread(store, "new", now)
        assert await store.cache_get("mine", now) == CachedEntry(b"m", now, now + 60)


async def test_an_inline_commit_never_waits_for_the_keys_commit_lock(
    path: Path, flushed_by_hand: None
) -> None:
    """The store's thread holds the lock through its ``COMMIT`` (an automatic checkpoint
    there syncs the file): the event loop's commit goes on, still a step of the store's own
    when no other commit came before its header read.
    """
    now = time.time()
    async with SQLiteStore(path) as store:
        await _set(store, "k", b"v", now)
        await _flushed(store)
        await _keys_read(store, now)
        held, done = threading.Event(), threading.Event()

        def hold() -> None:
            with store._known.commit_lock:
                held.set()
                done.wait(10)

        holder = threading.Thread(target=hold)
        holder.start()
        try:
            assert held.wait(10)
            grant = await store.reserve_unless_marked("brave", _budgeted(), now)
            assert store._known.commit_lock.locked()  # committed while the lock was held
        finally:
            done.set()
            holder.join(10)
        assert grant.granted and grant.counts == (1, 1)
        assert await _miss_told_unread(store, "new", now)
        _write_elsewhere(path, "theirs", now)
        assert await store.cache_get("theirs", now) == CachedEntry(b"theirs", now, now + 60)


def _many_keys(path: Path, count: int, now: float) -> None:
    """``count`` cache keys written to the file as another client would."""
    with contextlib.closing(sqlite3.connect(path)) as conn, conn:
        conn.executemany(
            "INSERT INTO cache (key, value, stored_at, fresh_until, expires_at) "
            "VALUES (?, ?, ?, ?, ?)",
            [(f"key {i:064d}", b"x", now, now + 60, now + 60) for i in range(count)],
        )


async def test_the_loop_keeps_turning_while_the_keys_load(
    path: Path, flushed_by_hand: None
) -> None:
    """10,000 keys take ~10 ms to read (stop 38): on the store's thread, never the loop's.

    The read is held on the store's thread, after its scan, until the loop has served
    misses meanwhile: a loop waiting for the read would never let it go on.
    """
    now = time.time()
    loop_thread = threading.current_thread()
    async with SQLiteStore(path) as store:
        await _set(store, "k", b"v", now)
        await _flushed(store)
        _many_keys(path, 10_000, now)
        scanned_on: list[threading.Thread] = []

        def trace(statement: str) -> None:
            if statement == "SELECT key FROM cache":
                scanned_on.append(threading.current_thread())

        await store._run(lambda conn: conn.set_trace_callback(trace))
        served = threading.Event()
        released: list[bool] = []
        load = store._known.load

        def held_load(header: bytes | None, keys: Iterable[str]) -> None:
            released.append(served.wait(10))  # the loop serves misses meanwhile, or not
            load(header, keys)

        store._known.load = held_load  # type: ignore[method-assign]
        for key in ("a key never written", "another"):  # the second asks for the keys
            assert await store.cache_get(key, now) is None
        for index in range(50):  # read from the file, inline: the set is not loaded yet
            assert await store.cache_get(f"meanwhile {index}", now) is None
            await asyncio.sleep(0)
        served.set()
        await store._run(lambda conn: None)
        assert released == [True]
        assert scanned_on and loop_thread not in scanned_on
        assert await _miss_told_unread(store, "new", now)  # the 10,001 keys read are in place
        assert await store.cache_get(f"key {9999:064d}", now) == CachedEntry(b"x", now, now + 60)


def _header(commits: int, frames: int) -> bytes:
    """A wal-index header as :mod:`._wal_index` gives it: ``iChange`` and ``mxFrame`` set."""
    return struct.pack("=IIIBBHII", 3007000, 0, commits, 1, 0, 4096, frames, 0).ljust(48, b"\0")


def test_keys_are_kept_through_one_commit_only() -> None:
    known = KnownKeys(bound=100)
    known.load(_header(4, 10), ["a"])
    assert known.absent("b", _header(4, 10)) and not known.absent("a", _header(4, 10))
    assert not known.absent("b", _header(5, 12))  # the file moved: not told
    known.add(["b"])  # the flush, the only commit
    known.committed(_header(4, 10), _header(5, 12))
    assert known.absent("c", _header(5, 12)) and not known.absent("b", _header(5, 12))
    known.committed(_header(5, 12), _header(6, 13))  # a reservation: no key written
    assert known.absent("c", _header(6, 13))
    known.committed(_header(6, 13), _header(6, 13))  # a transaction that wrote nothing
    assert known.absent("c", _header(6, 13))
    known.add(["c"])
    known.committed(_header(6, 13), _header(8, 16))  # another commit came after it
    assert not known.absent("d", _header(8, 16))
    known.load(_header(8, 16), ["a", "b", "c"])
    known.committed(_header(9, 18), _header(10, 20))  # one came before it
    assert not known.absent("e", _header(10, 20)) and not known.absent("e", _header(9, 18))
    known.load(_header(10, 20), ["a"])
    known.committed(None, _header(11, 22))  # a header that could not be read: forgotten
    assert not known.absent("e", _header(11, 22))


def test_steps_of_the_stores_own_are_followed_in_any_order() -> None:
    # The two connections' threads report their commits in any order; a read of the keys
    # can end with the header from before an inline commit made during it.
    known = KnownKeys(bound=100)
    known.load(_header(1, 2), ["a"])
    known.committed(_header(2, 3), _header(3, 4))  # the second commit, reported first
    assert not known.absent("b", _header(3, 4))  # 1 -> 2 not known yet
    known.committed(_header(1, 2), _header(2, 3))
    assert known.absent("b", _header(3, 4))  # 1 -> 2 -> 3
    known.committed(_header(3, 4), _header(5, 6))  # another commit too: no step
    known.committed(_header(5, 6), _header(6, 7))
    assert not known.absent("b", _header(6, 7))  # 3 -> 5 is not the store's alone


async def test_an_inline_commit_while_the_keys_load_is_followed(
    path: Path, flushed_by_hand: None
) -> None:
    """A budgeted search commits while the store's thread reads the keys (stop 39).

    The keys come with the header from before that commit: without the step, every read
    of the keys went out of date as it landed, each search committing within its ~10 ms.
    """
    now = time.time()
    async with SQLiteStore(path) as store:
        await _set(store, "k", b"v", now)
        await _flushed(store)
        scanned, go_on = threading.Event(), threading.Event()
        load = store._known.load

        def held_load(header: bytes | None, keys: Iterable[str]) -> None:
            scanned.set()
            go_on.wait(10)
            load(header, keys)

        store._known.load = held_load  # type: ignore[method-assign]
        for key in ("a key never written", "another"):  # the second asks for the keys
            assert await store.cache_get(key, now) is None
        assert await asyncio.to_thread(scanned.wait, 10)
        assert (await store.reserve_unless_marked("brave", _budgeted(), now)).granted
        go_on.set()
        await store._run(lambda conn: None)
        assert await _miss_told_unread(store, "new", now)
        assert await store.cache_get("k", now) == CachedEntry(b"v", now, now + 60)


def test_a_header_that_cannot_be_read_tells_nothing() -> None:
    known = KnownKeys(bound=100)
    known.load(None, ["a"])
    assert not known.absent("b", None)
    known.load(_header(1, 2), [])
    assert not known.absent("b", None)
    assert not known.ask_load(None)


def test_keys_past_the_bound_are_forgotten() -> None:
    # The sweeps delete rows and the flushes only add keys: the set must not grow for ever.
    known = KnownKeys(bound=3)
    known.load(_header(1, 2), ["a", "b"])
    known.add(["c"])
    known.committed(_header(1, 2), _header(2, 4))
    assert known.absent("d", _header(2, 4))
    known.add(["d"])
    assert not known.absent("e", _header(2, 4))
    known.committed(_header(2, 4), _header(3, 6))
    assert not known.absent("e", _header(3, 6))


async def test_one_lookup_never_reads_the_keys(path: Path, flushed_by_hand: None) -> None:
    # One websearch command looks one key up: reading every key would be spent for nothing.
    now = time.time()
    async with SQLiteStore(path) as store:
        await _set(store, "k", b"v", now)
        await _flushed(store)
        assert await store.cache_get("new", now) is None
        await store._run(lambda conn: None)
        statements = _traced(store)
        assert await store.cache_get("newer", now) is None
        assert statements  # read from the file: the keys were not asked for


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


def test_keys_that_go_out_of_date_unused_are_read_ever_less_often(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = _Clock()
    monkeypatch.setattr(_known_keys, "time", clock)
    known = KnownKeys(bound=1000)
    assert not known.ask_load(_header(1, 2))  # the first miss read: not yet
    assert known.ask_load(_header(1, 2))
    known.load(_header(1, 2), [f"k{i}" for i in range(64)])
    waits = []
    for commits in range(2, 6):  # out of date each time before it spared a read
        header = _header(commits, 2 * commits)
        start = clock.now
        while not known.ask_load(header):
            clock.now += 0.25
        waits.append(clock.now - start)
        known.load(header, [f"k{i}" for i in range(64)])
    assert waits == [RELOAD_AFTER, RELOAD_AFTER * 2, RELOAD_AFTER * 4, RELOAD_AFTER * 8]
    for index in range(2):  # 64 keys: two reads spared pay for them
        assert known.absent(f"new{index}", _header(5, 10))
    start = clock.now
    while not known.ask_load(_header(6, 12)):
        clock.now += 0.25
    known.load(_header(6, 12), [])
    assert not known.ask_load(_header(7, 14))
    clock.now += RELOAD_AFTER
    assert known.ask_load(_header(7, 14))  # the wait is back to its start
