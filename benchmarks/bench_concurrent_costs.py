"""Where 200 searches at once spend the event loop's time: variants of ours against raw aiohttp.

``bench_overhead.py concurrent`` gives the one ratio issue 11 asks for. This takes it apart,
to tell what concurrency itself costs from what every search costs anyway. Bursts of
``--width`` calls at once, every variant in turn, the order rotated and flipped burst by
burst so load from other processes hits each alike, all in one process against the same
loopback server and real capture as ``bench_overhead.py``:

* ``raw``: the floor of ``bench_overhead.py`` (aiohttp GET + ``json.loads``, one session).
* ``ours``: ``WebSearch.search`` as that benchmark runs it (SQLite state, cache off).
* ``memory``: the same with the in-memory store: what the SQLite store costs under load.
* ``pool100``: the same through a session opened as ours is but with aiohttp's default pool
  of 100 connections (the floor's) in place of our 32.
* ``cache``: the same with the result cache on (the default), each query new: a miss,
  then a write.

Per variant: the median throughput, the median ratio to ``raw`` of the same burst (IQR in
brackets), the event loop thread's CPU time per search (``time.thread_time``: the loop is
what limits throughput, and other processes' load moves it less than wall time) and the
garbage collector's time per search (``gc.callbacks``; in brackets by generation, 0 / 1 /
2). ``--sequential`` awaits the calls one by one instead, for the same figures without
concurrency::

    python benchmarks/bench_concurrent_costs.py [--bursts N] [--width N] [--sequential]
"""

import argparse
import asyncio
import gc
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_overhead as bench

from websearch_core import WebSearch

Search = Callable[[str], Awaitable[object]]


class _GcClock:
    """The collector's time per generation, summed while the bursts run."""

    def __init__(self) -> None:
        self.seconds = [0.0, 0.0, 0.0]
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.seconds[info["generation"]] += time.perf_counter() - self._started


async def _burst(search: Search, width: int, sequential: bool, tag: str) -> tuple[float, float]:
    """One burst's wall time and event loop thread CPU time; every query new."""
    queries = [f"{bench.QUERY} {tag} {index}" for index in range(width)]
    wall, cpu = time.perf_counter(), time.thread_time()
    if sequential:
        for query in queries:
            await search(query)
    else:
        await asyncio.gather(*(search(query) for query in queries))
    return time.perf_counter() - wall, time.thread_time() - cpu


async def _measure(origin: str, state_dir: Path, bursts: int, width: int, sequential: bool) -> None:
    settings = bench._settings(origin, state_dir / "ours")
    memory = settings.model_copy(update={"state_backend": "memory"})
    cached = bench._settings(origin, state_dir / "cache").model_copy(update={"cache": True})
    pooled = bench._settings(origin, state_dir / "pool100")
    async with (
        aiohttp.ClientSession() as session,
        # Our session as the client opens it, with aiohttp's default pool (100) for our 32.
        aiohttp.ClientSession(
            timeout=aiohttp.ClientTimeout(total=None),
            connector=aiohttp.TCPConnector(limit=100),
            trust_env=False,
        ) as pooled_session,
        WebSearch(settings, api_keys=bench.KEYS) as ours,
        WebSearch(memory, api_keys=bench.KEYS) as in_memory,
        WebSearch(cached, api_keys=bench.KEYS) as with_cache,
        WebSearch(pooled, api_keys=bench.KEYS, session=pooled_session) as pool100,
    ):
        variants: dict[str, Search] = {
            "raw": bench._raw_get(session, origin),
            "ours": ours.search,
            "memory": in_memory.search,
            "pool100": pool100.search,
            "cache": with_cache.search,
        }
        names = list(variants)
        walls: dict[str, list[float]] = {name: [] for name in names}
        cpus: dict[str, list[float]] = {name: [] for name in names}
        collected = {name: [0.0, 0.0, 0.0] for name in names}
        clock = _GcClock()
        gc.callbacks.append(clock)
        try:
            for index in range(2 + bursts):
                turn = names[index % len(names) :] + names[: index % len(names)]
                for name in turn if index % 2 else turn[::-1]:
                    before = list(clock.seconds)
                    wall, cpu = await _burst(variants[name], width, sequential, f"{index}")
                    if index >= 2:  # two bursts warm up every variant
                        walls[name].append(wall)
                        cpus[name].append(cpu)
                        for generation, seconds in enumerate(clock.seconds):
                            collected[name][generation] += seconds - before[generation]
        finally:
            gc.callbacks.remove(clock)
    mode = "one by one" if sequential else "at once"
    print(f"{width} {mode}, {bursts} bursts of each, in turn")
    searches = bursts * width
    for name in names:
        gc_us = [seconds / searches * 1e6 for seconds in collected[name]]
        ratios = [r / o for o, r in zip(walls[name], walls["raw"], strict=True)]
        q1, median, q3 = statistics.quantiles(ratios, n=4)
        print(
            f"{name:<8} {width / statistics.median(walls[name]):6.0f} req/s"
            f"   ratio {median:4.2f}x [{q1:.2f}-{q3:.2f}]"
            f"   loop CPU {statistics.median(cpus[name]) / width * 1e6:4.0f} us/search"
            f"   gc {sum(gc_us):4.0f} us/search ({' / '.join(f'{us:.0f}' for us in gc_us)})",
            flush=True,
        )


async def _main(bursts: int, width: int, sequential: bool) -> None:
    capture = sorted(bench.FIXTURES.glob("*.json"))[0]
    runner, origin = await bench._serve(capture.read_bytes())
    try:
        with tempfile.TemporaryDirectory() as directory:
            await _measure(origin, Path(directory), bursts, width, sequential)
    finally:
        await runner.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bursts", type=int, default=40)
    parser.add_argument("--width", type=int, default=200)
    parser.add_argument("--sequential", action="store_true")
    args = parser.parse_args()
    if not sorted(bench.FIXTURES.glob("*.json")):
        print("skipped: ../shared/fixtures/brave/*.json not available")
        return
    asyncio.run(_main(args.bursts, args.width, args.sequential))


if __name__ == "__main__":
    main()
