"""What the state store costs per call: the default SQLite store (and Redis) vs. in memory.

Every variant runs ``WebSearch.run`` against one loopback aiohttp server that answers with
a real Brave capture (``../shared/fixtures/brave/*.json``), so parsing and formatting are
the same work in each; only the store differs. Calls are interleaved (each round runs every
variant once, in a shuffled order) in one process, so drift in CPU speed or load hits all
variants alike. Reported: median per call, the interquartile range, and the difference and
ratio against the in-memory store.

* ``miss``: cache off, a budget configured: the mark check and the reservation (one store
  step), then the success.
* ``plain``: cache off, no budget (what users start with): the mark read before the send;
  the SQLite store writes the count behind, in batches.
* ``hit``: a repeated query served from the result cache.

Run::

    python benchmarks/bench_state.py [ROUNDS]

Each row ends ``ratio 1.50x`` so that ``ab_compare.py`` reads it (one key per variant)::

    python benchmarks/ab_compare.py --base main --pairs 4 -- bench_state.py 300
"""

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from aiohttp import web

from websearch_core import WebSearch
from websearch_core.settings import Settings

FIXTURES = Path(__file__).resolve().parents[2] / "shared/fixtures/brave"
WARMUP = 20


async def _serve(body: bytes) -> tuple[web.AppRunner, str]:
    async def search(_request: web.Request) -> web.Response:
        return web.Response(body=body, content_type="application/json")

    app = web.Application()
    app.router.add_get("/res/v1/web/search", search)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    return runner, f"http://127.0.0.1:{port}"


def _redis_url(stack: ExitStack) -> str | None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.redis_server
    try:
        import redis  # noqa: F401

        from tests.redis_server import running_redis_server
    except ImportError:
        return None
    try:
        directory = stack.enter_context(tempfile.TemporaryDirectory())
        return stack.enter_context(running_redis_server(Path(directory)))
    except (FileNotFoundError, RuntimeError):
        return None


def _summary(samples: list[float]) -> tuple[float, float, float]:
    q1, median, q3 = statistics.quantiles(samples, n=4)
    return median, q1, q3


async def main(rounds: int) -> None:
    captures = sorted(FIXTURES.glob("*.json"))
    if not captures:
        print("skipped: ../shared/fixtures/brave/*.json not available")
        return
    runner, origin = await _serve(captures[0].read_bytes())
    with ExitStack() as stack:
        state_dir = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        backends: dict[str, dict[str, Any]] = {
            "memory": {"state_backend": "memory"},
            "sqlite": {"state_backend": "sqlite", "state_dir": state_dir},
        }
        redis_url = _redis_url(stack)
        if redis_url is not None:
            backends["redis"] = {"state_backend": "redis", "redis_url": redis_url}
        clients: dict[str, WebSearch] = {}
        for name, state in backends.items():
            for kind, cache, budget in (
                ("miss", False, {"brave": "100000000/month"}),
                ("plain", False, {}),
                ("hit", True, {"brave": "100000000/month"}),
            ):
                settings = Settings(
                    providers=("brave",),
                    base_urls={"brave": origin},
                    budget=budget,
                    cache=cache,
                    **state,
                )
                clients[f"{kind}/{name}"] = WebSearch(settings, api_keys={"brave": "bench"})
        calls: dict[str, Callable[[], Awaitable[object]]] = {
            label: (lambda ws=ws: ws.run("python asyncio tutorial"))
            for label, ws in clients.items()
        }
        samples: dict[str, list[float]] = {label: [] for label in calls}
        order = list(calls)
        for round_ in range(WARMUP + rounds):
            random.shuffle(order)
            for label in order:
                started = time.perf_counter()
                await calls[label]()
                if round_ >= WARMUP:
                    samples[label].append(time.perf_counter() - started)
        for ws in clients.values():
            await ws.aclose()
    await runner.cleanup()

    print(f"{rounds} interleaved rounds, capture {captures[0].name}")
    print(f"{'variant':<14}{'median ms':>10}{'IQR ms':>18}{'vs memory':>12}   ratio to memory")
    for label in calls:
        median, q1, q3 = _summary(samples[label])
        kind = label.split("/")[0]
        base, _, _ = _summary(samples[f"{kind}/memory"])
        delta = (median - base) * 1e3
        print(
            f"{label:<14}{median * 1e3:>10.3f}{f'{q1 * 1e3:.3f}-{q3 * 1e3:.3f}':>18}"
            f"{delta:>+11.3f}   ratio {median / base:.2f}x"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rounds", nargs="?", type=int, default=400, help="timed rounds")
    asyncio.run(main(parser.parse_args().rounds))
