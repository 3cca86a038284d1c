"""The attempt's time budget, opened and closed without a context manager, bounds as before.

``answer_attempt`` opens its scope with :func:`enter_attempt` and closes it with
:func:`leave_attempt` on every way out (an answer, a failure, its hard time limit), so the
code inside sees the attempt's budget and the code after it sees the enclosing one again.
"""

import asyncio
import time
from typing import ClassVar

import pytest

from tests.providers._helpers import key_context
from websearch_core.deadline import (
    attempt_scope,
    enter_attempt,
    leave_attempt,
    remaining_budget,
)
from websearch_core.errors import ProviderTimeoutError, SearchProviderError
from websearch_core.models import SearchParams, SearchResponse, SearchSource
from websearch_core.orchestration.attempt import answer_attempt
from websearch_core.providers.base import ProviderContext, ProviderInfo, SearchProvider

HOUR = 3600.0
"""How long a hanging probe sleeps: a stop that never came hangs the test, not ends it."""

HANG_GUARD = 30.0
"""Only turns a hang into a failure; the stops themselves are shown by events."""


class _Probe(SearchProvider):
    """Records the budget it sees, then answers, fails or outlives its time.

    A hanging probe records how its sleep ended: ``cancelled`` by the attempt's hard stop
    (or its caller), which is how the tests tell a stop from a sleep run out, instead of
    bounding the time taken (``< 2.0`` and ``< 5.0`` s, which a loaded machine could pass).
    """

    info: ClassVar[ProviderInfo] = ProviderInfo(
        id="probe", label="Probe", kind="api", description="p", docs_url="https://x"
    )

    def __init__(self, behaviour: str) -> None:
        self.behaviour = behaviour
        self.seen: list[float] = []
        self.ended: str | None = None

    async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
        self.seen.append(remaining_budget(60.0))
        if self.behaviour == "fail":
            raise SearchProviderError(self.info.id, "Probe broke", 500)
        if self.behaviour == "hang":
            try:
                await asyncio.sleep(HOUR)
            except asyncio.CancelledError:
                self.ended = "cancelled"
                raise
            self.ended = "slept"
        source = SearchSource(title="t", url="https://a.example/")
        return SearchResponse(provider=self.info.id, sources=(source,))


def test_enter_attempt_grants_what_it_is_asked_outside_any_scope() -> None:
    granted, token = enter_attempt(5.0)
    try:
        assert granted == pytest.approx(5.0)
        assert 4.9 < remaining_budget(60.0) <= 5.0
    finally:
        leave_attempt(token)
    assert remaining_budget(60.0) == 60.0


def test_enter_attempt_never_grants_more_than_the_enclosing_scope() -> None:
    with attempt_scope(1.0):
        granted, token = enter_attempt(30.0)
        try:
            assert granted <= 1.0
            assert remaining_budget(60.0) <= 1.0
        finally:
            leave_attempt(token)
        assert remaining_budget(60.0) <= 1.0  # the outer scope holds again
        inner, token = enter_attempt(0.2)
        try:
            assert inner == pytest.approx(0.2, abs=0.05)
        finally:
            leave_attempt(token)
    assert remaining_budget(60.0) == 60.0


def test_a_negative_request_is_granted_nothing() -> None:
    granted, token = enter_attempt(-3.0)
    try:
        assert granted == 0.0
        assert remaining_budget(60.0) == 0.0
    finally:
        leave_attempt(token)


@pytest.mark.parametrize("behaviour", ["answer", "fail", "hang"])
async def test_answer_attempt_bounds_the_provider_and_closes_its_scope(behaviour: str) -> None:
    provider = _Probe(behaviour)
    context = key_context("probe", None)
    if behaviour == "answer":
        answer = await answer_attempt(provider, SearchParams(query="q"), context, timeout=2.0)
        assert answer.response.sources[0].url == "https://a.example/"
    elif behaviour == "fail":
        with pytest.raises(SearchProviderError, match="Probe broke"):
            await answer_attempt(provider, SearchParams(query="q"), context, timeout=2.0)
    else:
        with pytest.raises(ProviderTimeoutError) as raised:
            async with asyncio.timeout(HANG_GUARD):
                await answer_attempt(provider, SearchParams(query="q"), context, timeout=0.2)
        assert raised.value.message == "Probe search timed out after 0.2s"
        assert raised.value.__context__ is None
        assert provider.ended == "cancelled"  # stopped at its time, not its hour's end
    assert len(provider.seen) == 1 and provider.seen[0] <= 2.0  # the attempt's budget inside
    assert remaining_budget(60.0) == 60.0  # and the caller's again after it


class _OwnDeadline(_Probe):
    """Keeps to its own time and then answers for itself, after a little clean-up."""

    async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
        try:
            async with asyncio.timeout(remaining_budget(60.0)):
                await asyncio.sleep(10)
        except TimeoutError:
            for _ in range(3):  # closing what it started takes a few loop turns
                await asyncio.sleep(0)
            raise SearchProviderError(self.info.id, "Probe gave its own answer", 504) from None
        raise AssertionError("unreachable")


async def test_a_late_loop_keeps_the_providers_own_answer() -> None:
    """The loop blocked past the attempt's end and its hard stop: the provider still answers.

    Both are then due in one loop turn; the hard stop used to cancel the provider while it
    delivered its own outcome, which became "Probe search timed out after 0.2s".
    """
    loop = asyncio.get_running_loop()
    blocker = loop.call_later(0.1, time.sleep, 0.5)  # covers 0.2 s and 0.2 s + the grace
    try:
        with pytest.raises(SearchProviderError) as raised:
            await answer_attempt(
                _OwnDeadline("own"),
                SearchParams(query="q"),
                key_context("probe", None),
                timeout=0.2,
            )
    finally:
        blocker.cancel()
    assert raised.value.message == "Probe gave its own answer"
    assert remaining_budget(60.0) == 60.0


async def test_a_late_loop_still_stops_a_provider_that_ignores_its_time() -> None:
    loop = asyncio.get_running_loop()
    blocker = loop.call_later(0.1, time.sleep, 0.5)
    probe = _Probe("hang")
    try:
        with pytest.raises(ProviderTimeoutError) as raised:
            async with asyncio.timeout(HANG_GUARD):
                await answer_attempt(
                    probe, SearchParams(query="q"), key_context("probe", None), timeout=0.2
                )
    finally:
        blocker.cancel()
    assert raised.value.message == "Probe search timed out after 0.2s"
    assert probe.ended == "cancelled"  # stopped once the loop ran again, not at its hour's end
    assert remaining_budget(60.0) == 60.0


class _Stopped(_Probe):
    """Outlives its time; what it does when the hard stop cancels it is the behaviour."""

    async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            if self.behaviour == "answers":  # swallows the stop's cancel and answers
                return SearchResponse(provider=self.info.id, answer="late but mine")
            if self.behaviour == "caller cancels":  # the caller's cancel arrives meanwhile
                current = asyncio.current_task()
                assert current is not None
                current.cancel()
                await asyncio.sleep(0)
            raise
        raise AssertionError("unreachable")


async def test_the_callers_cancel_is_never_taken_for_the_attempts_timeout() -> None:
    probe = _Probe("hang")
    task = asyncio.ensure_future(
        answer_attempt(probe, SearchParams(query="q"), key_context("probe", None), timeout=5)
    )
    while not probe.seen:  # the provider is under way (a fixed 0.05 s sleep hoped so)
        await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # Also when it arrives while the hard stop's own cancel is under way: it wins.
    caller = asyncio.ensure_future(
        answer_attempt(
            _Stopped("caller cancels"),
            SearchParams(query="q"),
            key_context("probe", None),
            timeout=0.05,
        )
    )
    with pytest.raises(asyncio.CancelledError):
        await caller
    assert caller.cancelling() == 1  # the caller's request stands, the stop's is withdrawn


async def test_a_provider_that_answers_after_the_hard_stop_keeps_its_answer() -> None:
    answer = await answer_attempt(
        _Stopped("answers"), SearchParams(query="q"), key_context("probe", None), timeout=0.05
    )
    assert answer.response.answer == "late but mine"
    current = asyncio.current_task()
    assert current is not None and current.cancelling() == 0  # the stop's cancel withdrawn
    await asyncio.sleep(0)  # and nothing left to cancel this task later
