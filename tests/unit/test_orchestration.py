"""The orchestration package: the chain lends its ledger to a fan-out, old paths still work."""

import asyncio
import logging

import pytest

import websearch_core.chain
import websearch_core.ledger
import websearch_core.quota
from tests.providers._helpers import key_context
from websearch_core import orchestration
from websearch_core.browser import BrowserUnavailableError
from websearch_core.deadline import Deadline
from websearch_core.errors import ProviderNotConfiguredError
from websearch_core.models import SearchParams, SearchResponse, SearchSource
from websearch_core.orchestration import ChainPlan, ChainRunner, FanOutProvider, Ledger
from websearch_core.providers.base import ProviderContext, ProviderInfo, SearchProvider
from websearch_core.providers.public import PublicProvider
from websearch_core.state import MemoryStore

INFO = ProviderInfo(
    id="public", label="Fan", kind="aggregate", description="d", docs_url="https://x"
)


class _RecordingFanOut(FanOutProvider):
    """Answers at once and remembers which ledger each call ran with."""

    info = INFO

    def __init__(self) -> None:
        self.seen: list[Ledger | None] = []

    async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
        self.seen.append(self.ledger)
        source = SearchSource(title="T", url="https://a.example/", snippet="S")
        return SearchResponse(provider=INFO.id, sources=(source,))


def test_with_ledger_binds_a_copy_and_leaves_the_shared_instance_alone() -> None:
    shared = PublicProvider(soft_deadline_seconds=1.0, hard_deadline_seconds=2.0)
    ledger = Ledger(MemoryStore())
    bound = shared.with_ledger(ledger)
    assert bound is not shared and type(bound) is PublicProvider
    assert (bound.ledger, shared.ledger) == (ledger, None)
    assert bound.deadlines(key_context("public", None)) == (1.0, 2.0)


async def test_the_chain_hands_a_fan_out_its_own_ledger_for_the_call() -> None:
    provider = _RecordingFanOut()
    runner = ChainRunner(MemoryStore())
    outcome = await runner.run(
        ChainPlan(providers=[provider]), SearchParams(query="q"), key_context("public", None)
    )
    assert outcome.response is not None and outcome.response.provider == "public"
    assert provider.seen == [runner.ledger]
    assert provider.ledger is None  # the registered instance never holds a call's ledger


async def test_the_chain_keeps_to_a_deadline_its_caller_passes() -> None:
    provider = _RecordingFanOut()
    spent = Deadline(0.01)
    await asyncio.sleep(0.02)  # the caller's budget is gone before the chain starts
    outcome = await ChainRunner(MemoryStore()).run(
        ChainPlan(providers=[provider]), SearchParams(query="q"), key_context("public", None), spent
    )
    assert outcome.response is None and provider.seen == []  # not asked
    assert outcome.failure_message() == (
        "the 0.01s deadline for the whole search ran out; not tried: public"
    )


class _Crashing(SearchProvider):
    """A provider with a bug: it raises something that is no provider error."""

    info = ProviderInfo(id="brave", label="Brave", kind="api", description="d", docs_url="x")

    async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
        raise KeyError("results")


async def test_a_provider_that_crashes_moves_the_chain_on_and_logs_its_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, logger="websearch_core")
    plan = ChainPlan(providers=[_Crashing(), _RecordingFanOut()])
    outcome = await ChainRunner(MemoryStore()).run(
        plan, SearchParams(query="q"), key_context("public", None)
    )
    assert outcome.response is not None and outcome.response.provider == "public"
    crashed = outcome.response.attempts[0]
    assert (crashed.provider, crashed.outcome, crashed.status) == ("brave", "failed", None)
    assert crashed.detail == "'results'"
    (record,) = caplog.records
    assert record.getMessage() == "web search provider brave failed: 'results'"
    assert record.exc_info  # a bug, unlike an HTTP failure, keeps its traceback


class _BlockedWithoutBrowser(SearchProvider):
    """Asked, blocked, and then unable to escalate: not configured, after a request."""

    info = ProviderInfo(id="google", label="Google", kind="scraper", description="d", docs_url="x")

    async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
        raise BrowserUnavailableError("google", "Google got a challenge page; install Chromium")


async def test_a_provider_asked_is_a_failure_even_when_it_then_lacks_its_setup() -> None:
    """Only a chain that asked nothing is a setup problem (the spec's no-provider text).

    A blocked engine with no headless browser to escalate to raises a not-configured
    error after its request: a failure to search (exit 1), not "nothing configured".
    """
    unlisted = ProviderNotConfiguredError("brave", "Brave web search is unavailable.")
    plan = ChainPlan(providers=[_BlockedWithoutBrowser()], failures=[(_Crashing(), unlisted)])
    asked = await ChainRunner(MemoryStore()).run(
        plan, SearchParams(query="q"), key_context("google", None)
    )
    assert not asked.nothing_could_run
    assert asked.failure_message().startswith("All web search providers failed: brave: ")
    unasked = await ChainRunner(MemoryStore()).run(
        ChainPlan(providers=[], failures=[(_Crashing(), unlisted)]),
        SearchParams(query="q"),
        key_context("google", None),
    )
    assert unasked.nothing_could_run
    assert unasked.failure_message() == (
        "No web search provider configured. Brave web search is unavailable."
    )


def test_the_old_module_paths_re_export_the_same_objects() -> None:
    assert websearch_core.chain.ChainRunner is orchestration.ChainRunner
    assert websearch_core.chain.resolve_candidates is orchestration.resolve_candidates
    assert websearch_core.ledger.Ledger is orchestration.Ledger
    assert websearch_core.ledger.mark_scope is orchestration.mark_scope
    assert websearch_core.quota.Budget is orchestration.Budget
    for module in (websearch_core.chain, websearch_core.ledger, websearch_core.quota):
        assert all(hasattr(module, name) for name in module.__all__)


def test_provider_context_carries_no_ledger() -> None:
    assert "ledger" not in ProviderContext.__dataclass_fields__


def test_period_windows_follow_the_instant_asked_for_in_any_order() -> None:
    """The last window of each period is reused only while the instant is inside it."""
    from datetime import UTC, datetime

    from websearch_core.orchestration.quota import Period, period_window

    def at(year: int, month: int, day: int, hour: int = 0, minute: int = 0, sec: int = 0) -> float:
        return datetime(year, month, day, hour, minute, sec, tzinfo=UTC).timestamp()

    jan_end, feb_start = at(2025, 1, 31, 23, 59, 59), at(2025, 2, 1)
    expected: dict[tuple[Period, float], tuple[str, float]] = {
        ("month", jan_end): ("month:2025-01", feb_start),
        ("month", feb_start): ("month:2025-02", at(2025, 3, 1)),
        ("month", at(2024, 12, 31, 23)): ("month:2024-12", at(2025, 1, 1)),
        ("day", jan_end): ("day:2025-01-31", feb_start),
        ("day", feb_start): ("day:2025-02-01", at(2025, 2, 2)),
        ("hour", feb_start - 0.5): ("hour:2025-01-31T23", feb_start),
        ("minute", feb_start + 61): ("minute:2025-02-01T00:01", feb_start + 120),
    }
    for _ in range(2):  # the second round starts with windows cached from the first
        for (period, now), window in [*expected.items(), *reversed(expected.items())]:
            assert period_window(period, now) == window, (period, now)
