"""Whether any connection committed to a WAL database, read off its wal-index header.

Why: the SQLite store reuses a provider's rows while nothing has committed to the file
since it read them (:mod:`._seen`). ``PRAGMA data_version`` answers that, but as a
statement: a lock taken and dropped on the ``-shm`` file, and SQLite's code run on the event
loop between two HTTP exchanges, measured at 17 us a call there (1.6 us alone in a tight
loop). SQLite itself answers it by comparing the wal-index header, which every commit
rewrites (change counter, last frame, checksums): ``data_version`` moves exactly when a
read transaction finds that header changed. (A checkpoint that restarts the WAL rewrites it
too; that only costs one read more.) The header is the first
48 bytes of the ``-shm`` file, kept twice, both copies written on every commit (the second
first), as https://www.sqlite.org/walformat.html describes; the file is memory that SQLite
maps, so reading its first 96 bytes sees what every connection last committed. Unchanged
bytes (both copies equal) mean no commit since they were last read.

The reader maps those bytes too, as SQLite does, and copies them out of the mapping: the
``pread`` it made before was a system call on the event loop per reservation (1.4 us alone,
more under load), a copy out of mapped memory is 0.1 us. Mapped memory faults (``SIGBUS``)
if the file shrinks under it; SQLite shrinks the ``-shm`` file only when it opens it with
no other connection using it (the exclusive lock on its "DMS" byte), which cannot happen
while the live connection below holds it open, and SQLite's own mapping of the same file in
this process would fault just the same. A file too short to map when opened is read with
``pread`` as before.

Whenever the header cannot be trusted (the file is not in WAL mode, there is no ``-shm``
file, the two copies differ because a commit is being written, an unknown wal-index
version, no ``os.pread`` on this platform) :meth:`WalIndex.header` gives ``None`` and the
caller asks ``PRAGMA data_version`` as before: never a wrong answer, at worst the old cost.

While any connection has the database open in WAL mode, SQLite neither removes nor
re-initialises the ``-shm`` file and no other connection can leave WAL mode, so a reader
opened alongside a live connection (and closed with it) reads the header SQLite uses.
"""

import mmap
import os
import sqlite3
import struct
import weakref
from pathlib import Path

__all__ = ["WalIndex", "commit_count"]

_HEADER_BYTES = 48
"""One copy of the wal-index header (``WalIndexHdr``)."""
_WAL_INDEX_VERSION = 3007000
"""``iVersion``, the wal-index format SQLite has written since 3.7.0."""
_VERSION_AND_INIT = struct.Struct("=I8xB")
"""``iVersion`` (native byte order, as the header is) and ``isInit`` (byte 12)."""
_CHANGE_COUNTER = struct.Struct("=8xI")
"""``iChange``, the header's commit counter (native byte order, as the header)."""


def commit_count(header: bytes) -> int:
    """``header``'s commit counter: SQLite adds one on every commit, by any connection.

    So a header read inside a write transaction (the write lock held) and one read after
    its ``COMMIT`` that counts exactly one more say that commit was the only one between.
    """
    return int(_CHANGE_COUNTER.unpack_from(header)[0])


class WalIndex:
    """The wal-index header of one WAL database, read for change detection.

    Args:
        fd: The ``-shm`` file, open for reading; closed by :meth:`close`.
    """

    def __init__(self, fd: int) -> None:
        self._fd: int | None = fd
        self._map = _mapped_header(fd)
        # The last trusted read, both copies as read and the header they hold: equal bytes
        # next time are the same header, so its checks are not made again.
        self._last: tuple[bytes, bytes] | None = None
        # A store dropped without aclose() must not leak the descriptor with it (the
        # mapping, which holds a descriptor of its own, is closed when it is collected).
        self._closer = weakref.finalize(self, os.close, fd)

    @classmethod
    def open(cls, database: Path, conn: sqlite3.Connection) -> "WalIndex | None":
        """A reader for ``database``'s header, or ``None`` when it cannot be relied on.

        Args:
            database: The database file ``conn`` has open.
            conn: A live connection to it, which must stay open while the reader is used
                (it keeps SQLite from removing or re-initialising the ``-shm`` file).
        """
        if not hasattr(os, "pread"):  # Windows: data_version it is
            return None
        try:
            mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
        except sqlite3.Error:
            return None
        if str(mode).lower() != "wal":  # a -shm file left from an earlier WAL run is stale
            return None
        # SQLite names the -shm file after the database's resolved path (symlinks followed).
        try:
            fd = os.open(f"{os.path.realpath(database)}-shm", os.O_RDONLY)
        except OSError:
            return None
        return cls(fd)

    def header(self) -> bytes | None:
        """The current header, or ``None`` when it cannot be trusted right now.

        Two calls that give equal bytes had no commit between them, by any connection
        (this process's included).
        """
        mapped = self._map
        if mapped is not None:
            try:
                data = mapped[: 2 * _HEADER_BYTES]
            except ValueError:  # closed by another thread meanwhile
                return None
        elif self._fd is None:
            return None
        else:
            try:
                data = os.pread(self._fd, 2 * _HEADER_BYTES, 0)
            except OSError:
                return None
        last = self._last
        if last is not None and data == last[0]:
            return last[1]  # trusted before, unchanged since: no commit between
        first = data[:_HEADER_BYTES]
        if len(data) < 2 * _HEADER_BYTES or first != data[_HEADER_BYTES:]:
            return None  # not initialised, or a commit writing it right now
        version, initialised = _VERSION_AND_INIT.unpack_from(first)
        if version != _WAL_INDEX_VERSION or initialised != 1:
            return None
        self._last = (data, first)
        return first

    def close(self) -> None:
        """Close the file (idempotent); :meth:`header` gives ``None`` afterwards."""
        self._fd = None
        mapped, self._map = self._map, None
        if mapped is not None:
            mapped.close()
        self._closer()  # closes the file the first time only


def _mapped_header(fd: int) -> mmap.mmap | None:
    """Both copies of the header mapped read-only, or ``None`` when the file cannot be.

    ``None`` for a file shorter than both copies (SQLite has not set it up: mapped, the
    bytes past its end would fault) and wherever mapping it fails; it is then read with
    ``pread``.
    """
    try:
        if os.fstat(fd).st_size < 2 * _HEADER_BYTES:
            return None
        return mmap.mmap(fd, 2 * _HEADER_BYTES, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return None
