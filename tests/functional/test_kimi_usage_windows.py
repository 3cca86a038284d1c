"""Kimi Code's 5-hour and weekly usage limits hold Kimi out until the window ends.

Kimi Code answers a used-up 5-hour or weekly (7-day) window with a 403 whose error type
(``access_terminated_error``, ``permission_error``) is also a refused key's. Read by its
status it was an authorization failure (Kimi tried again in five minutes, refused again),
and with its "Your quota will reset ..." sentence a quota spent until next month. The
loopback simulator answers with the bodies public clients of api.kimi.com/coding recorded;
the chain must move on and Kimi's mark must end when the window can last have ended.
Sources of each body are in its docstring; no capture of them is in the shared fixtures.

Kimi Code's 429s (its error reference, https://www.kimi.com/code/docs/en/kimi-code/
error-reference.html, Quick Lookup, "Rate Limits & Quotas") give three keywords: "The engine
is currently overloaded" and "We're receiving too many requests" ask for a short wait; "You've
reached your usage limit for this period" says the subscription's usage is spent for a
period. With no "quota" word the shared classifier read the last as a rate limit and Kimi was
asked again every 60 s until the period ended (a relay's users saw a Kimi 429, body not
quoted, last to its 5-hour reset: Wei-Shaw/sub2api issue #6573).
"""

import json
import time
from typing import Final

import pytest

from websearch_core import WebSearch
from websearch_core.errors import (
    AllProvidersFailedError,
    AuthorizationError,
    CreditsSpentError,
    QuotaExhaustedError,
    RateLimitedError,
    SearchProviderError,
)
from websearch_core.orchestration.credit_probe import CREDIT_RECHECK_SECONDS, next_recheck
from websearch_core.testing import Fault, Simulator

FALLBACK: Final = "tavily"
FIVE_HOURS: Final = 5 * 3600.0
SEVEN_DAYS: Final = 7 * 86400.0


def _kimi_error(message: str, kind: str) -> str:
    """Kimi Code's error envelope, ``{"error": {"message", "type"}}``."""
    return json.dumps({"error": {"message": message, "type": kind}})


FIVE_HOUR_FULL: Final = _kimi_error(
    "You've reached your 5-hour usage limit. Your quota will reset when the current "
    "5-hour window ends. To continue now, purchase extra usage or upgrade your plan: "
    "https://www.kimi.com/membership/subscription",
    "forbidden",
)
"""403, as a router's test records it from production (diegosouzapw/OmniRoute, Kimi Coding,
2026-09-23): the connection was banned for good where the window renews."""

FIVE_HOUR_SHORT: Final = _kimi_error("You've reached your 5-hour usage limit.", "forbidden")
"""The first sentence alone, as agents' logs quote Kimi's 403 ("403 Forbidden ... You've
reached your 5-hour usage limit"): no "quota" word, so it read as a refused key."""

WEEKLY_FULL: Final = _kimi_error(
    "You've reached your weekly (7-day) usage limit. Your quota will reset when the current "
    "7-day window ends. To continue now, purchase extra usage or upgrade your plan: "
    "https://www.kimi.com/membership/subscription?tab=quota",
    "access_terminated_error",
)
"""403 from /coding/v1/messages (openclaw/openclaw issue #142524 and pull request #142656,
2026-09): reported there as an authentication failure that latched Kimi off."""

WEEKLY_SHORT: Final = _kimi_error(
    "You've reached your weekly (7-day) usage limit.", "permission_error"
)
"""The first sentence with ``permission_error``, as a proxy relayed Kimi's 403 to an agent
(the "measured" message of an agent harness's proxy watch)."""

INVALID_KEY: Final = _kimi_error("Invalid Authentication", "invalid_authentication_error")
"""Kimi Code's 401 for a bad key (error reference: "Invalid Authentication", 401)."""

CODING_AGENTS: Final = _kimi_error(
    "Kimi For Coding is currently only available for Coding Agents such as Kimi CLI, "
    "Claude Code, Roo Code, Kilo Code, etc.",
    "access_terminated_error",
)
"""Kimi Code's 403 to a client it does not serve (error reference; MoonshotAI/kimi-code
issue #636 quotes this body): the key may not be used this way."""

WINDOWS: Final = [
    pytest.param(FIVE_HOUR_FULL, FIVE_HOURS, id="5-hour"),
    pytest.param(FIVE_HOUR_SHORT, FIVE_HOURS, id="5-hour-first-sentence"),
    pytest.param(WEEKLY_FULL, SEVEN_DAYS, id="weekly"),
    pytest.param(WEEKLY_SHORT, SEVEN_DAYS, id="weekly-first-sentence"),
]


PERIOD_USED_UP: Final = _kimi_error(
    "You've reached your usage limit for this period.", "rate_limit_reached_error"
)
MONTH_USED_UP: Final = _kimi_error(
    "You've reached kimi monthly usage limit", "rate_limit_reached_error"
)
"""The 429 keyword of Kimi Code's error reference (Quick Lookup, Rate Limits & Quotas),
as written there; its error type is not documented (the period 429's is assumed)."""
TOO_MANY: Final = _kimi_error(
    "We're receiving too many requests at the moment. Please wait a moment and try again.",
    "rate_limit_reached_error",
)
"""As Kimi CLI users quote it (MoonshotAI/kimi-cli issues #901, #907, #998)."""
OVERLOADED: Final = _kimi_error(
    "The engine is currently overloaded, please try again later", "engine_overloaded_error"
)
"""The sentence as MoonshotAI/kimi-code issue #1252 and earendil-works/pi #3494 quote it."""


async def _alone(
    status: int, body: str, headers: dict[str, str] | None = None
) -> SearchProviderError:
    """The error Kimi, asked alone, raised for ``status`` and ``body``."""
    async with Simulator(["kimi"]) as sim:
        sim["kimi"].always(Fault.http(status, body, headers))
        settings = sim.settings(provider="kimi", fallback=False, cache=False)
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            with pytest.raises(AllProvidersFailedError) as raised:
                await ws.search("python asyncio")
    [error] = raised.value.failures
    return error


async def _mark_after(status: int, body: str) -> tuple[str, float, float | None]:
    """Kimi's mark (kind, end) and its re-check time after a search Tavily answered."""
    async with Simulator(["kimi", FALLBACK]) as sim:
        sim["kimi"].always(Fault.http(status, body))
        settings = sim.settings(providers=("kimi", FALLBACK), cache=False)
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            answer = await ws.run("python asyncio")
            assert answer.response.provider == FALLBACK  # no answer lost meanwhile
            store = await ws.state()
            now = time.time()
            mark = await store.get_mark("kimi", now)
            assert mark is not None
            return mark.kind, mark.until, await next_recheck(store, "kimi", mark, now)


@pytest.mark.parametrize(("body", "window"), WINDOWS)
async def test_a_used_up_window_is_a_quota_that_comes_back_when_the_window_ends(
    body: str, window: float
) -> None:
    """Fails before the fix: the short forms were AuthorizationError, the long ones a
    QuotaExhaustedError without a reset time (next month)."""
    before = time.time()
    error = await _alone(403, body)
    assert type(error) is QuotaExhaustedError
    assert error.status == 403
    assert error.reset_at is not None
    assert before + window <= error.reset_at.timestamp() <= time.time() + window


@pytest.mark.parametrize(("body", "window"), WINDOWS)
async def test_the_chain_moves_on_and_kimi_is_held_out_for_the_window(
    body: str, window: float
) -> None:
    """Fails before the fix: the mark was ``unauthorized`` for five minutes, or
    ``exhausted`` until the start of next month."""
    before = time.time()
    kind, until, recheck = await _mark_after(403, body)
    assert kind == "exhausted"
    assert before + window <= until <= time.time() + window
    assert recheck is None  # a window ends on its own: no balance to re-check


async def test_a_retry_after_on_the_refusal_is_the_window_end() -> None:
    """A stated reset wins over the window's length. No capture shows Kimi sending one;
    the header is the standard place it would be. Fails before the fix (no reset_at)."""
    before = time.time()
    error = await _alone(403, FIVE_HOUR_FULL, {"Retry-After": "1800"})
    assert isinstance(error, QuotaExhaustedError) and error.reset_at is not None
    assert before + 1800 <= error.reset_at.timestamp() <= time.time() + 1800


async def test_guard_the_display_text_stays_the_specs_403_text() -> None:
    """Guard (passes before and after): the spec shows a 403 as an authorization text."""
    async with Simulator(["kimi"]) as sim:
        sim["kimi"].always(Fault.http(403, WEEKLY_FULL))
        settings = sim.settings(provider="kimi", fallback=False, cache=False)
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            with pytest.raises(AllProvidersFailedError) as raised:
                await ws.search("python asyncio")
    assert str(raised.value) == "Kimi authorization failed (403). Check API key or base URL."


async def test_guard_a_bad_key_is_still_an_authorization_failure() -> None:
    """Guard (passes before and after): Kimi's 401 for a bad key is no usage window."""
    error = await _alone(401, INVALID_KEY)
    assert type(error) is AuthorizationError
    kind, _, _ = await _mark_after(401, INVALID_KEY)
    assert kind == "unauthorized"


async def test_guard_a_403_refusing_the_client_is_still_an_authorization_failure() -> None:
    """Guard (passes before and after): the 403 naming no usage limit is a refused key."""
    error = await _alone(403, CODING_AGENTS)
    assert type(error) is AuthorizationError
    kind, _, _ = await _mark_after(403, CODING_AGENTS)
    assert kind == "unauthorized"


@pytest.mark.parametrize("window_hint", [None, "7200"], ids=["no-hint", "retry-after"])
async def test_a_429_used_up_period_is_a_quota_until_its_window_can_have_ended(
    window_hint: str | None,
) -> None:
    """Fails before the fix: a RateLimitedError, Kimi marked ``rate_limited`` for 60 s. A
    stated wait (``Retry-After``) wins over the 5-hour window's length."""
    before = time.time()
    headers = {"Retry-After": window_hint} if window_hint else None
    error = await _alone(429, PERIOD_USED_UP, headers)
    lasts = float(window_hint) if window_hint else FIVE_HOURS
    assert type(error) is QuotaExhaustedError
    assert error.status == 429
    assert error.reset_at is not None
    assert before + lasts <= error.reset_at.timestamp() <= time.time() + lasts
    if window_hint is None:
        started = time.time()
        kind, until, _ = await _mark_after(429, PERIOD_USED_UP)
        assert kind == "exhausted"
        assert started + FIVE_HOURS - 60 <= until <= time.time() + FIVE_HOURS


@pytest.mark.parametrize("body", [TOO_MANY, OVERLOADED], ids=["too-many", "overloaded"])
async def test_guard_a_busy_kimi_stays_a_short_rate_limit(body: str) -> None:
    """Guard (passes before and after): the busy-service 429s are no spent quota."""
    error = await _alone(429, body)
    assert type(error) is RateLimitedError
    kind, until, _ = await _mark_after(429, body)
    assert kind == "rate_limited"
    assert until <= time.time() + 60


async def test_a_429_used_up_month_is_a_spent_cycle_re_checked_every_few_hours() -> None:
    """Fails before the fix: a RateLimitedError, Kimi marked ``rate_limited`` for 60 s and
    asked again each minute for the rest of its month. The month is the subscription's
    own (no answer names its end), so it reads as the spent billing cycle does: a spent
    balance, re-checked."""
    error = await _alone(429, MONTH_USED_UP)
    assert type(error) is CreditsSpentError
    assert error.status == 429
    before = time.time()
    kind, _, recheck = await _mark_after(429, MONTH_USED_UP)
    assert kind == "exhausted"
    assert recheck is not None
    assert before + CREDIT_RECHECK_SECONDS <= recheck <= time.time() + CREDIT_RECHECK_SECONDS
