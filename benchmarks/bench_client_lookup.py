"""What an adapter's call pays to reach its built client: the first call's lookup against ours.

Until stops 56 (speed60, speed61) every call of a tool, retriever or fetch tool built the
:class:`~websearch_core.build_deadline.BuildBound` only a first call's build reads, and
handed it to ``LoopBoundClient.for_running_loop`` (a coroutine, the lock, two lookups) or
``LoopBoundClient.get`` (the lock). Now a call whose client is built reads it first
(``built_for_running_loop``, ``built``). This times both expressions in one process, on the
adapters' own objects with their client built, ``--lookups`` a side per round, the side that
goes first alternating over ``--rounds``; it prints each side's median per lookup and the
paired difference's median and range, with the machine's load before and after::

    python benchmarks/bench_client_lookup.py [--lookups N] [--rounds N]

The adapters' private lookups are read as their calls read them: a change there should
change this script with them.
"""

import argparse
import asyncio
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import langchain_websearch as lc
import llamaindex_websearch as li
from websearch_core.build_deadline import BuildBound
from websearch_core.client import LoopBoundClient, WebSearch

KEYS = {"brave": "bench-key-0123456789abcdef"}
"""A key shaped as Brave's, so that building the client checks nothing into a warning."""

Lookup = Callable[[], Any]
"""One lookup: the client, or (on a loop) a coroutine that gives it; the client is dropped."""


@dataclass(frozen=True)
class AdapterPath:
    """One adapter path: its set of clients, how it builds one, and the two lookups."""

    name: str
    clients: LoopBoundClient
    build: Callable[[], WebSearch]
    first_calls: Lookup
    """The lookup as every call made it: the bound built, then ``for_running_loop``/``get``."""
    ours: Lookup
    """The lookup as a call after the first makes it now."""


def loop_paths() -> list[AdapterPath]:
    """The four paths on a loop that stop 56 (speed61) changed (speed60's tools are alike)."""
    retriever = lc.WebSearchRetriever(api_keys=KEYS)
    fetch = lc.WebFetchTool(timeout_seconds=5)
    li_retriever = li.WebSearchRetriever(api_keys=KEYS)
    config = li_retriever._config
    li_fetch = li.create_web_fetch_tool(timeout_seconds=5)._fetcher
    assert li_fetch is not None, "the LlamaIndex fetch tool keeps its fetcher in _fetcher"

    def of(
        name: str,
        clients: LoopBoundClient,
        build: Callable[[], WebSearch],
        bound: Callable[[], BuildBound],
    ) -> AdapterPath:
        async def first_calls() -> object:
            return await clients.for_running_loop(build, bound())

        async def ours() -> object:
            return clients.built_for_running_loop() or await clients.for_running_loop(
                build, bound()
            )

        return AdapterPath(name, clients, build, first_calls, ours)

    return [
        of("LangChain retriever", retriever._own_clients(), retriever.new_client,
           retriever.build_bound),
        of("LangChain fetch", fetch._own_clients(), fetch.new_client, fetch.fetch_build_bound),
        of("LlamaIndex retriever", li_retriever._clients, config.new_client,
           config.build_bound),
        of("LlamaIndex fetch", li_fetch.clients, li_fetch._new_client, li_fetch._bound),
    ]  # fmt: skip


def sync_paths() -> list[AdapterPath]:
    """Two of the six synchronous paths (the others run the same ``get`` expression)."""
    tool = lc.WebSearchTool(api_keys=KEYS)
    spec = li.WebSearchToolSpec(api_keys=KEYS)

    def of(
        name: str,
        clients: LoopBoundClient,
        build: Callable[[], WebSearch],
        bound: Callable[[], BuildBound],
    ) -> AdapterPath:
        return AdapterPath(
            name,
            clients,
            build,
            lambda: clients.get(build, bound()),
            lambda: clients.built() or clients.get(build, bound()),
        )

    return [
        of("LangChain tool, sync", tool._own_clients(), tool.new_client, tool.build_bound),
        of(
            "LlamaIndex tool, sync",
            spec._clients,
            spec._new_client,
            lambda: BuildBound(spec._kwargs.get("settings"), spec._kwargs),
        ),
    ]


async def timed_on_loop(lookup: Lookup, lookups: int) -> float:
    """Microseconds per awaited lookup."""
    start = time.perf_counter()
    for _ in range(lookups):
        await lookup()
    return (time.perf_counter() - start) / lookups * 1e6


def timed(lookup: Lookup, lookups: int) -> float:
    """Microseconds per synchronous lookup."""
    start = time.perf_counter()
    for _ in range(lookups):
        lookup()
    return (time.perf_counter() - start) / lookups * 1e6


def report(name: str, pairs: list[tuple[float, float]]) -> None:
    """Print one path's medians and the paired difference (ours minus every call's bound)."""
    differences = sorted(ours - first for first, ours in pairs)
    print(
        f"{name:26s} bound every call {statistics.median(p[0] for p in pairs):6.2f} us  "
        f"built first {statistics.median(p[1] for p in pairs):6.2f} us  "
        f"difference {statistics.median(differences):+6.2f} us "
        f"[{differences[0]:+.2f}..{differences[-1]:+.2f}]",
        flush=True,
    )


async def on_loop(path: AdapterPath, lookups: int, rounds: int) -> list[tuple[float, float]]:
    """Both lookups of ``path`` on this loop, interleaved; its client built first."""
    await path.clients.for_running_loop(path.build)
    pairs = []
    for round_ in range(rounds):
        if round_ % 2 == 0:
            first = await timed_on_loop(path.first_calls, lookups)
            ours = await timed_on_loop(path.ours, lookups)
        else:
            ours = await timed_on_loop(path.ours, lookups)
            first = await timed_on_loop(path.first_calls, lookups)
        pairs.append((first, ours))
    await path.clients.aclose()
    return pairs


def synchronous(path: AdapterPath, lookups: int, rounds: int) -> list[tuple[float, float]]:
    """Both lookups of ``path``, interleaved; its client built first."""
    path.clients.get(path.build)
    pairs = []
    for round_ in range(rounds):
        if round_ % 2 == 0:
            first = timed(path.first_calls, lookups)
            ours = timed(path.ours, lookups)
        else:
            ours = timed(path.ours, lookups)
            first = timed(path.first_calls, lookups)
        pairs.append((first, ours))
    return pairs


def load() -> str:
    """The machine's load averages: other work on it moves every figure."""
    with open("/proc/loadavg", encoding="ascii") as file:
        return " ".join(file.read().split()[:3])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lookups", type=int, default=20_000, help="lookups a side a round")
    parser.add_argument("--rounds", type=int, default=9, help="pairs, order alternating")
    args = parser.parse_args()
    print(f"load {load()}; {args.lookups} lookups a side, {args.rounds} rounds", flush=True)
    for path in loop_paths():
        report(f"{path.name}, loop", asyncio.run(on_loop(path, args.lookups, args.rounds)))
    for path in sync_paths():
        report(path.name, synchronous(path, args.lookups, args.rounds))
    print(f"load {load()}", flush=True)


if __name__ == "__main__":
    main()
