"""What a search waiting for its answer keeps alive: nothing made for nothing.

With 200 searches in flight, every object one of them holds across its request is one
more the garbage collector counts towards its next collection and walks in it
(``benchmarks/bench_held_objects.py``: about a microsecond a search for each). These look
into searches held at an endpoint that never answers, through the coroutines the search's
task is suspended in: their frames hold no bound method of the provider, no loop
iterator, no closure cell, no spent context token and no empty list kept for a failure
that has not happened, and the searches of one client share its mark-scope reader rather
than each building one.
"""

from __future__ import annotations

import asyncio
import gc
import types
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from contextvars import Token

import pytest

from tests.functional._sim_helpers import sim_client, simulator_fixture
from websearch_core import WebSearch
from websearch_core.providers.base import SearchProvider
from websearch_core.testing import Fault, Simulator

sim = simulator_fixture("brave")

TURNS = 500
"""Loop turns (10 ms apart) a search gets to reach the simulator: a count, not a timing."""


def _frames(task: asyncio.Task[object]) -> dict[str, types.CoroutineType[object, object, object]]:
    """The coroutines ``task`` is suspended in, outermost first, by qualified name.

    The task runs the :class:`~websearch_core.pending_call.PendingCall` the client hands
    out, which gives the ``cr_`` attributes of the method's coroutine it drives: the walk
    starts at what that coroutine awaits.
    """
    frames: dict[str, types.CoroutineType[object, object, object]] = {}
    awaited: object = task.get_coro()
    if not isinstance(awaited, types.CoroutineType):
        awaited = getattr(awaited, "cr_await", None)
    while isinstance(awaited, types.CoroutineType):
        frames[awaited.cr_code.co_qualname] = awaited
        awaited = awaited.cr_await
    return frames


@asynccontextmanager
async def _held(
    sim: Simulator, ws: WebSearch, query: str
) -> AsyncIterator[dict[str, types.CoroutineType[object, object, object]]]:
    """A search of ``query`` whose request the simulator holds: its coroutines, then cancelled."""
    sent = len(sim["brave"].requests)
    task = asyncio.ensure_future(ws.search(query, provider="brave", use_cache=False))
    for _ in range(TURNS):
        if len(sim["brave"].requests) > sent:
            break
        await asyncio.sleep(0.01)
    else:
        pytest.fail("the search never reached the simulator")
    try:
        yield _frames(task)
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task


def _ours(
    frames: dict[str, types.CoroutineType[object, object, object]],
) -> dict[str, list[object]]:
    """What each of the package's suspended frames holds (its locals and its value stack)."""
    return {
        name: gc.get_referents(coroutine)
        for name, coroutine in frames.items()
        if "websearch_core" in coroutine.cr_code.co_filename
    }


async def test_a_search_in_flight_holds_no_bound_method_of_its_provider(sim: Simulator) -> None:
    sim["brave"].always(Fault.hang())
    async with sim_client(sim) as ws, _held(sim, ws, "bound methods") as frames:
        held = _ours(frames)
        assert {"answer_attempt", "run_protocol"} <= held.keys()
        bound = {
            name: [ref.__func__.__name__ for ref in refs if isinstance(ref, types.MethodType)]
            for name, refs in held.items()
        }
        providers = {
            name: [
                ref.__func__.__name__
                for ref in refs
                if isinstance(ref, types.MethodType) and isinstance(ref.__self__, SearchProvider)
            ]
            for name, refs in held.items()
        }
        assert all(not methods for methods in providers.values()), bound


async def test_the_chain_holds_no_iterator_cell_or_spent_token_across_a_turn(
    sim: Simulator,
) -> None:
    sim["brave"].always(Fault.hang())
    async with sim_client(sim) as ws, _held(sim, ws, "the turn") as frames:
        held = _ours(frames)
        turn, attempt = held["ChainRunner._in_turn"], held["ChainRunner._try"]
        kinds = {type(ref).__name__ for ref in turn}
        assert not kinds & {"enumerate", "list_iterator", "cell"}, kinds
        # The reservation's store bound is left before the request; its token is spent.
        assert not [ref for ref in attempt if isinstance(ref, Token)]


async def test_searches_of_a_client_share_its_mark_scope_reader(sim: Simulator) -> None:
    sim["brave"].always(Fault.hang())
    async with sim_client(sim) as ws:
        readers, runners = [], []
        for query in ("first", "second"):
            async with _held(sim, ws, query) as frames:
                runner = frames["ChainRunner._try"].cr_frame.f_locals["self"]
                runners.append(runner)
                readers.append(runner.ledger.scope_of)
        assert runners[0] is not runners[1]  # each search its own ledger and counts
        assert readers[0] is readers[1]
        assert readers[0] is not None and readers[0]("brave") is not None


async def test_the_chain_holds_no_empty_list_for_failures_a_search_has_not_had(
    sim: Simulator,
) -> None:
    """No list for a host not found, nor for providers held back, until one is put in it.

    Each was an empty list every search made and held across its request, for the
    collector to walk at every collection while 200 were in flight.
    """
    sim["brave"].always(Fault.hang())
    async with sim_client(sim) as ws, _held(sim, ws, "no failure yet") as frames:
        held = _ours(frames)
        chain = [name for name in held if name.startswith("ChainRunner.")]
        assert {"ChainRunner.run", "ChainRunner._in_turn", "ChainRunner._try"} <= set(chain)
        empty = {name: [ref for ref in held[name] if ref == []] for name in chain}
        assert not any(empty.values()), empty
        call = frames["ChainRunner._try"].cr_frame.f_locals["call"]
        assert (call.unresolved, call.held) == (None, None)
