"""Creating the SQLite store's file where no other user can read it, and switching it to WAL.

Why a module of their own: both run once, when the store opens the file, and both are
about the file on the disk rather than its rows: cached responses reveal what the user
searched for, so the directories are made private one by one; and two processes opening a
new file at once race for the switch to WAL, which the loser retries.
"""

import contextlib
import sqlite3
import time
from pathlib import Path

from ._sqlite_rows import is_busy


def make_private_dirs(directory: Path) -> None:
    """Create ``directory`` and any missing parents with mode ``0o700``.

    ``Path.mkdir(parents=True, mode=...)`` applies the mode to the last component only,
    so the missing ancestors are created one by one.
    """
    missing: list[Path] = []
    current = directory
    while not current.exists():
        missing.append(current)
        if current.parent == current:
            break
        current = current.parent
    for path in reversed(missing):
        with contextlib.suppress(FileExistsError):  # another process won the race
            path.mkdir(mode=0o700)


def set_wal(conn: sqlite3.Connection, patience: float) -> None:
    """Switch to WAL, retrying while another process holds the lock the switch needs.

    Two processes opening a new file at once both try the switch; the loser can get
    "database is locked" without the busy handler ever running.
    """
    deadline = time.monotonic() + patience
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if not is_busy(exc) or time.monotonic() >= deadline:
                raise
            time.sleep(0.05)
