"""A ``websearch`` search behind another process's write lock keeps what it must write.

Another process holds the SQLite state file's write lock (``BEGIN EXCLUSIVE``, as a process
stuck mid-transaction would). The search reads the file beside it and answers, but its
usage count (held in memory), and a cooldown mark or a failure count it could not write,
waited for the lock on the way out: the close's 1 s grace, then the exit's 1 s try, and
were lost when the lock outlived both (2.8 s for a 0.7 s search, and the count gone). They
are now journaled beside the file, and the next process to take the lock writes them.

What is timed is what a write waiting for the lock would lengthen: from the search's request
reaching the provider to the process's end. The whole process, timed before, also held the
interpreter's start-up and first imports, 10.45 s on a loaded 2-core machine (load 13-16)
against the same bound, with nothing waiting for the lock.
"""

import asyncio
import inspect
import os
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from tests.sqlite_holder import held_by_another_process
from tests.websearch_process import WEBSEARCH, run_websearch
from websearch_core.state.sqlite import SQLiteStore
from websearch_core.testing import Fault, Simulator

_BUSY_TIMEOUT: float = inspect.signature(SQLiteStore).parameters["busy_timeout"].default
"""Seconds a SQLite store's write waits for another process's lock (the CLI's store keeps
the default): what a write on the way out waited, per write, before the close had a grace
and the journal. A process that waits it ends no sooner than this after its request."""


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


def _timed_from_request(
    sim: Simulator, args: list[str], env: dict[str, str]
) -> tuple[subprocess.CompletedProcess[str], float]:
    """Run ``websearch args``; seconds from Brave's first request to the process's end.

    The interpreter's start-up, its imports and the store's opening come before the
    request, and are not timed. The request is seen by polling the simulator's record, so
    the time is at most a poll's sleep short. Infinite when the request never came.
    """
    requests = sim["brave"].requests
    asked_before = len(requests)
    with subprocess.Popen(
        [*WEBSEARCH, *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        while len(requests) == asked_before and process.poll() is None:
            time.sleep(0.01)
        asked = time.monotonic() if len(requests) > asked_before else None
        stdout, stderr = process.communicate(timeout=60)
        ended = time.monotonic()
    took = float("inf") if asked is None else ended - asked
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr), took


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
        made = run_websearch(["providers"], env=env, timeout=60)  # the file, as any command made
        assert made.returncode == 0
        if fault is not None:
            sim["brave"].always(fault)
        with held_by_another_process(state) as lock:
            searched, took = _timed_from_request(sim, ["--no-cache", "python asyncio"], env)
            assert _one(state, "SELECT count(*) FROM usage") == 0  # nothing got past the lock
            lock.release()
        asyncio.run(_open_later(state))
    assert took < _BUSY_TIMEOUT, searched.stderr
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
        assert run_websearch(["--no-cache", "python asyncio"], env=env, timeout=60).returncode == 1
        assert _one(state, "SELECT count FROM failures WHERE provider = 'brave'") == 1
        sim["brave"].always(None)
        with held_by_another_process(state) as lock:
            searched = run_websearch(["--no-cache", "rust tokio"], env=env, timeout=60)
            lock.release()
        asyncio.run(_open_later(state))
    assert searched.returncode == 0, searched.stderr
    assert _one(state, "SELECT count(*) FROM failures") == 0
    assert not list(state.parent.glob("state.sqlite3.owed-*"))
