"""With several threads (Redis's 4), a queued call waits on their one queue, not on a thread.

What must hold: the threads of a store's pool take calls from one queue, first come first
served (:class:`~websearch_core.state._workers.DaemonPool`). A call not begun yet sits
behind that queue, not behind any one thread: the progress it waits for is the queue's,
whichever thread makes it. So a thread stuck on one call holds only that call, and a
call queued meanwhile has its turn on another thread and is answered; when every thread
is stuck, nothing moves and the queued call is given up within its share, as with one
thread. Both are guards: they held before this branch (stop 47 guessed the first did not).

The Redis store runs here on a client that never connects: the calls are the test's own,
held on the store's threads by events until the test lets each go; no assertion reads the
clock, and no server is needed.
"""

import asyncio
from collections.abc import Iterator

import pytest
import redis

from tests.store_threads import hold_calls, next_look
from websearch_core.deadline import Deadline, StoreWaitsWithin, enter_call, leave_call
from websearch_core.state import StateStoreTimeoutError
from websearch_core.state.redis import RedisStore

PATIENCE = 0.5
"""The queued call's share of the store."""


def _answer(client: object) -> str:
    """The queued call: answered as soon as a thread takes it."""
    return "answered"


@pytest.fixture
def store() -> Iterator[RedisStore]:
    """A Redis store whose client never connects (port 1 on loopback, never asked)."""
    yield RedisStore(redis.Redis(host="127.0.0.1", port=1), prefix="test:")


def _bounded(store: RedisStore) -> "asyncio.Task[str]":
    """The queued call, made inside a search with ``PATIENCE`` for the store."""
    search = enter_call(Deadline(60.0))
    try:
        with StoreWaitsWithin(PATIENCE):
            return asyncio.create_task(store._run(_answer))
    finally:
        leave_call(search)


async def test_a_call_queued_while_one_thread_is_stuck_has_its_turn_on_another(
    store: RedisStore,
) -> None:
    """A guard (held before): the queue moves on the other threads; the call is answered."""
    threads = store._max_workers
    assert threads == 4  # Redis's default: one thread stuck, three answering
    gates, held = await hold_calls(store, threads + 1)  # every thread busy, one call queued
    call = _bounded(store)
    scope = await next_look(store, call, None)
    gates[1].set()  # another thread answers and takes the queued call ahead of ours
    scope = await next_look(store, call, scope)
    assert scope is not None, "given up while the queue moved"
    gates[2].set()  # our turn, on a thread that is not the stuck one
    assert await call == "answered"
    assert store.known_silent() is None
    assert not gates[0].is_set()  # the first thread is stuck all the while
    for gate in gates:
        gate.set()
    await asyncio.gather(*held)
    await store.aclose()


async def test_a_call_queued_while_every_thread_is_stuck_is_given_up_within_its_share(
    store: RedisStore,
) -> None:
    """A guard (held before): no thread moves the queue; the call is given up, as silent."""
    gates, held = await hold_calls(store, store._max_workers)
    call = _bounded(store)
    with pytest.raises(StateStoreTimeoutError) as caught:
        await call
    assert not caught.value.busy
    assert "queued behind 4 calls from this process, and it answered nothing" in str(caught.value)
    assert store.known_silent() is not None
    for gate in gates:
        gate.set()
    await asyncio.gather(*held)
    await store.aclose()
