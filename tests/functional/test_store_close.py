"""Closing a client does not wait on a state store that does not answer, nor does exiting.

Another process holds the SQLite file's lock (``BEGIN EXCLUSIVE``, as a process stuck
mid-transaction would). A search's cache write, handed to the store's thread, then waits
behind the lock for the busy timeout (10 s), and the close, queued behind it, waited as
long, then as long again to write the usage counts held in memory: ``async with
WebSearch(...)``'s exit, and the command's, took 10 to 20 s. The close now waits a short
grace and leaves the rest to the store's thread, which writes it if the lock goes while
the process lives; a process exiting meanwhile loses it, and does not wait for it. (The
SQLite store now holds a search's cache entry in memory with its usage count, so no call is
given up on there and the close waits its grace: both are what it leaves to the thread.)
"""

import asyncio
import logging
import os
import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.sqlite_holder import held_by_another_process
from websearch_core import SEARCH_PROVIDER_ORDER, WebSearch
from websearch_core.testing import Simulator

CLOSE_BOUND = 5.0
"""Seconds a close may take here: the grace is 1 s; a close behind the lock took 10 s or more."""


async def _count(path: Path, sql: str, want: int) -> int:
    """``sql``'s single number once it reaches ``want`` (or after 15 s, whatever it is then)."""
    give_up = time.monotonic() + 15.0
    while True:
        with sqlite3.connect(path) as observer:
            (found,) = observer.execute(sql).fetchone()
        found = int(found or 0)  # a sum over no rows is NULL
        if found >= want or time.monotonic() > give_up:
            return found
        await asyncio.sleep(0.05)


async def test_a_close_behind_another_process_lock_ends_soon_and_loses_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "state.sqlite3"
    async with Simulator(["brave"]) as sim:
        # Time enough for the first search and for the store to open on a loaded machine
        # (a 1 s deadline ran out before Brave was asked); the close's grace is its own.
        settings = sim.settings(
            deadline_seconds=30.0,
            state_wait_seconds=1.0,
            provider="brave",
            state_backend="sqlite",
            state_dir=tmp_path,
        )
        ws = WebSearch(settings, api_keys=sim.api_keys())
        assert not (await ws.run("python asyncio")).is_error  # opens the store
        with held_by_another_process(path) as lock:
            # Its cache entry and usage count wait in memory for a flush behind the lock.
            assert not (await ws.run("rust tokio")).is_error
            started = time.monotonic()
            with caplog.at_level(logging.WARNING, logger="websearch_core.state"):
                await ws.aclose()
            closing = time.monotonic() - started
            lock.release()
        # Nothing that could still be written was dropped: once the lock goes, it lands.
        cached = await _count(path, "SELECT count(*) FROM cache", 2)
        used = await _count(path, "SELECT sum(count) FROM usage WHERE provider = 'brave'", 2)
    assert closing < CLOSE_BOUND
    assert (cached, used) == (2, 2)
    warning = caplog.text
    # Nothing was given up on (the entry and the count are in memory): it waited its grace.
    assert f"SQLiteStore({str(path)!r}) did not finish closing within 1 s" in warning
    # What was left (the flush waiting for the lock, if it had begun), and what becomes of it.
    assert re.search(
        r"left to its thread: \d+ calls? it had not answered and [1-9]\d* "
        r"usage counts? and [1-9]\d* cache entr(y|ies) held in memory\. They are written "
        r"if the store answers before this process exits, and lost if it does not\.",
        warning,
    )


_EXITING = """
import asyncio, logging, sys
from pathlib import Path
from tests.sqlite_holder import HeldLock
from websearch_core import WebSearch

async def main() -> None:
    async with WebSearch() as ws:
        assert not (await ws.run("python asyncio")).is_error  # opens the store
        lock = HeldLock(Path(sys.argv[1]))  # held until this process is gone
        assert not (await ws.run("rust tokio")).is_error
        print("closing", flush=True)

logging.basicConfig(level=logging.WARNING, format="%(message)s")
asyncio.run(main())
"""


def test_a_process_exits_soon_after_closing_a_store_another_process_holds_locked(
    tmp_path: Path,
) -> None:
    # The close waited out two busy timeouts (the cache write, then the usage count it
    # writes on the way out): 20 s; and a pool's threads are joined at exit, so a close
    # given up on would still have held the process behind the queued writes.
    state = tmp_path / "exiting"
    with Simulator(["brave"]).running_in_thread() as sim:
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(Path.cwd()), os.environ.get("PYTHONPATH", "")]),
            "WEBSEARCH_STATE_DIR": str(state),
            "WEBSEARCH_STATE_BACKEND": "sqlite",
            "WEBSEARCH_BRAVE_BASE_URL": sim["brave"].base_url,
            "BRAVE_API_KEY": "sim-key-brave",
            "WEBSEARCH_PROVIDER": "brave",
            # A fresh process's first search (imports, the file and its schema) ran out
            # of a 2 s deadline on a loaded machine before Brave was asked, or its store
            # did not open within the 0.25 s wait that deadline gives (searched without
            # it, so nothing was left behind the lock). The close's grace does not depend
            # on either.
            "WEBSEARCH_DEADLINE_SECONDS": "30",
            "WEBSEARCH_STATE_WAIT_SECONDS": "1",
            "WEBSEARCH_EXCLUDE": ",".join(p for p in SEARCH_PROVIDER_ORDER if p != "brave"),
        }
        with subprocess.Popen(
            [sys.executable, "-c", _EXITING, str(state / "state.sqlite3")],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        ) as process:
            assert process.stdout is not None and process.stderr is not None
            try:
                line = process.stdout.readline()
                assert line == "closing\n", process.stderr.read()
                started = time.monotonic()
                stderr = process.stderr.read()
                status = process.wait(timeout=60)
                exiting = time.monotonic() - started
            finally:
                process.kill()
    assert status == 0, stderr
    assert exiting < CLOSE_BOUND
    # What is lost is said: the cache entry and the count never reached the file.
    assert "did not finish closing within 1 s" in stderr
    assert "lost if it does not" in stderr
