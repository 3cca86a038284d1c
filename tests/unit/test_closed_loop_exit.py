"""A session left on an event loop closed by hand is reported at exit, saying what to run.

``loop.run_until_complete(ws.run(...))`` then ``loop.close()`` without
``loop.shutdown_asyncgens()`` left the session open where nothing can close it, and the
exit printed aiohttp's ``Unclosed client session`` and ``Unclosed connector`` alone;
``ws.close()`` after ``loop.close()`` returned silently with the session still open; a
client collected before the exit (its guard gone with it) left aiohttp's lines alone still.
Each script runs in a fresh interpreter (the report comes from the exit check, or from the
client's collection), searching the
loopback simulator.
"""

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integrations._readme_scripts import simulated_env
from websearch_core.closed_loops import LEFT_ON_CLOSED_LOOP
from websearch_core.testing import Simulator

_SCRIPT = """
import asyncio, gc, sys
from websearch_core import WebSearch

clients = [WebSearch() for _ in range(int(sys.argv[2]))]
loop = asyncio.new_event_loop()
for ws in clients:
    print(loop.run_until_complete(ws.run("python")).text.splitlines()[0])
if sys.argv[1] == "shut down":
    loop.run_until_complete(loop.shutdown_asyncgens())
if sys.argv[1] == "closed first":
    for ws in clients:
        loop.run_until_complete(ws.aclose())
loop.close()
if sys.argv[1] == "close after":
    clients[0].close()
if sys.argv[1] == "collected":
    clients.clear()
    gc.collect()
    print("collected", file=sys.stderr, flush=True)
"""


@pytest.fixture
def sim() -> Iterator[Simulator]:
    """Brave on loopback, served from a thread (the script's loop is its own)."""
    with Simulator(["brave"]).running_in_thread() as simulator:
        yield simulator


def _run(sim: Simulator, tmp_path: Path, how: str, clients: int = 1) -> tuple[str, str]:
    env = simulated_env(sim, tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT, how, str(clients)],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["[1] python result 1 (11mo ago)"] * clients
    return done.stdout, done.stderr


@pytest.mark.parametrize("how", ["closed alone", "close after"])
def test_a_loop_closed_without_shutting_down_is_reported_once(
    sim: Simulator, tmp_path: Path, how: str
) -> None:
    _, stderr = _run(sim, tmp_path, how, clients=2)
    lines = stderr.splitlines()
    assert lines.count(LEFT_ON_CLOSED_LOOP) == 1  # two clients, one loop: one report
    assert lines.index(LEFT_ON_CLOSED_LOOP) < lines.index("Unclosed client session")


@pytest.mark.parametrize("how", ["shut down", "closed first"])
def test_guard_a_loop_shut_down_or_a_client_closed_first_prints_nothing(
    sim: Simulator, tmp_path: Path, how: str
) -> None:
    """A guard (passes before and after): as the README says, nothing is left to report."""
    _, stderr = _run(sim, tmp_path, how)
    assert stderr == ""


def test_clients_collected_before_exit_are_reported_once_as_they_go(
    sim: Simulator, tmp_path: Path
) -> None:
    """Two clients dropped (and collected) after their loop was closed by hand: they took
    their guards along, so the exit check never saw them and aiohttp's lines were said
    alone. The report comes as they are collected, once for the loop, before aiohttp's."""
    _, stderr = _run(sim, tmp_path, "collected", clients=2)
    lines = stderr.splitlines()
    assert lines.count(LEFT_ON_CLOSED_LOOP) == 1
    assert lines.index(LEFT_ON_CLOSED_LOOP) < lines.index("collected")
    assert lines.index(LEFT_ON_CLOSED_LOOP) < lines.index("Unclosed client session")
