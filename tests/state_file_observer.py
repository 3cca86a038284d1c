"""Another connection to a SQLite state file: what another process would read of it."""

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

MONTH = "month:test"
"""The usage period the write-behind tests count in."""

_WAIT_SECONDS = 10.0
"""How long :meth:`Observer.wait_for` and :meth:`Observer.wait_for_entry` wait at most."""


class Observer:
    """Reads the file's usage counts and cache entries over a connection of its own."""

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None)

    def count(self, provider: str = "brave", period: str = MONTH) -> int:
        """The usage count the file holds for ``provider`` in ``period``."""
        row = self.conn.execute(
            "SELECT count FROM usage WHERE provider = ? AND period = ?", (provider, period)
        ).fetchone()
        return 0 if row is None else int(row[0])

    def commits(self) -> int:
        """Changes the file's data version: one per transaction another connection commits."""
        return int(self.conn.execute("PRAGMA data_version").fetchone()[0])

    def rows(self) -> int:
        """The cache entries the file holds (0 before the store has made its table)."""
        try:
            return int(self.conn.execute("SELECT count(*) FROM cache").fetchone()[0])
        except sqlite3.OperationalError:  # no table yet: the store has not opened the file
            return 0

    def value(self, key: str) -> bytes | None:
        """The cache entry the file holds under ``key``, if any."""
        row = self.conn.execute("SELECT value FROM cache WHERE key = ?", (key,)).fetchone()
        return None if row is None else bytes(row[0])

    def wait_for(self, expected: int, provider: str = "brave") -> float:
        """Seconds until the file counts ``expected`` for ``provider``; fails after ten."""
        return _waited(
            lambda: self.count(provider) == expected,
            lambda: f"{self.count(provider)} != {expected}",
        )

    def wait_for_entry(self, key: str) -> float:
        """Seconds until the file holds the cache entry ``key``; fails after ten."""
        return _waited(lambda: self.value(key) is not None, lambda: f"{key} never reached the file")


def _waited(done: Callable[[], bool], failure: Callable[[], str]) -> float:
    started = time.monotonic()
    while not done():
        assert time.monotonic() - started < _WAIT_SECONDS, failure()
        time.sleep(0.01)
    return time.monotonic() - started
