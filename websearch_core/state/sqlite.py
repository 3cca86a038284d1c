"""The default state backend: one SQLite file shared by every process of one user.

Why it is built this way:

* WAL journal + ``busy_timeout``: readers never block the writer and concurrent writers
  from several processes wait for each other instead of failing with "database is locked".
  ``synchronous=NORMAL`` keeps every committed transaction across a killed process (only a
  power cut can lose the last ones), at a fraction of the cost of a full fsync per write.
* Autocommit, one statement per write where possible: counters are a single
  ``INSERT ... ON CONFLICT DO UPDATE ... RETURNING`` so an increment is atomic across
  processes without a read-modify-write window; multi-statement writes use
  ``BEGIN IMMEDIATE`` so they take the write lock up front (a deferred transaction that
  upgrades can fail immediately under WAL, bypassing the busy handler).
* Short reads and writes run inline, on the caller's thread, through a connection that
  never waits (busy timeout zero, no automatic checkpoint): one small WAL transaction
  costs tens of microseconds, a hop to a worker thread and back several times that. What
  could wait runs on a dedicated single-thread executor instead: a write while another
  process (or this store's own thread) holds the lock, opening and migrating the file,
  checkpoints (which fsync) and cache sweeps. Neither ties the store to an event loop.
* The file and its directory are private (``0o600`` / ``0o700``): cached responses reveal
  what the user searched for.
* The file is stamped with an ``application_id``; a database that is not ours (another
  program's tables, a newer release's schema) is refused rather than written into, and a
  damaged one raises :class:`~websearch_core.state.base.CorruptStateError` so that
  ``websearch providers reset --all`` can move it aside.
* Reservations (budget check + count) are one ``BEGIN IMMEDIATE`` transaction; that same
  step reads the failure counter, so a success usually writes nothing more.
* Write-behind for counts nothing can refuse: when no window of a reservation has a cap
  (no budget, the usual case), :meth:`SQLiteStore.reserve_unless_marked` only reads (the
  cooldown mark, the failure counter, the counts) and counts in memory
  (:mod:`._pending`); that read is reused while the wal-index header (or, when it
  cannot be read, ``PRAGMA data_version``) and the connection's own change count say the
  file has not moved (:mod:`._seen`, :mod:`._wal_index`). The store's
  thread writes what piled up in one transaction
  :data:`FLUSH_AFTER` seconds after the first of them, and on close. This process reads
  its own counts at once; other processes see them within that interval. A crash loses
  at most those pending counts, of providers without a budget: a count, never a budget
  overshoot (a capped reservation is one synchronous transaction, as above, and writes
  its provider's pending counts first).
* Result-cache entries are written behind with them (:mod:`._pending_cache`): a search
  that missed the cache wrote its answer in a transaction of its own on the caller's
  thread. This process reads its own entries from memory first, at once; other processes
  find them after the same flush; a crash loses at most those not yet flushed (a search
  asked again), as it loses counts. An entry given as a serialiser
  (:meth:`SQLiteStore.cache_set_deferred`) is serialised at that flush, off the caller's
  thread. A lookup of a key the file does not hold is told without a read while nothing
  but the store itself has committed since it read the file's keys (:mod:`._known_keys`).
  A process about to ``fork()`` flushes first unless the lock is held elsewhere
  (:meth:`SQLiteStore._before_fork`): the child starts with nothing pending and reads its
  parent's counts and entries in the file, or its entries in the memory it inherited.
* Behind another process's write lock, what is written behind waits
  :data:`OWED_WRITE_WAIT` for it, not the busy timeout: a flush tries again later, and the
  close (or an exit with the store still open) journals it beside the file with the cooldown
  marks, failure counts (and forgivenesses) and rate slots still queued (:mod:`._journal`);
  the next store to take the lock writes the journal in the transaction of its own counts,
  or on opening the file, or of a clear (which so wins over what was journaled before it);
  the file keeps when each provider was cleared, so that what was counted or set before a
  reset and journaled after it is not written either (:data:`._sqlite_sql.AT_PARAM`).

This module holds the store class. What holds none of its state lives beside it, one job a
module: the statements (:mod:`._sqlite_sql`), the row functions run inside a transaction,
handed the store's clock (:mod:`._sqlite_rows`), the schema and the checks that a file is
ours (:mod:`._sqlite_schema`), the private file and its WAL switch (:mod:`._sqlite_open`),
the headers read around a transaction (:mod:`._sqlite_commit`) and the exit's flush of a
store never closed (:mod:`._sqlite_orphan`).
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import functools
import logging
import operator
import os
import sqlite3
import threading
import time
import weakref
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Future
from datetime import UTC, datetime
from pathlib import Path
from typing import Final, TypeAlias, TypeVar

from ._alarm import Alarm
from ._file_id import FileId, OpenedFile
from ._journal import (
    Claimed,
    Journal,
    OwedWrite,
    claim_journals,
    move_journals,
    write_journal,
)
from ._known_keys import KnownKeys
from ._owed import HandedOver, Handover, OwedWrites
from ._pending import Batch, PendingUsage
from ._pending_cache import CacheBatch, PendingCache, PendingEntry
from ._seen import FlushedCounts, ProviderRows, SeenRows, mark_from_row, mark_row
from ._sqlite_commit import FlushRecord, KeysKept
from ._sqlite_open import make_private_dirs, set_wal
from ._sqlite_orphan import ORPHAN_FLUSH_WAIT, flush_orphaned, log_unwritten
from ._sqlite_rows import (
    cache_rows,
    current_mark,
    give_back,
    in_transaction,
    int_or_zero,
    is_busy,
    live_count,
    replay,
    replay_write,
    reserve,
    reset_since,
    returning_int,
    rollback,
    undo_reservation,
    write_cache_entries,
    write_pending,
)
from ._sqlite_rows import (
    read_provider_rows as _read_provider_rows,  # the name tests patch
)
from ._sqlite_schema import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    check_ours_at_once,
    is_corruption,
    migrate,
)
from ._sqlite_sql import (
    ACTIVE_MARK,
    ALL_PROVIDERS,
    CACHE_ROW,
    CLEAR_UNCHANGED,
    INCREMENT_USAGE,
    LIVE_FAILURES,
    RECORD_FAILURE,
    RECORD_RESET,
    TRIM_CACHE,
)
from ._threaded import ThreadedStore
from ._wal_index import WalIndex
from ._withdrawal import Withdrawal, WithdrawnError
from .base import (
    DEFAULT_MAX_CACHE_ENTRIES,
    FAILURE_WINDOW,
    CachedEntry,
    CorruptStateError,
    ProviderMark,
    StateStoreClosedError,
    StateStoreError,
    StateStoreTimeoutError,
    UsageGrant,
    UsageWindow,
    WriteHandedOverError,
    cache_times,
    check_cache_key,
    check_note,
    check_note_name,
    check_period,
    check_provider,
    check_rate_args,
    next_free_slot,
    select_cached,
)

__all__ = [
    "APPLICATION_ID",
    "FLUSH_AFTER",
    "ORPHAN_FLUSH_WAIT",
    "SCHEMA_VERSION",
    "SQLiteStore",
]

logger = logging.getLogger("websearch_core.state")

_T = TypeVar("_T")

_PURGE_EVERY: Final = 256  # cache writes between sweeps of the cache (expiry and count)
_CHECKPOINT_EVERY: Final = 256  # inline writes (one to a few WAL pages each) between checkpoints
OWED_WRITE_WAIT: Final = 0.25
"""Seconds a flush, or the close's last write, waits for another process's write lock.

What they write (counts of providers without a budget, cache entries) can wait: a flush
that does not get the lock tries again later, and the close journals what it owes
(:mod:`._journal`) for the next store that takes the lock. With the store's whole busy
timeout (10 s), a flush held every call queued behind it that long, and a close its grace.
"""
FORK_FLUSH_WAIT: Final = 1.0
"""Seconds a ``fork()`` waits at most for the store's thread to try the flush that hands the
child what is pending (the flush itself never waits for the lock)."""
FLUSH_AFTER: Final = 0.5
"""Seconds a count without a cap waits in memory before the store writes it (with the rest)."""
_Uncapped: TypeAlias = tuple[tuple[str, ...], tuple[tuple[str, float], ...]]
"""The periods and ``(period, expires_at)`` spans of windows without a cap (``_uncapped``)."""


def _wall_clock() -> float:
    """The store's wall clock, handed to the row functions (:mod:`._sqlite_rows`).

    ``time.time`` looked up in this module at each call, as the store's own methods read
    it: a test stepping this module's ``time`` steps every time the store judges by.
    """
    return time.time()


class SQLiteStore(ThreadedStore[sqlite3.Connection]):
    """State in one SQLite file, safe for several processes on one machine.

    Nothing touches the disk until the first operation, which creates the directory
    (``0o700``), the file (``0o600``) and the schema.

    The result cache is bounded: expired entries, and all but the ``max_cache_entries``
    latest written, are deleted when the store opens the file and every
    :data:`_PURGE_EVERY` cache writes after, on the store's thread (never on a read),
    in the flush that writes them (entries are written behind, as counts are).

    Args:
        path: The database file.
        busy_timeout: Seconds a write waits for another process's write lock before
            :class:`~websearch_core.state.StateStoreError` is raised.
        max_cache_entries: How many cache entries to keep at most (between sweeps, up
            to :data:`_PURGE_EVERY` more).
        chosen_by: The variable or setting that chose the file's directory
            (``WEBSEARCH_STATE_DIR``), named in every failure so that a user who never
            chose the path knows where to change it; ``None`` for the default directory.

    Raises:
        ValueError: ``max_cache_entries`` is less than 1.
    """

    _silent_why = " (another process may be holding the file locked)"

    def __init__(
        self,
        path: Path,
        *,
        busy_timeout: float = 10.0,
        max_cache_entries: int = DEFAULT_MAX_CACHE_ENTRIES,
        chosen_by: str | None = None,
    ) -> None:
        if max_cache_entries < 1:
            raise ValueError("max_cache_entries must be at least 1")
        # One worker: every call runs on the thread that owns the connection.
        super().__init__(max_workers=1, thread_name_prefix="websearch-state")
        self._path = Path(path)
        self._chosen_by = chosen_by
        self._busy_timeout = busy_timeout
        self._max_cache_entries = max_cache_entries
        self._conn: sqlite3.Connection | None = None  # used only on the executor thread
        self._cache_writes = 0
        # Short reads and writes run on the caller's thread through their own connection
        # (see _inline_first). Opened once the executor's connection has created and
        # migrated the file; guarded by a lock, and skipped (back to the executor) whenever
        # another thread holds it.
        self._inline: sqlite3.Connection | None = None
        self._inline_lock = threading.Lock()
        self._inline_writes = 0  # since the last checkpoint
        # The file's wal-index header, opened and closed with the inline connection: what
        # says the rows below may be reused (see _provider_rows).
        self._wal_index: WalIndex | None = None
        self._seen = SeenRows()  # the inline connection's last reads (see _provider_rows)
        # The store's thread's last flush, for those reads to follow (see _follow_flush).
        self._flushed: FlushedCounts | None = None
        self._last_uncapped: tuple[tuple[UsageWindow, ...], _Uncapped] | None = None
        # The cache's keys as of a wal-index header: a miss told without a read (cache_get).
        # The store's thread reads the header through its own reader, opened with its
        # connection; every transaction of the store's keeps the keys (_transaction).
        self._known = KnownKeys(_known_bound(self._max_cache_entries))
        self._conn_wal_index: WalIndex | None = None
        # Counts of reservations without a cap, written behind (see the module docstring).
        self._pending = PendingUsage()
        # Result-cache entries, written behind with them (see cache_set).
        self._pending_cache = PendingCache(max_cache_entries)
        # In a forked child: the entries its parent held and had not written (see cache_get).
        self._inherited: dict[str, PendingEntry] = {}
        self._flush_alarm = Alarm(self._flush_due, "websearch-state-flush")
        # Cooldown marks and failure counts queued behind a lock, to journal if never written.
        self._owed_writes = OwedWrites()
        # Which file the store's connection opened: what its journals are for (._file_id).
        self._opened = OpenedFile()
        # A store dropped or left open at exit still writes what it owes, on a connection
        # of its own (its thread may be gone by then).
        self._orphan_flush = self._orphan_finalizer()

    def __repr__(self) -> str:
        return f"SQLiteStore({str(self._path)!r})"

    def _forget_parent_state(self) -> None:
        """In a forked child: new connections, locks, pending counts and entries of its own.

        SQLite forbids using a connection across ``fork()``, and closing one there could
        touch the parent's locks and WAL, so the inherited handles are kept, unused, for
        the child's life. The parent writes the counts and cache entries it had pending
        itself; the child's own get a finalizer of their own. The parent's cache entries
        still pending (its flush before the fork found the lock held elsewhere) are read
        by the child until the file holds them (:meth:`_inherited_or_file`), and those
        it inherited in turn, unless its own writes of their keys are newer.
        """
        _INHERITED_HANDLES.extend(
            handle
            for handle in (self._conn, self._inline, self._wal_index, self._conn_wal_index)
            if handle is not None
        )
        self._conn = self._inline = None
        self._wal_index = self._conn_wal_index = None
        self._seen = SeenRows()
        self._flushed = None
        self._known = KnownKeys(_known_bound(self._max_cache_entries))
        self._inline_lock = threading.Lock()
        self._inline_writes = 0
        self._flush_alarm.abandon()  # the parent's: its thread did not come along
        self._flush_alarm = Alarm(self._flush_due, "websearch-state-flush")
        self._pending = PendingUsage()
        self._inherited = {**self._inherited, **self._pending_cache.held_at_fork()}
        self._pending_cache = PendingCache(self._max_cache_entries)
        self._owed_writes = OwedWrites()
        self._opened = OpenedFile()
        self._orphan_flush.detach()
        self._orphan_flush = self._orphan_finalizer()

    def _orphan_finalizer(self) -> weakref.finalize[..., SQLiteStore]:
        """The finalizer that writes, or journals, what the store owes if never closed."""
        owed = (self._pending, self._pending_cache, self._owed_writes, self._opened)
        return weakref.finalize(self, flush_orphaned, self._path, *owed, os.getpid(), _wall_clock)

    def _before_fork(self) -> None:
        """About to fork: flush what is pending now, so that the child reads it in the file.

        The child starts with empty pending counts and entries (its parent's are the
        parent's to write, once), and without this it read neither until the parent's next
        flush: a count of 0 where its parent had counted, a miss on an answer its parent had
        just cached (gunicorn ``--preload``, ``multiprocessing``'s "fork"). The flush runs
        on the store's thread, as every flush does (a batch taken elsewhere could be missed
        by a reader queued there), waited for :data:`FORK_FLUSH_WAIT` seconds at most, and
        it does not wait for the write lock: behind another process's lock it waited that
        whole second, then the child read neither (stop 38). Now the fork goes on at once,
        the parent writes them at its next flush, and the child reads the parent's cache
        entries from the memory it inherited (:meth:`_forget_parent_state`); the counts,
        statistics only (a capped count is never pending), after the parent's flush. A
        store holding nothing, or known not to answer (a call given up on is still
        unanswered), costs the fork nothing.
        """
        if not (self._pending.holds_any() or len(self._pending_cache)) or self._stuck():
            return
        try:
            flush = functools.partial(self._flush, patient=False)
            self._executor.submit(flush).result(timeout=FORK_FLUSH_WAIT)
        except (RuntimeError, TimeoutError) as exc:  # RuntimeError: closing, shut down
            logger.debug("web search state: not flushed before fork(): %r", exc)

    @property
    def path(self) -> Path:
        """The database file."""
        return self._path

    # -- plumbing -------------------------------------------------------------------------

    def _call(self, func: Callable[[sqlite3.Connection], _T]) -> _T:
        try:
            return func(self._connection())
        except (sqlite3.Error, OSError, ValueError, TypeError) as exc:  # Value/Type: bad row
            if is_corruption(exc):
                self._drop_connection()  # a damaged file is not retried on a stale handle
            raise self._store_error(exc) from exc

    def _store_error(self, exc: BaseException) -> StateStoreError:
        message = f"SQLite state store {str(self._path)!r} failed: {type(exc).__name__}: {exc}"
        if self._chosen_by is not None:
            message += f"; its directory is set by {self._chosen_by}"
        return CorruptStateError(message) if is_corruption(exc) else StateStoreError(message)

    def _drop_connection(self) -> None:
        self._close_conn_wal_index()
        if self._conn is not None:
            conn, self._conn = self._conn, None
            with contextlib.suppress(sqlite3.Error):
                conn.close()

    async def _read(self, func: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run a read-only ``func``: inline when the inline connection is free, else queued."""
        return await self._inline_first(func, transaction=False)

    async def _read_with_pending(self, func: Callable[[int | None, sqlite3.Connection], _T]) -> _T:
        """Run ``func``, which adds pending counts to what it reads, where they agree.

        Inline, ``func`` gets the pending counts' generation from before its read and
        raises :class:`_InlineBusyError` when a batch was taken or settled since (the
        file may or may not hold it); it then runs again on the store's thread with
        ``None``: nothing to check, because every batch is taken, committed and settled
        (or put back) on that thread (:meth:`_write_pending_first`), never around it.
        """
        # Tried here rather than through _inline_first: it runs before every request, and
        # what only the queue needs (its partial, a coroutine more) is then built only for it.
        answer = self._try_inline(functools.partial(func, self._pending.generation), False)
        if answer is not _BUSY:
            return answer
        return await self._run(functools.partial(func, None))

    async def _run_write(
        self, func: Callable[[sqlite3.Connection], _T], owed: OwedWrite | None = None
    ) -> _T:
        """Run ``func`` in a ``BEGIN IMMEDIATE`` transaction, inline when the lock is free.

        Under WAL a deferred write that read a snapshot another process has since
        overtaken fails at once with "database is locked" (SQLITE_BUSY_SNAPSHOT), without
        waiting; taking the write lock first makes every writer wait its turn instead.

        ``owed`` says how to replay the write from a journal (see
        :data:`._sqlite_sql.REPLAY`): queued behind another process's lock, it is journaled
        by a close or an exit that cannot wait for it (:meth:`_hand_over`), and then
        withdrawn on the store's thread. Its
        caller, if still waiting, is told so with a :class:`StateStoreError` (its result
        is known to nobody); :meth:`_run_owed_write` for a write whose result nobody needs.

        Raises:
            StateStoreError: The write failed, or a close took it away (kept in a
                journal, or lost: the message says which).
        """
        if owed is None:
            return await self._inline_first(func, transaction=True)
        try:
            return await self._inline_first(
                func, transaction=True, queue=functools.partial(self._queue_owed, func, owed)
            )
        except _HandedOverError as handed:
            raise WriteHandedOverError(
                self._handed_over(handed.outcome), kept=handed.outcome.kept
            ) from None

    async def _run_owed_write(
        self, func: Callable[[sqlite3.Connection], object], owed: OwedWrite
    ) -> None:
        """:meth:`_run_write` of a write whose caller needs no result (a mark, a note).

        One a close took from the queue and journaled (or the exit wrote) stands: its
        caller is told nothing went wrong, as when it lands on the store's thread.

        Raises:
            StateStoreError: The write failed, or was taken by a close and lost.
        """
        try:
            await self._inline_first(
                func, transaction=True, queue=functools.partial(self._queue_owed, func, owed)
            )
        except _HandedOverError as handed:
            if not handed.outcome.kept:
                raise WriteHandedOverError(self._handed_over(handed.outcome), kept=False) from None

    def _handed_over(self, outcome: HandedOver) -> str:
        """What became of a write the close took while its caller waited, in one line."""
        closed = f"{self!r} was closed while this write waited for another process's write lock"
        if outcome.error is not None:
            return (
                f"{closed}, and it could be neither written nor journaled ({outcome.error}): "
                "it is lost; do it again once that process lets go of the file"
            )
        where = (
            f"journaled in {str(outcome.journal)!r} for the next process to write"
            if outcome.journal is not None
            else "written into the file as the store was dropped"
        )
        return f"{closed}: it is {where}, and its result is not known here"

    async def _queue_owed(self, func: Callable[[sqlite3.Connection], _T], owed: OwedWrite) -> _T:
        """Queue ``func``, tracked as ``owed`` until it has run (see :class:`.OwedWrites`).

        Raises:
            _HandedOverError: A close (or an exit) took the write away before it started
                (see :mod:`._owed`), whatever its job then said (withdrawn, the busy
                timeout, the caller's own deadline): the answer is what the close did.
            StateStoreError: The write failed, or its caller's wait ran out.
        """
        withdrawal = self._owed_writes.hold(owed)
        guarded = withdrawal.guard(func)  # checked once the lock is held, inside the transaction

        def write(conn: sqlite3.Connection) -> _T:
            try:
                return self._transaction(conn, guarded)
            finally:
                self._owed_writes.drop(withdrawal)

        try:
            return await self._run(write)
        except (StateStoreError, WithdrawnError) as exc:
            fate = self._owed_writes.fate(withdrawal)
            if fate is not None:
                raise _HandedOverError(await asyncio.wrap_future(fate)) from None
            if isinstance(exc, WithdrawnError):  # only a close withdraws: never here
                raise StateStoreError(f"{self!r}: a write was withdrawn unasked") from None
            if not isinstance(exc, StateStoreTimeoutError):  # never queued, or it ran
                self._owed_writes.drop(withdrawal)
            raise

    async def _inline_first(
        self,
        func: Callable[[sqlite3.Connection], _T],
        *,
        transaction: bool,
        queue: Callable[[], Awaitable[_T]] | None = None,
    ) -> _T:
        """Run ``func`` on the caller's thread unless that would mean waiting; else queue it.

        A small WAL transaction costs tens of microseconds, the hop to the store's thread
        and back several times that (and far more under load). So the inline connection
        never waits: its busy timeout is zero, and a write lock held by another process
        (or by this store's own thread), another thread using the inline connection, or a
        store not yet opened sends the call to the store's thread, whose connection waits
        its turn. Either way a write is one ``BEGIN IMMEDIATE`` transaction, so counts stay
        exact across processes. ``queue``, when given, is awaited instead of that: it
        queues what runs there, which opens its own transaction, if any. Built only then,
        what only a queued call needs (a withdrawal: the inline call never waits, so it is
        never given up on) costs the inline call nothing.
        """
        answer = self._try_inline(func, transaction)
        if answer is not _BUSY:
            return answer
        if queue is not None:
            return await queue()
        if transaction:
            return await self._run(functools.partial(self._transaction, func=func))
        return await self._run(func)

    def _try_inline(
        self, func: Callable[[sqlite3.Connection], _T], transaction: bool
    ) -> _T | _Busy:
        """``func`` on the inline connection, or :data:`_BUSY` where it would have waited.

        Only once the store's thread has opened it (:meth:`_open_inline_here`): a
        connection opened here would open it on the event loop.
        """
        if (
            not self._closed
            and self._conn is not None
            and self._inline is not None
            and self._inline_lock.acquire(False)
        ):
            try:
                return self._inline_call(func, transaction)
            except _InlineBusyError:
                return _BUSY
            finally:
                self._inline_lock.release()
        return _BUSY

    def _inline_call(self, func: Callable[[sqlite3.Connection], _T], transaction: bool) -> _T:
        """``func`` on the inline connection (its lock held); :class:`_InlineBusyError` if busy."""
        if self._closed:
            raise StateStoreClosedError()
        inline = self._inline
        if inline is None:  # closed after an error since the caller looked: queue it
            raise _InlineBusyError
        try:
            if not transaction:
                return func(inline)
            result = self._transaction(inline, func)
        except sqlite3.OperationalError as exc:
            if is_busy(exc):
                raise _InlineBusyError from None
            self._close_inline()
            raise self._store_error(exc) from exc
        except (sqlite3.Error, OSError, ValueError, TypeError) as exc:
            self._close_inline()
            raise self._store_error(exc) from exc
        self._inline_writes += 1
        if self._inline_writes >= _CHECKPOINT_EVERY:
            self._inline_writes = 0
            self._checkpoint_soon()
        return result

    def _open_inline(self) -> sqlite3.Connection:
        conn = sqlite3.connect(
            self._path, timeout=0.0, isolation_level=None, check_same_thread=False
        )
        try:
            # Per connection, not per file: without NORMAL every commit would fsync, and an
            # automatic checkpoint (which does) would run on the event loop.
            conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute("PRAGMA wal_autocheckpoint = 0")
        except BaseException:
            conn.close()
            raise
        self._wal_index = WalIndex.open(self._path, conn)
        return conn

    def _close_inline(self) -> None:
        conn, self._inline = self._inline, None
        self._seen.forget()
        wal_index, self._wal_index = self._wal_index, None
        if wal_index is not None:  # before the connection: its -shm file may go with it
            wal_index.close()
        if conn is not None:
            with contextlib.suppress(sqlite3.Error):
                conn.close()

    def _checkpoint_soon(self) -> None:
        """Queue a checkpoint on the store's thread, which may wait on the disk.

        The inline connection never checkpoints (an automatic checkpoint fsyncs, which
        would hold the event loop for milliseconds), so the WAL would otherwise only
        shrink when another process's connection checkpointed it.
        """
        try:
            future = self._executor.submit(self._call, _checkpoint)
        except RuntimeError:  # the executor was shut down by aclose()
            return
        future.add_done_callback(_log_checkpoint_failure)

    def _connection(self) -> sqlite3.Connection:
        conn = self._conn
        if conn is None:
            if self._closed:  # queued before aclose(): never reopen a closed store
                raise StateStoreClosedError()
            conn = self._conn = self._connect()
        if self._inline is None:
            self._open_inline_here()
        return conn

    def _open_inline_here(self) -> None:
        """Open the inline connection on the store's thread, with the file's own opening.

        Opening it (``connect``, two pragmas, the ``-shm`` file's reader) where its first
        call ran put a first search's file-system calls on the event loop: on a slow disk
        or a network home directory a tool's first call held every other task of a server
        for as long (0.3 s slowed, against 0.01-0.04 s otherwise). Here it costs the
        opening's one hop, which the file's creation needed anyway; inline calls queue
        until it is open, and after an error closed it, until the next queued call opens
        it again. Left closed when it cannot open: every call is then served here.
        """
        if self._closed or not self._inline_lock.acquire(False):
            return  # an inline call is closing it after an error: the next call opens it
        try:
            if self._inline is None:
                self._inline = self._open_inline()
        except (sqlite3.Error, OSError) as exc:
            logger.debug("%s: inline connection not opened (%r); calls queue", self, exc)
        finally:
            self._inline_lock.release()

    def _connect(self) -> sqlite3.Connection:
        make_private_dirs(self._path.parent)
        # Create the file ourselves so it is private from the first byte; SQLite gives the
        # -wal and -shm files the same permissions.
        os.close(os.open(self._path, os.O_RDWR | os.O_CREAT, 0o600))
        conn = sqlite3.connect(
            self._path, timeout=self._busy_timeout, isolation_level=None, check_same_thread=True
        )
        previous = self._opened.id
        self._opened.opened(self._path)  # before the journals are merged (_purge_unless_busy)
        if previous is not None and self._opened.id not in (None, previous):
            self._journal_for_moved(previous)
        try:
            version = check_ours_at_once(conn)  # before WAL, which writes into the file
            set_wal(conn, self._busy_timeout)
            conn.execute("PRAGMA synchronous = NORMAL")
            # A file at this schema needs no write to open: a read-only command (the
            # providers table, a search reading the cache) must not queue behind another
            # process's write lock for the busy timeout just to learn it has nothing to do.
            if version != SCHEMA_VERSION:
                self._migrate(conn)
            self._purge_unless_busy(conn)
            self._close_conn_wal_index()  # a connection dropped before: its reader too
            self._conn_wal_index = WalIndex.open(self._path, conn)
            # Here, on the store's thread, not by the first arm, which is often a count or
            # a cache entry held on the event loop's thread (the file opened by a lookup).
            self._flush_alarm.start()
        except BaseException:
            self._close_conn_wal_index()
            conn.close()
            raise
        return conn

    def _journal_for_moved(self, moved: FileId) -> None:
        """Journal what is pending for the file ``moved``, no longer the one at the path.

        Why: a connection to a damaged file is dropped on its error, and the next call
        opens the path again: after ``reset --all`` moved that file aside, the fresh one,
        into which the next flush wrote the counts and cache entries made for the old file.
        They are journaled for it instead (:mod:`._file_id`), and so end up beside it. Not
        journaled (a full disk), they are written into the file at the path, as before.
        """
        batch = self._pending.take()
        entries = self._pending_cache.batch()
        journal = Journal(batch, cache_rows(entries), [], file=moved)
        if not journal:
            self._pending.settle()
            return
        try:
            where = write_journal(self._path, journal)
        except OSError as exc:
            self._pending.restore(batch)
            logger.warning("web search state: could not journal %s: %s", journal.describe(), exc)
            return
        self._pending.settle()
        self._pending_cache.settle(entries)
        logger.info(
            "%s: the file at its path is not the one it opened (moved aside?): %s journaled "
            "in %r for that one",
            self,
            journal.describe(),
            str(where),
        )

    def _close_conn_wal_index(self) -> None:
        """Close the store's thread's wal-index reader; the keys known through it go too."""
        self._known.forget()
        wal_index, self._conn_wal_index = self._conn_wal_index, None
        if wal_index is not None:
            wal_index.close()

    @staticmethod
    def _migrate(conn: sqlite3.Connection) -> None:
        """Bring the file to :data:`SCHEMA_VERSION` (see :func:`._sqlite_schema.migrate`)."""
        migrate(conn)

    def _purge_unless_busy(self, conn: sqlite3.Connection) -> None:
        """Drop expired rows and write the journals, or leave both when the lock is held.

        What earlier stores journaled (:mod:`._journal`) is written here, by the next
        process to open the file with the lock free (and else by its first flush).

        The purge only keeps the file small (readers skip expired rows already), so it
        is not worth a wait: behind a write lock held elsewhere, it made every opening,
        even a read-only ``websearch providers``, wait the store's whole patience. The
        next opening that finds the lock free purges instead.
        """
        conn.execute("PRAGMA busy_timeout = 0")
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if not is_busy(exc):
                raise
            logger.debug("%s: write lock held elsewhere; expired rows left for later", self)
            return
        finally:
            conn.execute(f"PRAGMA busy_timeout = {int(self._busy_timeout * 1000)}")
        journals: Claimed | None = None
        try:
            journals = self._merge_journals(conn)  # what earlier stores could not write
            self._purge(conn, time.time())
            conn.execute("COMMIT")
        except BaseException:
            rollback(conn)
            if journals is not None:
                journals.given_back()
            raise
        journals.committed()

    def _purge(self, conn: sqlite3.Connection, wall_now: float) -> None:
        # Expired rows are invisible to readers already; this only keeps the file small.
        conn.execute("DELETE FROM marks WHERE until <= ?", (wall_now,))
        conn.execute("DELETE FROM usage WHERE expires_at <= ?", (wall_now,))
        conn.execute("DELETE FROM failures WHERE expires_at <= ?", (wall_now,))
        conn.execute("DELETE FROM notes WHERE until <= ?", (wall_now,))
        self._sweep_cache(conn, wall_now)

    def _sweep_cache(self, conn: sqlite3.Connection, wall_now: float) -> None:
        """Delete expired cache entries, then all but the ``max_cache_entries`` latest.

        Expired ones are invisible already; the count bounds the file, which stale
        entries (kept a week for serve-stale) would otherwise grow without limit.
        """
        conn.execute("DELETE FROM cache WHERE expires_at <= ?", (wall_now,))
        # Counted on an index, whose pages are small: the rows themselves are not read.
        count = int(conn.execute("SELECT count(*) FROM cache").fetchall()[0][0])
        if count > self._max_cache_entries:
            conn.execute(TRIM_CACHE, (count - self._max_cache_entries,))

    # -- marks ----------------------------------------------------------------------------

    async def get_mark(self, provider: str, now: float) -> ProviderMark | None:
        """See :meth:`StateStore.get_mark`."""
        check_provider(provider)

        def query(conn: sqlite3.Connection) -> ProviderMark | None:
            rows = conn.execute(ACTIVE_MARK, (provider, now)).fetchall()
            return current_mark(conn, provider, mark_from_row(rows[0]), now) if rows else None

        return await self._read(query)

    async def set_mark(self, provider: str, mark: ProviderMark) -> None:
        """See :meth:`StateStore.set_mark`."""
        check_provider(provider)
        params = mark_row(provider, mark)
        made = time.time()

        def write(conn: sqlite3.Connection) -> None:
            if not reset_since(conn, provider, made, clock=_wall_clock):
                conn.execute(
                    "INSERT OR REPLACE INTO marks "
                    "(provider, kind, until, reason, failures, set_at, scope) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    params,
                )

        await self._run_owed_write(write, owed=("mark", params))

    async def clear_mark(self, provider: str) -> None:
        """See :meth:`StateStore.clear_mark`."""
        check_provider(provider)
        await self._run_owed_write(
            lambda conn: conn.execute("DELETE FROM marks WHERE provider = ?", (provider,)),
            owed=("clear", (provider, time.time())),
        )

    async def clear_mark_if_unchanged(self, provider: str, mark: ProviderMark, now: float) -> None:
        """See :meth:`StateStore.clear_mark_if_unchanged`: one ``DELETE`` matching every column.

        Journaled as ``"clear-unchanged"`` if a close takes it: merged later, it still
        removes only that mark. An earlier release skips the kind it does not know, and the
        mark then stays until the next re-check, which is the cautious side.
        """
        check_provider(provider)
        row = mark_row(provider, mark)
        await self._run_owed_write(
            lambda conn: conn.execute(CLEAR_UNCHANGED, row),
            owed=("clear-unchanged", row),
        )

    async def all_marks(self, now: float) -> dict[str, ProviderMark]:
        """See :meth:`StateStore.all_marks`."""

        def query(conn: sqlite3.Connection) -> dict[str, ProviderMark]:
            rows = conn.execute(
                "SELECT provider, kind, until, reason, failures, set_at, scope FROM marks "
                "WHERE until > ? ORDER BY provider",
                (now,),
            ).fetchall()
            marks = {
                row[0]: current_mark(conn, row[0], mark_from_row(row[1:]), now) for row in rows
            }
            return {provider: mark for provider, mark in marks.items() if mark is not None}

        return await self._read(query)

    # -- notes --------------------------------------------------------------------------

    async def set_note(self, provider: str, name: str, text: str, until: float) -> None:
        """See :meth:`StateStore.set_note`."""
        check_note(provider, name, text, until)
        owed: OwedWrite = ("dated-note", (provider, name, text, float(until), time.time()))
        await self._run_owed_write(
            lambda conn: replay_write(conn, owed, clock=_wall_clock), owed=owed
        )

    async def get_note(self, provider: str, name: str, now: float) -> str | None:
        """See :meth:`StateStore.get_note` (an expired row is left to the next purge)."""
        check_note_name(provider, name)

        def query(conn: sqlite3.Connection) -> str | None:
            row = conn.execute(
                "SELECT text FROM notes WHERE provider = ? AND name = ? AND until > ?",
                (provider, name, now),
            ).fetchone()
            return None if row is None else str(row[0])

        return await self._read(query)

    # -- counters -------------------------------------------------------------------------

    async def record_failure(self, provider: str) -> int:
        """See :meth:`StateStore.record_failure`."""
        check_provider(provider)
        made = time.time()
        params = (provider, made, FAILURE_WINDOW)

        def write(conn: sqlite3.Connection) -> int:
            if reset_since(conn, provider, made, clock=_wall_clock):  # counted before: not again
                return int_or_zero(conn.execute(LIVE_FAILURES, (provider, made)).fetchone())
            return returning_int(conn, RECORD_FAILURE, params)

        return await self._run_write(write, owed=("failure", params))

    async def reset_failures(self, provider: str) -> None:
        """See :meth:`StateStore.reset_failures`.

        Reads first: the write lock (and a WAL frame) is only taken when there is
        something to forget, which after a success there almost never is. The write is
        owed as the failures are: queued behind another process's lock, a close or an
        exit journals it (:mod:`._journal`), where it was lost and the next process still
        counted the failure.
        """
        check_provider(provider)

        def counted(conn: sqlite3.Connection) -> bool:
            row = conn.execute("SELECT 1 FROM failures WHERE provider = ?", (provider,)).fetchone()
            return row is not None

        if not await self._read(counted):
            return
        await self._run_owed_write(
            lambda conn: conn.execute("DELETE FROM failures WHERE provider = ?", (provider,)),
            owed=("forgive", (provider, time.time(), FAILURE_WINDOW)),
        )

    async def increment_usage(self, provider: str, period: str, expires_at: float) -> int:
        """See :meth:`StateStore.increment_usage`."""
        check_provider(provider)
        check_period(period)
        return await self._run_write(
            lambda conn: returning_int(
                conn, INCREMENT_USAGE, (provider, period, expires_at, time.time())
            )
        )

    async def get_usage(self, provider: str, period: str) -> int:
        """See :meth:`StateStore.get_usage`."""
        check_provider(provider)
        check_period(period)

        def query(generation: int | None, conn: sqlite3.Connection) -> int:
            wall_now = time.time()
            stored = live_count(conn, provider, period, wall_now)
            pending = self._pending.count(provider, period, wall_now, generation)
            if pending is None:  # a flush ran meanwhile: read again after it, on its thread
                raise _InlineBusyError
            return stored + pending

        return await self._read_with_pending(query)

    async def reserve_usage(self, provider: str, windows: Sequence[UsageWindow]) -> UsageGrant:
        """See :meth:`StateStore.reserve_usage`: one ``BEGIN IMMEDIATE`` transaction.

        The provider's pending counts (see :meth:`reserve_unless_marked`) are written in
        the same transaction first, so the counts it checks and returns are whole. With a
        budget, one given up on is not kept (:meth:`_run_write_owed`).
        """
        check_provider(provider)
        capped = any(w.limit is not None for w in windows)
        undo = functools.partial(
            undo_reservation, provider=provider, windows=windows, clock=_wall_clock
        )
        return await self._run_write_owed(
            provider, self._reserve_now(provider, windows), undo=undo if capped else None
        )

    def _reserve_now(
        self, provider: str, windows: Sequence[UsageWindow]
    ) -> Callable[[sqlite3.Connection], UsageGrant]:
        """The synchronous reservation, run inside the caller's ``BEGIN IMMEDIATE``."""
        return functools.partial(reserve, provider=provider, windows=windows, clock=_wall_clock)

    async def _run_write_owed(
        self,
        provider: str,
        func: Callable[[sqlite3.Connection], _T],
        *,
        undo: Callable[[sqlite3.Connection, _T], None] | None = None,
    ) -> _T:
        """:meth:`_run_write` with ``provider``'s pending counts written first, in the same step.

        Inline only when nothing of ``provider`` is pending (the usual case: a provider
        with a budget has no pending counts). Else on the store's thread, where every
        batch is taken and written (see :meth:`_write_pending_first`): a reader queued
        there with no generation to check must never run while counts are taken from
        memory and not yet committed to the file.

        With ``undo``, a call given up on is not kept: withdrawn (rolled back) when its
        caller gave up before it held the write lock, the usual case behind another
        process's lock, and undone with ``undo`` when it had it (see :mod:`._withdrawal`).
        """

        def inline(conn: sqlite3.Connection) -> _T:
            if self._pending.holds(provider):  # rolled back; written on the store's thread
                raise _InlineBusyError
            return func(conn)

        async def queue() -> _T:
            if undo is None:
                return await self._run(
                    functools.partial(self._write_pending_first, provider=provider, func=func)
                )
            withdrawal = Withdrawal()
            write = functools.partial(
                self._write_pending_first, provider=provider, func=withdrawal.guard(func)
            )
            return await self._run(withdrawal.undoable(write, undo), withdrawal=withdrawal)

        return await self._inline_first(inline, transaction=True, queue=queue)

    async def reserve_unless_marked(
        self, provider: str, windows: Sequence[UsageWindow], now: float
    ) -> UsageGrant:
        """See :meth:`StateStore.reserve_unless_marked`: the mark read in the same step.

        With a capped window (a budget) this is one ``BEGIN IMMEDIATE`` transaction, exact
        across processes as :meth:`reserve_usage` is. Without one, the usual case,
        nothing can refuse the request but a mark, so the step is one read (the mark,
        the failure counter, the counts) and the counts are written behind: held in
        memory and flushed with every other pending count by the store's thread (see
        the module docstring). The returned counts include them.
        """
        check_provider(provider)
        uncapped = self._uncapped(windows)
        if uncapped is None:
            marked_or_reserve = self._reserve_unless_marked_now(provider, windows, now)
            undo = functools.partial(
                undo_reservation, provider=provider, windows=windows, clock=_wall_clock
            )
            return await self._run_write_owed(provider, marked_or_reserve, undo=undo)
        periods, spans = uncapped

        def reserve_behind(generation: int | None, conn: sqlite3.Connection) -> UsageGrant:
            wall_now = time.time()
            rows = self._provider_rows(conn, generation, provider, periods)
            mark = rows.mark_at(now)
            if mark is not None:
                mark = current_mark(conn, provider, mark, now)
            if mark is not None:
                return UsageGrant(granted=False, counts=(), mark=mark)
            stored = rows.counts_at(wall_now)
            added = self._pending.add(provider, spans, generation, wall_now)
            if added is None:  # a flush ran meanwhile: read again after it, on its thread
                raise _InlineBusyError
            arm, pending = added
            if arm:
                self._arm_flush()
            counts = tuple(map(operator.add, stored, pending))  # one each per period
            return UsageGrant(True, counts, rows.failures_at(wall_now))

        # _read_with_pending spelled out: it runs before every request, and its coroutine
        # was one more frame and await on the way to the inline read.
        answer = self._try_inline(
            functools.partial(reserve_behind, self._pending.generation), False
        )
        if answer is not _BUSY:
            return answer
        return await self._run(functools.partial(reserve_behind, None))

    def _uncapped(self, windows: Sequence[UsageWindow]) -> _Uncapped | None:
        """``windows``' periods and ``(period, expires_at)`` spans; ``None`` when one is capped.

        ``None`` too for no window: a reservation of nothing is a transaction as before.
        The ledger passes one tuple for every request of a month (its monthly window,
        without a budget), so the last tuple's answer is kept: building both took 1.5 us
        of every reservation. Only a tuple is kept (a list could change under it).
        """
        last = self._last_uncapped
        if last is not None and last[0] is windows:
            return last[1]
        if not windows or any(w.limit is not None for w in windows):
            return None
        uncapped = (
            tuple(w.period for w in windows),
            tuple((w.period, w.expires_at) for w in windows),
        )
        if type(windows) is tuple:
            self._last_uncapped = (windows, uncapped)
        return uncapped

    def _provider_rows(
        self,
        conn: sqlite3.Connection,
        generation: int | None,
        provider: str,
        periods: tuple[str, ...],
    ) -> ProviderRows:
        """``provider``'s rows: kept from the inline connection's last read while still true.

        Reused only inline (``generation`` given, the inline lock held) and only while
        nothing that could change them moved since they were read: the file's wal-index
        header (:mod:`._wal_index`; any commit by any connection: another process,
        another client on the file, this store's thread writing pending counts or
        anything else), or ``PRAGMA data_version`` when the header cannot be read, the
        connection's own ``total_changes`` (its writes, which ``data_version`` does not
        count) and the connection itself. The pending counts are not in the rows (they
        are added after, under their own generation check), but a move of their
        generation says this store's thread flushed, so the file moved. When that flush
        was the only commit since the rows were kept, they follow it (:meth:`_follow_flush`:
        searches further apart than :data:`FLUSH_AFTER` meet one each, and paid a read).
        Otherwise the first read after it is made without asking first and not kept (the
        read they paid before, not the pragma too); the next one asks and keeps. On the
        store's thread (``generation`` is ``None``) the rows are always read.
        """
        if generation is None:
            return _read_provider_rows(conn, provider, periods)
        seen = self._seen
        if seen.generation != generation and not self._follow_flush(seen, conn):
            seen.forget()  # this store's thread flushed, and not alone: the file moved
            seen.generation = generation
            return _read_provider_rows(conn, provider, periods)
        seen.generation = generation
        # The wal-index header moves whenever data_version would (and on this connection's
        # own commits), read without a statement; when it cannot be trusted (a commit
        # writing it, not WAL), the pragma answers.
        file_state: object = self._wal_index.header() if self._wal_index is not None else None
        if file_state is None:
            file_state = conn.execute("PRAGMA data_version").fetchall()[0][0]
        seen.check((conn, file_state, conn.total_changes))
        rows = seen.get(provider, periods)
        if rows is None:
            rows = _read_provider_rows(conn, provider, periods)
            # Kept only if no commit came between the header and the read: a flush's
            # would be in the rows already, and following it would count it twice.
            if type(file_state) is not bytes or self._header_now() == file_state:
                seen.put(provider, periods, rows)
        return rows

    def _header_now(self) -> bytes | None:
        """The inline connection's wal-index header now (``None``: none to read)."""
        return self._wal_index.header() if self._wal_index is not None else None

    def _follow_flush(self, seen: SeenRows, conn: sqlite3.Connection) -> bool:
        """Whether the kept rows followed this store's last flush to the file's state now.

        Only when that flush was the only commit since they were kept (the header they were
        kept under is the one its transaction found) and since it (the header now is the one
        its ``COMMIT`` left), and the inline connection wrote nothing meanwhile.
        """
        flushed = self._flushed
        if flushed is None:
            return False
        now = self._header_now()
        if now is None or now != flushed.after:
            return False
        changes = conn.total_changes
        return seen.follow((conn, flushed.before, changes), (conn, now, changes), flushed.added)

    def _reserve_unless_marked_now(
        self, provider: str, windows: Sequence[UsageWindow], now: float
    ) -> Callable[[sqlite3.Connection], UsageGrant]:
        """The mark read and the synchronous reservation, inside one ``BEGIN IMMEDIATE``."""
        reserve_now = self._reserve_now(provider, windows)

        def reserve_unless_marked(conn: sqlite3.Connection) -> UsageGrant:
            rows = conn.execute(ACTIVE_MARK, (provider, now)).fetchall()
            mark = current_mark(conn, provider, mark_from_row(rows[0]), now) if rows else None
            if mark is not None:
                return UsageGrant(granted=False, counts=(), mark=mark)
            return reserve_now(conn)

        return reserve_unless_marked

    async def release_usage(self, provider: str, windows: Sequence[UsageWindow]) -> None:
        """See :meth:`StateStore.release_usage`.

        A count still pending is given back in memory. Else the file's count is, on the
        store's thread when no window has a cap: after any flush already under way, which
        may be carrying the very count being given back.
        """
        check_provider(provider)
        periods = [w.period for w in windows]
        uncapped = all(w.limit is None for w in windows)
        if uncapped and self._pending.give_back(provider, periods):
            return

        release = functools.partial(
            give_back, provider=provider, periods=periods, clock=_wall_clock
        )
        if uncapped:
            await self._run(functools.partial(self._transaction, func=release))
        else:
            await self._run_write(release)

    async def take_rate_slot(self, provider: str, interval: float, max_wait: float) -> float | None:
        """See :meth:`StateStore.take_rate_slot`: one transaction, the file's host clock.

        Owed as a failure count is (see :meth:`_run_write`): behind another process's lock
        the caller stops waiting at its deadline and sends, paced by its own process only,
        and the booking queued for it was lost with the process. Journaled, it keeps the
        next process (which merges journals on opening) one interval after the time this
        one asked, at least; merged later than that, it changes nothing.
        """
        check_provider(provider)
        check_rate_args(interval, max_wait)
        asked = time.time()

        def book(conn: sqlite3.Connection) -> float | None:
            now = time.time()
            row = conn.execute(
                "SELECT next_at, booked_at FROM rates WHERE provider = ?", (provider,)
            ).fetchone()
            slot = now if row is None else max(now, next_free_slot(row[0], row[1], now))
            if slot - now > max_wait:
                return None
            conn.execute(
                "INSERT OR REPLACE INTO rates (provider, next_at, booked_at) VALUES (?, ?, ?)",
                (provider, slot + interval, now),
            )
            return slot - now

        return await self._run_write(book, owed=("slot", (provider, asked + interval, asked)))

    async def rate_slot_wait(self, provider: str) -> float:
        """See :meth:`StateStore.rate_slot_wait`: the booking as the file's host clock sees it."""
        check_provider(provider)

        def query(conn: sqlite3.Connection) -> float:
            now = time.time()
            row = conn.execute(
                "SELECT next_at, booked_at FROM rates WHERE provider = ?", (provider,)
            ).fetchone()
            return 0.0 if row is None else max(0.0, next_free_slot(row[0], row[1], now) - now)

        return await self._read(query)

    # -- cache ----------------------------------------------------------------------------

    async def cache_get(
        self, key: str, now: float, *, allow_stale: bool = False
    ) -> CachedEntry | None:
        """See :meth:`StateStore.cache_get`: this process's writes not yet in the file first.

        An entry written behind (:meth:`cache_set`) is this process's latest write of
        ``key``, which the next flush puts in the file over whatever is there: it is the
        answer, and the file is not read.
        """
        check_cache_key(key)
        pending = self._pending_cache.get(key)
        if pending is not None:
            if self._closed:  # as a read of the file would say
                raise StateStoreClosedError()
            return _held_entry(pending, now, allow_stale)
        held = self._inherited.get(key) if self._inherited else None
        if held is not None:  # a forked child: its parent's write may not be in the file yet
            return await self._inherited_or_file(key, held, now, allow_stale)

        def query(conn: sqlite3.Connection) -> CachedEntry | None:
            header = None
            if conn is self._inline and self._wal_index is not None:
                header = self._wal_index.header()
                if self._known.absent(key, header):  # no commit since the keys were read
                    return None
            row = conn.execute(CACHE_ROW, (key,)).fetchone()
            if self._known.ask_load(header):
                self._load_known_soon()
            if row is None:
                return None
            entry = CachedEntry(value=bytes(row[0]), stored_at=row[1], fresh_until=row[2])
            return select_cached(entry, float(row[3]), now, allow_stale)

        return await self._read(query)

    async def _inherited_or_file(
        self, key: str, held: PendingEntry, now: float, allow_stale: bool
    ) -> CachedEntry | None:
        """In a forked child, ``key``'s entry: its parent's unwritten write, or the file's.

        The parent's write shadows the file's row until the file holds it or a later write
        (a row stored no earlier), as the parent's own pending entries shadow it in the
        parent: the flush replaces the row with it. A fixed window of 30 s (stop 38) lost
        it while the parent's flush was later than that (another process's lock held
        longer, a parent stopped), and the child asked the same search again; and a row
        of the file older than it, stale but served as such, was preferred to it. Dropped
        once the file answers for it, or once it expires: what the child holds then is
        what it inherited with its memory, no more.
        """

        def query(conn: sqlite3.Connection) -> tuple[bytes, float, float, float] | None:
            row = conn.execute(CACHE_ROW, (key,)).fetchone()
            return None if row is None else (bytes(row[0]), row[1], row[2], float(row[3]))

        row = await self._read(query)
        if row is not None and row[1] >= held.stored_at:  # the parent's write, or a later one
            self._inherited.pop(key, None)
            value, stored_at, fresh_until, expires_at = row
            entry = CachedEntry(value=value, stored_at=stored_at, fresh_until=fresh_until)
            return select_cached(entry, expires_at, now, allow_stale)
        if now >= held.expires_at:  # gone, as the parent's flush would leave it
            self._inherited.pop(key, None)
            return None
        return _held_entry(held, now, allow_stale)

    async def cache_set(
        self, key: str, value: bytes, *, now: float, ttl: float, keep_stale_for: float
    ) -> None:
        """See :meth:`StateStore.cache_set`: written behind, with the pending usage counts.

        The entry is held in memory (:mod:`._pending_cache`), where this process's
        :meth:`cache_get` finds it at once, and reaches the file in the flush
        :data:`FLUSH_AFTER` seconds after the first thing pending, in the transaction that
        writes the counts (and on close, or at exit for a store left open). Writing it
        here was one ``BEGIN IMMEDIATE`` transaction on the caller's thread per search
        that missed the cache. Held under the inline connection's lock, as an inline
        reservation counts: a close, which writes what is pending under that lock, comes
        after it or refuses it.
        """
        await self._hold_cache_entry(key, bytes(value), now, ttl, keep_stale_for)

    async def cache_set_deferred(
        self,
        key: str,
        serialise: Callable[[], bytes],
        *,
        now: float,
        ttl: float,
        keep_stale_for: float,
    ) -> None:
        """See :meth:`StateStore.cache_set_deferred`: ``serialise`` runs at the flush.

        On the store's thread, before the flush's transaction, or here when this process
        reads the entry before that (see :class:`._pending_cache.PendingEntry`).
        """
        await self._hold_cache_entry(key, serialise, now, ttl, keep_stale_for)

    async def _hold_cache_entry(
        self,
        key: str,
        value: bytes | Callable[[], bytes],
        now: float,
        ttl: float,
        keep_stale_for: float,
    ) -> None:
        """Hold a cache write in memory until the next flush (see :meth:`cache_set`)."""
        check_cache_key(key)
        fresh_until, expires_at = cache_times(now, ttl, keep_stale_for)
        pending = PendingEntry(value, stored_at=now, fresh_until=fresh_until, expires_at=expires_at)

        def hold(conn: sqlite3.Connection) -> None:
            self._pending_cache.put(key, pending)
            if self._pending.request_flush():
                self._arm_flush()

        await self._read(hold)  # no statement: the connection is only the gate

    def _write_cache_batch(self, conn: sqlite3.Connection) -> CacheBatch:
        """Write the pending cache entries (inside the caller's transaction); the batch.

        Every :data:`_PURGE_EVERY` entries written, the cache is swept in the same
        transaction (this runs on the store's thread, never the caller's). Their keys are
        known to be in the file first (see :mod:`._known_keys`).
        """
        batch = self._pending_cache.batch()
        if batch:
            self._known.add(key for key, _ in batch)
            write_cache_entries(conn, batch)
            self._cache_writes += len(batch)
            if self._cache_writes >= _PURGE_EVERY:
                self._cache_writes = 0
                self._sweep_cache(conn, time.time())
        return batch

    # -- housekeeping ---------------------------------------------------------------------

    async def clear(self, provider: str) -> None:
        """See :meth:`StateStore.clear`."""
        check_provider(provider)

        def delete(conn: sqlite3.Connection) -> None:
            for table in ("marks", "failures", "usage", "rates", "notes"):
                conn.execute(f"DELETE FROM {table} WHERE provider = ?", (provider,))
            conn.execute(RECORD_RESET, (provider, time.time()))  # see AT_PARAM

        # The pending counts go with the rows, in their transaction on the store's thread:
        # a reader counts both or neither, a clear that fails forgets nothing, and no flush
        # can write one back afterwards. Given up on before it holds the write lock, it is
        # withdrawn there: rolled back, the counts put back (see ._withdrawal). The journals
        # other stores left are written first in that transaction, so that the clear wins
        # over what they owed before it: merged later, their counts came back after it.
        withdrawal = Withdrawal()
        await self._run(
            functools.partial(
                self._write_pending_first,
                provider=provider,
                func=withdrawal.guard(delete),
                forget=True,
                merge=True,
            ),
            withdrawal=withdrawal,
        )

    async def clear_all(self) -> None:
        """See :meth:`StateStore.clear_all`."""

        def delete(conn: sqlite3.Connection) -> None:
            for table in ("marks", "failures", "usage", "rates", "notes", "resets"):
                conn.execute(f"DELETE FROM {table}")
            conn.execute(RECORD_RESET, (ALL_PROVIDERS, time.time()))  # see AT_PARAM

        withdrawal = Withdrawal()
        await self._run(  # as in clear()
            functools.partial(
                self._write_pending_first,
                provider=None,
                func=withdrawal.guard(delete),
                forget=True,
            ),
            withdrawal=withdrawal,
        )

    async def move_aside(self) -> Path | None:
        """Close the store and rename its file (and WAL files) out of the way; never delete.

        What ``websearch providers reset --all`` does with a damaged file: the next store
        opened on :attr:`path` starts empty, and the old file stays for inspection, with
        the lock journals left for it (:func:`._journal.move_journals`) and those a store
        that still has it open writes for it later (:mod:`._file_id`).

        Returns:
            Where the file went, or ``None`` when there was nothing at :attr:`path`.

        Raises:
            StateStoreError: The rename failed (for instance an unwritable directory).
        """
        await self.aclose()
        if not os.path.lexists(self._path):
            return None
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        target = self._path.with_name(f"{self._path.name}.broken-{stamp}")
        counter = 1
        while os.path.lexists(target):
            counter += 1
            target = self._path.with_name(f"{self._path.name}.broken-{stamp}-{counter}")
        try:
            os.rename(self._path, target)
            for suffix in ("-wal", "-shm"):
                side = self._path.with_name(self._path.name + suffix)
                if os.path.lexists(side):
                    os.rename(side, target.with_name(target.name + suffix))
        except OSError as exc:
            raise StateStoreError(
                f"could not move the state file {str(self._path)!r} aside: {exc.strerror or exc}"
            ) from exc
        move_journals(self._path, target)  # the damaged file's, not the fresh one's
        return target

    # -- write-behind ---------------------------------------------------------------------

    def _arm_flush(self) -> None:
        """Schedule a flush :data:`FLUSH_AFTER` seconds from now (one is not scheduled).

        The store's alarm thread, not the event loop: the store serves any loop and thread
        (the sync bridge runs a fresh loop per call), and a loop may end before the flush.
        One thread for the store's life (see :mod:`._alarm`): arming it is a notify, where
        a timer thread per flush held the caller's loop until that thread ran. Once the
        store is closed this does nothing: ``aclose()`` writes what is pending.
        """
        if not self._closed:  # else the alarm is, or is about to be, closed too
            self._flush_alarm.arm(FLUSH_AFTER)

    def _flush_due(self) -> None:
        """On the alarm's thread: queue the flush on the store's thread."""
        self._pending.disarm()
        with contextlib.suppress(RuntimeError):  # shut down: aclose() wrote them
            self._executor.submit(self._flush)

    def _flush(self, *, patient: bool = True) -> None:
        """On the store's thread: write every pending count and cache entry in one transaction.

        It waits :data:`OWED_WRITE_WAIT` for the write lock, and not at all when not
        ``patient`` (before a ``fork()``): held elsewhere, the batch is left for the next
        flush, as a failed one is.

        The batch is taken only once ``BEGIN IMMEDIATE`` holds the write lock. From the
        take to the end of the write, readers on the inline connection cannot tell whether
        the file holds the batch, so each one goes to this thread's queue, behind the
        flush. Taken first, it kept every search of this process queued for the whole wait
        for the lock too: another process's write, up to the busy timeout (10 s). Counts
        and entries added while the flush waits are simply part of the batch it takes.
        Cache entries stay readable in memory until the commit (see :mod:`._pending_cache`).
        """
        if not (self._pending.holds_any() or len(self._pending_cache)):
            return
        self._pending_cache.serialise()  # before the write lock, not while holding it
        write = self._write_owed_within if patient else self._write_everything_at_once
        try:
            self._settle_cache(self._call(write))
        except StateStoreError as exc:  # kept for the next try (or for close)
            logger.debug(
                "web search state: pending usage counts and cache entries not written yet: %s",
                exc,
            )
            if self._pending.rearm() or (  # a batch put back may have scheduled it already
                len(self._pending_cache) and self._pending.request_flush()
            ):
                self._arm_flush()

    def _write_everything_pending(self, conn: sqlite3.Connection) -> CacheBatch:
        """The pending counts and cache entries, in one transaction; the entries written."""
        return self._write_pending_first(
            conn, provider=None, func=self._write_cache_batch, followed=True
        )

    def _write_owed_within(self, conn: sqlite3.Connection) -> CacheBatch:
        """:meth:`_write_everything_pending`, waiting :data:`OWED_WRITE_WAIT` for the lock."""
        conn.execute(f"PRAGMA busy_timeout = {int(OWED_WRITE_WAIT * 1000)}")
        try:
            return self._write_everything_pending(conn)
        finally:
            conn.execute(f"PRAGMA busy_timeout = {int(self._busy_timeout * 1000)}")

    def _write_everything_at_once(self, conn: sqlite3.Connection) -> CacheBatch:
        """:meth:`_write_everything_pending`, or busy at once when the lock is held elsewhere."""
        conn.execute("PRAGMA busy_timeout = 0")
        try:
            return self._write_everything_pending(conn)
        finally:
            conn.execute(f"PRAGMA busy_timeout = {int(self._busy_timeout * 1000)}")

    def _settle_cache(self, batch: CacheBatch) -> None:
        """``batch`` is committed: its entries are read from the file from now on."""
        self._pending_cache.settle(batch)

    def _load_known_soon(self) -> None:
        """Queue a read of the cache's keys on the store's thread (see :mod:`._known_keys`)."""
        try:
            self._executor.submit(self._load_known)
        except RuntimeError:  # shut down by aclose()
            self._known.load_failed()

    def _load_known(self) -> None:
        """On the store's thread: every key in the file, after the header they are true for.

        The header first: the keys read after it are those of its state of the file or of
        a later one, never fewer.
        """

        def keys(conn: sqlite3.Connection) -> tuple[bytes | None, list[str]]:
            wal_index = self._conn_wal_index
            header = wal_index.header() if wal_index is not None else None
            if header is None:
                return None, []
            return header, [str(row[0]) for row in conn.execute("SELECT key FROM cache")]

        try:
            header, found = self._call(keys)
        except StateStoreError as exc:
            logger.debug("web search state: the cache's keys not read: %s", exc)
            self._known.load_failed()
            return
        self._known.load(header, found)

    def _write_pending_first(
        self,
        conn: sqlite3.Connection,
        *,
        provider: str | None,
        func: Callable[[sqlite3.Connection], _T],
        forget: bool = False,
        merge: bool = False,
        followed: bool = False,
    ) -> _T:
        """On the store's thread: one transaction writing the pending counts, then ``func``.

        ``provider``'s counts, or everyone's (``None``); with ``forget`` they are taken and
        not written (a clear, whose ``func`` deletes the rows). The journals earlier stores
        left (:mod:`._journal`) are written first too, for everyone's or with ``merge``.
        From their take to the COMMIT the counts are in neither memory nor (for any other
        connection) the file, so this runs only here: inline readers see the batch under way (its
        :class:`._pending.PendingUsage` generation) and read again on this thread, after
        it, and readers queued here (which check no generation) cannot overlap it. They are
        settled only once the COMMIT succeeded; if anything failed, they are put back,
        still owed. ``followed`` (a flush, whose ``func`` writes cache entries only): what
        it adds to the usage counters is recorded for the inline reads to follow
        (:meth:`_follow_flush`).
        """
        merge = merge or provider is None
        if not merge and provider is not None and not self._pending.holds(provider):
            return self._transaction(conn, func)  # nothing owed: no batch for readers to miss
        taken: list[Batch] = []
        claimed: list[Claimed] = []
        record = FlushRecord() if followed and conn is self._conn else None

        def write(conn: sqlite3.Connection) -> _T:
            taken.append(self._pending.take(provider))
            if not forget:
                added = None if record is None else record.added
                write_pending(conn, taken[0], clock=_wall_clock, added=added)
            if merge:  # a flush, the close or a clear: what earlier stores journaled too
                claimed.append(self._merge_journals(conn))
            return func(conn)

        try:
            result = self._transaction(conn, write, record)
        except BaseException:
            for journals in claimed:
                journals.given_back()
            if taken and self._pending.restore(taken[0]):
                self._arm_flush()
            raise
        for journals in claimed:
            journals.committed()
        if record is not None:  # before the settle that sends inline reads to follow it
            self._flushed = record.committed(claimed)
        self._pending.settle()
        return result

    def _transaction(
        self,
        conn: sqlite3.Connection,
        func: Callable[[sqlite3.Connection], _T],
        record: FlushRecord | None = None,
    ) -> _T:
        """A transaction on one of the store's connections, the keys kept through it.

        :func:`._sqlite_rows.in_transaction`, with what is read around its ``COMMIT``.
        The wal-index header is read inside the transaction (the write lock held) and after
        its ``COMMIT``, through the reader opened with ``conn``, so that the cache's keys
        known (:mod:`._known_keys`) stay true across every commit of the store's own, not
        the flush's alone: a reservation with a budget, a cooldown, a rate slot. The
        ``COMMIT`` and that update hold the keys' commit lock, so that the other
        connection's commit never comes between them. Two header reads a transaction,
        and none while no keys are known and no ``record`` (a flush's) wants them.
        """
        wal_index = None
        tracking = self._known.tracking
        if tracking or record is not None:
            if conn is self._inline:
                wal_index = self._wal_index
            elif conn is self._conn:
                wal_index = self._conn_wal_index
        if wal_index is None:
            return in_transaction(conn, func)
        known = self._known if tracking else None
        kept = KeysKept(known, wal_index, wait=conn is not self._inline, record=record)
        return in_transaction(conn, func, kept)

    def _merge_journals(self, conn: sqlite3.Connection) -> Claimed:
        """Write every journal an earlier store left (inside the caller's transaction)."""
        journal, claimed = claim_journals(self._path, self._opened.id)
        if journal:
            replay(conn, journal, clock=_wall_clock)
            self._known.add(row[0] for row in journal.cache)  # beyond the commit's own
            logger.debug("%s: wrote what earlier stores journaled: %s", self, journal.describe())
        return claimed

    def _hand_over(self) -> tuple[str | None, int]:
        """See :meth:`ThreadedStore._hand_over`: journal the counts, entries and queued writes.

        A batch the store's thread took and is writing (it holds the lock) is waited for,
        briefly: committed, or put back here to be journaled with the rest.
        """
        self._pending.wait_idle(OWED_WRITE_WAIT)
        return self._journal_owed(logging.DEBUG)

    def _journal_owed(self, level: int) -> tuple[str | None, int]:
        """Journal what this store owes now (see :mod:`._journal`).

        Taken out of memory first, so that the store's thread, if the lock goes while the
        process lives, finds nothing left to write twice; put back if the journal cannot
        be written (a full disk), to be written, or lost, as before.

        Returns:
            What was journaled and where (``None``: nothing), and how many queued writes
            were withdrawn for it.
        """
        batch = self._pending.take()
        entries = self._pending_cache.batch()
        handover = self._owed_writes.take_unstarted()
        try:
            return self._write_owed_journal(level, batch, entries, handover)
        finally:
            handover.lost("the close failed")  # unless answered: a waiting caller must be

    def _write_owed_journal(
        self, level: int, batch: Batch, entries: CacheBatch, handover: Handover
    ) -> tuple[str | None, int]:
        """:meth:`_journal_owed`, once what is owed was taken: ``handover`` is answered here."""
        rows = cache_rows(entries)
        journal = Journal(batch, rows, handover.writes, file=self._opened.id)
        if not journal:
            self._pending.settle()
            return None, 0
        try:
            where = write_journal(self._path, journal)
        except OSError as exc:
            self._pending.restore(batch)
            logger.warning("web search state: could not journal %s: %s", journal.describe(), exc)
            handover.lost(f"{type(exc).__name__}: {exc}")
            return None, len(journal.writes)
        handover.journaled(where)
        self._pending.settle()
        self._pending_cache.settle(entries)
        said = f"{journal.describe()} journaled in {str(where)!r} for the next process to write"
        logger.log(level, "%s: %s (another process holds its write lock)", self, said)
        return said, len(journal.writes)

    def _owed_in_memory(self) -> str | None:
        """The usage counts and cache entries written behind and not yet in the file, if any."""
        owed = self._pending.total()
        entries = len(self._pending_cache)
        held = [
            *([f"{owed} usage count{'' if owed == 1 else 's'}"] if owed else []),
            *([f"{entries} cache entr{'y' if entries == 1 else 'ies'}"] if entries else []),
        ]
        return f"{' and '.join(held)} held in memory" if held else None

    def _release(self) -> None:
        """The close's last job: write what is owed (or journal it, behind a lock), let go.

        The write waits :data:`OWED_WRITE_WAIT` for the lock, not the busy timeout: behind
        another process's lock the close then journals the counts and cache entries for the
        next store that takes it (:mod:`._journal`), where it waited its grace, and the
        exit its own second, and lost them when the lock outlived both.
        """
        self._flush_alarm.close()  # no flush comes after this one: written below
        with self._inline_lock:  # an inline reservation or cache write under way first
            entries = len(self._pending_cache)
            if (self._pending.holds_any() or entries) and self._conn is not None:
                self._pending_cache.serialise()  # before the write lock, as a flush does
                try:
                    self._settle_cache(self._write_owed_within(self._conn))
                except sqlite3.OperationalError as exc:
                    if not is_busy(exc):
                        log_unwritten(logging.WARNING, self._pending.total(), entries, exc)
                    else:
                        self._journal_owed(logging.INFO)
                except sqlite3.Error as exc:  # put back, but no reader or flush comes now
                    log_unwritten(logging.WARNING, self._pending.total(), entries, exc)
            self._orphan_flush.detach()
            self._close_conn_wal_index()  # before the connection, as for the inline one
            if self._conn is not None:
                conn, self._conn = self._conn, None
                conn.close()
            self._close_inline()


def _known_bound(max_cache_entries: int) -> int:
    """Keys a :class:`KnownKeys` keeps at most: twice what the file holds between sweeps.

    Twice, not once: a full cache (the file at its bound) would otherwise be read again
    after every flush.
    """
    return 2 * (max_cache_entries + _PURGE_EVERY)


def _held_entry(held: PendingEntry, now: float, allow_stale: bool) -> CachedEntry | None:
    """What ``cache_get`` returns for an entry held in memory, unwritten; unreadable: a miss.

    The flush drops an entry whose serialiser raises (see :func:`._sqlite_rows.serialised`),
    so a reader misses it too.
    """
    try:
        entry = held.entry()
    except Exception as exc:
        logger.debug("web search result cache entry unreadable: %r", exc)
        return None
    return select_cached(entry, held.expires_at, now, allow_stale)


_INHERITED_HANDLES: list[object] = []
"""A forked child's copies of its parent's SQLite handles: never used, never closed."""


class _InlineBusyError(Exception):
    """The inline connection would have had to wait: run the call on the store's thread."""


class _Busy(enum.Enum):
    """What :meth:`SQLiteStore._try_inline` answers for a call the inline connection left."""

    BUSY = enum.auto()


_BUSY: Final = _Busy.BUSY


class _HandedOverError(Exception):
    """A close took a queued write away while its caller waited: never leaves the store.

    Args:
        outcome: What the close did with it.
    """

    def __init__(self, outcome: HandedOver) -> None:
        super().__init__(outcome)
        self.outcome = outcome


def _checkpoint(conn: sqlite3.Connection) -> None:
    # RESTART, not PASSIVE: a passive checkpoint overlapping inline writes never catches
    # up with the last frame, so the WAL would never be reused and would grow without
    # bound under steady load. RESTART holds off writers while it copies and fsyncs (the
    # inline ones queue on this thread meanwhile), and the next write starts the WAL over.
    conn.execute("PRAGMA wal_checkpoint(RESTART)").fetchall()


def _log_checkpoint_failure(future: Future[None]) -> None:
    exc = future.exception()
    if exc is not None:  # the next checkpoint (or another process's) catches up
        logger.debug("web search state checkpoint failed: %s", exc)
