"""Every result-cache key the SQLite file holds, as of one wal-index header: misses unread.

Why: a search that misses the cache read the file for its key, a read transaction and an
index lookup of SQLite's, ~30 us on the event loop's thread in place (stop 38), and a new
query misses every time. A key another process may have written cannot be known absent
from memory alone, but the wal-index header (:mod:`._wal_index`) changes on every commit
by any connection. So the keys are read once, on the store's thread, with the header read
just before (the read sees that state of the file or a later one: never fewer keys than
the header's state held), and a key not among them is absent while the header is
unchanged: no statement. Deleted rows (the sweep, expiry) leave keys here that the file
no longer holds; those are read as before, so the set only ever answers "absent".

The store's own commits keep the set true without a read, whatever they write: the flush's
cache entries, and the reservations, cooldown marks, failure counts and rate slots that a
user with a budget or a rate limit commits on every search (stop 39: kept through the
flush's commit only, the set was out of date after each of those, so every miss read the
file and each read of the keys went unused). A transaction that writes cache keys adds them
here first (:meth:`KnownKeys.add`, inside it: a key too many only costs a read, were it
rolled back). Inside each transaction (the write lock held, so no other commit can come
first) the header is read, and after the ``COMMIT`` again: when the change counter is
exactly one more (``iChange``, incremented by SQLite on every commit by any connection),
that commit was the store's own and the only one, and the set follows it from the one
header to the other. Such steps are kept however they arrive (the two connections' threads
report them in any order, and a read of the keys on the store's thread can end with the
header from before an inline commit made during it), so a set goes as far as an unbroken
chain of them leads. Anything else (a header that cannot be read, another commit in
between) breaks the chain: the set stays behind the file, and the next miss reads the file
and asks for the set again. The store's thread holds :attr:`KnownKeys.commit_lock` from
its ``COMMIT`` to its header read, and an inline commit holds it too when it finds it free,
so that one connection's commit does not come between the other's and its header read
(which broke the chain now and then on a loaded machine, where a thread stalls there). The
inline connection, on the event loop's thread, never waits for it: the store's thread may
be syncing an automatic checkpoint in its ``COMMIT``.

Reading the set costs a scan of the cache's key index on the store's thread, ~1 us a key
(10,000 keys, the default bound: ~10 ms on a loaded machine), where a read spared is ~30 us.
So it is asked for only by the second lookup read from the file (a process that looks
one key up, such as one ``websearch`` command, never pays it), at most once per
:data:`RELOAD_AFTER` seconds, and that wait doubles (up to :data:`RELOAD_AFTER_MAX`) while
each set read goes out of date before it spared a read per :data:`KEYS_PER_READ` keys:
other processes committing all the time.
"""

import threading
import time
from collections.abc import Iterable
from typing import Final

from ._wal_index import commit_count

__all__ = ["KEYS_PER_READ", "RELOAD_AFTER", "RELOAD_AFTER_MAX", "KnownKeys"]

RELOAD_AFTER: Final = 1.0
"""Seconds between two reads of the keys, at least."""
RELOAD_AFTER_MAX: Final = 60.0
"""The longest that wait grows while reads of the keys go unused."""
KEYS_PER_READ: Final = 32
"""Keys read into the set that one read spared pays for (~30 us a read, ~1 us a key)."""
_STEPS_KEPT: Final = 64
"""The store's own commits kept for a set to follow, at most (past it, all are dropped)."""


class KnownKeys:
    """The cache keys in the file as of one wal-index header; thread-safe.

    Read on the event loop's thread (:meth:`absent`), kept on the store's (the other
    methods).

    Args:
        bound: Keys kept at most. The flushes add keys and the sweeps that delete rows
            take none away, so a store that only ever flushes would keep every key it
            ever wrote; past ``bound`` the set is forgotten and read again.
    """

    def __init__(self, bound: int) -> None:
        self._bound = bound
        self._lock = threading.Lock()
        self.commit_lock = threading.Lock()
        """Held by a transaction of the store's from its ``COMMIT`` to :meth:`committed`."""
        self._keys: set[str] = set()
        self._at: bytes | None = None  # the header the keys are true for; None: none are
        self._steps: dict[bytes, bytes] = {}  # the store's own commits: header before -> after
        self._spared = 0  # reads spared since the keys were read
        self._loaded = False  # whether the keys were ever read
        self._lookups_read = 0  # lookups read from the file before the keys ever were
        self._wait = RELOAD_AFTER
        self._next_load = 0.0  # time.monotonic() from which the keys may be read again
        self._load_asked = False

    def absent(self, key: str, header: bytes | None) -> bool:
        """Whether ``key`` is surely not in the file, whose header is now ``header``."""
        if header is None:
            return False
        with self._lock:
            if not self._follow(header) or key in self._keys:
                return False
            self._spared += 1
            return True

    def _follow(self, header: bytes) -> bool:
        """Whether the set is true at ``header``, following the store's own commits to it.

        The lock held. The steps followed are dropped: the set is at ``header`` now.
        """
        at = self._at
        if at is None or at == header:
            return at is not None
        followed: list[bytes] = []
        while at != header:
            after = self._steps.get(at)
            if after is None or len(followed) > len(self._steps):
                return False
            followed.append(at)
            at = after
        for before in followed:
            del self._steps[before]
        self._at = header
        return True

    def ask_load(self, header: bytes | None) -> bool:
        """Whether to read the keys now: the set is out of date, and not read too often.

        Out of date: not the file's at ``header`` (its header now; ``None``, unreadable,
        asks for nothing). Not too often: no read is under way, and the last is old enough.

        The caller then runs :meth:`load` on the store's thread, or :meth:`load_failed`.
        """
        now = time.monotonic()
        with self._lock:
            if header is None or self._load_asked or now < self._next_load:
                return False
            if self._follow(header):
                return False
            if not self._loaded:
                self._lookups_read += 1
                if self._lookups_read < 2:  # one lookup may be all this process makes
                    return False
            self._load_asked = True
            return True

    def load(self, header: bytes | None, keys: Iterable[str]) -> None:
        """The keys read after the file's header was ``header`` (``None``: not to be kept)."""
        keys = set(keys) if header is not None else set()
        with self._lock:
            # The set replaced went out of date (or is the first): did it pay for its read?
            paid = not self._loaded or self._spared * KEYS_PER_READ >= max(len(self._keys), 1)
            self._wait = RELOAD_AFTER if paid else min(self._wait * 2, RELOAD_AFTER_MAX)
            self._next_load = time.monotonic() + self._wait
            self._keys, self._at, self._spared = keys, header, 0
            self._loaded = True
            self._load_asked = False

    def load_failed(self) -> None:
        """The keys could not be read: ask again no sooner than usual."""
        with self._lock:
            self._next_load = time.monotonic() + self._wait
            self._load_asked = False

    @property
    def tracking(self) -> bool:
        """Whether commits are to be reported: a set is kept, or being read (a guess).

        Read without the lock. A transaction that finds neither need not read the header
        around its commit; a set read meanwhile is out of date after that commit, never
        wrong.
        """
        return self._at is not None or self._load_asked

    def add(self, keys: Iterable[str]) -> None:
        """Cache keys a transaction of the store's is about to write (inside it).

        Added before the commit, so that no header the commit leaves finds the set without
        them; a transaction rolled back leaves keys the file does not hold, which the set
        may (it only ever answers "absent"). Past the bound the set is forgotten.
        """
        with self._lock:
            self._keys.update(keys)
            if len(self._keys) > self._bound:
                self._keys, self._at = set(), None
                self._steps.clear()

    def committed(self, before: bytes | None, after: bytes | None) -> None:
        """A transaction of the store's thread or of its inline connection committed.

        ``before`` is the header read inside the transaction (the write lock held),
        ``after`` the header read just after the ``COMMIT``; any cache keys it wrote were
        given to :meth:`add` first. Kept as a step of the store's own only when ``after``
        counts exactly one commit more (that commit was this one, and nothing came after
        it); one that wrote nothing (``after`` is ``before``) is no step at all.
        """
        if before is None or after is None or after == before:
            return
        if commit_count(after) != commit_count(before) + 1:
            return  # another commit too: no step, and a set behind it stays behind
        with self._lock:
            if before == self._at:
                self._at = after
                return
            self._steps[before] = after
            if len(self._steps) > _STEPS_KEPT:
                self._steps.clear()

    def forget(self) -> None:
        """The set says nothing any more (the connection closed, a fork)."""
        with self._lock:
            self._at = None
            self._keys = set()
            self._steps.clear()
