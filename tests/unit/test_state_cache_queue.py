"""A result-cache call queued behind this process's busy store calls waits its own bound only.

What must hold: the cache lookup before a search is sent, and the write after its answer,
are an optimisation. Queued on the SQLite store's thread behind calls the thread keeps
answering, each used to wait for its turn until the search's deadline (stop 47 made a
busy queue wait so, as reservations must). Now each ends at its own bound (the search's
store share) as busy: the lookup is a miss, the write is left to land in its turn, and
the fail-safe store is not bypassed. A reservation still waits its turn: it decides
whether a request is sent.

Driven by events, as ``test_state_busy_queue.py``: the calls ahead are held on the
store's thread until the test lets each go, and the queued call's looks at the store are
seen as its wait starting anew; no assertion reads the clock. The test holds the store's
inline connection, as another thread using it would, so that the lookup queues.
"""

import asyncio
import contextlib
import functools
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.store_threads import held_call, hold_calls, next_look
from websearch_core.deadline import (
    Deadline,
    OptionalStoreWaits,
    StoreWaitsWithin,
    enter_call,
    leave_call,
)
from websearch_core.state import SQLiteStore, StateStoreTimeoutError, UsageWindow
from websearch_core.state.failsafe import FailSafeStore

PATIENCE = 0.5
"""The cache call's share of the store (a search's is 0.25-1 s)."""

_KEY = "k" * 64
_MONTH = "month:test"


def _after_the_queue(conn: object) -> None:
    """A call that runs once every call queued before it has run."""


@contextlib.contextmanager
def _in_a_search() -> Iterator[None]:
    """A search's store bound around the block: 60 s deadline, ``PATIENCE`` for the store."""
    search = enter_call(Deadline(60.0))
    try:
        with StoreWaitsWithin(PATIENCE):
            yield
    finally:
        leave_call(search)


@contextlib.contextmanager
def _inline_in_use(store: SQLiteStore) -> Iterator[None]:
    """The inline connection held, as by another thread: every call queues on the thread."""
    store._inline_lock.acquire()
    try:
        yield
    finally:
        store._inline_lock.release()


async def _opened_store(tmp_path: Path) -> SQLiteStore:
    store = SQLiteStore(tmp_path / "state.sqlite3")
    await store.increment_usage("brave", _MONTH, time.time() + 600)  # opened, one count
    assert await store.get_usage("brave", _MONTH) == 1
    return store


async def _busy_then_ended(store: SQLiteStore, call: "asyncio.Task[object]", gate: object) -> None:
    """Let the first call ahead go before ``call``'s first look; ``call`` must end there.

    Before the change the call saw the thread answer, and waited on (a next look).
    """
    scope = await next_look(store, call, None)
    assert scope is not None
    gate.set()  # the thread answers: busy, not silent
    assert await next_look(store, call, scope) is None, "waited on past its own bound"


async def test_a_cache_lookup_queued_behind_busy_calls_is_a_miss_at_its_bound(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Failed before: the lookup looked again and again while the queue was answered."""
    store = await _opened_store(tmp_path)
    safe = FailSafeStore(store)
    with _inline_in_use(store):
        gates, held = await hold_calls(store, 2)
        with _in_a_search():  # the fail-safe store makes its lookup optional
            lookup = asyncio.create_task(safe.cache_get(_KEY, time.time()))
        with caplog.at_level("DEBUG", logger="websearch_core.state"):
            await _busy_then_ended(store, lookup, gates[0])
            assert await lookup is None  # a miss: the search asks its providers
    assert not safe.degraded
    assert store.known_silent() is None
    said = [record for record in caplog.records if "busy" in record.getMessage()]
    assert said and all(record.levelname == "DEBUG" for record in said)
    assert "(busy, not stuck)" in said[0].getMessage()
    gates[1].set()
    await asyncio.gather(*held)
    await store.aclose()


async def test_a_cache_write_queued_behind_busy_calls_does_not_hold_the_answer(
    tmp_path: Path,
) -> None:
    """Failed before: the write held the search's ready answer while the queue drained."""
    store = await _opened_store(tmp_path)
    safe = FailSafeStore(store)
    with _inline_in_use(store):
        gates, held = await hold_calls(store, 2)
        with _in_a_search():
            write = asyncio.create_task(
                safe.cache_set_deferred(
                    _KEY, lambda: b"answer", now=time.time(), ttl=600.0, keep_stale_for=0.0
                )
            )
        await _busy_then_ended(store, write, gates[0])
        await write
    assert not safe.degraded
    gates[1].set()
    await asyncio.gather(*held)
    await store._run(_after_the_queue)  # first come, first served: the write ran before
    entry = await safe.cache_get(_KEY, time.time())  # the write landed in its turn
    assert entry is not None and entry.value == b"answer"
    await store.aclose()


async def test_a_cache_call_whose_turn_came_late_in_its_bound_ends_busy_not_given_up(
    tmp_path: Path,
) -> None:
    """Failed before: a turn late in the share ran past it, and the store was given up on.

    The call, held on the thread once its turn comes, stands for a lookup that takes a
    while there; it ends at its bound either still queued or just begun: busy both ways.
    """
    store = await _opened_store(tmp_path)
    gates, held = await hold_calls(store, 1)
    own = threading.Event()
    with _in_a_search(), OptionalStoreWaits():
        call = asyncio.create_task(store._run(functools.partial(held_call, own)))
    scope = await next_look(store, call, None)
    assert scope is not None
    gates[0].set()  # the call's turn comes within its share
    with pytest.raises(StateStoreTimeoutError) as caught:
        await call
    assert caught.value.busy, str(caught.value)
    assert "(busy, not stuck)" in str(caught.value)
    assert store.known_silent() is None
    own.set()
    await asyncio.gather(*held)
    await store.aclose()


async def test_a_reservation_queued_behind_busy_calls_still_waits_its_turn(
    tmp_path: Path,
) -> None:
    """A guard (it held before): a reservation decides whether to send; it is waited for."""
    store = await _opened_store(tmp_path)
    safe = FailSafeStore(store)
    window = UsageWindow(period=_MONTH, limit=30, expires_at=time.time() + 600)
    with _inline_in_use(store):
        gates, held = await hold_calls(store, 3)
        with _in_a_search():
            reserve = asyncio.create_task(safe.reserve_usage("brave", [window]))
        scope = await next_look(store, reserve, None)
        gates[0].set()
        for gate in gates[1:]:
            scope = await next_look(store, reserve, scope)
            assert scope is not None, "the reservation stopped waiting while the store answered"
            gate.set()  # one answer per look: busy all the while
        grant = await reserve
    await asyncio.gather(*held)
    assert grant.granted and not grant.unchecked
    assert not safe.degraded
    assert await store.get_usage("brave", _MONTH) == 2
    await store.aclose()
