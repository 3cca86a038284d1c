"""The wal-index header tells the SQLite store whether anything committed, or says it cannot.

What must hold (issue 11): the header read off the ``-shm`` file changes on every commit, by
this process or another, and not on reads, a rollback or a passive checkpoint (a checkpoint
that restarts the WAL may move it: one read more, never a wrong answer); a header that
cannot be trusted (not WAL, a stale file, a commit writing it, an unknown format) reads as
``None`` so the store asks ``PRAGMA data_version`` instead, and still sees every change.
"""

import contextlib
import gc
import os
import sqlite3
import struct
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from websearch_core.state import ProviderMark, SQLiteStore, UsageWindow
from websearch_core.state._wal_index import WalIndex

WAL_INDEX_VERSION = 3007000
FAR = time.time() + 3600
UNCAPPED = (UsageWindow("month:test", FAR),)


def _header(*, version: int = WAL_INDEX_VERSION, initialised: int = 1, change: int = 7) -> bytes:
    """One copy of a wal-index header as SQLite lays it out (native byte order, 48 bytes)."""
    fields = struct.pack("=IIIBBHII", version, 0, change, initialised, 0, 4096, 3, 2)
    return fields + bytes(48 - len(fields))  # frame checksum, salts, header checksum


def _reader(tmp_path: Path, content: bytes) -> WalIndex:
    shm = tmp_path / "made-up-shm"
    shm.write_bytes(content)
    return WalIndex(os.open(shm, os.O_RDONLY))


@pytest.fixture
def database(tmp_path: Path) -> Iterator[tuple[Path, sqlite3.Connection]]:
    path = tmp_path / "state.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("CREATE TABLE t (a)")
    yield path, conn
    conn.close()


def _opened(database: tuple[Path, sqlite3.Connection]) -> WalIndex:
    reader = WalIndex.open(*database)
    assert reader is not None
    return reader


def test_the_header_moves_on_every_commit_not_on_reads_or_rollbacks(
    database: tuple[Path, sqlite3.Connection],
) -> None:
    path, ours = database
    reader = _opened(database)
    other = sqlite3.connect(path, isolation_level=None)
    try:
        before = reader.header()
        assert before is not None
        other.execute("SELECT * FROM t").fetchall()
        ours.execute("BEGIN IMMEDIATE")
        ours.execute("INSERT INTO t VALUES (1)")
        ours.execute("ROLLBACK")
        other.execute("PRAGMA wal_checkpoint(PASSIVE)")
        assert reader.header() == before  # nothing committed
        other.execute("INSERT INTO t VALUES (2)")
        after_theirs = reader.header()
        ours.execute("INSERT INTO t VALUES (3)")
        after_ours = reader.header()
        assert len({before, after_theirs, after_ours}) == 3
    finally:
        other.close()
        reader.close()


def test_a_commit_by_another_process_moves_the_header(
    database: tuple[Path, sqlite3.Connection],
) -> None:
    path, _ = database
    reader = _opened(database)
    try:
        before = reader.header()
        writer = (
            "import sqlite3, sys\n"
            "conn = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
            "conn.execute('INSERT INTO t VALUES (1)')\n"
        )
        subprocess.run([sys.executable, "-c", writer, str(path)], check=True)
        assert reader.header() not in (before, None)
    finally:
        reader.close()


def test_a_symlinked_database_is_read_where_sqlite_keeps_its_index(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    link = tmp_path / "link.sqlite3"
    link.symlink_to(tmp_path / "real" / "state.sqlite3")
    conn = sqlite3.connect(link, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("CREATE TABLE t (a)")
        reader = _opened((link, conn))
        before = reader.header()
        conn.execute("INSERT INTO t VALUES (1)")
        assert reader.header() not in (before, None)
        reader.close()
    finally:
        conn.close()


def test_a_database_out_of_wal_mode_gets_no_reader_even_beside_a_stale_index(
    database: tuple[Path, sqlite3.Connection],
) -> None:
    path, conn = database
    shm = Path(f"{path}-shm")
    stale = shm.read_bytes()
    conn.execute("PRAGMA journal_mode = DELETE")  # SQLite removes its -wal and -shm
    shm.write_bytes(stale)  # a -shm left behind by an earlier WAL run never moves again
    assert WalIndex.open(path, conn) is None


def test_no_index_file_gets_no_reader(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "state.sqlite3", isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("CREATE TABLE t (a)")
        Path(f"{tmp_path / 'state.sqlite3'}-shm").unlink()  # as if SQLite kept it elsewhere
        assert WalIndex.open(tmp_path / "state.sqlite3", conn) is None
    finally:
        conn.close()


@pytest.mark.parametrize(
    "content",
    [
        _header(change=7) + _header(change=8),  # a commit writing it: the copies differ
        _header(version=3007001) * 2,  # a wal-index format this module does not know
        _header(initialised=0) * 2,  # not set up yet
        _header()[:40],  # shorter than the header
        b"",
    ],
    ids=["copies-differ", "unknown-version", "not-initialised", "short", "empty"],
)
def test_a_header_that_cannot_be_trusted_reads_as_none(tmp_path: Path, content: bytes) -> None:
    reader = _reader(tmp_path, content)
    assert reader.header() is None
    reader.close()


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="reads /proc/self/fd")
def test_a_reader_dropped_unclosed_closes_its_file(tmp_path: Path) -> None:
    reader = _reader(tmp_path, _header() * 2)
    fd = reader._fd
    assert fd is not None
    link = Path(f"/proc/self/fd/{fd}")
    assert link.readlink() == tmp_path / "made-up-shm"
    del reader
    gc.collect()
    # Closed: the number is free, or already reused for some other file.
    assert not link.exists() or link.readlink() != tmp_path / "made-up-shm"


def test_a_well_formed_header_reads_as_its_first_copy(tmp_path: Path) -> None:
    reader = _reader(tmp_path, _header(change=9) * 2 + b"checkpoint info follows")
    assert reader.header() == _header(change=9)
    reader.close()
    reader.close()  # closing twice is harmless
    assert reader.header() is None


@contextlib.asynccontextmanager
async def _two_stores(tmp_path: Path) -> AsyncIterator[tuple[SQLiteStore, SQLiteStore]]:
    """Ours, with its inline connection open, and another store on the same file."""
    path = tmp_path / "state.sqlite3"
    async with SQLiteStore(path) as ours, SQLiteStore(path) as theirs:
        for _ in range(2):  # the first opens the file (queued), the second runs inline
            await ours.record_failure("tavily")
        yield ours, theirs


async def _reserves_then_sees_their_cooldown(
    ours: SQLiteStore, theirs: SQLiteStore, reservations: int
) -> None:
    """``ours`` grants ``reservations``, then refuses once ``theirs`` commits a cooldown."""
    now = time.time()
    for _ in range(reservations):
        assert (await ours.reserve_unless_marked("brave", UNCAPPED, now)).granted
    cooldown = ProviderMark("rate_limited", until=now + 60, reason="429 by test")
    await theirs.set_mark("brave", cooldown)
    marked = await ours.reserve_unless_marked("brave", UNCAPPED, now)
    assert (marked.granted, marked.mark) == (False, cooldown)


async def test_the_store_asks_data_version_while_the_header_cannot_be_trusted(
    tmp_path: Path,
) -> None:
    """A commit caught mid-write (copies differ) leaves the store on the pragma: still exact."""
    async with _two_stores(tmp_path) as (ours, theirs):
        conn = ours._inline  # the connection under test: nothing public reaches it
        assert conn is not None and ours._wal_index is not None
        ours._wal_index.close()
        ours._wal_index = _reader(tmp_path, _header(change=1) + _header(change=2))
        statements: list[str] = []
        conn.set_trace_callback(statements.append)
        # Two reservations: read at once after opening, then asked and kept.
        await _reserves_then_sees_their_cooldown(ours, theirs, 2)
        assert any("data_version" in sql for sql in statements)


async def test_the_store_reads_the_header_from_memory_and_still_sees_every_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each reservation reads the header; mapped, that is no system call on the event loop."""
    async with _two_stores(tmp_path) as (ours, theirs):
        preads: list[int] = []
        real_pread = os.pread

        def counted_pread(fd: int, length: int, offset: int) -> bytes:
            preads.append(fd)
            return real_pread(fd, length, offset)

        monkeypatch.setattr(os, "pread", counted_pread)
        await _reserves_then_sees_their_cooldown(ours, theirs, 3)
        assert preads == []


def test_guard_an_index_too_short_to_map_is_read_as_before_once_it_grows(tmp_path: Path) -> None:
    """Guard (passes before and after the mapping): a short file is still read, by ``pread``."""
    reader = _reader(tmp_path, _header()[:40])
    assert reader.header() is None
    (tmp_path / "made-up-shm").write_bytes(_header(change=5) * 2)
    assert reader.header() == _header(change=5)
    reader.close()
    assert reader.header() is None


def test_guard_a_mapped_header_follows_writes_to_the_file(tmp_path: Path) -> None:
    """Guard (passes before and after the mapping): the bytes read are the file's current ones."""
    reader = _reader(tmp_path, _header(change=1) * 2)
    assert reader.header() == _header(change=1)
    with open(tmp_path / "made-up-shm", "r+b") as shm:
        shm.write(_header(change=2))  # a commit half written: the copies differ
        shm.flush()
        assert reader.header() is None
        shm.write(_header(change=2))
        shm.flush()
    assert reader.header() == _header(change=2)
    reader.close()
    assert reader.header() is None


def test_guard_a_kept_header_is_not_served_while_its_second_copy_moves(tmp_path: Path) -> None:
    """Guard (passes before and after the reader kept its last trusted read).

    SQLite writes the second copy first: with the first still the one kept, the header is
    mid-commit and reads as ``None``, not as the kept one; a header seen before is checked
    again when it comes back.
    """
    reader = _reader(tmp_path, _header(change=1) * 2)
    assert reader.header() == _header(change=1)
    assert reader.header() == _header(change=1)  # unchanged: the kept read
    with open(tmp_path / "made-up-shm", "r+b") as shm:
        shm.seek(48)
        shm.write(_header(change=2))
        shm.flush()
        assert reader.header() is None
        shm.seek(0)
        shm.write(_header(change=2))
        shm.flush()
        assert reader.header() == _header(change=2)
        shm.seek(0)
        shm.write(_header(change=1, initialised=0) * 2)
        shm.flush()
        assert reader.header() is None
    reader.close()
    assert reader.header() is None
