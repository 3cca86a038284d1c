"""What a search parameter with bounds costs to validate: ``limit`` given against none.

Stop 58 (firstusers25) worded a number past its bounds (``limit: must be at least 1 and at
most 100 results``) through a ``mode="wrap"`` validator on each bounded field, which every
call that passed ``limit`` paid on success (about 2 us on ``SearchParams``, twice on a tool
call: the tool's arguments, then ``SearchParams``). Stop 58 (ranges) words it where the
model's refusal is already caught, so only a refused call pays. This times, in one process,
building ``SearchParams`` with a query alone (the baseline, which no bounded field's
validator touches), with ``limit=5`` too, and the LangChain tool's argument model
validating ``{"query": ..., "limit": 5}``; the three alternate within each round, the
first one rotating. Each round gives a ratio against the baseline; it prints the medians
per build, each ratio's median and range, and the machine's load before and after::

    python benchmarks/bench_param_ranges.py [--builds N] [--rounds N]

Run it on two trees with ``ab_compare.py`` (``--base <firstusers25's commit> --
bench_param_ranges.py``) to compare the two ways, each run in a fresh interpreter.
"""

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from langchain_websearch.tool import WebSearchInput
from websearch_core import SearchParams

Build = Callable[[], object]
"""One validation, whose result is dropped."""


def _query_alone() -> object:
    return SearchParams(query="python asyncio")


def _with_limit() -> object:
    return SearchParams(query="python asyncio", limit=5)


_TOOL_ARGUMENTS = {"query": "python asyncio", "limit": 5}


def _tool_arguments() -> object:
    return WebSearchInput.model_validate(_TOOL_ARGUMENTS)


SIDES: dict[str, Build] = {
    "query alone": _query_alone,
    "params limit": _with_limit,
    "tool args limit": _tool_arguments,
}
"""The baseline first, then what is compared against it."""


def _per_build(build: Build, builds: int) -> float:
    """Microseconds per call of ``build`` over ``builds`` calls."""
    started = time.perf_counter()
    for _ in range(builds):
        build()
    return (time.perf_counter() - started) / builds * 1e6


def _load() -> str:
    """The machine's 1-minute load, as ``/proc/loadavg`` gives it (other helpers run too)."""
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--builds", type=int, default=20_000, help="calls per side a round")
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    load_before = _load()
    names = list(SIDES)
    for build in SIDES.values():  # warm: first-call costs out of the rounds
        _per_build(build, 1000)
    times: dict[str, list[float]] = {name: [] for name in names}
    for round_index in range(args.rounds):
        shift = round_index % len(names)
        for name in names[shift:] + names[:shift]:
            times[name].append(_per_build(SIDES[name], args.builds))
    baseline = times[names[0]]
    print(f"load {load_before} before, {_load()} after (1-minute /proc/loadavg)")
    for name in names:
        print(f"{name:<16} median {statistics.median(times[name]):.2f} us a build")
    for name in names[1:]:
        ratios = [mine / base for mine, base in zip(times[name], baseline, strict=True)]
        print(
            f"{name} / query alone ratio {statistics.median(ratios):.3f}x "
            f"[{min(ratios):.3f}-{max(ratios):.3f}]"
        )


if __name__ == "__main__":
    main()
