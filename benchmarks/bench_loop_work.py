"""What 200 searches at once ask of the event loop, per search: ours against raw aiohttp.

``bench_overhead.py concurrent`` reads the throughput ratio and ``bench_concurrent_costs.py``
the loop's CPU time; this counts the loop's work behind them, so a change meant to save
scheduling can be read as counts rather than as a ratio inside the load's spread. Every
figure is a count per search over ``--bursts`` bursts of ``--width`` calls at once (after
two untimed bursts), each variant alone, on the loop of one process that also runs the
loopback server of ``bench_overhead.py`` (its real Brave capture), so the server's share is
in both sides alike:

* ``raw``: the floor of ``bench_overhead.py`` (aiohttp GET + ``json.loads``, one session
  with aiohttp's default pool of 100).
* ``ours``: ``WebSearch.search`` as that benchmark runs it (SQLite state, cache off, the
  client's own session with its pool of 32).
* ``pool100``: ours through a session opened as the client opens its own but with the
  floor's pool of 100: what is left when both queue alike.

Counted: loop iterations (``_run_once``), callbacks (``call_soon``, from any thread),
timers (``call_at``; ``call_later`` goes through it) and their cancellations, futures and
tasks made through the loop, and ``asyncio.timeout`` blocks entered (aiohttp's connect
wait, with or without a delay). Each task and each callback scheduled without a context
copies the current one, so context copies follow those counts. ``--sequential`` awaits
the calls one by one instead::

    python benchmarks/bench_loop_work.py [--bursts N] [--width N] [--sequential]
"""

import argparse
import asyncio
import sys
import tempfile
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_overhead as bench

from websearch_core import WebSearch

Search = Callable[[str], Awaitable[object]]

COUNTED = (
    "_run_once",
    "call_soon",
    "call_soon_threadsafe",
    "call_at",
    "create_future",
    "create_task",
)
"""The loop's methods whose calls are counted (``call_later`` calls ``call_at``)."""

COUNTS: Counter[str] = Counter()
"""What has been counted since last cleared: one process, one loop at a time."""


class _CountingLoop(asyncio.SelectorEventLoop):
    """The default loop on Linux, counting calls of :data:`COUNTED` into :data:`COUNTS`."""

    def __getattribute__(self, name: str) -> Any:
        # Attribute lookups are how the loop calls itself and how asyncio and aiohttp call
        # it, so one hook sees them all, whichever module holds the loop.
        if name in COUNTED:
            COUNTS[name] += 1
        return super().__getattribute__(name)


@contextmanager
def _counting_timeouts_and_cancels(counts: Counter[str]) -> Iterator[None]:
    """Count ``asyncio.timeout`` blocks entered and timer cancellations while open."""
    enter = asyncio.Timeout.__aenter__
    cancel = asyncio.TimerHandle.cancel

    async def counted_enter(self: asyncio.Timeout) -> asyncio.Timeout:
        counts["asyncio.timeout"] += 1
        return await enter(self)

    def counted_cancel(self: asyncio.Handle) -> None:
        counts["timer cancel"] += 1
        cancel(self)

    asyncio.Timeout.__aenter__ = counted_enter  # type: ignore[method-assign]
    asyncio.TimerHandle.cancel = counted_cancel  # type: ignore[method-assign]
    try:
        yield
    finally:
        asyncio.Timeout.__aenter__ = enter  # type: ignore[method-assign]
        asyncio.TimerHandle.cancel = cancel  # type: ignore[method-assign]


async def _bursts(search: Search, bursts: int, width: int, sequential: bool, tag: str) -> None:
    """``bursts`` bursts of ``width`` calls, each query new."""
    for burst in range(bursts):
        queries = [f"{bench.QUERY} {tag} {burst} {index}" for index in range(width)]
        if sequential:
            for query in queries:
                await search(query)
        else:
            await asyncio.gather(*(search(query) for query in queries))


async def _measure(state_dir: Path, bursts: int, width: int, sequential: bool) -> None:
    """Each variant's counts in turn; one variant at a time, as counts do not mix."""
    capture = sorted(bench.FIXTURES.glob("*.json"))[0]
    runner, origin = await bench._serve(capture.read_bytes())
    counts = COUNTS
    try:
        async with (
            aiohttp.ClientSession() as session,
            # Our session as the client opens it, with aiohttp's default pool (100) for 32.
            aiohttp.ClientSession(
                timeout=aiohttp.ClientTimeout(total=None),
                connector=aiohttp.TCPConnector(limit=100),
                trust_env=False,
            ) as pooled_session,
            WebSearch(bench._settings(origin, state_dir / "ours"), api_keys=bench.KEYS) as ours,
            WebSearch(
                bench._settings(origin, state_dir / "pool100"),
                api_keys=bench.KEYS,
                session=pooled_session,
            ) as pool100,
        ):
            variants: dict[str, Search] = {
                "raw": bench._raw_get(session, origin),
                "ours": ours.search,
                "pool100": pool100.search,
            }
            mode = "one by one" if sequential else "at once"
            print(f"{width} {mode}, {bursts} bursts of each; counts per search")
            for name, search in variants.items():
                await _bursts(search, 2, width, sequential, f"{name} warm")
                counts.clear()
                with _counting_timeouts_and_cancels(counts):
                    await _bursts(search, bursts, width, sequential, name)
                searches = bursts * width
                shown = "  ".join(
                    f"{key.lstrip('_')} {counts[key] / searches:.2f}"
                    for key in (*COUNTED, "timer cancel", "asyncio.timeout")
                )
                print(f"{name:<8} {shown}", flush=True)
    finally:
        await runner.cleanup()


def _run(main: Coroutine[Any, Any, None]) -> None:
    """Run ``main`` on a counting loop: every call of the loop's is seen from the start."""
    with asyncio.Runner(loop_factory=_CountingLoop) as runner:
        runner.run(main)


def main() -> None:
    """Parse the arguments and print the counts (nothing when the captures are absent)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bursts", type=int, default=10)
    parser.add_argument("--width", type=int, default=200)
    parser.add_argument("--sequential", action="store_true")
    args = parser.parse_args()
    if not sorted(bench.FIXTURES.glob("*.json")):
        print("skipped: ../shared/fixtures/brave/*.json not available")
        return
    with tempfile.TemporaryDirectory() as directory:
        _run(_measure(Path(directory), args.bursts, args.width, args.sequential))


if __name__ == "__main__":
    main()
