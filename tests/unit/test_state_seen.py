"""The SQLite store reuses its last read for a reservation without a cap only while it is true.

What must hold (issue 11): the rows a reservation read (mark, failure counter, usage count)
are reused only while the file's wal-index header (or ``PRAGMA data_version``, where the
header cannot be read) says no other connection committed and the store's own connection
wrote nothing; a mark or a count written by another client or another process is seen by
the very next reservation; a mark's ``until`` and a count's ``expires_at`` are judged
against each call's clock, never remembered as an answer. Every test runs with both ways
of telling.
"""

import asyncio
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from websearch_core.state import ProviderMark, SQLiteStore, UsageWindow
from websearch_core.state import sqlite as sqlite_module
from websearch_core.state._seen import ProviderRows
from websearch_core.state._wal_index import WalIndex

MONTH = "month:test"
FAR = time.time() + 3600


def _uncapped() -> tuple[UsageWindow, ...]:
    return (UsageWindow(MONTH, FAR),)


@pytest.fixture(autouse=True)
def _no_flush_meanwhile(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep the store's thread from flushing mid-test: its commit would force a read anyway."""
    monkeypatch.setattr("websearch_core.state.sqlite.FLUSH_AFTER", 600.0)


@pytest.fixture(autouse=True, params=["wal-index", "data_version"])
def detector(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """How the store tells that the file moved: its header, or the pragma it falls back to."""
    if request.param == "data_version":  # as where the header cannot be read (not WAL, ...)
        monkeypatch.setattr(WalIndex, "open", classmethod(lambda cls, database, conn: None))
    return str(request.param)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "state.sqlite3"


class Statements:
    """The statements the store's inline connection runs (its trace callback)."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def attach(self, store: SQLiteStore) -> None:
        conn = store._inline  # the connection under test: nothing public reaches it
        assert conn is not None, "the store has not run a call inline yet"
        conn.set_trace_callback(self.seen.append)

    def reads(self) -> int:
        """How many provider reads ran since the last call (the pragma is not one)."""
        count = sum("marks" in sql or "usage" in sql for sql in self.seen)
        self.seen.clear()
        return count


@pytest.fixture
def statements() -> Iterator[Statements]:
    yield Statements()


async def _opened(store: SQLiteStore) -> None:
    # Opens the file and the inline connection, and makes the store's first reservation
    # (after opening, as after a flush, a read is not kept): another provider's, which
    # leaves brave's rows untouched.
    await store.record_failure("tavily")
    await store.record_failure("tavily")
    await store.reserve_unless_marked("tavily", _uncapped(), time.time())


async def test_an_unchanged_file_is_not_read_again(
    path: Path, statements: Statements, detector: str
) -> None:
    async with SQLiteStore(path) as store:
        await _opened(store)
        statements.attach(store)
        counts = [(await store.reserve_unless_marked("brave", _uncapped(), time.time())).counts]
        assert statements.reads() == 1
        for _ in range(3):
            grant = await store.reserve_unless_marked("brave", _uncapped(), time.time())
            counts.append(grant.counts)
        asked = [sql for sql in statements.seen if "PRAGMA data_version" in sql]
        assert statements.reads() == 0  # only the header (or the pragma) was looked at
        assert len(asked) == (3 if detector == "data_version" else 0)
        assert counts == [(1,), (2,), (3,), (4,)]  # this process's pending counts added


async def test_a_mark_written_by_another_client_is_seen_at_once(
    path: Path, statements: Statements
) -> None:
    now = time.time()
    async with SQLiteStore(path) as ours, SQLiteStore(path) as theirs:
        await _opened(ours)
        statements.attach(ours)
        assert (await ours.reserve_unless_marked("brave", _uncapped(), now)).granted
        cooldown = ProviderMark("rate_limited", until=now + 60, reason="429 by test")
        await theirs.set_mark("brave", cooldown)
        marked = await ours.reserve_unless_marked("brave", _uncapped(), now)
        assert (marked.granted, marked.mark) == (False, cooldown)
        await theirs.clear_mark("brave")
        assert (await ours.reserve_unless_marked("brave", _uncapped(), now)).counts == (2,)
        assert statements.reads() == 3  # each change read again


async def test_counts_and_failures_written_by_another_client_are_seen_at_once(
    path: Path,
) -> None:
    async with SQLiteStore(path) as ours, SQLiteStore(path) as theirs:
        await _opened(ours)
        first = await ours.reserve_unless_marked("brave", _uncapped(), time.time())
        assert (first.counts, first.failures) == ((1,), 0)
        await theirs.increment_usage("brave", MONTH, FAR)
        await theirs.record_failure("brave")
        second = await ours.reserve_unless_marked("brave", _uncapped(), time.time())
        assert (second.counts, second.failures) == ((3,), 1)  # theirs 1 + ours 2 pending


async def test_a_mark_written_by_another_process_is_seen_at_once(path: Path) -> None:
    now = time.time()
    async with SQLiteStore(path) as ours:
        await _opened(ours)
        assert (await ours.reserve_unless_marked("brave", _uncapped(), now)).granted
        writer = (
            "import sqlite3, sys\n"
            "conn = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
            'conn.execute("INSERT INTO marks (provider, kind, until, reason, failures, set_at)'
            " VALUES ('brave', 'exhausted', ?, 'by another process', 0, ?)\","
            " (float(sys.argv[2]), float(sys.argv[2]) - 60))\n"
        )
        subprocess.run([sys.executable, "-c", writer, str(path), str(now + 60)], check=True)
        marked = await ours.reserve_unless_marked("brave", _uncapped(), now)
        assert not marked.granted
        assert marked.mark is not None
        assert (marked.mark.kind, marked.mark.reason) == ("exhausted", "by another process")


async def test_this_clients_own_writes_are_seen_at_once(path: Path) -> None:
    """Its own commits leave its data_version alone: its change count must tell instead."""
    now = time.time()
    async with SQLiteStore(path) as store:
        await _opened(store)
        assert (await store.reserve_unless_marked("brave", _uncapped(), now)).failures == 0
        await store.record_failure("brave")
        assert (await store.reserve_unless_marked("brave", _uncapped(), now)).failures == 1
        await store.reset_failures("brave")  # a read that writes
        assert (await store.reserve_unless_marked("brave", _uncapped(), now)).failures == 0
        cooldown = ProviderMark("rate_limited", until=now + 60, reason="429 by test")
        await store.set_mark("brave", cooldown)
        assert (await store.reserve_unless_marked("brave", _uncapped(), now)).mark == cooldown
        await store.clear_mark("brave")
        assert (await store.reserve_unless_marked("brave", _uncapped(), now)).granted


async def test_a_kept_mark_is_judged_at_each_calls_time(path: Path, statements: Statements) -> None:
    until = time.time() + 60
    async with SQLiteStore(path) as store:
        await _opened(store)
        cooldown = ProviderMark("rate_limited", until=until, reason="429 by test")
        await store.set_mark("brave", cooldown)
        statements.attach(store)
        before = await store.reserve_unless_marked("brave", _uncapped(), until - 1)
        assert (before.granted, before.mark) == (False, cooldown)
        at_end = await store.reserve_unless_marked("brave", _uncapped(), until)
        after = await store.reserve_unless_marked("brave", _uncapped(), until + 1)
        assert (at_end.granted, at_end.counts) == (True, (1,))  # active while until > now
        assert (after.granted, after.counts) == (True, (2,))
        assert statements.reads() == 1  # the same row, judged three times


async def test_a_kept_count_is_judged_at_each_calls_time(
    path: Path, statements: Statements, monkeypatch: pytest.MonkeyPatch
) -> None:
    ends = time.time() + 60
    async with SQLiteStore(path) as ours, SQLiteStore(path) as theirs:
        await _opened(ours)
        await theirs.increment_usage("brave", MONTH, ends)
        statements.attach(ours)
        clock = SimpleNamespace(time=lambda: ends - 1)
        monkeypatch.setattr("websearch_core.state.sqlite.time", clock)  # the store's wall clock
        live = await ours.reserve_unless_marked("brave", _uncapped(), ends - 1)
        clock.time = lambda: ends  # the file's count ended (expires_at > now no longer holds)
        ended = await ours.reserve_unless_marked("brave", _uncapped(), ends)
        assert (live.counts, ended.counts) == ((2,), (2,))  # 1 + 1 pending, then 0 + 2 pending
        assert statements.reads() == 1


async def _flushed(store: SQLiteStore) -> None:
    """The flush the store's alarm would start now, run on its thread; waited for."""
    pending = store._pending  # its generation moves once on taking a batch, once on settling
    taken = pending.generation
    store._flush_due()  # what the alarm calls (the one armed waits FLUSH_AFTER, 600 s here)
    started = time.monotonic()
    while pending.holds_any() or pending.generation % 2 or pending.generation == taken:
        assert time.monotonic() - started < 30, "the flush never ran"
        await asyncio.sleep(0.01)


async def test_after_its_own_flush_the_store_keeps_what_it_read(
    path: Path, statements: Statements, monkeypatch: pytest.MonkeyPatch, detector: str
) -> None:
    """Searches further apart than the flush interval: the kept rows follow the flush.

    The flush was the only commit since they were read, and it knows what it added, so
    with the header to tell that by nothing is read again (one read each before: the
    wal-index case failed so). With the pragma only, the first read after the flush is
    made without asking first and not kept, as before.
    """
    async with SQLiteStore(path) as store:
        await _opened(store)
        await store.reserve_unless_marked("brave", _uncapped(), time.time())
        await _flushed(store)
        statements.attach(store)
        headers = _counted_header_reads(store)
        steps = []
        for _ in range(3):
            grant = await store.reserve_unless_marked("brave", _uncapped(), time.time())
            asked = any("PRAGMA data_version" in sql for sql in statements.seen) or headers.pop()
            steps.append((grant.counts, asked, statements.reads()))
        # 1 in the file plus the pending ones.
        if detector == "wal-index":  # followed, then kept
            assert steps == [((2,), True, 0), ((3,), True, 0), ((4,), True, 0)]
        else:  # read at once, then asked and kept, then reused
            assert steps == [((2,), False, 1), ((3,), True, 1), ((4,), True, 0)]


async def test_rows_followed_across_flushes_are_what_the_file_holds(
    path: Path, statements: Statements, detector: str
) -> None:
    """After each flush the kept rows are the rows a fresh read of the file gives.

    Two counters: one the flush adds to, one whose row ended before the first flush (its
    count starts again, as the SQL has it), over three flushes. With the header, none of
    them is read again after the first reservation (each was, before the rows followed).
    """
    windows = (UsageWindow(MONTH, FAR), UsageWindow("week:test", FAR))
    periods = (MONTH, "week:test")
    async with SQLiteStore(path) as ours, SQLiteStore(path) as theirs:
        await _opened(ours)
        ends = time.time() + 0.2
        await theirs.increment_usage("brave", "week:test", ends)
        await theirs.increment_usage("brave", MONTH, FAR)
        await asyncio.sleep(max(0.0, ends - time.time()) + 0.05)
        statements.attach(ours)
        reads = []
        for expected in (2, 3, 4, 5):
            grant = await ours.reserve_unless_marked("brave", windows, time.time())
            assert grant.counts == (expected, expected - 1)
            reads.append(statements.reads())
            await _flushed(ours)
        for _ in range(2):  # without the header, the first read after a flush is not kept
            await ours.reserve_unless_marked("brave", windows, time.time())
        kept = ours._seen.get("brave", periods)
        fresh = sqlite3.connect(path)
        try:
            assert kept == sqlite_module._read_provider_rows(fresh, "brave", periods)
        finally:
            fresh.close()
        if detector == "wal-index":
            assert reads == [2, 0, 0, 0]  # one statement a period, the first time only


async def test_guard_a_commit_after_the_flush_is_seen_at_once(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Guard (passes before and after the rows followed flushes): another's write is read."""
    now = time.time()
    async with SQLiteStore(path) as ours, SQLiteStore(path) as theirs:
        await _opened(ours)
        assert (await ours.reserve_unless_marked("brave", _uncapped(), now)).counts == (1,)
        await _flushed(ours)
        cooldown = ProviderMark("rate_limited", until=now + 60, reason="429 by test")
        await theirs.increment_usage("brave", MONTH, FAR)
        await theirs.set_mark("brave", cooldown)
        marked = await ours.reserve_unless_marked("brave", _uncapped(), now)
        assert (marked.granted, marked.mark) == (False, cooldown)
        await theirs.clear_mark("brave")
        assert (await ours.reserve_unless_marked("brave", _uncapped(), now)).counts == (3,)


async def test_guard_a_commit_before_the_flush_is_seen_at_once(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Guard (passes before and after): a write between the kept read and the flush is read.

    The flush was then not the only commit since the rows were kept, so they cannot
    follow it: adding its counts to them would lose the other client's.
    """
    now = time.time()
    async with SQLiteStore(path) as ours, SQLiteStore(path) as theirs:
        await _opened(ours)
        assert (await ours.reserve_unless_marked("brave", _uncapped(), now)).counts == (1,)
        await theirs.increment_usage("brave", MONTH, FAR)
        await theirs.record_failure("brave")
        await _flushed(ours)
        grant = await ours.reserve_unless_marked("brave", _uncapped(), now)
        assert (grant.counts, grant.failures) == ((3,), 1)


async def test_guard_a_commit_during_the_flush_is_seen_at_once(path: Path) -> None:
    """Guard (passes before and after): a commit right after the flush's own is read.

    Made by another connection between the flush's ``COMMIT`` and its header read after
    it, it counts two commits where the flush made one: the rows must not follow.
    """
    now = time.time()
    async with SQLiteStore(path) as ours:
        await _opened(ours)
        assert (await ours.reserve_unless_marked("brave", _uncapped(), now)).counts == (1,)
        reader = ours._conn_wal_index  # the store's thread's: read in and after the flush
        other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        reads: list[int] = []
        if reader is not None:
            real = reader.header

            def after_another() -> bytes | None:
                reads.append(1)
                if len(reads) == 2:  # the first read is inside the transaction
                    other.execute(
                        "INSERT INTO marks (provider, kind, until, reason, failures, set_at)"
                        " VALUES ('brave', 'exhausted', ?, 'meanwhile', 0, ?)",
                        (now + 60, now),
                    )
                return real()

            reader.header = after_another  # type: ignore[method-assign]
        try:
            await _flushed(ours)
            if len(reads) < 2:  # no header read after the COMMIT: the mark after the flush
                other.execute(
                    "INSERT INTO marks (provider, kind, until, reason, failures, set_at)"
                    " VALUES ('brave', 'exhausted', ?, 'meanwhile', 0, ?)",
                    (now + 60, now),
                )
        finally:
            other.close()
        marked = await ours.reserve_unless_marked("brave", _uncapped(), now)
        assert not marked.granted
        assert marked.mark is not None and marked.mark.reason == "meanwhile"


class _HeaderReads:
    """Whether the store read its wal-index header since the last :meth:`pop`."""

    def __init__(self) -> None:
        self.count = 0

    def pop(self) -> bool:
        read, self.count = self.count > 0, 0
        return read


def _counted_header_reads(store: SQLiteStore) -> _HeaderReads:
    """Count the store's header reads (the real reader runs; it is only counted)."""
    reads = _HeaderReads()
    wal_index = store._wal_index
    if wal_index is not None:
        real = wal_index.header

        def counted() -> bytes | None:
            reads.count += 1
            return real()

        wal_index.header = counted  # type: ignore[method-assign]
    return reads


async def test_guard_rows_read_while_the_flush_commits_are_not_followed(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Guard (passes before the rows followed flushes too): no flush is counted twice.

    Rows read while a flush commits (between the header read and the rows read) hold its
    counts already, under a header from before it: kept, they would follow the flush and
    count it again (a count of 4 here for 3). The flush is run at that moment on the
    store's thread, where it always runs.
    """
    real = sqlite_module._read_provider_rows
    once: list[SQLiteStore] = []

    def flushed_first(
        conn: sqlite3.Connection, provider: str, periods: tuple[str, ...]
    ) -> ProviderRows:
        if once and threading.current_thread() is threading.main_thread():
            store = once.pop()
            store._executor.submit(store._flush).result()
        return real(conn, provider, periods)

    async with SQLiteStore(path) as ours, SQLiteStore(path) as theirs:
        await _opened(ours)
        assert (await ours.reserve_unless_marked("brave", _uncapped(), time.time())).counts == (1,)
        await theirs.record_failure("tavily")  # the file moved: brave's rows are read again
        monkeypatch.setattr(sqlite_module, "_read_provider_rows", flushed_first)
        once.append(ours)
        raced = await ours.reserve_unless_marked("brave", _uncapped(), time.time())
        assert not once, "the flush did not run during the read"
        after = await ours.reserve_unless_marked("brave", _uncapped(), time.time())
        assert (raced.counts, after.counts) == ((2,), (3,))


async def test_guard_windows_changed_in_place_are_judged_again(path: Path) -> None:
    """Guard (passes before and after the store kept its last windows): a list is read anew.

    The store keeps what it derived from the last windows it was given while they are the
    same tuple; a list given again after a capped window was added to it is a budget now.
    """
    async with SQLiteStore(path) as store:
        await _opened(store)
        windows = [UsageWindow(MONTH, FAR)]
        for _ in range(2):
            assert (await store.reserve_unless_marked("brave", windows, time.time())).granted
        windows.append(UsageWindow("budget:month:test", FAR, limit=1))
        capped = await store.reserve_unless_marked("brave", windows, time.time())
        assert capped.granted and capped.counts[1] == 1
        spent = await store.reserve_unless_marked("brave", windows, time.time())
        assert not spent.granted and spent.counts[1] == 1  # the budget checked in the file
        uncapped = _uncapped()
        for expected in (4, 5):
            counted = await store.reserve_unless_marked("brave", uncapped, time.time())
            assert counted.counts == (expected,)
