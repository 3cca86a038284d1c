"""Where a Brave search's time above the floor goes, step by step, timed in place.

``bench_overhead.py accounting`` splits ours against the floor (GET + ``json.loads``) in
three (the exchange, the machinery, the parse); this splits it in the steps a search
runs, each timed where it runs rather than alone, since a step timed alone in a warm
loop reads less than it costs between the others (stop 54 (speed55): ~4-5 us of the call
was in no step timed alone). It wraps each named step in its module (the name the
caller looks up, so the call path is the real one), runs the search and the floor
interleaved, and prints per search the median of each step's own time (its wrapped
children's taken out), beside the floor's GET + ``read()`` and ``json.loads``:

* first, without the wrappers, the pairs' median difference ``ours - floor`` (the gap),
* then, wrapped, each step's median and IQR, and the gap read as: the exchange over the
  floor's (``Transport.send`` against GET + ``read()``, both wall time with the server's
  turn in them), the parse over ``json.loads``, the sanitiser, every other step, and what
  no wrapper holds (the coroutine frames, awaits and glue between the steps, and the
  wrappers' own calls, whose cost is measured on a no-op and printed beside it).

Medians a step, not means: on this shared machine one preemption in a step (milliseconds)
outweighs thousands of calls. The medians do not add up exactly to the gap's median; the
rest row says by how much. No pass/fail, and nothing here is imported by a test::

    python benchmarks/bench_call_steps.py [--rounds N]

The wrapped names are private and may move: a rename makes this fail at start with the
name, not read wrong.
"""

import argparse
import asyncio
import functools
import json
import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
from bench_overhead import FIXTURES, FLOOR_HEADERS, KEYS, QUERY, SEARCH_PATH, WARMUP, _serve
from bench_overhead import _settings as bench_settings

import websearch_core.call_setup as call_setup
import websearch_core.client as client
import websearch_core.orchestration.attempt as attempt
import websearch_core.orchestration.chain as chain
import websearch_core.orchestration.hard_stop as hard_stop
import websearch_core.orchestration.ledger as ledger
import websearch_core.providers.base as provider_base
import websearch_core.providers.brave as brave
import websearch_core.request_loop as request_loop
import websearch_core.transport as transport
from websearch_core import WebSearch

SEND = "exchange: Transport.send (wall)"
FLOOR_GET = "floor: GET + read() (wall)"
FLOOR_LOADS = "floor: json.loads"
PARSE = ("parse: projection decode", "parse: result_fields", "parse: validation + header")
PARSE_GLUE = "parse: status check + wrapping"
CLEAN = "clean_response (+ cited check)"

STEPS: tuple[tuple[object, str, str, bool], ...] = (
    # (module or class, attribute, row, async)
    (client, "_params", "SearchParams built (_params)", False),
    (client, "Deadline", "call deadline built", False),
    (client, "import_off_loop", "imports checked (import_off_loop)", True),
    (client, "enter_call", "call scope entered", False),
    (client, "leave_call", "call scope left", False),
    (client.WebSearch, "_opened", "setup looked up (_opened)", False),
    (call_setup.CallSetup, "plan", "setup: the plan", False),
    (call_setup.CallSetup, "guarded", "setup: the guarded store", False),
    (call_setup.CallSetup, "runner", "setup: a ChainRunner (its Ledger)", False),
    (call_setup.CallSetup, "redactor", "setup: the redactor", False),
    (chain, "LiveRedactor", "the call's LiveRedactor", False),
    (provider_base.SearchProvider, "credential_check", "credential check", False),
    (chain, "_store_wait", "store wait bound entered", False),
    (chain, "leave_call", "store wait bound left", False),
    (ledger.Ledger, "reserve", "reservation (Ledger.reserve)", True),
    (chain, "attempt_timeout", "attempt timeout", False),
    (attempt, "plan_filters", "filter plan", False),
    (attempt, "enter_attempt", "attempt scope entered", False),
    (attempt, "leave_attempt", "attempt scope left", False),
    (attempt, "start_hard_stop", "hard stop started", False),
    (hard_stop.HardStop, "end", "hard stop ended", False),
    (request_loop, "Flow", "Flow built", False),
    (provider_base.ProtocolProvider, "first_request", "request built (first_request)", False),
    (request_loop, "_refuse_misdirected_sign_in", "sign-in judge", False),
    (request_loop, "send_step", "send step chosen", False),
    (transport.Transport, "send", SEND, True),
    (request_loop, "_answer", PARSE_GLUE, False),
    (brave.BraveProvider, "parse_response", PARSE[2], False),
    (brave, "decode_projection", PARSE[0], False),
    (brave, "result_fields", PARSE[1], False),
    (attempt, "source_cap", "source cap", False),
    (attempt, "apply_plan", "filters applied (none asked)", False),
    (attempt, "_cleaned", CLEAN, False),
    (attempt, "iso_sources", "iso_sources", False),
    (attempt.AttemptAnswer, "final", "final copy (AttemptAnswer.final)", False),
    (chain, "_ms", "attempt's ms", False),
    (chain, "_served", "attempt record (_served)", False),
)


class Steps:
    """The wrappers' shared record: each call's own time and how many wrapped calls it made.

    A row's own time is its span less its wrapped children's spans; the wrappers' cost
    around each child (outside the child's span, so inside the parent's) is taken out at
    the report, by the children counted here.
    """

    def __init__(self) -> None:
        self.on = False
        self.times: defaultdict[str, list[tuple[int, int]]] = defaultdict(list)
        self.by_hand: defaultdict[str, list[int]] = defaultdict(list)
        self._children: list[list[int]] = [[0, 0]]

    def timed(self, row: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        """``fn`` timed under ``row`` while :attr:`on`."""

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if not self.on:
                return fn(*args, **kwargs)
            self._children.append([0, 0])
            started = time.perf_counter_ns()
            try:
                return fn(*args, **kwargs)
            finally:
                self._record(row, time.perf_counter_ns() - started)

        return wrapper

    def timed_async(self, row: str, fn: Callable[..., Awaitable[Any]]) -> Callable[..., Any]:
        """``fn``, a coroutine function, timed (wall, across its awaits) under ``row``."""

        @functools.wraps(fn)
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            if not self.on:
                return await fn(*args, **kwargs)
            self._children.append([0, 0])
            started = time.perf_counter_ns()
            try:
                return await fn(*args, **kwargs)
            finally:
                self._record(row, time.perf_counter_ns() - started)

        return wrapper

    def _record(self, row: str, elapsed: int) -> None:
        spans, calls = self._children.pop()
        self.times[row].append((elapsed - spans, calls))
        parent = self._children[-1]
        parent[0] += elapsed
        parent[1] += 1

    def add(self, row: str, elapsed: int) -> None:
        """A time measured by hand (the floor's pieces), under ``row``: no wrapper in it."""
        self.by_hand[row].append(elapsed)


def _install(steps: Steps) -> None:
    for owner, name, row, is_async in STEPS:
        original = getattr(owner, name)  # AttributeError names a step that moved
        wrapped = steps.timed_async(row, original) if is_async else steps.timed(row, original)
        setattr(owner, name, wrapped)


def _quartiles_us(values: list[float], calls: float) -> tuple[float, float, float]:
    """Median and quartiles of ``values`` (nanoseconds a call) in microseconds a search."""
    q1, median, q3 = statistics.quantiles(values, n=4)
    return median * calls / 1e3, q1 * calls / 1e3, q3 * calls / 1e3


def _wrapper_cost(steps: Steps) -> tuple[float, float]:
    """A wrapper's cost in nanoseconds: within its own span, and around it (the parent's).

    Read on a wrapped no-op called by a wrapped no-op, best of 30 batches (the least
    preempted): the inner one's own time is the cost within a span; the outer one's own
    time, less that, is the cost a child adds to its parent.
    """

    def noop() -> None:
        return None

    inner = steps.timed("calibration inner", noop)

    def calls_inner() -> None:
        for _ in range(100):
            inner()

    outer = steps.timed("calibration outer", calls_inner)
    bare_inner = [noop] * 100
    steps.on = True
    inside, outside = [], []
    for _ in range(30):
        outer()
        (own_outer, _), *_ = steps.times.pop("calibration outer")
        inside.append(min(own for own, _ in steps.times.pop("calibration inner")))
        started = time.perf_counter_ns()
        for call in bare_inner:
            call()
        bare = time.perf_counter_ns() - started
        outside.append((own_outer - bare) / 100)
    steps.on = False
    return min(inside), min(outside)


async def bench(rounds: int) -> None:
    """The gap unwrapped, then every step wrapped, the floor beside each search."""
    session: aiohttp.ClientSession
    body = next(p for p in sorted(FIXTURES.glob("*.json")) if "laravel" in p.name).read_bytes()
    steps = Steps()
    _install(steps)
    runner, origin = await _serve(body)
    url = origin + SEARCH_PATH

    async def floor() -> object:
        params = {"q": QUERY, "count": "10"}
        started = time.perf_counter_ns()
        async with session.get(url, params=params, headers=FLOOR_HEADERS) as response:
            response.raise_for_status()
            read = await response.read()
        got = time.perf_counter_ns()
        data = json.loads(read)
        if steps.on:
            steps.add(FLOOR_GET, got - started)
            steps.add(FLOOR_LOADS, time.perf_counter_ns() - got)
        return data

    with tempfile.TemporaryDirectory() as state_dir:
        async with (
            aiohttp.ClientSession() as session,
            WebSearch(bench_settings(origin, Path(state_dir)), api_keys=KEYS) as ws,
        ):
            for _ in range(WARMUP * 3):
                await floor()
                await ws.search(QUERY)
            gaps, ratios = [], []
            for index in range(rounds):
                pair: list[Callable[[], Awaitable[object]]] = [floor, lambda: ws.search(QUERY)]
                took = []
                for call in pair[:: -1 if index % 2 else 1]:
                    started = time.perf_counter_ns()
                    await call()
                    took.append(time.perf_counter_ns() - started)
                ours, base = (took[1], took[0]) if index % 2 == 0 else (took[0], took[1])
                gaps.append((ours - base) / 1e3)
                ratios.append(ours / base)
            steps.on = True
            for _ in range(rounds):
                await floor()
                await ws.search(QUERY)
            steps.on = False
    await runner.cleanup()
    inside, each = _wrapper_cost(steps)
    _report(steps, rounds, statistics.median(gaps), statistics.median(ratios), inside, each)


def _report(
    steps: Steps, rounds: int, gap: float, ratio: float, inside: float, outside: float
) -> None:
    print(f"capture laravel (44 KiB), {rounds} rounds", flush=True)
    print(f"steps       unwrapped: ours - floor {gap:6.1f} us a search (median of pairs)")
    print(f"steps       unwrapped: call ratio {ratio:.2f}x (median of pairs)")
    rows = {
        row: _quartiles_us([t - n * outside - inside for t, n in samples], len(samples) / rounds)
        for row, samples in steps.times.items()
    }
    rows.update(
        (row, _quartiles_us([float(t) for t in samples], len(samples) / rounds))
        for row, samples in steps.by_hand.items()
    )
    for row, (median, q1, q3) in sorted(rows.items(), key=lambda kv: -kv[1][0]):
        calls = len(steps.times.get(row) or steps.by_hand[row]) / rounds
        print(f"steps       {row:<40} {median:7.2f} us [{q1:.2f}-{q3:.2f}] ({calls:g} a search)")
    exchange = rows[SEND][0] - rows[FLOOR_GET][0]
    parse = sum(rows[row][0] for row in (*PARSE, PARSE_GLUE)) - rows[FLOOR_LOADS][0]
    clean = rows[CLEAN][0]
    own = {SEND, FLOOR_GET, FLOOR_LOADS, CLEAN, PARSE_GLUE, *PARSE}
    others = sum(median for row, (median, _, _) in rows.items() if row not in own)
    rest = gap - exchange - parse - clean - others
    print(f"gap         exchange over the floor's GET + read()  {exchange:7.1f} us")
    print(f"gap         parse over json.loads                   {parse:7.1f} us")
    print(f"gap         clean_response                          {clean:7.1f} us")
    print(f"gap         the other steps above                   {others:7.1f} us")
    print(f"gap         in no step (frames, awaits, glue)       {rest:7.1f} us")
    print(
        f"gap         (taken out of every row: {inside:.0f} ns a call within its span,"
        f" {outside:.0f} ns a wrapped child within its parent's)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rounds", type=int, default=2000)
    asyncio.run(bench(parser.parse_args().rounds))


if __name__ == "__main__":
    main()
