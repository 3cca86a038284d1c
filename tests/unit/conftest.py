"""Fixtures shared by unit tests: the SQLite store's write-behind tests (counts and cache
entries), and Brave on loopback for the tests of what a search is sent."""

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.state_file_observer import Observer

if TYPE_CHECKING:
    from websearch_core.testing import Simulator


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


@pytest.fixture
def brave(monkeypatch: pytest.MonkeyPatch) -> Iterator["Simulator"]:
    """Brave simulated on loopback, the only provider a search may ask.

    Imported when used: a conftest's imports reach every unit test, some of which check
    what importing the package loads.
    """
    from websearch_core import SEARCH_PROVIDER_ORDER
    from websearch_core.testing import Simulator

    monkeypatch.setenv("WEBSEARCH_STATE_WAIT_SECONDS", "20")  # a loaded machine's store
    with Simulator(["brave"]).running_in_thread() as sim:
        monkeypatch.setenv("WEBSEARCH_BRAVE_BASE_URL", sim["brave"].base_url)
        monkeypatch.setenv("BRAVE_API_KEY", "sim-key-brave")
        others = [pid for pid in SEARCH_PROVIDER_ORDER if pid != "brave"]
        monkeypatch.setenv("WEBSEARCH_EXCLUDE", ",".join(others))
        yield sim
