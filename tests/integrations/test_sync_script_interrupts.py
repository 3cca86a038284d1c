"""Ctrl-C in a plain script's sync call (no running loop) ends it with one clean traceback.

There the sync bridge runs the search on the script's own thread (``asyncio.Runner``), whose
SIGINT handler cancels the search on the first Ctrl-C and raises inside the loop on a second
one. Python then printed the search's ``CancelledError`` and, "During handling of the above
exception, another exception occurred", the interrupt: two tracebacks deep in aiohttp for
one Ctrl-C, and the same again with the second interrupt raised inside the call's clean-up.
"""

import signal
import subprocess
import sys

import pytest

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
