"""What the framework adapters cost: their import, and what a tool call adds to a search.

Two questions, each answered with ratios measured in one run (no timed assertions anywhere):

* ``imports``: each statement in a fresh interpreter, the variants alternating run by run
  (rotated, so none always runs first): ``import langchain_websearch`` against the
  framework import it cannot avoid (``from langchain_core.tools import BaseTool,
  StructuredTool``), the same for LlamaIndex (``from llama_index.core.tools import
  FunctionTool``), and importing and building the tool against importing and building a
  trivial framework tool. ``--before DIR`` adds the same statements run against another
  checkout (e.g. the main branch) as a third variant, for a before/after in the same run.
* ``tools``: one round = five calls, in every order in turn, against a loopback server
  answering with a real Brave capture (``../shared/fixtures/brave``): ``raw`` (the GET +
  ``json.loads``), ``trivial`` (a trivial framework tool doing that GET and returning the
  results' text, as a tool does), ``core`` (``WebSearch.run``, what our tool calls),
  ``wrapped`` (a trivial framework tool returning ``WebSearch.run``'s text) and ``tool``
  (ours). ``tool / trivial`` is the issue's ratio; ``tool / wrapped`` is what the adapter
  alone adds (1.0: nothing beyond what the framework costs any tool doing that search);
  ``core / raw`` is the core's own share (``bench_overhead`` measures it in detail).
  LangChain runs twice: invoked with plain arguments, and with a ``ToolCall`` (what an
  agent sends; our result is then a ``ToolMessage`` carrying the structured artifact).
  ``--state memory`` puts the core and the tool on in-memory state: under load the SQLite
  store's thread hop jitters by milliseconds, hiding differences of tens of microseconds.
* ``stood-in``: the adapters without the network, so microseconds show. The client's
  ``run`` is stood in by the result one real search gave (an attribute of the client the
  tool is given), and our tool alternates call by call with a trivial framework tool
  returning that result's text (``--rounds`` x 50 pairs). The difference per pair is all
  our adapter does beyond what the framework does for any tool; ``to_metadata`` alone (the
  ``raw_output`` dict LlamaIndex's tool hands back) is timed after, call by call. Then
  LlamaIndex's own share: both LlamaIndex tools again, each also called without the
  instrumentation span LlamaIndex puts around ``acall`` (its body, ``inspect.unwrap``),
  the four in every order in turn, so the span (what every ``FunctionTool`` pays) and
  ``FunctionTool``'s body read apart from what our adapter does in its own.
* ``span``: that share in place, each call a real GET of the capture (``--rounds``
  rounds, the four in every order in turn).

Defaults as a user gets them: SQLite state in a fresh directory, result cache off::

    python benchmarks/bench_adapters.py [imports tools stood-in span] [--rounds N]
        [--import-runs N] [--before DIR] [--state sqlite|memory]
"""

import argparse
import asyncio
import inspect
import itertools
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
from bench_overhead import (
    FIXTURES,
    KEYS,
    QUERY,
    WARMUP,
    _import_seconds,
    _quartiles,
    _raw_get,
    _results_text,
    _serve,
    _settings,
)

from websearch_core import SearchParams, SearchToolResult, Settings, WebSearch

Call = Callable[[], Awaitable[object]]

_TRIVIAL_LANGCHAIN = (
    "from langchain_core.tools import StructuredTool; "
    "StructuredTool.from_function(func=lambda query: query, name='web_search', "
    "description='Search the web.')"
)
_TRIVIAL_LLAMAINDEX = (
    "from llama_index.core.tools import FunctionTool; "
    "FunctionTool.from_defaults(fn=lambda query: query, name='web_search', "
    "description='Search the web.')"
)
IMPORTS: dict[str, tuple[str, str]] = {
    "import langchain_websearch": (
        "import langchain_websearch",
        "from langchain_core.tools import BaseTool, StructuredTool",
    ),
    "import llamaindex_websearch": (
        "import llamaindex_websearch",
        "from llama_index.core.tools import FunctionTool",
    ),
    "import + WebSearchTool()": (
        "from langchain_websearch import WebSearchTool; WebSearchTool()",
        _TRIVIAL_LANGCHAIN,
    ),
    "import + create_web_search_tool()": (
        "from llamaindex_websearch import create_web_search_tool; create_web_search_tool()",
        _TRIVIAL_LLAMAINDEX,
    ),
}
"""Label to (our statement, the floor statement)."""


def _spread(samples: list[float], scale: float = 1.0) -> str:
    q1, median, q3 = _quartiles(samples)
    return f"{median * scale:7.2f} [{q1 * scale:.2f}-{q3 * scale:.2f}]"


def _on_top_seconds(floor: str, ours: str) -> tuple[float, float]:
    """The floor, then ours on top of it, in one fresh interpreter: both under one load."""
    code = (
        f"import time; s = time.perf_counter(); {floor}; m = time.perf_counter(); {ours}; "
        "e = time.perf_counter(); print(m - s, e - m)"
    )
    output = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    ).stdout
    floor_seconds, extra_seconds = output.strip().splitlines()[-1].split()
    return float(floor_seconds), float(extra_seconds)


def bench_imports(runs: int, before: Path | None) -> None:
    """Two estimates of each import's ratio to its floor, ours and before alternating.

    ``separate``: floor and ours each in its own fresh interpreter (the issue's method);
    the ratio of two processes started a second apart swings with the machine's load.
    ``on top``: the floor, then ours, in one interpreter; ``(floor + ours on top) / floor``
    needs no second process, so load hits both parts alike. Our statements load
    everything their floor does, so the two estimate the same ratio. (For the
    import-and-build rows the floor also builds a trivial tool, ~1 ms, that ours does
    not: ``on top`` overstates those ratios by about that.)
    """
    for label, (ours, floor) in IMPORTS.items():
        variants = {"floor": floor, "ours": ours}
        if before is not None:
            # The other checkout first on sys.path: its packages shadow this one's.
            variants["before"] = f"import sys; sys.path.insert(0, {str(before)!r}); {ours}"
        times: dict[str, list[float]] = {name: [] for name in variants}
        on_top: dict[str, list[float]] = {name: [] for name in variants if name != "floor"}
        names = list(variants)
        for index in range(runs + 1):
            shift = index % len(names)
            for name in names[shift:] + names[:shift]:
                seconds = _import_seconds(variants[name])
                if name != "floor":
                    base, extra = _on_top_seconds(floor, variants[name])
                if index:  # the first round warms the file cache
                    times[name].append(seconds)
                    if name != "floor":
                        on_top[name].append((base + extra) / base)
        print(f"{label}  (floor {statistics.median(times['floor']) * 1e3:.0f} ms, {runs} runs)")
        for name in names[1:]:
            ratios = [o / f for o, f in zip(times[name], times["floor"], strict=True)]
            print(
                f"  {name:<7} {statistics.median(times[name]) * 1e3:5.0f} ms"
                f"   separate {_spread(ratios)}x   on top {_spread(on_top[name])}x",
                flush=True,
            )


async def _rounds(variants: dict[str, Call], rounds: int) -> dict[str, list[float]]:
    """Every variant once per round, in every order in turn; warm-up rounds dropped.

    Every order, not one rotated (``bench_overhead._every_order`` says why): rotated, each
    variant ran after the same one nearly every round, so a body run right after its own
    ``acall`` (or ``wrapped`` after ``core``) found that path warm. Stood in, LlamaIndex's
    span on the trivial tool read 20 us either way; in place it read 91 us rotated and
    63 us in every order (3,000 rounds each, load 4-5).
    """
    names = list(variants)
    orders = list(itertools.permutations(names))
    times: dict[str, list[float]] = {name: [] for name in names}
    for index in range(WARMUP + rounds):
        for name in orders[index % len(orders)]:
            started = time.perf_counter()
            await variants[name]()
            elapsed = time.perf_counter() - started
            if index >= WARMUP:
                times[name].append(elapsed)
    return times


def _user_settings(origin: str, state_dir: Path, state: str) -> Settings:
    """bench_overhead's settings (SQLite state, cache off), or the same on in-memory state."""
    settings = _settings(origin, state_dir)
    if state == "memory":
        settings = settings.model_copy(update={"state_backend": "memory"})
    return settings


def _report(label: str, times: dict[str, list[float]]) -> None:
    """Medians with IQRs, and each ratio as the median (IQR) of its per-round ratios."""
    print(f"{label}", flush=True)
    for name, samples in times.items():
        print(f"  {name:<8} {_spread(samples, 1e3)} ms")
    for text, ours, base in (
        ("tool / trivial (the issue's ratio)", "tool", "trivial"),
        ("tool / wrapped (the adapter alone)", "tool", "wrapped"),
        ("core / raw (WebSearch.run)", "core", "raw"),
    ):
        ratios = [o / b for o, b in zip(times[ours], times[base], strict=True)]
        print(f"  {text:<36} {_spread(ratios)}x")
    framework = statistics.median(times["trivial"]) - statistics.median(times["raw"])
    print(f"  trivial - raw (the framework)        {framework * 1e6:7.0f} us", flush=True)


def _returning_text(search: Callable[[str], Awaitable[Any]]) -> Callable[[str], Awaitable[str]]:
    """``search`` as a tool does it: the model gets text, not the decoded JSON.

    The raw GET's JSON becomes the trivial tool's text of ``bench_overhead`` (each result's
    title, URL and description). Returning the decoded JSON itself would make the framework
    stringify 44 KiB on every call (LangChain into a tool call's ``ToolMessage``,
    LlamaIndex into every output's text block), a cost no real tool has and one that would
    flatter our ratio; returning the result count (until stop 43) was less than any real
    tool does, which overstated our ratio.
    """

    async def text(query: str) -> str:
        result = await search(query)
        if isinstance(result, SearchToolResult):
            return result.text
        return _results_text(result.get("web", {}).get("results", ()))

    return text


def _variants(
    raw: Callable[[str], Awaitable[Any]],
    core: WebSearch,
    trivial: Callable[[], Awaitable[object]],
    wrapped: Callable[[], Awaitable[object]],
    tool: Callable[[], Awaitable[object]],
) -> dict[str, Call]:
    """The five calls of a round; ``trivial`` and ``wrapped`` are framework tools over
    ``raw`` and over ``core.run``: the adapter alone is ``tool / wrapped``."""
    params = SearchParams(query=QUERY)
    return {
        "raw": lambda: raw(QUERY),
        "trivial": trivial,
        "core": lambda: core.run(params),
        "wrapped": wrapped,
        "tool": tool,
    }


def _core_search(core: WebSearch) -> Callable[[str], Awaitable[SearchToolResult]]:
    async def search(query: str) -> SearchToolResult:
        return await core.run(SearchParams(query=query))

    return search


async def bench_langchain(origin: str, state_dir: Path, rounds: int, state: str) -> None:
    from langchain_core.tools import StructuredTool

    from langchain_websearch import WebSearchTool

    def framework_tool(search: Callable[[str], Awaitable[Any]]) -> StructuredTool:
        return StructuredTool.from_function(
            coroutine=_returning_text(search), name="web_search", description="Search the web."
        )

    settings = _user_settings(origin, state_dir / "core", state)
    async with aiohttp.ClientSession() as session, WebSearch(settings, api_keys=KEYS) as core:
        raw = _raw_get(session, origin)
        trivial, wrapped = framework_tool(raw), framework_tool(_core_search(core))
        settings = _user_settings(origin, state_dir / "tool", state)
        async with WebSearchTool(settings=settings, api_keys=KEYS) as tool:
            for label, call in (
                ("plain arguments", {"query": QUERY}),
                ("ToolCall", _tool_call({"query": QUERY})),
            ):
                variants = _variants(
                    raw,
                    core,
                    lambda call=call: trivial.ainvoke(call),  # type: ignore[misc]
                    lambda call=call: wrapped.ainvoke(call),  # type: ignore[misc]
                    lambda call=call: tool.ainvoke(call),  # type: ignore[misc]
                )
                _report(f"langchain ainvoke, {label}", await _rounds(variants, rounds))


def _tool_call(args: dict[str, Any]) -> dict[str, Any]:
    return {"args": args, "id": "call_1", "name": "web_search", "type": "tool_call"}


async def bench_llamaindex(origin: str, state_dir: Path, rounds: int, state: str) -> None:
    from llama_index.core.tools import FunctionTool

    from llamaindex_websearch import create_web_search_tool

    def framework_tool(search: Callable[[str], Awaitable[Any]]) -> FunctionTool:
        return FunctionTool.from_defaults(
            async_fn=_returning_text(search), name="web_search", description="Search the web."
        )

    settings = _user_settings(origin, state_dir / "core", state)
    async with aiohttp.ClientSession() as session, WebSearch(settings, api_keys=KEYS) as core:
        raw = _raw_get(session, origin)
        trivial, wrapped = framework_tool(raw), framework_tool(_core_search(core))
        settings = _user_settings(origin, state_dir / "tool", state)
        async with create_web_search_tool(settings=settings, api_keys=KEYS) as tool:
            variants = _variants(
                raw,
                core,
                lambda: trivial.acall(query=QUERY),
                lambda: wrapped.acall(query=QUERY),
                lambda: tool.acall(query=QUERY),
            )
            _report("llamaindex acall", await _rounds(variants, rounds))


async def bench_span(rounds: int) -> None:
    """LlamaIndex's own share in place: each tool with and without its span, real GETs.

    Stood in, the span and ``FunctionTool``'s body cost microseconds; around a real search
    (the loopback server, aiohttp and the parse between two calls) every layer costs
    several times its stood-in figure, so the span is read here too, as the issue's ratio
    meets it. Ours runs on the defaults (SQLite state, cache off), the trivial tool on
    ``bench_overhead``'s GET and text.
    """
    from llama_index.core.tools import FunctionTool

    from llamaindex_websearch import create_web_search_tool

    capture = sorted(FIXTURES.glob("*.json"))[0]
    runner, origin = await _serve(capture.read_bytes())
    print(f"capture {capture.name}, in place, {rounds} rounds")
    try:
        with tempfile.TemporaryDirectory() as directory:
            settings = _user_settings(origin, Path(directory), "sqlite")
            async with (
                aiohttp.ClientSession() as session,
                create_web_search_tool(settings=settings, api_keys=KEYS) as tool,
            ):
                trivial = FunctionTool.from_defaults(
                    async_fn=_returning_text(_raw_get(session, origin)),
                    name="web_search",
                    description="Search the web.",
                )
                await _llamaindex_share("llamaindex in place", trivial, tool, rounds)
    finally:
        await runner.cleanup()


async def bench_tools(rounds: int, state: str) -> None:
    capture = sorted(FIXTURES.glob("*.json"))[0]
    runner, origin = await _serve(capture.read_bytes())
    size = capture.stat().st_size / 1024
    print(f"capture {capture.name} ({size:.0f} KiB), {rounds} rounds, {state} state")
    try:
        with tempfile.TemporaryDirectory() as directory:
            await bench_langchain(origin, Path(directory) / "langchain", rounds, state)
            await bench_llamaindex(origin, Path(directory) / "llamaindex", rounds, state)
    finally:
        await runner.cleanup()


async def _stood_in_pairs(label: str, trivial: Call, tool: Call, pairs: int) -> None:
    """``tool`` and ``trivial`` alternating call by call; medians and the difference per pair."""
    times: dict[str, list[float]] = {"trivial": [], "tool": []}
    for index in range(WARMUP * 10 + pairs):
        order = (("trivial", trivial), ("tool", tool))
        for name, call in order if index % 2 else order[::-1]:
            started = time.perf_counter()
            await call()
            if index >= WARMUP * 10:
                times[name].append(time.perf_counter() - started)
    difference = [o - t for o, t in zip(times["tool"], times["trivial"], strict=True)]
    print(
        f"  {label:<28} trivial {_spread(times['trivial'], 1e6)} us"
        f"   ours {_spread(times['tool'], 1e6)} us   ours - trivial {_spread(difference, 1e6)} us",
        flush=True,
    )


async def bench_stood_in(rounds: int) -> None:
    """Each adapter against its framework's trivial tool, the search stood in by its result."""
    from langchain_core.tools import StructuredTool
    from llama_index.core.tools import FunctionTool

    from langchain_websearch import WebSearchTool
    from llamaindex_websearch import create_web_search_tool

    capture = sorted(FIXTURES.glob("*.json"))[0]
    runner, origin = await _serve(capture.read_bytes())
    pairs = rounds * 50
    print(f"capture {capture.name}, the search stood in by its result, {pairs} pairs")
    try:
        with tempfile.TemporaryDirectory() as directory:
            settings = _user_settings(origin, Path(directory), "sqlite")
            async with WebSearch(settings, api_keys=KEYS) as core:
                result = await core.run(SearchParams(query=QUERY))

                async def stood_in(*_args: object, **_kwargs: object) -> SearchToolResult:
                    return result

                async def text(query: str) -> str:
                    return result.text

                core.run = stood_in  # type: ignore[assignment]
                lc_trivial = StructuredTool.from_function(
                    coroutine=text, name="web_search", description="Search the web."
                )
                li_trivial = FunctionTool.from_defaults(
                    async_fn=text, name="web_search", description="Search the web."
                )
                lc_tool = WebSearchTool(web_search=core)
                li_tool = create_web_search_tool(web_search=core)
                args = {"query": QUERY}
                assert await lc_tool.ainvoke(args) == await lc_trivial.ainvoke(args)
                li_ours, li_floor = (
                    await li_tool.acall(query=QUERY),
                    await li_trivial.acall(query=QUERY),
                )
                assert li_ours.content == li_floor.content
                await _stood_in_pairs(
                    "langchain ainvoke",
                    lambda: lc_trivial.ainvoke(args),
                    lambda: lc_tool.ainvoke(args),
                    pairs,
                )
                await _stood_in_pairs(
                    "llamaindex acall",
                    lambda: li_trivial.acall(query=QUERY),
                    lambda: li_tool.acall(query=QUERY),
                    pairs,
                )
                await _llamaindex_share("llamaindex's own share", li_trivial, li_tool, pairs)
        # Call by call, as the pairs are timed: a best of 7 x 2,000 in a row read anywhere
        # from 8 to 25 us as the machine's load moved (stop 52), call by call 8.3 us.
        dumps = []
        for _ in range(pairs):
            started = time.perf_counter()
            result.to_metadata()
            dumps.append(time.perf_counter() - started)
        print(f"  {'to_metadata() alone':<28} {_spread(dumps, 1e6)} us", flush=True)
    finally:
        await runner.cleanup()


async def _llamaindex_share(label: str, trivial: Any, tool: Any, rounds: int) -> None:
    """What LlamaIndex itself costs each tool, apart from what our adapter does.

    ``acall`` of every ``FunctionTool`` (and of every subclass's override) runs inside a
    span of LlamaIndex's instrumentation: the method's signature read and bound, a
    ``uuid4`` id, the handlers told on entry and exit. Without it (``inspect.unwrap``
    reaches the body under the span, and under our naming of an unawaited call), what is
    left is ``FunctionTool``'s body (the output object and its text block) and, for ours,
    the adapter's own work. Per round: ``acall`` minus its body is the span (for ours, the
    span and the naming); ours' body minus the trivial's is our adapter alone when the
    search is stood in, and the search's excess over the GET with it in place.
    """
    from llama_index.core.tools import FunctionTool

    trivial_body = inspect.unwrap(FunctionTool.acall)
    our_body = inspect.unwrap(type(tool).acall)
    times = await _rounds(
        {
            "trivial acall": lambda: trivial.acall(query=QUERY),
            "trivial body": lambda: trivial_body(trivial, query=QUERY),
            "ours acall": lambda: tool.acall(query=QUERY),
            "ours body": lambda: our_body(tool, query=QUERY),
        },
        rounds,
    )
    print(f"  {label} (4 variants in every order, per round)", flush=True)
    for name, samples in times.items():
        print(f"    {name:<40} {_spread(samples, 1e6)} us")
    for text, minuend, subtrahend in (
        ("span, trivial tool (acall - body)", "trivial acall", "trivial body"),
        ("span and naming, ours (acall - body)", "ours acall", "ours body"),
        ("ours body - trivial body", "ours body", "trivial body"),
    ):
        differences = [m - s for m, s in zip(times[minuend], times[subtrahend], strict=True)]
        print(f"    {text:<40} {_spread(differences, 1e6)} us", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "bench", nargs="*", choices=["imports", "tools", "stood-in", "span"], default=None
    )
    parser.add_argument("--rounds", type=int, default=400)
    parser.add_argument("--import-runs", type=int, default=15)
    parser.add_argument("--before", type=Path, default=None, help="another checkout to compare")
    parser.add_argument("--state", choices=["sqlite", "memory"], default="sqlite")
    args = parser.parse_args()
    names = args.bench or ["tools", "imports"]
    if not sorted(FIXTURES.glob("*.json")):
        print("skipped: ../shared/fixtures/brave/*.json not available")
        return
    print(f"python {sys.version.split()[0]}")
    if "tools" in names:
        asyncio.run(bench_tools(args.rounds, args.state))
    if "stood-in" in names:
        asyncio.run(bench_stood_in(args.rounds))
    if "span" in names:
        asyncio.run(bench_span(args.rounds))
    if "imports" in names:
        bench_imports(args.import_runs, args.before)


if __name__ == "__main__":
    main()
