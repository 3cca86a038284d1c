"""Waiting for a state store's thread to have done what it was left, before looking at the file.

A store given up on keeps its queued calls on its own (daemon) thread; a test that asks
whether one of them landed once a lock went must first let that thread finish, or it
would look too early and see nothing either way.
"""

import asyncio
import functools
import threading
from typing import Any

from websearch_core.state import StateStore
from websearch_core.state.failsafe import FailSafeStore

_PREFIX = "websearch-state"


def store_threads() -> set[threading.Thread]:
    """The SQLite stores' threads alive now."""
    return {thread for thread in threading.enumerate() if thread.name.startswith(_PREFIX)}


def join_new_store_threads(before: set[threading.Thread], timeout: float = 15.0) -> bool:
    """Wait for the store threads started since ``before`` to end; ``True`` if they all did.

    A store's thread ends once the store is closed and every call queued before has run.
    """
    new = store_threads() - before
    for thread in new:
        thread.join(timeout)
    return not any(thread.is_alive() for thread in new)


async def until_queued(store: Any, calls: int, guard: float = 30.0) -> None:
    """Return once ``calls`` of the callers' calls are queued or running on ``store``'s thread.

    Why: a test that wants a call waiting on the store's thread (behind another process's
    lock, or behind a job holding the thread) slept a fixed 0.3-0.5 s and hoped the call
    had been made by then; on a loaded machine it may not have been. The store counts the
    callers' calls it holds (not its own jobs, such as a flush: the pool's count of
    unfinished jobs includes those, and let one test close before its call was made).
    Polled; ``guard`` only turns a call that never reaches the thread into a failure
    instead of a hang.
    """
    async with asyncio.timeout(guard):
        while store._calls.value < calls:
            await asyncio.sleep(0.01)


def calls_made(store: StateStore) -> int:
    """Calls ever queued on the store's thread by callers: a call to a silent store waits.

    Why a count and not the time taken: a call that queued behind the one still unanswered
    waited its 3 s (``STATE_WAIT_SECONDS``), and a bound on the time taken flips on a loaded
    machine; a call never made cannot wait. Sees through the fail-safe wrapper.
    """
    inner = store.inner if isinstance(store, FailSafeStore) else store
    submitted: int = inner._calls.submitted  # type: ignore[attr-defined]
    return submitted


def held_call(gate: threading.Event, _client: object) -> str:
    """A call of this process on the store's thread, answered once the test lets it go."""
    gate.wait()
    return "held"


async def hold_calls(
    store: Any, count: int
) -> tuple[list[threading.Event], list["asyncio.Future[object]"]]:
    """``count`` calls held on the store's thread(s), in order, waited for without a bound.

    Each is let go by setting its gate; a call queued after them waits its turn (on a pool
    of several threads, ``count`` at least the pool's size keeps every thread busy).
    """
    gates = [threading.Event() for _ in range(count)]
    held = [asyncio.ensure_future(store._run(functools.partial(held_call, gate))) for gate in gates]
    await asyncio.sleep(0)  # each task queues its call before its first await
    return gates, held


async def next_look(store: Any, call: "asyncio.Task[object]", scope: object) -> object:
    """The queued call's next wait: it looked at the store and waits on (``None``: it ended).

    With ``scope`` ``None``, its first wait: a wait has no scope until it begins. Polled:
    the store's waits are read as the test's loop sees them.
    """
    while not call.done():
        waits = list(store._waits)
        if waits and waits[0].scope is not scope:
            return waits[0].scope
        await asyncio.sleep(0.01)
    return None
