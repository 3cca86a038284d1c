"""A ``websearch`` search behind another process's write lock keeps what it must write.

Another process holds the SQLite state file's write lock (``BEGIN EXCLUSIVE``, as a process
stuck mid-transaction would). The search reads the file beside it and answers, but its
usage count (held in memory), and a cooldown mark or a failure count it could not write,
waited for the lock on the way out: the close's 1 s grace, then the exit's 1 s try, and
were lost when the lock outlived both (2.8 s for a 0.7 s search, and the count gone). They
are now journaled beside the file, and the next process to take the lock writes them.
"""

import asyncio
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.sqlite_holder import held_by_another_process
from websearch_core.state.sqlite import SQLiteStore
from websearch_core.testing import Fault, Simulator

_TAKES = 10.0
"""Seconds the search may take, start-up on a loaded machine included; the busy timeout
a write waited behind the lock before the close had a grace was 10 s per write."""


def _environment(sim: Simulator, state: Path) -> dict[str, str]:
    """The user's environment (the conftest's, isolated) with Brave on the simulator only."""
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(Path.cwd()), os.environ.get("PYTHONPATH", "")]),
        "WEBSEARCH_STATE_DIR": str(state.parent),
        "WEBSEARCH_STATE_BACKEND": "sqlite",
        "WEBSEARCH_BROWSER": "off",
        "WEBSEARCH_BRAVE_BASE_URL": sim["brave"].base_url,
        "BRAVE_API_KEY": "sim-key-brave",
        "WEBSEARCH_PROVIDERS": "brave",
        "WEBSEARCH_DEADLINE_SECONDS": "4",
        "WEBSEARCH_STATE_WAIT_SECONDS": "1",
    }


def _websearch(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "websearch_core", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


async def _open_later(state: Path) -> None:
    """What a later process does first: open the store (and read), with the lock free."""
    store = SQLiteStore(state)
    await store.get_usage("brave", "day")
    await store.aclose()


def _one(state: Path, sql: str) -> object:
    with sqlite3.connect(state) as observer:
        row = observer.execute(sql).fetchone()
    return None if row is None else row[0]


@pytest.mark.parametrize(
    ("fault", "kept", "expected"),
    [
        (None, "SELECT count(*) FROM marks", 0),
        (Fault.rate_limited(), "SELECT kind FROM marks WHERE provider = 'brave'", "rate_limited"),
        (Fault.server_error(503), "SELECT count FROM failures WHERE provider = 'brave'", 1),
    ],
    ids=["answered", "rate-limited", "server-error"],
)
def test_a_search_behind_the_lock_leaves_its_writes_to_the_next_process(
    tmp_path: Path, fault: Fault | None, kept: str, expected: object
) -> None:
    state = tmp_path / "state" / "state.sqlite3"
    with Simulator(["brave"]).running_in_thread() as sim:
        env = _environment(sim, state)
        assert _websearch(["providers"], env).returncode == 0  # the file, as any command made
        if fault is not None:
            sim["brave"].always(fault)
        with held_by_another_process(state) as lock:
            started = time.monotonic()
            searched = _websearch(["--no-cache", "python asyncio"], env)
            took = time.monotonic() - started
            assert _one(state, "SELECT count(*) FROM usage") == 0  # nothing got past the lock
            lock.release()
        asyncio.run(_open_later(state))
    assert took < _TAKES, searched.stderr
    assert searched.returncode == (0 if fault is None else 1), searched.stderr
    assert "lost if it does not" not in searched.stderr, searched.stderr
    assert _one(state, "SELECT sum(count) FROM usage WHERE provider = 'brave'") == 1
    assert _one(state, kept) == expected  # the cooldown mark, the failure count
    # Written once: the journal is gone, and a second opening counts nothing again.
    assert not list(state.parent.glob("state.sqlite3.owed-*"))
    asyncio.run(_open_later(state))
    assert _one(state, "SELECT sum(count) FROM usage WHERE provider = 'brave'") == 1


def test_a_failure_count_forgiven_behind_the_lock_is_left_to_the_next_process(
    tmp_path: Path,
) -> None:
    # A success after a failure forgives the failure count; behind the lock that write
    # waited on the store's thread, no journal held it, and the exit lost it: the next
    # process still counted the failure, one step nearer an open circuit breaker.
    state = tmp_path / "state" / "state.sqlite3"
    with Simulator(["brave"]).running_in_thread() as sim:
        env = _environment(sim, state)
        sim["brave"].always(Fault.server_error(503))
        assert _websearch(["--no-cache", "python asyncio"], env).returncode == 1
        assert _one(state, "SELECT count FROM failures WHERE provider = 'brave'") == 1
        sim["brave"].always(None)
        with held_by_another_process(state) as lock:
            searched = _websearch(["--no-cache", "rust tokio"], env)
            lock.release()
        asyncio.run(_open_later(state))
    assert searched.returncode == 0, searched.stderr
    assert _one(state, "SELECT count(*) FROM failures") == 0
    assert not list(state.parent.glob("state.sqlite3.owed-*"))
