"""What the library adds on top of the work it cannot avoid, as ratios measured in one run.

* parse: DuckDuckGo's parser on a real capture vs. lxml merely building the same document,
  interleaved call by call (every HTML engine, with spreads and ddgs: bench_parsers.py).
* chain: ``WebSearch.run`` (chain, state, formatting) against the loopback simulator vs. a
  bare aiohttp request to the same simulator endpoint, cache off.
* cache: a cached ``WebSearch.run`` vs. the uncached one.

Prints one line per benchmark: the baseline, ours, and the ratio. Loopback only, bounded
loops; no pass/fail (targets are read off the ratios, not asserted in tests)::

    python benchmarks/bench_overhead.py
"""

import asyncio
import statistics
import time
import tracemalloc
from collections.abc import Awaitable, Callable

import aiohttp
import bench_parsers  # the sibling script: run as `python benchmarks/bench_overhead.py`

from websearch_core import WebSearch
from websearch_core.testing import Simulator

ROUNDS = 200


async def _time_async(fn: Callable[[], Awaitable[object]], rounds: int = ROUNDS) -> float:
    samples = []
    for _ in range(rounds):
        started = time.perf_counter()
        await fn()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def _report(name: str, baseline: float, ours: float) -> None:
    times = f"baseline {baseline * 1e3:8.3f} ms   ours {ours * 1e3:8.3f} ms"
    print(f"{name:<8} {times}   ratio {ours / baseline:6.2f}x")


def bench_parse() -> None:
    # The parse benchmark lives in bench_parsers.py (baseline and ours interleaved, medians
    # and IQRs); here only its DuckDuckGo line, next to the chain numbers.
    bench_parsers.bench(bench_parsers.CASES[0], ROUNDS, with_ddgs=False)


async def bench_chain() -> None:
    async with Simulator(["brave"]) as sim:
        url = sim["brave"].base_url + "/res/v1/web/search?q=python+asyncio&count=10"
        async with aiohttp.ClientSession() as session:

            async def bare() -> None:
                async with session.get(url, headers={"X-Subscription-Token": "k"}) as response:
                    await response.read()

            baseline = await _time_async(bare)
        settings = sim.settings(cache=False)
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            ours = await _time_async(lambda: ws.run("python asyncio", provider="brave"))
            _report("chain", baseline, ours)
        async with WebSearch(sim.settings(), api_keys=sim.api_keys()) as ws:
            await ws.run("python asyncio")
            cached = await _time_async(lambda: ws.run("python asyncio"))
        _report("cache", ours, cached)


async def bench_memory() -> None:
    sim = Simulator(["brave"])
    async with sim, WebSearch(sim.settings(cache=False), api_keys=sim.api_keys()) as ws:
        await ws.run("warm up")
        tracemalloc.start()
        before = tracemalloc.take_snapshot()
        for index in range(ROUNDS):
            await ws.run(f"query {index}")
            sim["brave"].requests.clear()  # the simulator's own log is not ours to count
        after = tracemalloc.take_snapshot()
        tracemalloc.stop()
    growth = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    per_search = growth / ROUNDS
    print(
        f"memory   growth over {ROUNDS} searches: {growth / 1024:.1f} KiB ({per_search:.0f} B each)"
    )


def main() -> None:
    bench_parse()
    asyncio.run(bench_chain())
    asyncio.run(bench_memory())


if __name__ == "__main__":
    main()
