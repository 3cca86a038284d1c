"""Each event loop's hard stops share that loop's one watch, found without a lookup per attempt.

:func:`~websearch_core.orchestration.hard_stop.start_hard_stop` runs on every search. It
keeps the last loop it served (weakly) beside that loop's watch, so a loop's next attempt
skips the registry's lookup, which builds a weak reference of the loop each time. The
guards here hold what that must not change: another loop still gets a watch of its own
(alternating loops too), a stop still fires on the loop it was started on, and no loop is
kept alive by its stops.
"""

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from websearch_core.orchestration import hard_stop
from websearch_core.orchestration.hard_stop import HardStop, start_hard_stop

HOUR = 3600.0
"""How long a stopped sleep would last: a stop that never came hangs, not passes."""


class _CountedWatches(weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, object]):
    """The registry, counting its lookups."""

    def __init__(self) -> None:
        super().__init__()
        self.lookups = 0

    def get(self, key: asyncio.AbstractEventLoop, default: object = None) -> object:
        self.lookups += 1
        return super().get(key, default)


@pytest.fixture
def watches(monkeypatch: pytest.MonkeyPatch) -> Iterator[_CountedWatches]:
    """A fresh, counting registry, with no loop remembered from another test."""
    counted = _CountedWatches()
    monkeypatch.setattr(hard_stop, "_WATCHES", counted)
    monkeypatch.setattr(hard_stop, "_last_watch", None, raising=False)
    yield counted


def _stop_on(loop: asyncio.AbstractEventLoop) -> HardStop:
    """A hard stop started (and ended) in a task of ``loop``."""

    async def started() -> HardStop:
        stop = start_hard_stop(60.0, 1.0)
        stop.end(None)
        return stop

    return loop.run_until_complete(started())


def test_a_loops_later_attempts_find_its_watch_without_the_registry(
    watches: _CountedWatches,
) -> None:
    loop = asyncio.new_event_loop()
    try:
        stops = [_stop_on(loop) for _ in range(5)]
    finally:
        loop.close()
    assert watches.lookups == 1
    assert len({id(stop._watch) for stop in stops}) == 1


def test_alternating_loops_each_keep_their_own_watch(watches: _CountedWatches) -> None:
    """Guard: the remembered loop is only a shortcut; another loop gets its own watch."""
    first, second = asyncio.new_event_loop(), asyncio.new_event_loop()
    try:
        order = [first, second, first, second, first]
        stops = [_stop_on(loop) for loop in order]
    finally:
        first.close()
        second.close()
    firsts = {id(stops[i]._watch) for i in (0, 2, 4)}
    seconds = {id(stops[i]._watch) for i in (1, 3)}
    assert len(firsts) == 1 and len(seconds) == 1
    assert firsts != seconds
    assert not stops[0]._watch.stops and not stops[1]._watch.stops  # each ended


def test_a_stop_still_fires_on_its_loop_after_another_loops_attempt(
    watches: _CountedWatches,
) -> None:
    """Guard: a hanging attempt on a loop that was not the last one served is still stopped."""
    other, loop = asyncio.new_event_loop(), asyncio.new_event_loop()
    ended: list[str] = []

    async def hangs() -> None:
        stop = start_hard_stop(0.01, 0.01)
        try:
            await asyncio.sleep(HOUR)
        except asyncio.CancelledError as error:
            ended.append("stopped" if stop.end(error) else "cancelled otherwise")
            return
        stop.end(None)
        ended.append("slept")

    try:
        _stop_on(loop)
        _stop_on(other)  # the remembered loop is now another one
        loop.run_until_complete(asyncio.wait_for(hangs(), 30.0))
    finally:
        other.close()
        loop.close()
    assert ended == ["stopped"]


def test_a_loop_is_not_kept_alive_by_its_hard_stops(watches: _CountedWatches) -> None:
    """Guard: the remembered loop is held weakly, as the registry holds it."""
    loop = asyncio.new_event_loop()
    _stop_on(loop)
    _stop_on(loop)
    gone = weakref.ref(loop)
    loop.close()
    del loop
    gc.collect()
    assert gone() is None
    fresh = asyncio.new_event_loop()
    try:
        stop = _stop_on(fresh)  # a collected loop's entry is never taken for another's
    finally:
        fresh.close()
    assert stop._watch is not None
