"""Kimi Code's 429s: a used-up usage period is a quota, a busy service a rate limit.

Kimi Code's error reference (https://www.kimi.com/code/docs/en/kimi-code/error-reference.html,
Quick Lookup, "Rate Limits & Quotas") gives three 429 keywords: "The engine is currently
overloaded", "We're receiving too many requests" and "You've reached your usage limit for
this period". The first two ask for a short wait. The third says the subscription's usage is
spent for a period: with no "quota" word the shared classifier read it as a rate limit and
Kimi was asked again every 60 s, refused each time, until the period ended (a relay's users
saw a Kimi 429, body not quoted, last to its 5-hour reset: Wei-Shaw/sub2api issue #6573).
No capture of these bodies is in the shared fixtures; the loopback simulator answers with
Kimi's error envelope around each documented sentence.
"""

import json
import time
from typing import Final

import pytest

from websearch_core import WebSearch
from websearch_core.errors import AllProvidersFailedError, QuotaExhaustedError, RateLimitedError
from websearch_core.testing import Fault, Simulator

FIVE_HOURS: Final = 5 * 3600.0


def _kimi_error(message: str, kind: str) -> str:
    """Kimi Code's error envelope, ``{"error": {"message", "type"}}``."""
    return json.dumps({"error": {"message": message, "type": kind}})


PERIOD_USED_UP: Final = _kimi_error(
    "You've reached your usage limit for this period.", "rate_limit_reached_error"
)
TOO_MANY: Final = _kimi_error(
    "We're receiving too many requests at the moment. Please wait a moment and try again.",
    "rate_limit_reached_error",
)
"""As Kimi CLI users quote it (MoonshotAI/kimi-cli issues #901, #907, #998)."""
OVERLOADED: Final = _kimi_error(
    "The engine is currently overloaded, please try again later", "engine_overloaded_error"
)
"""The sentence as MoonshotAI/kimi-code issue #1252 and earendil-works/pi #3494 quote it."""


async def _kimi_alone(body: str, headers: dict[str, str] | None = None) -> Exception:
    """The error Kimi, asked alone, raised for a 429 with ``body``."""
    async with Simulator(["kimi"]) as sim:
        sim["kimi"].always(Fault.http(429, body, headers))
        settings = sim.settings(provider="kimi", fallback=False, cache=False)
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            with pytest.raises(AllProvidersFailedError) as raised:
                await ws.search("python asyncio")
    [error] = raised.value.failures
    return error


async def _kimis_mark(body: str) -> tuple[str, float]:
    """Kimi's mark (kind, seconds it lasts) after a search Tavily answered instead."""
    async with Simulator(["kimi", "tavily"]) as sim:
        sim["kimi"].always(Fault.http(429, body))
        settings = sim.settings(providers=("kimi", "tavily"), cache=False)
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            answer = await ws.run("python asyncio")
            assert answer.response.provider == "tavily"
            store = await ws.state()
            now = time.time()
            mark = await store.get_mark("kimi", now)
            assert mark is not None
            return mark.kind, mark.until - now


async def test_a_used_up_period_is_a_quota_until_a_5_hour_window_can_have_ended() -> None:
    """Fails before the fix: a RateLimitedError, Kimi marked ``rate_limited`` for 60 s."""
    before = time.time()
    error = await _kimi_alone(PERIOD_USED_UP)
    assert type(error) is QuotaExhaustedError
    assert error.status == 429
    assert error.reset_at is not None
    assert before + FIVE_HOURS <= error.reset_at.timestamp() <= time.time() + FIVE_HOURS
    kind, lasts = await _kimis_mark(PERIOD_USED_UP)
    assert kind == "exhausted"
    assert FIVE_HOURS - 60 <= lasts <= FIVE_HOURS


async def test_a_retry_after_on_a_used_up_period_is_when_it_ends() -> None:
    """A stated wait wins over the window's length. Fails before the fix (a rate limit)."""
    before = time.time()
    error = await _kimi_alone(PERIOD_USED_UP, {"Retry-After": "7200"})
    assert isinstance(error, QuotaExhaustedError) and error.reset_at is not None
    assert before + 7200 <= error.reset_at.timestamp() <= time.time() + 7200


@pytest.mark.parametrize("body", [TOO_MANY, OVERLOADED], ids=["too-many", "overloaded"])
async def test_guard_a_busy_kimi_stays_a_short_rate_limit(body: str) -> None:
    """Guard (passes before and after): the busy-service 429s are no spent quota."""
    error = await _kimi_alone(body)
    assert type(error) is RateLimitedError
    kind, lasts = await _kimis_mark(body)
    assert kind == "rate_limited"
    assert lasts <= 60
