"""What a search keeps alive while it is in flight, and what the collector charges for it.

200 searches at once read 0.64-0.73x raw aiohttp's throughput (issue 11 asks 0.7x); the
event loop's work a search is raw's (stop 48), so the gap is Python work a search and the
objects it holds. CPython's collector runs a young collection each time the tracked
containers alive grow by 700, a middle one every ten young, a full one (every object of the
process, tens of milliseconds) every ten middle once enough were promoted: with 200 searches
in flight, every object one of them holds across its request adds to that growth, so each
one costs every search about a microsecond at once and nothing one by one. This counts,
against raw aiohttp (``bench_overhead.py``'s floor, the same loopback server and Brave
capture, the same process):

* ``held``: tracked objects alive a search while ``width`` searches wait for their answers
  (the server holds every answer until the pool's connections all have a request on them,
  then a moment more for the rest to queue), the collector off, with the memory blocks
  (``sys.getallocatedblocks``) they add; at ``--width`` and alone. ``--types N`` lists
  ours' N most held types, a search, each less raw's.
* ``collections``: collections a 1,000 searches by generation, and the collector's time a
  search (``gc.callbacks``), ours' and raw's bursts taking turns, at once and one by one.

The lines with ``ratio`` compare ours with raw in the same run. No pass/fail::

    python benchmarks/bench_held_objects.py [--width N] [--bursts N] [--types N]
"""

import argparse
import asyncio
import collections
import gc
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_overhead as bench

from websearch_core import WebSearch

Search = Callable[[str], Awaitable[object]]

POOL_LIMIT = 32
"""Our session's connections a provider (raw's is 100): the requests the server sees first."""
SETTLE_SECONDS = 0.3
"""How long the searches past the pool get to reach their wait, once the server has the rest."""
WARM_SEARCHES = 60


class _Gate:
    """The loopback server's hold: every answer waits until the gate opens."""

    def __init__(self) -> None:
        self.open = asyncio.Event()
        self.seen = 0

    def close(self) -> None:
        self.open.clear()
        self.seen = 0


async def _serve(body: bytes, gate: _Gate) -> tuple[web.AppRunner, str]:
    """``bench_overhead``'s server, its answers held at ``gate``."""

    async def search(_request: web.Request) -> web.Response:
        gate.seen += 1
        await gate.open.wait()
        return web.Response(body=body, content_type="application/json")

    return await bench._serve_with(search)


def _type_name(obj: object) -> str:
    kind = type(obj)
    module = kind.__dict__.get("__module__")
    return f"{module}.{kind.__qualname__}" if isinstance(module, str) else kind.__qualname__


async def _held(
    search: Search, gate: _Gate, width: int
) -> tuple[float, float, collections.Counter[str]]:
    """Tracked objects and memory blocks a search holds with ``width`` in flight, by type."""
    gate.close()
    gc.collect()
    gc.disable()
    try:
        before = {id(obj) for obj in gc.get_objects()}
        blocks = sys.getallocatedblocks()
        tasks = [asyncio.ensure_future(search(f"{bench.QUERY} held {i}")) for i in range(width)]
        while gate.seen < min(width, POOL_LIMIT):
            await asyncio.sleep(0.01)
        await asyncio.sleep(SETTLE_SECONDS)
        held = [obj for obj in gc.get_objects() if id(obj) not in before]
        added_blocks = sys.getallocatedblocks() - blocks
        kinds = collections.Counter(_type_name(obj) for obj in held)
        count = len(held)
        del held
        gate.open.set()
        await asyncio.gather(*tasks)
    finally:
        gc.enable()
    return count / width, added_blocks / width, kinds


class _Collections:
    """Collections and the collector's seconds by generation while it is listening."""

    def __init__(self) -> None:
        self.counts = [0, 0, 0]
        self.seconds = [0.0, 0.0, 0.0]
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        generation = info["generation"]
        self.counts[generation] += 1
        self.seconds[generation] += time.perf_counter() - self._started


async def _collections(
    variants: dict[str, Search], bursts: int, width: int, *, at_once: bool
) -> dict[str, tuple[_Collections, list[float]]]:
    """Each variant's collections over ``bursts`` of ``width`` searches, bursts taking turns."""
    seen: dict[str, tuple[_Collections, list[float]]] = {
        name: (_Collections(), []) for name in variants
    }
    names = list(variants)
    for index in range(bursts):
        for name in names if index % 2 else names[::-1]:
            search, (listener, walls) = variants[name], seen[name]
            queries = [f"{bench.QUERY} {index} {i}" for i in range(width)]
            gc.callbacks.append(listener)
            started = time.perf_counter()
            try:
                if at_once:
                    await asyncio.gather(*(search(query) for query in queries))
                else:
                    for query in queries:
                        await search(query)
            finally:
                gc.callbacks.remove(listener)
            walls.append(time.perf_counter() - started)
    return seen


def _report_held(
    width: int, raw: tuple[float, float, Any], ours: tuple[float, float, Any], types: int
) -> None:
    print(
        f"held {width:>3} at once: raw {raw[0]:6.1f}   ours {ours[0]:6.1f} objects a search"
        f"   ratio {ours[0] / raw[0]:4.2f}x   (blocks raw {raw[1]:.0f}, ours {ours[1]:.0f})",
        flush=True,
    )
    if types:
        extra = ours[2].copy()
        extra.subtract(raw[2])
        for name, count in extra.most_common(types):
            print(f"    {count / width:6.2f} {name}")


def _report_collections(
    mode: str, seen: dict[str, tuple[_Collections, list[float]]], searches: int
) -> None:
    per = {name: (listener, walls) for name, (listener, walls) in seen.items()}
    line = [f"gc {mode:<10}"]
    for name, (listener, _walls) in per.items():
        counts = " / ".join(f"{c * 1000 / searches:.1f}" for c in listener.counts)
        us = sum(listener.seconds) / searches * 1e6
        line.append(f"{name} {counts} a 1,000, {us:5.1f} us a search")
    raw_us = sum(per["raw"][0].seconds)
    ours_us = sum(per["ours"][0].seconds)
    ratio = f"   ratio {ours_us / raw_us:4.2f}x" if raw_us else ""
    print("   ".join(line) + ratio, flush=True)
    walls = {name: statistics.median(w) for name, (_l, w) in per.items()}
    print(f"    throughput ours/raw {walls['raw'] / walls['ours']:.2f} (median burst)")


async def _main(width: int, bursts: int, types: int) -> None:
    capture = sorted(bench.FIXTURES.glob("*.json"))[0]
    gate = _Gate()
    runner, origin = await _serve(capture.read_bytes(), gate)
    gate.open.set()
    try:
        with tempfile.TemporaryDirectory() as directory:
            settings = bench._settings(origin, Path(directory))
            async with (
                aiohttp.ClientSession() as session,
                WebSearch(settings, api_keys=bench.KEYS) as ws,
            ):
                variants: dict[str, Search] = {"raw": bench._raw_get(session, origin)}
                variants["ours"] = ws.search
                for search in variants.values():
                    for index in range(WARM_SEARCHES):
                        await search(f"warm {index}")
                    await asyncio.gather(*(search(f"warm at once {i}") for i in range(width)))
                for at in (width, 1):
                    raw = await _held(variants["raw"], gate, at)
                    ours = await _held(variants["ours"], gate, at)
                    _report_held(at, raw, ours, types if at == width else 0)
                seen = await _collections(variants, bursts, width, at_once=True)
                _report_collections("at once", seen, bursts * width)
                alone = max(2, bursts // 8)
                seen = await _collections(variants, alone, width, at_once=False)
                _report_collections("one by one", seen, alone * width)
    finally:
        await runner.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=200)
    parser.add_argument("--bursts", type=int, default=40)
    parser.add_argument("--types", type=int, default=0)
    args = parser.parse_args()
    if not sorted(bench.FIXTURES.glob("*.json")):
        print("skipped: ../shared/fixtures/brave/*.json not available")
        return
    asyncio.run(_main(args.width, args.bursts, args.types))


if __name__ == "__main__":
    main()
