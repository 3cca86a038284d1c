"""The last write of a SQLite store never closed: dropped, or still open when the process exits.

Why a module of their own: it runs from the store's finalizer (:mod:`weakref`), on whatever
thread drops the store or at interpreter exit, when the store's thread may be gone or stuck
behind a lock, and so it can use nothing of the store but what the finalizer was handed:
the path, the pending counts and cache entries, the queued writes, the file it opened and
the store's clock. It writes them on a connection of its own that never waits for the
lock, or journals them for the next process (:mod:`._journal`).
"""

import functools
import logging
import os
import sqlite3
from pathlib import Path
from typing import Final

from ._file_id import OpenedFile
from ._journal import Journal, write_journal
from ._owed import Handover, OwedWrites
from ._pending import Batch, PendingUsage
from ._pending_cache import CacheBatch, PendingCache
from ._sqlite_rows import Clock, cache_rows, in_transaction, is_busy, replay

logger = logging.getLogger("websearch_core.state")

ORPHAN_FLUSH_WAIT: Final = 1.0
"""Seconds an exit waits at most for a batch the store's thread is writing (taken, not
committed) before it writes or journals what the store still owes; the lock is never
waited for there (see :func:`flush_orphaned`)."""


def log_unwritten(level: int, counts: int, entries: int, exc: BaseException) -> None:
    """Say what a last write left unwritten, and why: counts, cache entries or both."""
    if counts:
        logger.log(
            level, "web search state: %d pending usage counts were not written: %s", counts, exc
        )
    if entries:
        logger.log(
            level, "web search state: %d pending cache entries were not written: %s", entries, exc
        )


def flush_orphaned(
    path: Path,
    pending: PendingUsage,
    pending_cache: PendingCache,
    owed_writes: OwedWrites,
    opened: OpenedFile,
    owner: int,
    clock: Clock,
) -> None:
    """Write what a store never closed owes (dropped, or open at exit), or journal it.

    Runs from the store's finalizer, on whatever thread drops it, or at interpreter exit,
    when its thread may be gone or stuck behind a lock: on a connection of its own, which
    tries the write lock once and never waits for it. Behind another process's lock the
    counts, cache entries and queued writes (cooldowns, failures, rate slots) go to a
    journal for the next process (:mod:`._journal`): the store's busy timeout held an
    exiting process 10 s there, then a 1 s try held it a second, and the counts were lost
    all the same. A batch
    the store's thread is writing (taken, not committed: a flush or a close under way) is
    waited for first, :data:`ORPHAN_FLUSH_WAIT` at most: the process that exited then lost
    it, found in neither place. Never in a forked child (``owner`` is the creating
    process): the counts it inherited are its parent's, which writes them itself. Cache
    entries are never out of memory until committed: those a flush under way is writing
    are written again here, to the same effect. ``clock`` is the store's wall clock
    (the replay judges expiry and resets by it, as the store would have).
    """
    if os.getpid() != owner:
        return
    pending.wait_idle(ORPHAN_FLUSH_WAIT)  # committed, or put back to be taken below
    batch = pending.take()
    entries = pending_cache.batch()
    handover = owed_writes.take_unstarted()
    try:
        if write_orphaned(path, batch, entries, handover, opened, clock):
            pending.settle()  # only once committed (or journaled), as everywhere
            pending_cache.settle(entries)
    finally:
        handover.lost("the exit failed")  # unless answered: a waiting caller must be


def write_orphaned(
    path: Path,
    batch: Batch,
    entries: CacheBatch,
    handover: Handover,
    opened: OpenedFile,
    clock: Clock,
) -> bool:
    """:func:`flush_orphaned`'s write, or journal; whether the taken batch is done with.

    ``handover`` (the queued writes taken with it) is answered here. A file moved aside
    since the store opened it (``reset --all``) is not written here: the file now at
    ``path`` is another, so what is owed is journaled, for the file it names
    (:mod:`._file_id`), as it is behind a lock.
    """
    journal = Journal(batch, cache_rows(entries), handover.writes, file=opened.id)
    if not journal:
        return True  # the take above began a batch: end it
    if opened.still_at(path):
        try:
            conn = sqlite3.connect(path, timeout=0.0, isolation_level=None)
            try:
                in_transaction(conn, functools.partial(replay, journal=journal, clock=clock))
            finally:
                conn.close()
        except sqlite3.Error as exc:
            if not (isinstance(exc, sqlite3.OperationalError) and is_busy(exc)):
                log_unwritten(logging.DEBUG, pending_total(batch), len(entries), exc)
                handover.lost(f"{type(exc).__name__}: {exc}")
                return False  # nothing is left to try again: no use putting them back
        else:
            handover.written()
            return True
    try:
        where = write_journal(path, journal)
    except OSError as error:
        log_unwritten(logging.DEBUG, pending_total(batch), len(entries), error)
        handover.lost(f"{type(error).__name__}: {error}")
        return False
    handover.journaled(where)
    return True


def pending_total(batch: Batch) -> int:
    """The counts ``batch`` holds, for a log line."""
    return sum(entry.count for entry in batch.values())
