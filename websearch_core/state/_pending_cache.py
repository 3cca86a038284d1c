"""Result-cache entries held in memory until the SQLite store writes them with the counts.

Why: a search that misses the cache writes its answer afterwards, and that write was one
``BEGIN IMMEDIATE`` transaction of a few KB on the event loop's thread per search (70-80 us
in place, and every 256th one a sweep of the cache waited for on the store's thread). Held
here instead, entries reach the file in the store's next flush, in the transaction that
writes the pending usage counts (:mod:`._pending`).

An entry stays here, readable, until the transaction that wrote it has committed: this
process then finds it in the file, so there is no moment in which it is in neither place
(unlike a usage count, whose batch is taken out while it is written). What is readable here
shadows the file: it is the latest write of its key in this process, and the flush will
replace the file's row with it, so a reader of this process takes it and does not look
further, whatever it says (fresh, stale or expired).

This module only keeps the entries, thread-safe (the store calls it from the event loop's
thread, its own thread and its finalizer); when and how they are written is the store's.
"""

import contextlib
import threading
from collections.abc import Callable

from .base import CachedEntry

__all__ = ["CacheBatch", "PendingCache", "PendingEntry"]


class PendingEntry:
    """One cache write not yet in the file, serialised when first needed.

    Why: a search that misses the cache gave the store its answer serialised, 10-20 us on
    the event loop's thread, for bytes that wait here until the flush. Given ``serialise``
    instead, the store's thread calls it when it writes the entry (or a reader of this
    process, first): the answer is a frozen model, whose bytes are the same whenever.

    Args:
        serialise: Gives the entry's bytes (or ``bytes``, given at once).
        stored_at: Unix epoch seconds when it was stored.
        fresh_until: Unix epoch seconds from which it is stale.
        expires_at: Unix epoch seconds from which it is gone, stale or not.
    """

    __slots__ = ("_source", "expires_at", "fresh_until", "stored_at")

    def __init__(
        self,
        serialise: Callable[[], bytes] | bytes,
        *,
        stored_at: float,
        fresh_until: float,
        expires_at: float,
    ) -> None:
        self._source = serialise  # replaced by its bytes once serialised
        self.stored_at = stored_at
        self.fresh_until = fresh_until
        self.expires_at = expires_at

    def value(self) -> bytes:
        """The entry's bytes, serialised on the first call (on any thread; the same bytes).

        Two threads asking at once may both serialise: each gets the same bytes, and
        either result is kept. What ``serialise`` raises is the caller's.
        """
        source = self._source
        if isinstance(source, bytes):
            return source
        value = bytes(source())
        self._source = value
        return value

    def entry(self) -> CachedEntry:
        """What ``cache_get`` returns while it is fresh (or stale, when allowed)."""
        return CachedEntry(
            value=self.value(), stored_at=self.stored_at, fresh_until=self.fresh_until
        )


CacheBatch = list[tuple[str, PendingEntry]]
"""Entries taken to be written, oldest write first (the file's rowid order is write order)."""


class PendingCache:
    """Per key, the latest cache write not yet in the file, oldest first.

    Args:
        bound: Entries kept at most; past it the oldest are dropped, as the file keeps
            only its ``max_cache_entries`` latest writes (a flush that keeps failing, as
            behind another process's lock, must not grow this process without limit).
    """

    def __init__(self, bound: int) -> None:
        self._lock = threading.Lock()
        self._entries: dict[str, PendingEntry] = {}
        self._bound = bound

    def put(self, key: str, pending: PendingEntry) -> None:
        """Hold ``pending`` as ``key``'s latest write (after every other one held)."""
        with self._lock:
            entries = self._entries
            entries.pop(key, None)  # re-inserted: the dict's order stays write order
            entries[key] = pending
            if len(entries) > self._bound:
                del entries[next(iter(entries))]

    def get(self, key: str) -> PendingEntry | None:
        """``key``'s write not yet in the file, if any."""
        with self._lock:
            return self._entries.get(key)

    def batch(self) -> CacheBatch:
        """Every entry held, oldest first, to write; each stays readable until :meth:`settle`."""
        with self._lock:
            return list(self._entries.items())

    def serialise(self) -> None:
        """Serialise every entry held not serialised yet, outside the lock.

        For the flush, before it takes the write lock: an entry serialised inside its
        transaction held that lock (other processes' writes) the while. One whose
        ``serialise`` raises is left as it is, for the write to skip and name.
        """
        for _, pending in self.batch():
            with contextlib.suppress(Exception):
                pending.value()

    def settle(self, batch: CacheBatch) -> None:
        """``batch`` is committed: forget each of its entries not written again since."""
        with self._lock:
            entries = self._entries
            for key, pending in batch:
                if entries.get(key) is pending:
                    del entries[key]

    def held_at_fork(self) -> dict[str, PendingEntry]:
        """In a forked child: a copy of the entries its parent held, taken without the lock.

        Another thread of the parent may have held the lock at the fork; that thread did
        not come along, so the lock would never be let go. The child runs alone here
        (in ``fork()``'s handler), and the dict is whole: the fork holds the GIL.
        """
        return dict(self._entries)

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)
