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
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from websearch_core.state import ProviderMark, SQLiteStore, UsageWindow
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


async def test_after_its_own_flush_the_store_reads_without_asking_first(
    path: Path, statements: Statements, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Searches further apart than the flush interval pay the read only, not the check too."""
    monkeypatch.setattr("websearch_core.state.sqlite.FLUSH_AFTER", 0.01)
    async with SQLiteStore(path) as store:
        await _opened(store)
        await store.reserve_unless_marked("brave", _uncapped(), time.time())
        started = time.monotonic()
        pending = store._pending  # its generation moves once on taking a batch, once on settling
        while pending.holds("brave") or pending.generation % 2 or not pending.generation:
            assert time.monotonic() - started < 10, "the flush never ran"
            await asyncio.sleep(0.01)
        monkeypatch.setattr("websearch_core.state.sqlite.FLUSH_AFTER", 600.0)  # no other now
        statements.attach(store)
        headers = _counted_header_reads(store)
        steps = []
        for _ in range(3):
            grant = await store.reserve_unless_marked("brave", _uncapped(), time.time())
            asked = any("PRAGMA data_version" in sql for sql in statements.seen) or headers.pop()
            steps.append((grant.counts, asked, statements.reads()))
        # 1 in the file plus the pending ones; read at once, then asked and kept, then reused.
        assert steps == [((2,), False, 1), ((3,), True, 1), ((4,), True, 0)]


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
