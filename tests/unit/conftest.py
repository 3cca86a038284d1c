"""Fixtures shared by the SQLite store's write-behind tests (counts and cache entries)."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.state_file_observer import Observer


@pytest.fixture
def path(tmp_path: Path) -> Path:
    """Where the test's SQLite state file goes."""
    return tmp_path / "state.sqlite3"


@pytest.fixture
def observer(path: Path) -> Iterator[Observer]:
    """Another connection to the state file: what another process would read."""
    seen = Observer(path)
    yield seen
    seen.conn.close()


@pytest.fixture
def flushed_by_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    """No timed flush: the test flushes (``store._flush_due()``) when it means to."""
    monkeypatch.setattr("websearch_core.state.sqlite.FLUSH_AFTER", 3600.0)
