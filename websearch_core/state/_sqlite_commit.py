"""What the wal-index headers read around one of the SQLite store's transactions tell it.

Why a module of their own: two things the store keeps in memory stay true across its own
commits only if it knows that nothing else committed in between: the cache's keys known
not to be in the file (:mod:`._known_keys`), and the provider rows kept inline, which
follow a flush's counts (:mod:`._seen`). Both are judged by the file's wal-index header
(:mod:`._wal_index`) read with the write lock held and again after the ``COMMIT``; these
classes make those reads and hand them on. The store (:mod:`.sqlite`) says which
transactions want them.
"""

import sqlite3

from ._journal import Claimed
from ._known_keys import KnownKeys
from ._seen import AddedCount, FlushedCounts
from ._wal_index import WalIndex, commit_count


class FlushRecord:
    """What one flush's transaction added to the usage counters, and the headers around it."""

    __slots__ = ("_after", "_before", "added")

    def __init__(self) -> None:
        self._before: bytes | None = None
        self._after: bytes | None = None
        self.added: dict[tuple[str, str], AddedCount] = {}
        """Filled by :func:`._sqlite_rows.write_pending` inside the transaction."""

    def around(self, before: bytes | None, after: bytes | None) -> None:
        """The header inside the transaction (the write lock held) and after its ``COMMIT``."""
        self._before, self._after = before, after

    def committed(self, claimed: list[Claimed]) -> FlushedCounts | None:
        """After the ``COMMIT``: the flush, when the rows kept inline can follow it.

        Only when both headers were read and that ``COMMIT`` was the only commit between
        them (the counter one more), and no journal was merged (what a journal wrote is not
        recorded); else ``None``.
        """
        before, after = self._before, self._after
        if before is None or after is None or commit_count(after) != commit_count(before) + 1:
            return None
        if any(journals.paths for journals in claimed):
            return None
        return FlushedCounts(before, after, self.added)


class KeysKept:
    """The wal-index header read around one transaction (:meth:`.sqlite.SQLiteStore._transaction`).

    For the cache's known keys, kept through the commit, and for a flush's record of what
    it added (:class:`FlushRecord`), handed both headers.

    Args:
        known: The keys; ``None``: none are known (the headers are for ``record`` alone).
        wal_index: The header's reader opened with the transaction's connection.
        wait: Whether the commit may wait for the keys' commit lock: not on the inline
            connection, which never waits. The store's thread holds that lock through its
            whole ``COMMIT``, and that connection's ``COMMIT`` can run an automatic
            checkpoint, which syncs the file: found held, the inline commit goes on, and is
            a step of the keys' only if no other commit came before its header was read.
        record: A flush's record, given the headers before and after the ``COMMIT``.
    """

    __slots__ = ("_before", "_header", "_known", "_record", "_wait")

    def __init__(
        self,
        known: KnownKeys | None,
        wal_index: WalIndex,
        *,
        wait: bool,
        record: FlushRecord | None = None,
    ) -> None:
        self._known = known
        self._header = wal_index.header
        self._wait = wait
        self._record = record
        self._before: bytes | None = None

    def began(self) -> None:
        """The transaction holds the write lock: the header is the last commit's."""
        self._before = self._header()

    def commit(self, conn: sqlite3.Connection) -> None:
        """``COMMIT``, then the keys' update, the other connection's commit not between."""
        known = self._known
        if known is None:
            conn.execute("COMMIT")
            after = self._header()
        else:
            lock = known.commit_lock
            locked = lock.acquire(self._wait)  # not held: another commit may come in between
            try:
                conn.execute("COMMIT")
                after = self._header()
                known.committed(self._before, after)
            finally:
                if locked:
                    lock.release()
        if self._record is not None:
            self._record.around(self._before, after)
