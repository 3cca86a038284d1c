"""What the call path adds on top of the work it cannot avoid, as ratios measured in one run.

Every baseline does the same unavoidable work as ours: the same aiohttp GET of the same
body (a real Brave capture, ``../shared/fixtures/brave/*.json``, served from a loopback
aiohttp server) and the same ``json.loads`` of it. Ours runs with the defaults a user gets
(SQLite state in a fresh directory, the result cache off so every call reaches the server).
Baseline and ours run interleaved call by call in alternating order, so load from other
processes hits both alike; a ratio is the median of the per-pair ratios, with its IQR.

* ``call``: ``WebSearch.search`` vs. GET + ``json.loads``.
* ``spaced``: ``call`` as users meet it, searches seconds apart rather than back to back:
  before each round the client idles past the SQLite store's flush interval
  (``FLUSH_AFTER`` plus a margin, :data:`SPACED_IDLE` in all), so the store's thread has
  written the last search's pending count and every search is the first after a flush.
  Only the floor and the search are timed, in alternating order, as in ``call``, so the
  ratio reads against ``call``'s. ``--spaced-rounds`` rounds (default 100, about 80 s,
  after :data:`SPACED_WARMUP` untimed ones).
* ``langchain``: ``WebSearchTool.ainvoke`` vs. the same GET in a trivial ``StructuredTool``.
* ``llamaindex``: ``WebSearchFunctionTool.acall`` vs. the same GET in a trivial
  ``FunctionTool``.
* ``breakdown``: raw, ours and ours with in-memory state interleaved (what the SQLite
  store costs), then the pure steps on the same body: ``json.loads``, Brave's parser,
  ``clean_response``, ``format_for_llm``.
* ``accounting``: where ours stands against the floor, in place: the bare GET (no
  decoding), the floor, ours, and ours with Brave's ``parse_response`` stood in by the
  response it gave once (no decoding, no reading; everything after it runs as usual), in
  every order in turn. Differences per round: the machinery (stood-in minus bare GET: the
  chain, the state store, the transport's own work, cleaning), the parse in place (ours
  minus stood-in) and ``json.loads`` in place (floor minus bare GET).
* ``exchange``: our HTTP exchange against the floor's, without ``json.loads``: the floor's
  GET + ``read()`` of Brave's request as its provider builds it, the same calls on our
  client's session, and ``Transport.send``, in every order in turn; then, alternating, a
  search against the same search with ``send`` stood in by that GET + ``read()`` on our
  session (what all of the transport's own work weighs in the call).
* ``tools``: what each framework tool's layer costs beyond its call, in place: raw GET +
  ``json.loads``, the trivial tool, ``WebSearch.search``, ``WebSearch.run`` (the search
  and the model's text) and our tool, in every order in turn, once for LangChain and once
  for LlamaIndex. Differences per round: the trivial tool's layer (trivial minus raw GET),
  ours (tool minus search), split into ``run``'s text (run minus search) and the adapter
  with its framework (tool minus run); the last line is ours minus the trivial layer.
* ``adapters``: each tool's own work, in place: ``ainvoke`` / ``acall`` against
  ``WebSearch.search`` + ``format_for_llm`` on the same client, alternating; the difference
  per pair is what the adapter and its framework add to what the tool must do.
* ``concurrent``: 200 searches at once through one client vs. 200 GETs at once through one
  session (each with its default connection pool); throughput, ratio ours / raw, the median
  of ``--bursts`` per-burst ratios (default 200: one burst's ratio ranges over 0.3-2.3x, so
  the median of 20 moved by ±0.05x from run to run). A second line, ``concurrent cpu``,
  splits each burst's time into work and waiting: the event loop thread's CPU time a search
  on each side, the CPU ours spent on its other threads (the state store's), and the loop
  thread's voluntary context switches a burst (a wait for a lock, the GIL or a thread);
  its ratio is raw's CPU over ours, per burst. Where it reads as the throughput ratio,
  both sides are CPU-bound and the gap is work a search, not waiting (stop 58 (speed64)).
* ``cache``: what the result cache (on by default) costs a search that misses it: a client
  with the cache on against one with it off, both with the defaults otherwise (SQLite state),
  interleaved call by call and each round a query not searched before, so every search on
  the cache side looks its key up, misses, and writes the answer. The difference is per
  pair, with its IQR; the steps (the key, the miss, ``dump_response``, the write) are timed
  alone after, on the same store.
* ``cache-budget``: ``cache`` with a budget on Brave for both clients, as a user who set one
  runs: every search's reservation is then one synchronous commit to the file, between the
  store's own flushes.
* ``memory``: traced allocation growth over N searches after a warm-up.
* ``imports``: ``import langchain_websearch`` / ``llamaindex_websearch`` vs. importing the
  framework's tool class, each in a fresh interpreter, alternating.

No pass/fail: targets are read off the ratios, never asserted in tests::

    python benchmarks/bench_overhead.py [call spaced langchain llamaindex breakdown
        accounting exchange tools adapters concurrent cache cache-budget memory imports]
        [--rounds N] [--spaced-rounds N] [--bursts N] [--memory-calls N] [--import-runs N]
"""

import argparse
import asyncio
import gc
import itertools
import json
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
import tracemalloc
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from websearch_core import SearchParams, WebSearch, format_for_llm, get_provider
from websearch_core.cache import cache_key, dump_response, settings_scope
from websearch_core.orchestration import call_redactor
from websearch_core.providers.brave import BraveProvider
from websearch_core.sanitize import clean_response
from websearch_core.settings import Settings
from websearch_core.state.sqlite import FLUSH_AFTER
from websearch_core.transport import HttpRequest, HttpResponse, Transport

FIXTURES = Path(__file__).resolve().parents[2] / "shared/fixtures/brave"
SEARCH_PATH = "/res/v1/web/search"
QUERY = "python asyncio tutorial"
WARMUP = 30
KEYS = {"brave": "BSAq7f3a9c2e5b41d8Kx0pLm3nQ4rT5u"}
"""A key of a real Brave key's length and shape (32 characters, no spaces). Until stop 49
it was ``"bench"``: too short to be a token, so the redactor never probed answers for a
key's head or its runs (stop 49 (secrets49)), work every real key costs each search."""
FLOOR_HEADERS = {"X-Subscription-Token": KEYS["brave"], "Accept": "application/json"}
"""The headers Brave's request needs, as the floor's GETs send them (aiohttp copies them)."""

BUDGET = "100000000/month"
"""``cache-budget``'s budget: one no run reaches, so every search is still sent."""

Call = Callable[[], Awaitable[object]]

SPACED_IDLE = FLUSH_AFTER + 0.25
"""``spaced``'s pause before each round: past the store's flush, with room for its write."""
SPACED_WARMUP = 5
"""``spaced``'s untimed rounds (each costs a pause; the client warms within a few)."""


async def _serve(body: bytes) -> tuple[web.AppRunner, str]:
    """A loopback server answering every search with the capture's bytes."""

    async def search(_request: web.Request) -> web.Response:
        return web.Response(body=body, content_type="application/json")

    return await _serve_with(search)


async def _serve_with(
    search: Callable[[web.Request], Awaitable[web.Response]],
) -> tuple[web.AppRunner, str]:
    """A loopback server answering Brave's search path with ``search``, and its origin."""
    app = web.Application()
    app.router.add_get(SEARCH_PATH, search)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    return runner, f"http://127.0.0.1:{port}"


def _settings(
    origin: str, state_dir: Path, *, cache: bool = False, budget: bool = False
) -> Settings:
    # Defaults a user gets (SQLite state), cache off so every call reaches the server.
    return Settings(
        providers=("brave",),
        base_urls={"brave": origin},
        cache=cache,
        state_dir=state_dir,
        budget={"brave": BUDGET} if budget else {},
    )


def _raw_get(session: aiohttp.ClientSession, origin: str) -> Callable[[str], Awaitable[Any]]:
    """The floor: what Brave's request needs, the same GET and ``json.loads`` of the body."""
    url = origin + SEARCH_PATH

    async def get(query: str) -> Any:
        params = {"q": query, "count": "10"}
        async with session.get(url, params=params, headers=FLOOR_HEADERS) as response:
            response.raise_for_status()
            return json.loads(await response.read())

    return get


def _raw_tool_fn(session: aiohttp.ClientSession, origin: str) -> Callable[[str], Awaitable[str]]:
    """The trivial tools' function: the floor's GET and ``json.loads``, then the model's text.

    The text is what the simplest useful search tool gives a model, each result's title,
    URL and description on numbered lines (our tool's layout without its ages and cuts;
    ~6 us for the capture's 17 results, where ``format_for_llm`` takes ~16 us). Until stop
    43 it was the result count alone, which no real tool returns: a floor doing less than a
    user's trivial tool, which overstated our ratio. Handing the framework the decoded
    44 KiB dict instead would make LlamaIndex (every call) and LangChain (every tool call)
    stringify it, a cost our tool, which returns text for the model, never pays.
    """
    get = _raw_get(session, origin)

    async def search(query: str) -> str:
        data = await get(query)
        return _results_text(data.get("web", {}).get("results", ()))

    return search


def _results_text(results: list[dict[str, Any]]) -> str:
    """A trivial tool's text for the model: numbered title, URL and description lines."""
    return "\n".join(
        f"[{number}] {result.get('title', '')}\n    {result.get('url', '')}"
        f"\n    {result.get('description', '')}"
        for number, result in enumerate(results, start=1)
    )


def _quartiles(samples: list[float]) -> tuple[float, float, float]:
    q1, median, q3 = statistics.quantiles(samples, n=4)
    return q1, median, q3


async def _every_order(variants: dict[str, Call], rounds: int) -> dict[str, list[float]]:
    """Each variant's call times, the variants run in every order in turn, round by round.

    Every order, not one rotated: a client run right after another one of the same code
    finds it warm (~12 us), which read as ~40 us "saved by the in-memory store" when the
    order was fixed, and still favoured whichever came second when it was rotated.
    """
    times: dict[str, list[float]] = {name: [] for name in variants}
    orders = list(itertools.permutations(variants))
    for index in range(WARMUP + rounds):
        for name in orders[index % len(orders)]:
            call = variants[name]
            started = time.perf_counter()
            await call()
            if index >= WARMUP:
                times[name].append(time.perf_counter() - started)
    return times


async def _pairs(
    name: str,
    baseline: Call,
    ours: Call,
    rounds: int,
    *,
    warmup: int = WARMUP,
    idle: float = 0.0,
) -> None:
    """Time baseline and ours alternately, call by call; print medians, IQRs and the ratio.

    With ``idle``, each round starts after that many seconds of an idle loop (untimed),
    so background work a search left (the store's flush) is done before the next one.
    """
    base_times: list[float] = []
    our_times: list[float] = []
    for index in range(warmup + rounds):
        if idle:
            await asyncio.sleep(idle)
        order = ((baseline, base_times), (ours, our_times))
        if index % 2:
            order = order[::-1]
        for fn, times in order:
            started = time.perf_counter()
            await fn()
            elapsed = time.perf_counter() - started
            if index >= warmup:
                times.append(elapsed)
    ratios = [o / b for o, b in zip(our_times, base_times, strict=True)]
    b1, bm, b3 = _quartiles(base_times)
    o1, om, o3 = _quartiles(our_times)
    r1, rm, r3 = _quartiles(ratios)
    print(
        f"{name:<11} floor {bm * 1e3:6.3f} ms [{b1 * 1e3:.3f}-{b3 * 1e3:.3f}]"
        f"   ours {om * 1e3:6.3f} ms [{o1 * 1e3:.3f}-{o3 * 1e3:.3f}]"
        f"   ratio {rm:5.2f}x [{r1:.2f}-{r3:.2f}]",
        flush=True,
    )


async def bench_call(origin: str, state_dir: Path, rounds: int) -> None:
    async with (
        aiohttp.ClientSession() as session,
        WebSearch(_settings(origin, state_dir), api_keys=KEYS) as ws,
    ):
        raw = _raw_get(session, origin)
        await _pairs("call", lambda: raw(QUERY), lambda: ws.search(QUERY), rounds)


async def bench_spaced(origin: str, state_dir: Path, rounds: int) -> None:
    async with (
        aiohttp.ClientSession() as session,
        WebSearch(_settings(origin, state_dir), api_keys=KEYS) as ws,
    ):
        raw = _raw_get(session, origin)
        await _pairs(
            "spaced",
            lambda: raw(QUERY),
            lambda: ws.search(QUERY),
            rounds,
            warmup=SPACED_WARMUP,
            idle=SPACED_IDLE,
        )


async def bench_langchain(origin: str, state_dir: Path, rounds: int) -> None:
    from langchain_core.tools import StructuredTool

    from langchain_websearch import WebSearchTool

    async with aiohttp.ClientSession() as session:
        raw = _raw_tool_fn(session, origin)
        trivial = StructuredTool.from_function(
            coroutine=raw, name="web_search", description="Search the web."
        )
        tool = WebSearchTool(settings=_settings(origin, state_dir), api_keys=KEYS)
        async with tool:
            args = {"query": QUERY}
            await _pairs(
                "langchain", lambda: trivial.ainvoke(args), lambda: tool.ainvoke(args), rounds
            )


async def bench_llamaindex(origin: str, state_dir: Path, rounds: int) -> None:
    from llama_index.core.tools import FunctionTool

    from llamaindex_websearch import create_web_search_tool

    async with aiohttp.ClientSession() as session:
        raw = _raw_tool_fn(session, origin)
        trivial = FunctionTool.from_defaults(
            async_fn=raw, name="web_search", description="Search the web."
        )
        ws = WebSearch(_settings(origin, state_dir), api_keys=KEYS)
        async with ws:
            tool = create_web_search_tool(web_search=ws)
            await _pairs(
                "llamaindex",
                lambda: trivial.acall(query=QUERY),
                lambda: tool.acall(query=QUERY),
                rounds,
            )


def _parse_inputs(body: bytes, origin: str) -> tuple[BraveProvider, HttpResponse, SearchParams]:
    """Brave's provider, the capture as the response it parses, and the search's parameters."""
    provider = get_provider("brave")
    assert isinstance(provider, BraveProvider)
    response = HttpResponse(status=200, body=body, headers={}, url=origin)
    return provider, response, SearchParams(query=QUERY)


async def bench_breakdown(origin: str, state_dir: Path, rounds: int, body: bytes) -> None:
    """Where ours spends its time: the state store, then the pure steps on the same body."""
    memory = _settings(origin, state_dir).model_copy(update={"state_backend": "memory"})
    async with (
        aiohttp.ClientSession() as session,
        WebSearch(_settings(origin, state_dir), api_keys=KEYS) as ws,
        WebSearch(memory, api_keys=KEYS) as in_memory,
    ):
        raw = _raw_get(session, origin)
        variants: dict[str, Call] = {
            "raw GET + json.loads": lambda: raw(QUERY),
            "ours, SQLite state": lambda: ws.search(QUERY),
            "ours, in-memory state": lambda: in_memory.search(QUERY),
        }
        times = await _every_order(variants, rounds)
        for name, samples in times.items():
            q1, median, q3 = _quartiles(samples)
            print(f"breakdown   {name:<24} {median * 1e6:6.0f} us [{q1 * 1e6:.0f}-{q3 * 1e6:.0f}]")
        store_cost = [
            sqlite - memory
            for sqlite, memory in zip(
                times["ours, SQLite state"], times["ours, in-memory state"], strict=True
            )
        ]
        q1, median, q3 = _quartiles(store_cost)
        print(
            f"breakdown   {'SQLite over in-memory':<24} {median * 1e6:6.0f} us"
            f" [{q1 * 1e6:.0f}-{q3 * 1e6:.0f}] (per round)"
        )
        provider, response, params = _parse_inputs(body, origin)
        parsed = provider.parse_response(response, params)
        redactor = call_redactor(ws._context())
        steps: dict[str, Callable[[], object]] = {
            "json.loads": lambda: json.loads(body),
            "Brave parse_response": lambda: provider.parse_response(response, params),
            "clean_response": lambda: clean_response(parsed, cap=20, redactor=redactor),
            "format_for_llm": lambda: format_for_llm(parsed, []),
        }
        for name, step in steps.items():
            best = min(timeit.repeat(step, number=200, repeat=7)) / 200
            print(f"breakdown   {name:<24} {best * 1e6:6.0f} us (best of 7 x 200)")


async def bench_accounting(origin: str, state_dir: Path, rounds: int, body: bytes) -> None:
    """Ours split into what the floor also pays, the machinery and the parse, in place."""
    url = origin + SEARCH_PATH
    real_parse = BraveProvider.parse_response
    async with (
        aiohttp.ClientSession() as session,
        WebSearch(_settings(origin, state_dir), api_keys=KEYS) as ws,
    ):
        raw = _raw_get(session, origin)

        async def bare_get() -> bytes:
            # The floor's GET without its json.loads, written out rather than shared: a
            # helper under the floor would add a coroutine to every baseline call.
            params = {"q": QUERY, "count": "10"}
            async with session.get(url, params=params, headers=FLOOR_HEADERS) as response:
                response.raise_for_status()
                return await response.read()

        provider, response, params = _parse_inputs(body, origin)
        parsed = provider.parse_response(response, params)

        def stood_in(_self: object, _response: object, _params: object) -> object:
            return parsed

        async def ours_stood_in() -> object:
            # Swapping the method around one search costs nothing measurable (0.5 us
            # against the same search with a pass-through swap, 1200 pairs).
            BraveProvider.parse_response = stood_in  # type: ignore[method-assign,assignment]
            try:
                return await ws.search(QUERY)
            finally:
                BraveProvider.parse_response = real_parse  # type: ignore[method-assign]

        variants: dict[str, Call] = {
            "bare GET": bare_get,
            "GET + json.loads (floor)": lambda: raw(QUERY),
            "ours": lambda: ws.search(QUERY),
            "ours, parse stood in": ours_stood_in,
        }
        times = await _every_order(variants, rounds)
    for name, samples in times.items():
        q1, median, q3 = _quartiles(samples)
        print(f"accounting  {name:<26} {median * 1e6:6.0f} us [{q1 * 1e6:.0f}-{q3 * 1e6:.0f}]")
    for name, minuend, subtrahend in (
        ("json.loads in place", "GET + json.loads (floor)", "bare GET"),
        ("machinery in place", "ours, parse stood in", "bare GET"),
        ("parse in place", "ours", "ours, parse stood in"),
    ):
        q1, median, q3 = _quartiles(
            [a - b for a, b in zip(times[minuend], times[subtrahend], strict=True)]
        )
        print(
            f"accounting  {name:<26} {median * 1e6:6.0f} us [{q1 * 1e6:.0f}-{q3 * 1e6:.0f}]"
            " (per round)"
        )


async def _captured_send(ws: WebSearch) -> tuple[Transport, HttpRequest, dict[str, Any]]:
    """The transport one search sends through, and the request and options it sends.

    Read off one search with ``Transport.send`` wrapped by a pass-through, so the exchange
    is timed on the request exactly as Brave's provider builds it (five parameters, its
    headers, its size cap), not on a copy of it written here.
    """
    real_send = Transport.send
    seen: list[tuple[Transport, HttpRequest, dict[str, Any]]] = []

    async def noted(
        self: Transport, provider: str, label: str, request: HttpRequest, **options: Any
    ) -> HttpResponse:
        seen.append((self, request, options))
        return await real_send(self, provider, label, request, **options)

    Transport.send = noted  # type: ignore[method-assign]
    try:
        await ws.search(QUERY)
    finally:
        Transport.send = real_send  # type: ignore[method-assign]
    return seen[-1]


async def bench_exchange(origin: str, state_dir: Path, rounds: int) -> None:
    """Our HTTP exchange against the floor's, then what it weighs in the whole call.

    Alone, in every order: the floor's GET + ``read()`` of Brave's request (its parameters
    and headers), the same calls on our client's session (its connector and settings) and
    ``Transport.send`` itself (everything it does beyond the floor: the base URL, the
    sign-in and proxy checks, the per-request ``ClientTimeout``, redirects refused, the
    capped read, the ``HttpResponse``). Our session has no total timeout of its own (send
    gives each request one), so its GET arms no timer where the floor's (aiohttp's default
    five minutes) and ``send``'s do: its share reads below zero by that timer. In the call,
    in every order: a search against the same search with ``send`` stood in by the floor's
    GET + ``read()`` on our session.
    """
    url = origin + SEARCH_PATH
    async with (
        aiohttp.ClientSession() as session,
        WebSearch(_settings(origin, state_dir), api_keys=KEYS) as ws,
    ):
        transport, request, options = await _captured_send(ws)
        ours_session = transport.session
        params, headers = list(request.params), dict(request.headers)

        async def floor_get() -> bytes:
            async with session.get(url, params=params, headers=headers) as response:
                return await response.read()

        async def floor_on_ours() -> bytes:
            async with ours_session.get(url, params=params, headers=headers) as response:
                return await response.read()

        async def send() -> HttpResponse:
            return await transport.send("brave", "Brave", request, **options)

        variants: dict[str, Call] = {
            "floor GET + read()": floor_get,
            "the same on our session": floor_on_ours,
            "Transport.send": send,
        }
        times = await _every_order(variants, rounds)
        for name, samples in times.items():
            q1, median, q3 = _quartiles(samples)
            print(f"exchange    {name:<26} {median * 1e6:6.0f} us [{q1 * 1e6:.0f}-{q3 * 1e6:.0f}]")
        for name, minuend, subtrahend in (
            ("our session's share", "the same on our session", "floor GET + read()"),
            ("send's own share", "Transport.send", "the same on our session"),
            ("ours over the floor", "Transport.send", "floor GET + read()"),
        ):
            q1, median, q3 = _quartiles(_per_round(times, minuend, subtrahend))
            print(
                f"exchange    {name:<26} {median * 1e6:6.1f} us [{q1 * 1e6:.1f}-{q3 * 1e6:.1f}]"
                " (per round)"
            )

        async def bare_send(
            _self: Transport, _provider: str, _label: str, sent: HttpRequest, **_options: Any
        ) -> HttpResponse:
            async with ours_session.get(url, params=sent.params, headers=sent.headers) as got:
                body = await got.read()
                return HttpResponse(
                    status=got.status,
                    body=body,
                    headers=dict(got.headers.items()),
                    url=str(got.url),
                )

        real_send = Transport.send

        async def stood_in() -> object:
            Transport.send = bare_send  # type: ignore[method-assign,assignment]
            try:
                return await ws.search(QUERY)
            finally:
                Transport.send = real_send  # type: ignore[method-assign]

        in_call = await _every_order({"search": lambda: ws.search(QUERY), "bare": stood_in}, rounds)
    q1, median, q3 = _quartiles(_per_round(in_call, "search", "bare"))
    print(
        f"exchange    {'in the call, send - bare':<26} {median * 1e6:6.1f} us"
        f" [{q1 * 1e6:.1f}-{q3 * 1e6:.1f}] (per round; search"
        f" {statistics.median(in_call['search']) * 1e6:.0f} us)"
    )


def _per_round(times: dict[str, list[float]], minuend: str, subtrahend: str) -> list[float]:
    return [a - b for a, b in zip(times[minuend], times[subtrahend], strict=True)]


async def bench_tools(origin: str, state_dir: Path, rounds: int) -> None:
    """Each framework tool's layer beyond its call against the trivial tool's beyond its GET."""
    from langchain_core.tools import StructuredTool
    from llama_index.core.tools import FunctionTool

    from langchain_websearch import WebSearchTool
    from llamaindex_websearch import create_web_search_tool

    args = {"query": QUERY}
    async with (
        aiohttp.ClientSession() as session,
        WebSearch(_settings(origin, state_dir / "client"), api_keys=KEYS) as ws,
    ):
        raw = _raw_get(session, origin)
        raw_tool = _raw_tool_fn(session, origin)
        lc_trivial = StructuredTool.from_function(
            coroutine=raw_tool, name="web_search", description="Search the web."
        )
        li_trivial = FunctionTool.from_defaults(
            async_fn=raw_tool, name="web_search", description="Search the web."
        )
        lc_tool = WebSearchTool(settings=_settings(origin, state_dir / "lc"), api_keys=KEYS)
        li_tool = create_web_search_tool(
            settings=_settings(origin, state_dir / "li"), api_keys=KEYS
        )
        frameworks: dict[str, tuple[Call, Call]] = {
            "langchain": (lambda: lc_trivial.ainvoke(args), lambda: lc_tool.ainvoke(args)),
            "llamaindex": (
                lambda: li_trivial.acall(query=QUERY),
                lambda: li_tool.acall(query=QUERY),
            ),
        }
        async with lc_tool, li_tool:
            for framework, (trivial, tool) in frameworks.items():
                variants: dict[str, Call] = {
                    "raw GET + json.loads": lambda: raw(QUERY),
                    "trivial tool": trivial,
                    "WebSearch.search": lambda: ws.search(QUERY),
                    "WebSearch.run": lambda: ws.run(QUERY),
                    "our tool": tool,
                }
                times = await _every_order(variants, rounds)
                for name, samples in times.items():
                    q1, median, q3 = _quartiles(samples)
                    print(
                        f"tools {framework:<11} {name:<30} {median * 1e6:6.0f} us"
                        f" [{q1 * 1e6:.0f}-{q3 * 1e6:.0f}]"
                    )
                trivial_layer = _per_round(times, "trivial tool", "raw GET + json.loads")
                our_layer = _per_round(times, "our tool", "WebSearch.search")
                for name, samples in (
                    ("trivial layer (trivial - GET)", trivial_layer),
                    ("our layer (tool - search)", our_layer),
                    (
                        "run's text (run - search)",
                        _per_round(times, "WebSearch.run", "WebSearch.search"),
                    ),
                    (
                        "adapter + framework (tool - run)",
                        _per_round(times, "our tool", "WebSearch.run"),
                    ),
                    (
                        "ours beyond trivial layer",
                        [o - t for o, t in zip(our_layer, trivial_layer, strict=True)],
                    ),
                ):
                    q1, median, q3 = _quartiles(samples)
                    print(
                        f"tools {framework:<11} {name:<30} {median * 1e6:6.0f} us"
                        f" [{q1 * 1e6:.0f}-{q3 * 1e6:.0f}] (per round)",
                        flush=True,
                    )


async def bench_adapters(origin: str, state_dir: Path, rounds: int) -> None:
    """Each adapter's own share: our tool against what it must do, on the same client.

    What the tool cannot avoid is the search and the model's text, so the other side is
    ``await ws.search(...)`` then ``format_for_llm``, on the very client the tool is given
    (same state, same warm paths). The two alternate call by call; the difference per pair
    is the adapter's work with its framework's (arguments, output object, span, callbacks).
    """
    from langchain_core.tools import BaseTool

    from langchain_websearch import WebSearchTool
    from llamaindex_websearch import create_web_search_tool

    async with WebSearch(_settings(origin, state_dir), api_keys=KEYS) as ws:

        async def search_and_text() -> str:
            return format_for_llm(await ws.search(QUERY))

        lc_tool: BaseTool = WebSearchTool(web_search=ws)
        li_tool = create_web_search_tool(web_search=ws)
        tools: dict[str, Call] = {
            "langchain": lambda: lc_tool.ainvoke({"query": QUERY}),
            "llamaindex": lambda: li_tool.acall(query=QUERY),
        }
        for framework, tool in tools.items():
            times = await _every_order({"search + text": search_and_text, "tool": tool}, rounds)
            b1, bm, b3 = _quartiles(times["search + text"])
            o1, om, o3 = _quartiles(times["tool"])
            d1, dm, d3 = _quartiles(_per_round(times, "tool", "search + text"))
            print(
                f"adapters {framework:<11} search + format_for_llm {bm * 1e6:4.0f} us"
                f" [{b1 * 1e6:.0f}-{b3 * 1e6:.0f}]   tool {om * 1e6:4.0f} us"
                f" [{o1 * 1e6:.0f}-{o3 * 1e6:.0f}]   adapter {dm * 1e6:4.0f} us"
                f" [{d1 * 1e6:.0f}-{d3 * 1e6:.0f}] (per pair)",
                flush=True,
            )


async def bench_concurrent(origin: str, state_dir: Path, bursts: int, width: int = 200) -> None:
    """Throughput of ``width`` calls at once: ours through one client, raw through one session."""

    async def burst(fn: Callable[[str], Awaitable[object]], costs: list[_BurstCost]) -> float:
        before = _BurstCost.now()
        started = time.perf_counter()
        await asyncio.gather(*(fn(f"{QUERY} {i}") for i in range(width)))
        rate = width / (time.perf_counter() - started)
        costs.append(_BurstCost.now().less(before, width))
        return rate

    async with (
        aiohttp.ClientSession() as session,
        WebSearch(_settings(origin, state_dir), api_keys=KEYS) as ws,
    ):
        raw = _raw_get(session, origin)
        raw_rates: list[float] = []
        our_rates: list[float] = []
        raw_costs: list[_BurstCost] = []
        our_costs: list[_BurstCost] = []
        for index in range(2 + bursts):
            order = ((raw, raw_rates, raw_costs), (ws.search, our_rates, our_costs))
            for fn, rates, costs in order if index % 2 else order[::-1]:
                rate = await burst(fn, costs)
                if index >= 2:
                    rates.append(rate)
                else:
                    costs.pop()
    ratios = [o / r for o, r in zip(our_rates, raw_rates, strict=True)]
    print(
        f"concurrent  {width} at once, {bursts} bursts: raw {statistics.median(raw_rates):6.0f}"
        f" req/s [{min(raw_rates):.0f}-{max(raw_rates):.0f}]   ours"
        f" {statistics.median(our_rates):6.0f} req/s [{min(our_rates):.0f}-{max(our_rates):.0f}]"
        f"   ratio {statistics.median(ratios):4.2f}x [{min(ratios):.2f}-{max(ratios):.2f}]",
        flush=True,
    )
    _print_burst_costs(raw_costs, our_costs)


class _BurstCost:
    """What one burst cost the process: CPU on the loop's thread and on others, and waits.

    Read from the loop's thread. ``waits`` counts that thread's voluntary context switches
    (it blocked: a lock, the GIL, a store's thread; an idle ``select`` too, which a burst
    against a loopback server in the same loop seldom has); ``None`` where the platform
    gives no per-thread counts.
    """

    __slots__ = ("loop_cpu", "other_cpu", "waits")

    def __init__(self, loop_cpu: float, other_cpu: float, waits: float | None) -> None:
        self.loop_cpu = loop_cpu
        self.other_cpu = other_cpu
        self.waits = waits

    @classmethod
    def now(cls) -> "_BurstCost":
        thread = time.thread_time()
        waits = _thread_waits()
        return cls(thread, time.process_time() - thread, waits)

    def less(self, before: "_BurstCost", searches: int) -> "_BurstCost":
        """Per search for the CPU, per burst for the waits, since ``before``."""
        waits = None if self.waits is None or before.waits is None else self.waits - before.waits
        return _BurstCost(
            (self.loop_cpu - before.loop_cpu) / searches,
            (self.other_cpu - before.other_cpu) / searches,
            waits,
        )


def _thread_waits() -> float | None:
    """The calling thread's voluntary context switches so far (Linux), else ``None``."""
    try:
        import resource  # POSIX only: imported where it is used

        return float(resource.getrusage(resource.RUSAGE_THREAD).ru_nvcsw)
    except (ImportError, AttributeError, OSError):
        return None


def _print_burst_costs(raw: list[_BurstCost], ours: list[_BurstCost]) -> None:
    """The ``concurrent cpu`` line: work a search against waiting, each side's medians."""
    ratios = [r.loop_cpu / o.loop_cpu for r, o in zip(raw, ours, strict=True)]

    def median_us(values: list[float]) -> float:
        return statistics.median(values) * 1e6

    def waits(costs: list[_BurstCost]) -> str:
        counts = [cost.waits for cost in costs if cost.waits is not None]
        return f"{statistics.median(counts):.1f}" if counts else "n/a"

    print(
        f"concurrent cpu  loop thread a search: raw {median_us([c.loop_cpu for c in raw]):4.0f} us"
        f"   ours {median_us([c.loop_cpu for c in ours]):4.0f} us (other threads"
        f" {median_us([c.other_cpu for c in ours]):.1f} us)   waits a burst: raw {waits(raw)}"
        f"   ours {waits(ours)}   ratio {statistics.median(ratios):4.2f}x"
        f" [{min(ratios):.2f}-{max(ratios):.2f}]",
        flush=True,
    )


async def bench_cache(origin: str, state_dir: Path, rounds: int, *, budget: bool = False) -> None:
    """A search that misses the result cache and writes it, against the same with none."""
    searched = itertools.count()
    label = "cache-budget" if budget else "cache"
    async with (
        WebSearch(_settings(origin, state_dir / "off", budget=budget), api_keys=KEYS) as off,
        WebSearch(
            _settings(origin, state_dir / "on", cache=True, budget=budget), api_keys=KEYS
        ) as on,
    ):

        async def without() -> object:
            return await off.search(f"{QUERY} {next(searched)}")

        async def missing() -> object:
            response = await on.search(f"{QUERY} {next(searched)}")
            assert not response.cached  # a fresh query: a miss, then a write
            return response

        times = await _every_order({"off": without, "miss": missing}, rounds)
        o1, om, o3 = _quartiles(times["off"])
        m1, mm, m3 = _quartiles(times["miss"])
        ratios = [m / o for m, o in zip(times["miss"], times["off"], strict=True)]
        r1, rm, r3 = _quartiles(ratios)
        d1, dm, d3 = _quartiles([m - o for m, o in zip(times["miss"], times["off"], strict=True)])
        print(
            f"{label:<11} off {om * 1e6:5.0f} us [{o1 * 1e6:.0f}-{o3 * 1e6:.0f}]"
            f"   on, a miss {mm * 1e6:5.0f} us [{m1 * 1e6:.0f}-{m3 * 1e6:.0f}]"
            f"   ratio {rm:5.2f}x [{r1:.2f}-{r3:.2f}]"
            f"   the miss costs {dm * 1e6:4.0f} us [{d1 * 1e6:.0f}-{d3 * 1e6:.0f}] (per pair)",
            flush=True,
        )
        await _cache_steps(on, rounds, label)


async def bench_cache_budget(origin: str, state_dir: Path, rounds: int) -> None:
    """``bench_cache`` with a budget on Brave (a synchronous reservation every search)."""
    await bench_cache(origin, state_dir, rounds, budget=True)


async def _cache_steps(ws: WebSearch, rounds: int, label: str = "cache") -> None:
    """The steps of a miss timed alone, on the client's own (open, warm) store."""
    store = await ws.state()
    response = await ws.search(QUERY)
    params = SearchParams(query=QUERY)
    scope = "brave|" + settings_scope(ws.settings) + "|"
    value = dump_response(response)
    keys = [cache_key(SearchParams(query=f"step {i}"), scope) for i in range(rounds)]

    async def timed(name: str, step: Callable[[int], Awaitable[object]]) -> None:
        samples = []
        for index in range(rounds):
            started = time.perf_counter()
            await step(index)
            samples.append(time.perf_counter() - started)
        q1, median, q3 = _quartiles(samples)
        print(f"{label} step  {name:<26} {median * 1e6:6.1f} us [{q1 * 1e6:.1f}-{q3 * 1e6:.1f}]")

    async def key(_index: int) -> object:
        return cache_key(params, scope)

    async def dump(_index: int) -> object:
        return dump_response(response)

    async def miss(index: int) -> object:
        return await store.cache_get(keys[index], time.time())

    async def write(index: int) -> None:
        await store.cache_set(keys[index], value, now=time.time(), ttl=900.0, keep_stale_for=60.0)

    async def hit(index: int) -> object:
        return await store.cache_get(keys[index], time.time())

    await timed("cache_key", key)
    await timed(f"dump_response ({len(value)} B)", dump)
    await timed("cache_get, a miss", miss)
    await timed("cache_set, a new key", write)
    await timed("cache_get, the key just set", hit)


async def bench_memory(origin: str, state_dir: Path, calls: int) -> None:
    """Traced memory after ``calls`` searches, sampled every tenth of the run: flat or not."""
    async with WebSearch(_settings(origin, state_dir), api_keys=KEYS) as ws:
        for index in range(200):
            await ws.search(f"warm up {index}")
        gc.collect()
        tracemalloc.start()
        start, _ = tracemalloc.get_traced_memory()
        marks = []
        step = max(1, calls // 10)
        for index in range(calls):
            await ws.search(f"{QUERY} {index}")
            if (index + 1) % step == 0:
                gc.collect()
                marks.append(tracemalloc.get_traced_memory()[0] - start)
        tracemalloc.stop()
    growth = ", ".join(f"{mark / 1024:.0f}" for mark in marks)
    print(f"memory      traced growth (KiB) every {step} of {calls} searches: {growth}")


_IMPORTS = {
    "langchain": (
        "import langchain_websearch",
        "from langchain_core.tools import BaseTool, StructuredTool",
    ),
    "llamaindex": (
        "import llamaindex_websearch",
        "from llama_index.core.tools import FunctionTool",
    ),
}


def _import_seconds(statement: str) -> float:
    code = f"import time; s = time.perf_counter(); {statement}; print(time.perf_counter() - s)"
    output = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    ).stdout
    return float(output.strip().splitlines()[-1])


def bench_imports(runs: int) -> None:
    """Each import in a fresh interpreter, ours and the floor alternating."""
    for name, (ours, floor) in _IMPORTS.items():
        floors: list[float] = []
        ourselves: list[float] = []
        for index in range(runs + 1):
            order = ((floor, floors), (ours, ourselves))
            for statement, times in order if index % 2 else order[::-1]:
                seconds = _import_seconds(statement)
                if index:  # the first pair warms the file cache
                    times.append(seconds)
        ratios = [o / f for o, f in zip(ourselves, floors, strict=True)]
        r1, rm, r3 = _quartiles(ratios)
        print(
            f"import {name:<10} floor {statistics.median(floors) * 1e3:5.0f} ms"
            f"   ours {statistics.median(ourselves) * 1e3:5.0f} ms"
            f"   ratio {rm:4.2f}x [{r1:.2f}-{r3:.2f}]   ({runs} runs)",
            flush=True,
        )


_BY_ROUNDS: dict[str, Callable[[str, Path, int], Awaitable[None]]] = {
    "call": bench_call,
    "langchain": bench_langchain,
    "llamaindex": bench_llamaindex,
    "tools": bench_tools,
    "adapters": bench_adapters,
    "cache": bench_cache,
    "cache-budget": bench_cache_budget,
    "exchange": bench_exchange,
}
"""The cases that take the number of rounds alone."""
_WITH_BODY: dict[str, Callable[[str, Path, int, bytes], Awaitable[None]]] = {
    "breakdown": bench_breakdown,
    "accounting": bench_accounting,
}
"""The cases that also take the capture's bytes."""


async def _bench_calls(
    names: list[str], rounds: int, spaced_rounds: int, bursts: int, memory_calls: int
) -> None:
    capture = sorted(FIXTURES.glob("*.json"))[0]
    body = capture.read_bytes()
    runner, origin = await _serve(body)
    print(f"capture {capture.name} ({capture.stat().st_size / 1024:.0f} KiB), {rounds} rounds")
    try:
        with tempfile.TemporaryDirectory() as directory:
            for name in names:
                state_dir = Path(directory) / name
                if name in _BY_ROUNDS:
                    await _BY_ROUNDS[name](origin, state_dir, rounds)
                elif name in _WITH_BODY:
                    await _WITH_BODY[name](origin, state_dir, rounds, body)
                elif name == "spaced":
                    await bench_spaced(origin, state_dir, spaced_rounds)
                elif name == "concurrent":
                    await bench_concurrent(origin, state_dir, bursts)
                elif name == "memory":
                    await bench_memory(origin, state_dir, memory_calls)
    finally:
        await runner.cleanup()


def main() -> None:
    benches = [
        "call",
        "spaced",
        "langchain",
        "llamaindex",
        "breakdown",
        "accounting",
        "exchange",
        "tools",
        "adapters",
        "concurrent",
        "cache",
        "cache-budget",
        "memory",
        "imports",
    ]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bench", nargs="*", choices=benches, default=None)
    parser.add_argument("--rounds", type=int, default=400)
    parser.add_argument("--spaced-rounds", type=int, default=100)
    parser.add_argument("--bursts", type=int, default=200)
    parser.add_argument("--memory-calls", type=int, default=10_000)
    parser.add_argument("--import-runs", type=int, default=15)
    args = parser.parse_args()
    names = args.bench or benches
    if not sorted(FIXTURES.glob("*.json")):
        print("skipped: ../shared/fixtures/brave/*.json not available")
        return
    calls = [name for name in names if name != "imports"]
    if calls:
        asyncio.run(
            _bench_calls(calls, args.rounds, args.spaced_rounds, args.bursts, args.memory_calls)
        )
    if "imports" in names:
        bench_imports(args.import_runs)


if __name__ == "__main__":
    main()
