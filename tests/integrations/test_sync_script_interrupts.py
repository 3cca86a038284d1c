"""Ctrl-C in a plain script's sync call (no running loop) ends it with one clean traceback.

There the sync bridge runs the search on the script's own thread (``asyncio.Runner``), whose
SIGINT handler cancels the search on the first Ctrl-C and raises inside the loop on a second
one. Python then printed the search's ``CancelledError`` and, "During handling of the above
exception, another exception occurred", the interrupt: two tracebacks deep in aiohttp for
one Ctrl-C, and the same again with the second interrupt raised inside the call's clean-up.
"""

import asyncio
import contextlib
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Final

import pytest

from websearch_core.state import open_store

_SCRIPT = """
import os, signal, sys

from websearch_core import WebSearch
from websearch_core.testing import Fault, Simulator

# Ctrl-C as a terminal delivers it: a shell's background job starts with SIGINT ignored,
# and asyncio.Runner installs its handler only over Python's default one.
signal.signal(signal.SIGINT, signal.default_int_handler)
times = int(sys.argv[1])


def interrupt() -> None:
    os.kill(os.getpid(), signal.SIGINT)


def interrupt_as_it_closes(frame, event, arg):
    # Ctrl-C again as the search, cancelled by the first one, starts closing what it opened.
    if event == "call" and frame.f_code is WebSearch.aclose.__code__:
        sys.setprofile(None)
        interrupt()


with Simulator(["brave"]).running_in_thread() as sim:

    def interrupt_and_hang():
        interrupt()  # the search is under way: its request has arrived
        return Fault.hang(3600)  # held until the simulator closes

    sim["brave"].next_fault = interrupt_and_hang
    ws = WebSearch(sim.settings(deadline_seconds=300, timeout_seconds=300), api_keys=sim.api_keys())
    if times == 2:
        sys.setprofile(interrupt_as_it_closes)
    print("searching", flush=True)
    ws.run_sync("python")
    print("not interrupted", flush=True)
"""


@pytest.mark.parametrize("times", [1, 2])
def test_ctrl_c_in_a_plain_scripts_sync_call_shows_one_keyboard_interrupt(times: int) -> None:
    # Event-bound: the first interrupt is sent as the simulator receives the search's
    # request, the second as the cancelled search enters its clean-up (WebSearch.aclose).
    # Both failed before: stderr held a CancelledError traceback and "During handling of
    # the above exception, another exception occurred" before the KeyboardInterrupt.
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", _SCRIPT, str(times)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.stdout == "searching\n"
    assert done.returncode == -signal.SIGINT  # an uncaught KeyboardInterrupt's exit
    assert done.stderr.count("Traceback (most recent call last):") == 1
    assert "During handling" not in done.stderr
    assert "CancelledError" not in done.stderr
    assert done.stderr.splitlines()[-1] == "KeyboardInterrupt"


_CLOSING_SCRIPT = """
import logging, os, signal, sys

from websearch_core import WebSearch
from websearch_core.testing import Fault, Simulator

signal.signal(signal.SIGINT, signal.default_int_handler)
times = int(sys.argv[1])


def interrupt() -> None:
    os.kill(os.getpid(), signal.SIGINT)


closing = WebSearch.aclose


async def closed(self) -> None:
    # Watches the close run to its end (a second Ctrl-C used to be raised inside it).
    await closing(self)
    print("closed", flush=True)


WebSearch.aclose = closed


def interrupt_as_it_closes(frame, event, arg):
    if event == "call" and frame.f_code is closing.__code__:
        sys.setprofile(None)
        interrupt()


class ThirdCtrlC(logging.Handler):
    # A third Ctrl-C as the second one's warning is written (the clean-up is under way).
    def emit(self, record: logging.LogRecord) -> None:
        print(record.getMessage(), flush=True)
        if times == 3:
            interrupt()


logging.getLogger("websearch_core").addHandler(ThirdCtrlC(logging.WARNING))

with Simulator(["brave"]).running_in_thread() as sim:

    def interrupt_and_hang():
        interrupt()
        return Fault.hang(3600)

    sim["brave"].next_fault = interrupt_and_hang
    ws = WebSearch(sim.settings(deadline_seconds=300, timeout_seconds=300), api_keys=sim.api_keys())
    sys.setprofile(interrupt_as_it_closes)
    print("searching", flush=True)
    ws.run_sync("python")
    print("not interrupted", flush=True)
"""

_AGAIN: Final = (
    "Interrupted again: closing the web search's connections and state store (3 s at most); "
    "press Ctrl-C once more to stop at once"
)


def _interrupted(script: str, times: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-W", "error", "-c", script, str(times)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_second_ctrl_c_lets_the_interrupted_call_finish_closing() -> None:
    # Event-bound: the first interrupt as the request arrives, the second as the cancelled
    # call enters WebSearch.aclose. Failed before: the second was raised inside aclose, so
    # "closed" was never printed (the call's HTTP session was left open).
    done = _interrupted(_CLOSING_SCRIPT, 2)
    assert done.stdout == f"searching\n{_AGAIN}\nclosed\n"
    assert done.returncode == -signal.SIGINT
    assert done.stderr.count("Traceback (most recent call last):") == 1
    assert done.stderr.splitlines()[-1] == "KeyboardInterrupt"


def test_a_third_ctrl_c_stops_the_clean_up_at_once() -> None:
    # The third interrupt is sent as the second one's warning is logged, within the close.
    # Still one clean KeyboardInterrupt, and the close is not waited for.
    done = _interrupted(_CLOSING_SCRIPT, 3)
    assert done.stdout == f"searching\n{_AGAIN}\n"
    assert done.returncode == -signal.SIGINT
    assert done.stderr.count("Traceback (most recent call last):") == 1
    assert "During handling" not in done.stderr
    assert done.stderr.splitlines()[-1] == "KeyboardInterrupt"


_ASYNC_SCRIPT = """
import asyncio, os, signal, sys
from datetime import UTC, datetime

from websearch_core import WebSearch
from websearch_core.state.sqlite import SQLiteStore
from websearch_core.testing import Fault, Simulator

signal.signal(signal.SIGINT, signal.default_int_handler)
releasing = SQLiteStore._release


def release(self) -> None:
    # Ctrl-C again as the store's thread starts its last write and close.
    os.kill(os.getpid(), signal.SIGINT)
    releasing(self)


SQLiteStore._release = release

with Simulator(["brave"]).running_in_thread() as sim:
    asked = []

    def first_answers_second_is_interrupted():
        asked.append(1)
        if len(asked) == 1:
            return None
        os.kill(os.getpid(), signal.SIGINT)  # the second search's request has arrived
        return Fault.hang(3600)

    sim["brave"].next_fault = first_answers_second_is_interrupted

    async def main() -> None:
        settings = sim.settings(
            deadline_seconds=300, timeout_seconds=300, state_backend="sqlite", state_dir=sys.argv[1]
        )
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            await ws.search("first")
            print(datetime.now(UTC).strftime("month:%Y-%m"), flush=True)
            await ws.search("second")

    asyncio.run(main())
"""


def test_guard_a_second_ctrl_c_in_asyncio_run_leaves_the_sqlite_state_whole(
    tmp_path: Path,
) -> None:
    """Guard (passes before and after): under the application's own ``asyncio.run`` the
    second Ctrl-C is asyncio's to raise, here as the store's thread starts its last write;
    the store's exit finalizer still writes what was pending, and the file stays sound."""
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", _ASYNC_SCRIPT, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    period = done.stdout.strip()
    assert done.returncode == -signal.SIGINT, done.stderr
    assert done.stderr.splitlines()[-1] == "KeyboardInterrupt"
    with contextlib.closing(sqlite3.connect(tmp_path / "state.sqlite3")) as file:
        assert file.execute("PRAGMA integrity_check").fetchall() == [("ok",)]

    async def counted() -> int:
        store = open_store(redis_url=None, sqlite_path=tmp_path / "state.sqlite3")
        try:
            return await store.get_usage("brave", period)
        finally:
            await store.aclose()

    assert asyncio.run(counted()) == 2  # both searches' requests, none lost
