"""The request loop's per-flow hooks: error maps, retry waits, a delay after a failure.

A small provider defined here speaks to two made-up endpoints through the in-process
:class:`~websearch_core.testing.MockTransport`; the loop's waits are recorded instead of
slept, so the tests assert the schedule without slowing the suite.
"""

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import ClassVar

import aiohttp
import pytest

from websearch_core.credentials import Credentials
from websearch_core.deadline import attempt_scope
from websearch_core.errors import (
    AuthorizationError,
    ProviderConnectionError,
    ProviderNotConfiguredError,
    ProviderUnavailableError,
    QuotaExhaustedError,
    RateLimitedError,
    SearchProviderError,
)
from websearch_core.models import SearchParams, SearchResponse
from websearch_core.providers.base import (
    DelayedRequest,
    ErrorMap,
    Flow,
    ProtocolProvider,
    ProviderContext,
    ProviderInfo,
    RetryPolicy,
    error_for,
)
from websearch_core.settings import Settings
from websearch_core.testing import MockTransport, scripted
from websearch_core.transport import HttpRequest, HttpResponse, SseResponse

INFO = ProviderInfo(
    id="hooked", label="Hooked", kind="api", description="test double", docs_url="x"
)
MAIN = "https://api.hooked.example/search"
SIDE = "https://side.hooked.example/call"
SIDE_ERRORS = ErrorMap(prefix="Hooked side error", messages={429: "hooked: side limit hit"})


def _body_hint(headers: Mapping[str, str], body: str) -> float | None:
    """A hint only the body carries: ``wait=<seconds>``."""
    _, found, seconds = body.partition("wait=")
    return float(seconds) if found else None


class Hooked(ProtocolProvider):
    """One request to the main or the side endpoint (``mode`` in the query), read as JSON."""

    info = INFO
    errors = ErrorMap(prefix="Hooked API error")
    retry: ClassVar[RetryPolicy | None] = None

    def first_request(self, flow: Flow) -> HttpRequest:
        flow.state["side"] = flow.params.query == "side"
        return HttpRequest(method="GET", url=SIDE if flow.state["side"] else MAIN)

    def error_map(self, flow: Flow) -> ErrorMap:
        return SIDE_ERRORS if flow.state["side"] else self.errors

    def parse_response(self, response: HttpResponse, params: SearchParams) -> SearchResponse:
        return SearchResponse(provider=INFO.id, answer=response.text())


def _reply(status: int, body: str = "", headers: dict[str, str] | None = None) -> HttpResponse:
    return HttpResponse(status=status, body=body.encode(), headers=headers or {})


def _context(*answers: HttpResponse | BaseException) -> tuple[ProviderContext, MockTransport]:
    transport = MockTransport(scripted(*answers))
    context = ProviderContext(
        transport=transport, settings=Settings(), credentials=Credentials(environ={})
    )
    return context, transport


# --- error_map(flow) ---------------------------------------------------------------------------


async def test_the_final_check_reads_the_map_the_flow_chose() -> None:
    context, _ = _context(_reply(503, "down"))
    with pytest.raises(ProviderUnavailableError) as main:
        await Hooked().search(SearchParams(query="main"), context)
    assert main.value.message == "Hooked API error (503): down"
    context, _ = _context(_reply(503, "down"))
    with pytest.raises(ProviderUnavailableError) as side:
        await Hooked().search(SearchParams(query="side"), context)
    assert side.value.message == "Hooked side error (503): down"


async def test_a_fixed_message_keeps_the_classifiers_class_and_wait() -> None:
    context, _ = _context(_reply(429, "busy", {"Retry-After": "3"}))
    with pytest.raises(RateLimitedError) as caught:
        await Hooked().search(SearchParams(query="side"), context)
    assert (caught.value.message, caught.value.retry_after) == ("hooked: side limit hit", 3.0)


def test_check_alone_reads_the_class_map() -> None:
    with pytest.raises(SearchProviderError) as caught:
        Hooked().check(_reply(404, "gone"))
    assert caught.value.message == "Hooked API error (404): gone"
    with pytest.raises(SearchProviderError) as chosen:
        Hooked().check(_reply(404, "gone"), SIDE_ERRORS)
    assert chosen.value.message == "Hooked side error (404): gone"


# --- ErrorMap.hint -----------------------------------------------------------------------------


def test_a_hint_fills_only_a_missing_wait() -> None:
    hinted = ErrorMap(hint=_body_hint)
    limited = error_for(INFO, hinted, _reply(429, "slow down wait=2"))
    assert isinstance(limited, RateLimitedError) and limited.retry_after == 2.0
    header_first = error_for(INFO, hinted, _reply(429, "wait=2", {"Retry-After": "9"}))
    assert isinstance(header_first, RateLimitedError) and header_first.retry_after == 9.0
    spent = error_for(INFO, hinted, _reply(402, "wait=40"))
    assert isinstance(spent, QuotaExhaustedError) and spent.reset_at is not None
    assert 30 < (spent.reset_at - datetime.now(UTC)).total_seconds() <= 40
    plain = error_for(INFO, ErrorMap(), _reply(429, "slow down wait=2"))
    assert isinstance(plain, RateLimitedError) and plain.retry_after is None
    assert error_for(INFO, hinted, _reply(204)) is None


def test_a_hint_reaches_an_error_class_the_map_names() -> None:
    named = ErrorMap(statuses={432: QuotaExhaustedError}, hint=_body_hint)
    spent = error_for(INFO, named, _reply(432, "plan limit wait=60"))
    assert isinstance(spent, QuotaExhaustedError) and spent.reset_at is not None


# --- ErrorMap.response_error ------------------------------------------------------------------


def _refusal(response: HttpResponse) -> SearchProviderError | None:
    """A 403 that names no challenge header is a refusal by the host the URL names."""
    if response.status != 403 or response.header("WWW-Authenticate") is not None:
        return None
    host = response.url.split("/")[2]
    return ProviderNotConfiguredError(INFO.id, f"hooked: {host} refuses this format")


class Reading(Hooked):
    errors = ErrorMap(prefix="Hooked API error", response_error=_refusal)


async def test_the_final_check_reads_the_whole_response_first() -> None:
    context, _ = _context(_reply(403, "<html>no</html>"))
    with pytest.raises(ProviderNotConfiguredError) as refused:
        await Reading().search(SearchParams(query="main"), context)
    assert refused.value.message == "hooked: api.hooked.example refuses this format"
    context, _ = _context(_reply(403, "denied", {"WWW-Authenticate": "Basic"}))
    with pytest.raises(AuthorizationError) as denied:  # None: the status decides
        await Reading().search(SearchParams(query="main"), context)
    assert denied.value.status == 403


def test_the_whole_response_is_not_read_for_a_2xx_and_its_error_gets_the_hint() -> None:
    def always(response: HttpResponse) -> SearchProviderError:
        return RateLimitedError(INFO.id, "hooked: busy", response.status)

    reading = ErrorMap(response_error=always, hint=_body_hint)
    assert error_for(INFO, reading, _reply(200, "wait=3")) is None
    busy = error_for(INFO, reading, _reply(503, "wait=3"))
    assert isinstance(busy, RateLimitedError) and (busy.message, busy.retry_after) == (
        "hooked: busy",
        3.0,
    )


# --- retry_delay(flow, response) ---------------------------------------------------------------


class Retrying(Hooked):
    retry = RetryPolicy(statuses=frozenset({429}), max_retries=3, base_delay=0.5, max_delay=30)
    errors = ErrorMap(prefix="Hooked API error", hint=_body_hint)


async def test_the_default_wait_backs_off_then_gives_up(sleeps: list[float]) -> None:
    context, transport = _context(*[_reply(503, "down")] * 4)
    with pytest.raises(ProviderUnavailableError):
        await Retrying().search(SearchParams(query="main"), context)
    assert len(transport.requests) == 4 and sleeps == [0.5, 1.0, 2.0]


async def test_the_maps_hint_is_waited_and_one_past_max_delay_is_not(
    sleeps: list[float],
) -> None:
    context, transport = _context(_reply(429, "wait=7"), _reply(200, "ok"))
    response = await Retrying().search(SearchParams(query="main"), context)
    assert (response.answer, sleeps, len(transport.requests)) == ("ok", [7.0], 2)
    context, transport = _context(_reply(429, "wait=31"))
    with pytest.raises(RateLimitedError) as caught:
        await Retrying().search(SearchParams(query="main"), context)
    assert caught.value.retry_after == 31.0  # the hint still reaches the ledger
    assert len(transport.requests) == 1 and sleeps == [7.0]


class PlainRetrying(Hooked):
    retry = RetryPolicy(statuses=frozenset({429}), max_retries=1, base_delay=0.5, max_delay=30)


@pytest.mark.parametrize("name", ["Retry-After", "retry-after", "RETRY-AFTER"])
async def test_retry_after_is_read_in_any_letter_case(sleeps: list[float], name: str) -> None:
    # HTTP/2 and many proxies send header names in lower case; the wait is the same header.
    context, transport = _context(_reply(429, "busy", {name: "4"}), _reply(200, "ok"))
    response = await PlainRetrying().search(SearchParams(query="main"), context)
    assert (response.answer, sleeps, len(transport.requests)) == ("ok", [4.0], 2)


async def test_a_status_the_policy_does_not_name_is_not_retried(sleeps: list[float]) -> None:
    context, transport = _context(_reply(404, "gone"))
    with pytest.raises(SearchProviderError):
        await Retrying().search(SearchParams(query="main"), context)
    assert len(transport.requests) == 1 and sleeps == []


class PerFlowRetry(Hooked):
    """Retries only on the side endpoint, and records what the loop told it."""

    seen: ClassVar[list[int]] = []

    def retry_delay(self, flow: Flow, response: HttpResponse | SseResponse) -> float | None:
        self.seen.append(flow.resends)
        return 0.25 if flow.state["side"] and flow.resends < 2 else None


async def test_a_provider_decides_the_wait_per_flow(sleeps: list[float]) -> None:
    PerFlowRetry.seen = []
    context, transport = _context(*[_reply(500, "x")] * 3)
    with pytest.raises(ProviderUnavailableError):
        await PerFlowRetry().search(SearchParams(query="side"), context)
    assert len(transport.requests) == 3 and sleeps == [0.25, 0.25]
    assert PerFlowRetry.seen == [0, 1, 2]  # resends counted by the loop
    context, transport = _context(_reply(500, "x"))
    with pytest.raises(ProviderUnavailableError):
        await PerFlowRetry().search(SearchParams(query="main"), context)
    assert len(transport.requests) == 1


async def test_a_wait_past_the_attempts_time_is_not_slept(sleeps: list[float]) -> None:
    context, transport = _context(_reply(429, "wait=5"))
    with attempt_scope(2.0), pytest.raises(RateLimitedError):
        await Retrying().search(SearchParams(query="main"), context)
    assert len(transport.requests) == 1 and sleeps == []


# --- after_failure: a DelayedRequest ---------------------------------------------------------


class Resending(Hooked):
    """After a dropped connection, the side endpoint after ``delay`` seconds (once)."""

    delay: ClassVar[float] = 1.5

    def after_failure(
        self, flow: Flow, request: HttpRequest, error: SearchProviderError
    ) -> HttpRequest | DelayedRequest | None:
        if flow.state.get("moved"):
            return None
        flow.state["moved"] = flow.state["side"] = True
        return DelayedRequest(HttpRequest(method="GET", url=SIDE), self.delay)


async def test_a_delayed_request_is_sent_after_its_wait(sleeps: list[float]) -> None:
    context, transport = _context(aiohttp.ServerDisconnectedError(), _reply(200, "ok"))
    response = await Resending().search(SearchParams(query="main"), context)
    assert response.answer == "ok" and sleeps == [1.5]
    assert [request.url for request in transport.requests] == [MAIN, SIDE]


async def test_the_flow_chosen_after_a_failure_reads_its_own_errors(sleeps: list[float]) -> None:
    context, _ = _context(aiohttp.ServerDisconnectedError(), _reply(429, "busy"))
    with pytest.raises(RateLimitedError) as caught:
        await Resending().search(SearchParams(query="main"), context)
    assert caught.value.message == "hooked: side limit hit"


async def test_a_delay_past_the_attempts_time_lets_the_failure_stand(
    sleeps: list[float],
) -> None:
    context, transport = _context(aiohttp.ServerDisconnectedError())
    with attempt_scope(1.0), pytest.raises(ProviderConnectionError):
        await Resending().search(SearchParams(query="main"), context)
    assert len(transport.requests) == 1 and sleeps == []
