"""Every attempt of a loop is watched by one timer: stops still land on time, on any loop.

The deadline behaviour itself (the grace, a late loop, the caller's cancel winning, a late
answer kept) is pinned in ``test_attempt_scope.py``; these pin what sharing the timer
could break: an attempt leaves no timer of its own behind, a shorter attempt started while
a longer one is watched is still stopped at its own time, and a loop is not kept alive by
the watch.
"""

import asyncio
import gc
import weakref
from typing import ClassVar

from tests.providers._helpers import key_context
from websearch_core.errors import ProviderTimeoutError
from websearch_core.models import SearchParams, SearchResponse, SearchSource
from websearch_core.orchestration.attempt import answer_attempt
from websearch_core.providers.base import ProviderContext, ProviderInfo, SearchProvider


class _Probe(SearchProvider):
    """Answers at once, or hangs for ``hang`` seconds first."""

    info: ClassVar[ProviderInfo] = ProviderInfo(
        id="probe", label="Probe", kind="api", description="p", docs_url="https://x"
    )

    def __init__(self, hang: float = 0.0) -> None:
        self.hang = hang

    async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
        if self.hang:
            await asyncio.sleep(self.hang)
        source = SearchSource(title="t", url="https://a.example/")
        return SearchResponse(provider=self.info.id, sources=(source,))


def _timers(loop: asyncio.AbstractEventLoop) -> int:
    """Timer handles on the loop's heap, cancelled ones included (they stay until due)."""
    return len(loop._scheduled)  # type: ignore[attr-defined]


async def test_answered_attempts_leave_no_timer_each_on_the_loop() -> None:
    # Fails before the shared watch: each attempt pushed a timer and only cancelled it,
    # and a cancelled handle stays on the heap until the loop sweeps (100 or more).
    loop = asyncio.get_running_loop()
    context = key_context("probe", None)
    before = _timers(loop)
    for _ in range(60):
        answer = await answer_attempt(_Probe(), SearchParams(query="q"), context, timeout=30.0)
        assert answer.response.sources
    assert _timers(loop) - before <= 1  # the watch's one timer


async def test_a_shorter_attempt_started_under_a_longer_one_stops_at_its_own_time() -> None:
    """A guard (passes before and after): the watch's timer is set for the longer attempt
    first, and must be set earlier for the shorter one.

    Bound by events, not by the time taken (``< 5.0`` s, which a loaded machine could
    pass): the longer attempt has an hour, so a shorter one stopped only by the longer's
    timer would hang; the 30 s guard turns that into a failure. The shorter one ends by
    its own timeout's text while the longer is still running.
    """
    context = key_context("probe", None)
    longer = asyncio.ensure_future(
        answer_attempt(_Probe(hang=7200), SearchParams(query="q"), context, timeout=3600.0)
    )
    await asyncio.sleep(0.01)  # the longer attempt is under way, its stop watched
    try:
        try:
            async with asyncio.timeout(30.0):  # a hang guard only
                await answer_attempt(
                    _Probe(hang=7200), SearchParams(query="q"), context, timeout=0.2
                )
        except ProviderTimeoutError as error:
            assert error.message == "Probe search timed out after 0.2s"
        else:
            raise AssertionError("the shorter attempt was not stopped")
        assert not longer.done()  # the longer attempt keeps its own time
    finally:
        longer.cancel()
        await asyncio.gather(longer, return_exceptions=True)


def test_each_loop_stops_its_own_attempts_and_is_not_kept_by_the_watch() -> None:
    # A guard (passes before and after): the watch is kept per loop, and weakly.
    async def stopped() -> weakref.ref[asyncio.AbstractEventLoop]:
        context = key_context("probe", None)
        try:
            await answer_attempt(_Probe(hang=20), SearchParams(query="q"), context, timeout=0.1)
        except ProviderTimeoutError:
            return weakref.ref(asyncio.get_running_loop())
        raise AssertionError("not stopped")

    first = asyncio.run(stopped())
    second = asyncio.run(stopped())  # a new loop: the first one's watch and timer are gone
    gc.collect()
    assert first() is None and second() is None
