"""A session left on an event loop closed without shutting down is closed and said once.

``loop.run_until_complete(ws.run(...))`` then ``loop.close()`` without
``loop.shutdown_asyncgens()`` left the session open where aiohttp cannot close it: the exit
printed aiohttp's ``Unclosed client session`` and ``Unclosed connector`` (after the
client's own line, once that was added) and the socket stayed open until the process
ended; ``ws.close()`` after ``loop.close()`` closed nothing either. LlamaIndex's
synchronous ``tool.call`` of an async function inside a running loop does the same on a
loop of its own per call, and was told to run ``loop.shutdown_asyncgens()``, which its
user never wrote. The client now closes the connections without the loop and says so once
per process, in LlamaIndex's words for a loop LlamaIndex ran. Each script runs in a fresh
interpreter with every warning shown (``-W default``), searching the loopback simulator,
and counts the process's open sockets (``/proc/self/fd``) where it says.
"""

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integrations._readme_scripts import simulated_env
from websearch_core.closed_loops import LEFT_BY_RUNNER, LEFT_ON_CLOSED_LOOP
from websearch_core.testing import Simulator

pytestmark = pytest.mark.skipif(
    sys.platform != "linux", reason="the scripts count descriptors in /proc/self/fd"
)

_SOCKETS = """
import atexit, os

def sockets():
    fds = os.listdir("/proc/self/fd")
    links = []
    for fd in fds:
        try:
            links.append(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:  # the listing's own descriptor, closed by now
            pass
    return sum(link.startswith("socket:") for link in links)

# Registered first, so it runs after the client's own exit check.
atexit.register(lambda: print("sockets at exit", sockets(), flush=True))
"""

_SCRIPT = (
    _SOCKETS
    + """
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
    print("sockets after close", sockets())
if sys.argv[1] == "collected":
    clients.clear()
    del ws  # the loop's variable held the last one
    gc.collect()
    print("collected", file=sys.stderr, flush=True)
    print("sockets after collection", sockets())
"""
)

_LLAMAINDEX = (
    _SOCKETS
    + """
import asyncio
from llama_index.core.tools import FunctionTool
from websearch_core import WebSearch

ws = WebSearch()

async def web_search(query: str) -> str:
    \"\"\"Search the web for current information.\"\"\"
    return (await ws.run(query, use_cache=False)).text  # each call asks the simulator

own_tool = FunctionTool.from_defaults(async_fn=web_search)

async def main():
    print("sockets before", sockets())
    for _ in range(3):
        print(own_tool.call(query="python").content.splitlines()[0])
        print("sockets after call", sockets())

asyncio.run(main())
"""
)

_UNCLOSED = ("Unclosed client session", "Unclosed connector", "unclosed transport")
"""What aiohttp and asyncio say of a session, connector or connection left open."""


@pytest.fixture
def sim() -> Iterator[Simulator]:
    """Brave on loopback, served from a thread (the script's loop is its own)."""
    with Simulator(["brave"]).running_in_thread() as simulator:
        yield simulator


def _run(
    sim: Simulator, tmp_path: Path, how: str, clients: int = 1, script: str = _SCRIPT
) -> tuple[list[str], str]:
    """The script's output lines (its searches' first lines and socket counts), its stderr."""
    env = simulated_env(sim, tmp_path)
    done = subprocess.run(
        [sys.executable, "-W", "default", "-c", script, how, str(clients)],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line for line in lines if not line.startswith("sockets")] == [
        "[1] python result 1 (11mo ago)"
    ] * clients
    return lines, done.stderr


def _unclosed(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith(_UNCLOSED)]


@pytest.mark.parametrize("how", ["closed alone", "close after"])
def test_a_loop_closed_without_shutting_down_is_closed_and_said_once(
    sim: Simulator, tmp_path: Path, how: str
) -> None:
    """Two clients on one loop closed unshut: one line, no aiohttp report, no socket left."""
    lines, stderr = _run(sim, tmp_path, how, clients=2)
    assert stderr.splitlines() == [LEFT_ON_CLOSED_LOOP]
    assert _unclosed(stderr) == []
    assert lines[-1] == "sockets at exit 0"
    if how == "close after":  # ws.close() closes its own session then, not the exit
        assert "sockets after close 1" in lines  # the other client's, closed at exit


@pytest.mark.parametrize("how", ["shut down", "closed first"])
def test_guard_a_loop_shut_down_or_a_client_closed_first_prints_nothing(
    sim: Simulator, tmp_path: Path, how: str
) -> None:
    """A guard (passes before and after): as the README says, nothing is left to report."""
    lines, stderr = _run(sim, tmp_path, how)
    assert stderr == ""
    assert lines[-1] == "sockets at exit 0"


def test_clients_collected_after_their_loop_closed_are_closed_and_said_once(
    sim: Simulator, tmp_path: Path
) -> None:
    """Two clients dropped (and collected) after their loop was closed unshut: they took
    their guards along, so the exit check never saw them, aiohttp reported each session
    and its connector, and their sockets stayed open. Now their collection closes them and
    says so once."""
    lines, stderr = _run(sim, tmp_path, "collected", clients=2)
    assert stderr.splitlines() == [LEFT_ON_CLOSED_LOOP, "collected"]
    assert "sockets after collection 0" in lines


def test_llamaindex_sync_calls_in_async_code_are_closed_and_told_what_to_write(
    sim: Simulator, tmp_path: Path
) -> None:
    """``FunctionTool.from_defaults(async_fn=...)``'s ``tool.call`` inside ``asyncio.run``:
    LlamaIndex runs each call on a loop of its own in a thread and closes it unshut. Three
    calls said the advice for a ``loop.close()`` of one's own three times, then aiohttp's
    report of each session, and left a socket open per loop. Now: LlamaIndex's advice,
    once; each loop's session closed as the next call opens one; nothing open at exit."""
    lines, stderr = _run(sim, tmp_path, "", clients=3, script=_LLAMAINDEX)
    assert stderr.splitlines() == [LEFT_BY_RUNNER["llama_index"]]
    assert "await tool.acall(...)" in LEFT_BY_RUNNER["llama_index"]
    counts = [int(line.rsplit(" ", 1)[1]) for line in lines if line.startswith("sockets")]
    before = counts[0]  # asyncio.run's loop's own
    assert counts[1:] == [
        before + 1,  # the first call's connection, its loop closed by now
        before + 1,  # the first closed as the second opened its own
        before + 1,
        0,  # at exit
    ]
