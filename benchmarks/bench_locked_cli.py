"""Seconds a fresh ``websearch`` process takes while another process holds the state file's lock.

A state file another process is writing (it holds the write lock, as a long search's flush
or a stuck agent would) still lets readers in, under WAL. This times whole CLI processes
(start-up included) on a SQLite state file that an earlier command opened, first with the
file free, then with another process holding ``BEGIN IMMEDIATE`` on it, and prints for each
command the median and range of both and their difference: what the lock costs a user.

* ``providers``: the providers table (reads marks and counts only).
* ``search``: ``websearch --no-cache QUERY`` on the auto chain (SearXNG on a loopback
  simulator): a read before the request, its count written behind.
* ``search-forced``: the same with ``--provider searxng``.

Run::

    python benchmarks/bench_locked_cli.py [RUNS]
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
COMMANDS = {
    "providers": ["providers"],
    "search": ["--no-cache", "python asyncio"],
    "search-forced": ["--no-cache", "--provider", "searxng", "python asyncio"],
}
_SIMULATOR = """
import asyncio, sys
from websearch_core.testing import Simulator

async def main():
    async with Simulator(["searxng"]) as sim:
        print(sim["searxng"].base_url, flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)

asyncio.run(main())
"""
_HOLDER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
print("held", flush=True)
sys.stdin.read()
"""


def _environment(root: Path) -> dict[str, str]:
    """A user with nothing configured but SQLite state under ``root`` and SearXNG only."""
    config = root / "config.toml"
    config.write_text("")
    env = {k: v for k, v in os.environ.items() if not k.startswith("WEBSEARCH_")}
    env.update(
        WEBSEARCH_STATE_BACKEND="sqlite",
        WEBSEARCH_STATE_DIR=str(root / "state"),
        WEBSEARCH_CONFIG_FILE=str(config),
        WEBSEARCH_CREDENTIALS_FILE=str(root / "credentials.json"),
        WEBSEARCH_BROWSER="off",
        WEBSEARCH_PROVIDERS="searxng",
    )
    return env


def _timed(args: list[str], env: dict[str, str]) -> float:
    started = time.monotonic()
    subprocess.run(
        [sys.executable, "-m", "websearch_core", *args], env=env, capture_output=True, check=False
    )
    return time.monotonic() - started


def _summary(times: list[float]) -> str:
    return f"{statistics.median(times):5.2f} s ({min(times):.2f}-{max(times):.2f})"


def main() -> None:
    """Time every command free and locked, alternating, and print the medians."""
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        env = _environment(root)
        simulator = subprocess.Popen(
            [sys.executable, "-c", _SIMULATOR],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert simulator.stdout is not None and simulator.stdin is not None
        env["SEARXNG_ENDPOINT"] = simulator.stdout.readline().strip()
        _timed(["providers"], env)  # opens the file, as any earlier command did
        state = root / "state" / "state.sqlite3"
        times: dict[tuple[str, bool], list[float]] = {}
        try:
            for _ in range(RUNS):
                for locked in (False, True):
                    holder = None
                    if locked:
                        holder = subprocess.Popen(
                            [sys.executable, "-c", _HOLDER, str(state)],
                            stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE,
                            text=True,
                        )
                        assert holder.stdout is not None and holder.stdin is not None
                        holder.stdout.readline()
                    for name, args in COMMANDS.items():
                        times.setdefault((name, locked), []).append(_timed(args, env))
                    if holder is not None and holder.stdin is not None:
                        holder.stdin.close()
                        holder.wait()
        finally:
            simulator.stdin.close()
            simulator.wait()
    for name in COMMANDS:
        free, held = times[(name, False)], times[(name, True)]
        extra = statistics.median(held) - statistics.median(free)
        print(
            f"{name:14s} free {_summary(free)}  locked {_summary(held)}  lock costs {extra:+.2f} s"
        )


if __name__ == "__main__":
    main()
