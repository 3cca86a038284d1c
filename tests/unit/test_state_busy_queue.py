"""A store busy with this process's own calls is waited for; a silent one is still given up on.

What must hold: a search's call queued on the SQLite store's thread behind calls the
thread keeps answering waits for its turn (up to the search's deadline), however long the
queue takes, and the fail-safe store does not bypass the store for it (120 searches at
once on a loaded machine waited past their 1 s there, and budgeted providers were then
skipped for 30 s). A thread stuck on one call still has every call behind it given up
within its share, and the message says the call was queued behind this process's calls
rather than only blaming another process. Outside a search, a call still queued when its
bound ends is refused as busy: nothing is given up on, nothing bypassed.

Driven by events: the calls ahead are held on the store's thread until the test lets each
go, and the queued call's looks at the store are seen as its wait starting anew (the
store's bounded waits); no assertion reads the clock.
"""

import asyncio
import time
from pathlib import Path

import pytest

from tests.store_threads import hold_calls, next_look
from websearch_core.deadline import Deadline, bound_store_waits, enter_call, leave_call
from websearch_core.state import SQLiteStore, StateStoreTimeoutError
from websearch_core.state.failsafe import FailSafeStore

PATIENCE = 0.5
"""The queued call's share of the store (as a search's cache lookup has a second)."""

_MONTH = "month:test"


async def _wait_started(store: SQLiteStore, call: "asyncio.Task[object]") -> object:
    """The queued call's current wait (its first look), once it waits."""
    return await next_look(store, call, None)


async def _counted_store(tmp_path: Path) -> SQLiteStore:
    store = SQLiteStore(tmp_path / "state.sqlite3")
    await store.increment_usage("brave", _MONTH, time.time() + 600)  # opened, one count
    assert await store.get_usage("brave", _MONTH) == 1
    return store


async def test_a_call_queued_behind_answered_calls_waits_its_turn_and_the_store_is_not_bypassed(
    tmp_path: Path,
) -> None:
    """Failed before: the clear was given up at its first look, withdrawn, store bypassed."""
    store = await _counted_store(tmp_path)
    safe = FailSafeStore(store)
    looks = 2
    gates, held = await hold_calls(store, looks + 1)
    search = enter_call(Deadline(60.0))
    bound = bound_store_waits(PATIENCE)
    try:
        clear = asyncio.create_task(safe.clear("brave"))  # a write: always queued
    finally:
        leave_call(bound)
        leave_call(search)
    scope = await _wait_started(store, clear)
    gates[0].set()  # the thread answers before the clear's first look
    for gate in gates[1:]:
        scope = await next_look(store, clear, scope)
        assert scope is not None, "the queued call stopped waiting while the store answered"
        assert not safe.degraded
        gate.set()  # one answer per look: busy all the while
    await clear
    await asyncio.gather(*held)
    assert not safe.degraded
    assert store.known_silent() is None
    assert await store.get_usage("brave", _MONTH) == 0  # the clear ran: not withdrawn
    await store.aclose()


async def test_a_call_behind_a_stuck_call_is_given_up_within_its_share_and_says_where_it_waited(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The bypass is a guard (it held before); the message failed before (no queue named)."""
    store = await _counted_store(tmp_path)
    safe = FailSafeStore(store)
    gates, held = await hold_calls(store, 1)
    search = enter_call(Deadline(60.0))
    bound = bound_store_waits(PATIENCE)
    try:
        clear = asyncio.create_task(safe.clear("brave"))
    finally:
        leave_call(bound)
        leave_call(search)
    with caplog.at_level("WARNING", logger="websearch_core.state"):
        await clear  # the held call never answers while the clear waits
    assert safe.degraded
    assert store.known_silent() is not None
    said = " ".join(record.getMessage() for record in caplog.records)
    assert (
        "did not answer within 0.5 s: queued behind 1 call from this process, and it "
        "answered nothing in that time (another process may be holding the file locked)"
    ) in said
    gates[0].set()
    await asyncio.gather(*held)
    await store.aclose()


async def test_outside_a_search_a_call_still_queued_at_its_bound_is_refused_as_busy(
    tmp_path: Path,
) -> None:
    """Failed before: a plain timeout (no ``busy``), the store given up on and bypassed."""
    store = await _counted_store(tmp_path)
    gates, held = await hold_calls(store, 2)
    bound = bound_store_waits(PATIENCE)  # a command's read: no deadline behind it
    try:
        clear = asyncio.create_task(store.clear("brave"))
    finally:
        leave_call(bound)
    await _wait_started(store, clear)
    gates[0].set()  # answered within the bound; the second call ahead still runs at its end
    with pytest.raises(StateStoreTimeoutError) as caught:
        await clear
    error = caught.value
    assert getattr(error, "busy", False)
    assert str(error).endswith(
        "still queued behind 1 call from this process, which it was answering (busy, not stuck)"
    )
    assert error.withdrawn  # a clear not begun is withdrawn, as before
    assert store.known_silent() is None
    safe = FailSafeStore(store)
    safe.report_failure(error)
    assert not safe.degraded
    gates[1].set()
    await asyncio.gather(*held)
    assert await store.get_usage("brave", _MONTH) == 1  # withdrawn: nothing cleared
    await store.aclose()
