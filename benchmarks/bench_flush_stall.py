"""How long scheduling the SQLite store's write-behind flush holds the event loop.

A search with no budget counts its usage in memory, and the first count after a flush
schedules the next one (``SQLiteStore._arm_flush``), on the event loop's thread, about
every 0.5 s under traffic. That scheduling once started a thread per flush, and
``Thread.start`` waits until the new thread runs: on a loaded machine, milliseconds in
which no other search moves. This measures it on whatever revision is importable, so run
it with ``PYTHONPATH`` set to each tree to compare two::

    python benchmarks/bench_flush_stall.py [--searches N] [--width N] [--runs N] [--cache]

Searches go through ``WebSearch.search`` with the defaults a user gets (SQLite state), the
result cache off unless ``--cache`` (on, a user's default: the first search's cache lookup
opens the store, so its first count is armed on the loop's thread, not the store's),
against ``bench_overhead.py``'s loopback server and real capture, ``--width`` at once
(1: one by one). Reported, over every run:

* ``arm``: each ``_arm_flush`` call on the loop's thread (how many, median, max, total):
  the stall; those that started a thread apart from the others.
* ``thread starts``: ``threading.Thread.start`` calls made on the loop's thread (the flush's
  and the store's own workers'), and their time.
* ``loop lag``: a 1 ms heartbeat on the same loop, how late each beat woke (median, 99th
  percentile, max): what every other task on the loop waits, whatever the cause.
"""

import argparse
import asyncio
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_overhead as bench

from websearch_core import WebSearch, WebSearchError
from websearch_core.state.sqlite import SQLiteStore

BEAT = 0.001


class _Stopwatch:
    """Durations of calls to one function made on the loop's thread."""

    def __init__(self) -> None:
        self.seconds: list[float] = []
        self.started: list[bool] = []  # per call: whether ``also`` timed a call inside it
        self.loop_thread: int | None = None

    def wrap(
        self, func: Callable[..., Any], also: "_Stopwatch | None" = None
    ) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            if threading.get_ident() != self.loop_thread:
                return func(*args, **kwargs)
            inner = len(also.seconds) if also is not None else 0
            started = time.perf_counter()
            try:
                return func(*args, **kwargs)
            finally:
                self.seconds.append(time.perf_counter() - started)
                self.started.append(also is not None and len(also.seconds) > inner)

        return timed


async def _heartbeat(lags: list[float], stop: asyncio.Event) -> None:
    """How late each 1 ms sleep wakes, until ``stop``."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        started = loop.time()
        await asyncio.sleep(BEAT)
        lags.append(loop.time() - started - BEAT)


async def _run(
    origin: str, state_dir: Path, searches: int, width: int, lags: list[float], cache: bool
) -> int:
    """One store's searches with the heartbeat beside them; how many searches failed."""
    failed = 0
    settings = bench._settings(origin, state_dir, cache=cache)
    async with WebSearch(settings, api_keys=bench.KEYS) as ws:
        for index in range(bench.WARMUP):
            await ws.search(f"{bench.QUERY} warm {index}")
        stop = asyncio.Event()
        beating = asyncio.create_task(_heartbeat(lags, stop))
        queries = iter(f"{bench.QUERY} {index}" for index in range(searches))

        async def worker() -> None:
            nonlocal failed
            for query in queries:
                try:
                    await ws.search(query)
                except WebSearchError:  # a loaded machine can starve the loopback server
                    failed += 1

        await asyncio.gather(*(worker() for _ in range(width)))
        stop.set()
        await beating
    return failed


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.3f} ms"


def _line(label: str, seconds: list[float]) -> str:
    if not seconds:
        return f"{label:<26}    0 calls"
    return (
        f"{label:<26}{len(seconds):5d} calls  median {_ms(statistics.median(seconds))}"
        f"  max {_ms(max(seconds))}  total {_ms(sum(seconds))}"
    )


async def _main(searches: int, width: int, runs: int, cache: bool) -> None:
    capture = sorted(bench.FIXTURES.glob("*.json"))[0]
    runner, origin = await bench._serve(capture.read_bytes())
    arms, starts = _Stopwatch(), _Stopwatch()
    arms.loop_thread = starts.loop_thread = threading.get_ident()
    arm_flush, thread_start = SQLiteStore._arm_flush, threading.Thread.start
    SQLiteStore._arm_flush = arms.wrap(arm_flush, also=starts)  # type: ignore[method-assign]
    threading.Thread.start = starts.wrap(thread_start)  # type: ignore[method-assign]
    lags: list[float] = []
    failed = 0
    wall = time.perf_counter()
    try:
        for _ in range(runs):
            with tempfile.TemporaryDirectory() as directory:
                failed += await _run(origin, Path(directory), searches, width, lags, cache)
    finally:
        SQLiteStore._arm_flush = arm_flush  # type: ignore[method-assign]
        threading.Thread.start = thread_start  # type: ignore[method-assign]
        await runner.cleanup()
    wall = time.perf_counter() - wall
    print(
        f"{runs} run(s) of {searches} searches, {width} at once, cache {'on' if cache else 'off'},"
        f" {wall:.1f} s, {failed} failed"
    )
    plain = [sec for sec, started in zip(arms.seconds, arms.started, strict=True) if not started]
    starting = [sec for sec, started in zip(arms.seconds, arms.started, strict=True) if started]
    print(_line("arm, starting no thread", plain))
    print(_line("arm, starting a thread", starting))
    print(_line("thread starts on the loop", starts.seconds))
    cuts = statistics.quantiles(lags, n=100)
    print(
        f"{'loop lag':<26}{len(lags):5d} beats  median {_ms(statistics.median(lags))}"
        f"  p99 {_ms(cuts[98])}  max {_ms(max(lags))}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--searches", type=int, default=8000)
    parser.add_argument("--width", type=int, default=200)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--cache", action="store_true", help="the result cache on (a default)")
    args = parser.parse_args()
    if not sorted(bench.FIXTURES.glob("*.json")):
        print("skipped: ../shared/fixtures/brave/*.json not available")
        return
    asyncio.run(_main(args.searches, args.width, args.runs, args.cache))


if __name__ == "__main__":
    main()
