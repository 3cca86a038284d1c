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

After them come two readings of why a step costs more in place than alone:

* ``alone``: the parse's three rows, the sanitiser's and the floor's ``json.loads`` run
  again back to back in the same process on the same body, each beside its time in the
  search. The difference is what running between the exchange and the rest of a search
  adds to the same code (stop 57 (speed63): each step's code and data taken back into the
  caches after aiohttp, the loop and the loopback; the least for ``json.loads``'s one C
  loop, the most for pydantic-core's validators);
* ``collector``: the garbage collector's runs during the wrapped searches (a
  ``gc.callbacks`` entry that only counts: the thresholds stay the process's), by
  generation and by the step running when each began, with their time a search. The
  record keeps plain ints so that it sets off no collection of its own.

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
import gc
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
from websearch_core.models import SearchParams
from websearch_core.redaction import Redactor
from websearch_core.sanitize import source_cap

SEND = "exchange: Transport.send (wall)"
FLOOR_GET = "floor: GET + read() (wall)"
FLOOR_LOADS = "floor: json.loads"
PARSE = ("parse: projection decode", "parse: result_fields", "parse: validation + header")
PARSE_GLUE = "parse: status check + wrapping"
CLEAN = "clean_response (+ cited check)"
BETWEEN = "between the steps (frames, glue, the loop)"
FLOOR = "the floor (GET, read(), json.loads)"
ALONE_ROWS = (*PARSE, CLEAN, FLOOR_LOADS)
"""The rows also read back to back (:func:`_back_to_back`): the parse, the sanitiser and the
floor's decode, which need no exchange to run."""
# The headers aiohttp's test server sends with the capture, for the parse's look-ups.
SERVER_HEADERS = {
    "Content-Type": "application/json",
    "Content-Length": "45000",
    "Date": "Mon, 07 Dec 2026 21:00:00 GMT",
    "Server": "Python/3.11 aiohttp/3",
}

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
        self.times: defaultdict[str, list[int]] = defaultdict(list)
        self.calls: defaultdict[str, list[int]] = defaultdict(list)
        self.by_hand: defaultdict[str, list[int]] = defaultdict(list)
        self.running: list[str] = [BETWEEN]
        self._children: list[list[int]] = [[0, 0]]

    def timed(self, row: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        """``fn`` timed under ``row`` while :attr:`on`."""

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if not self.on:
                return fn(*args, **kwargs)
            self._children.append([0, 0])
            self.running.append(row)
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
            self.running.append(row)
            started = time.perf_counter_ns()
            try:
                return await fn(*args, **kwargs)
            finally:
                self._record(row, time.perf_counter_ns() - started)

        return wrapper

    def _record(self, row: str, elapsed: int) -> None:
        spans, calls = self._children.pop()
        self.running.pop()
        # Two lists of ints, not a tuple a call: ints are not tracked by the collector, so
        # the record adds no young collections of its own to the ones it counts.
        self.times[row].append(elapsed - spans)
        self.calls[row].append(calls)
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
        own_outer, *_ = steps.times.pop("calibration outer")
        inside.append(min(steps.times.pop("calibration inner")))
        del steps.calls["calibration outer"], steps.calls["calibration inner"]
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
        steps.running.append(FLOOR)
        started = time.perf_counter_ns()
        async with session.get(url, params=params, headers=FLOOR_HEADERS) as response:
            response.raise_for_status()
            read = await response.read()
        got = time.perf_counter_ns()
        data = json.loads(read)
        if steps.on:
            steps.add(FLOOR_GET, got - started)
            steps.add(FLOOR_LOADS, time.perf_counter_ns() - got)
        steps.running.pop()
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
            collector = Collections(steps)
            gc.callbacks.append(collector.seen)  # counted only: no setting of the collector
            steps.on = True
            try:
                for _ in range(rounds):
                    await floor()
                    await ws.search(QUERY)
            finally:
                steps.on = False
                gc.callbacks.remove(collector.seen)
    await runner.cleanup()
    in_place = (steps.times, steps.calls, steps.by_hand)
    steps.times, steps.calls, steps.by_hand = (
        defaultdict(list),
        defaultdict(list),
        defaultdict(list),
    )
    _back_to_back(steps, body, rounds)
    alone = (steps.times, steps.calls, steps.by_hand)
    inside, each = _wrapper_cost(steps)
    steps.times, steps.calls, steps.by_hand = in_place
    rows = _report(steps, rounds, statistics.median(gaps), statistics.median(ratios), inside, each)
    steps.times, steps.calls, steps.by_hand = alone
    _report_alone(rows, _rows(steps, rounds, inside, each))
    _report_collections(collector, rounds)


class Collections:
    """The collector's runs while the steps are timed, by the step running when each began.

    A ``gc.callbacks`` entry: it reads each collection's generation and time and changes
    nothing (the thresholds, and whether the collector runs, stay the process's own).
    """

    def __init__(self, steps: Steps) -> None:
        self._steps = steps
        self._started = 0
        self.by_row: defaultdict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])

    def seen(self, phase: str, info: dict[str, int]) -> None:
        """``gc.callbacks``' hook: a collection's start, or its end and generation."""
        if phase == "start":
            self._started = time.perf_counter_ns()
            return
        entry = self.by_row[self._steps.running[-1]]
        entry[info["generation"]] += 1
        entry[3] += time.perf_counter_ns() - self._started


def _back_to_back(steps: Steps, body: bytes, rounds: int) -> None:
    """The parse, the sanitiser and ``json.loads`` run back to back, wrapped as in place.

    The same functions on the same body in the same process as the search's, with nothing
    between them: what each costs when its code and data are where it left them, so the
    report can set its time in a search beside it.
    """
    provider = brave.BraveProvider()
    params = SearchParams(query=QUERY)
    info = provider.info
    cap = source_cap(params, info.max_results, limit_only=info.sources_cut_by_limit)
    redactor = Redactor([KEYS["brave"]])
    reply = transport.HttpResponse(status=200, body=body, headers=SERVER_HEADERS, url="")
    steps.on = True
    for _ in range(rounds):
        started = time.perf_counter_ns()
        json.loads(body)
        steps.add(FLOOR_LOADS, time.perf_counter_ns() - started)
        parsed = provider.parse_response(reply, params)
        attempt._cleaned(info, parsed, cap, redactor)
    steps.on = False


def _rows(
    steps: Steps, rounds: int, inside: float, outside: float
) -> dict[str, tuple[float, float, float]]:
    """Each row's median and quartiles in microseconds a search, the wrappers taken out."""
    rows = {
        row: _quartiles_us(
            [t - n * outside - inside for t, n in zip(samples, steps.calls[row], strict=True)],
            len(samples) / rounds,
        )
        for row, samples in steps.times.items()
    }
    rows.update(
        (row, _quartiles_us([float(t) for t in samples], len(samples) / rounds))
        for row, samples in steps.by_hand.items()
    )
    return rows


def _report_alone(
    in_place: dict[str, tuple[float, float, float]], alone: dict[str, tuple[float, float, float]]
) -> None:
    """The rows read back to back beside their time in place, and what a search adds."""
    for row in ALONE_ROWS:
        placed, by_itself = in_place[row][0], alone[row][0]
        print(
            f"alone       {row:<40} in place {placed:7.2f} us, back to back {by_itself:7.2f}"
            f" us: {placed - by_itself:+7.2f} us ({placed / by_itself:.2f} of it)"
        )


def _report_collections(collector: Collections, rounds: int) -> None:
    """The collector's runs in the timed searches, by the step they fell in."""
    if not collector.by_row:
        print("collector   no collection ran in the timed searches")
    for row, (young, middle, old, spent) in sorted(
        collector.by_row.items(), key=lambda kv: -kv[1][3]
    ):
        print(
            f"collector   {row:<40} generations 0/1/2: {young}/{middle}/{old} in {rounds}"
            f" searches, {spent / rounds / 1e3:6.2f} us a search"
        )


def _report(
    steps: Steps, rounds: int, gap: float, ratio: float, inside: float, outside: float
) -> dict[str, tuple[float, float, float]]:
    print(f"capture laravel (44 KiB), {rounds} rounds", flush=True)
    print(f"steps       unwrapped: ours - floor {gap:6.1f} us a search (median of pairs)")
    print(f"steps       unwrapped: call ratio {ratio:.2f}x (median of pairs)")
    rows = _rows(steps, rounds, inside, outside)
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
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rounds", type=int, default=2000)
    asyncio.run(bench(parser.parse_args().rounds))


if __name__ == "__main__":
    main()
