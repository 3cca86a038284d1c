"""Each provider's documented out-of-credit answer is a spent prepaid balance, re-checked.

The loopback simulators answer with the status and body each service documents for a
balance or spend limit its owner tops up (Anthropic's 402, Exa's 402, Tavily's 433,
Jina's 402); the provider's mark must carry the re-check note, so it is asked again after
:data:`~websearch_core.orchestration.credit_probe.CREDIT_RECHECK_SECONDS` rather than next
month. Tavily's 432 (the plan's monthly credits) is the guard that still waits.
"""

import json
import time
from typing import Final

import pytest

from websearch_core import WebSearch
from websearch_core.errors import (
    AllProvidersFailedError,
    CreditsSpentError,
    QuotaExhaustedError,
    SearchProviderError,
)
from websearch_core.orchestration.credit_probe import CREDIT_RECHECK_SECONDS, next_recheck
from websearch_core.testing import Fault, Simulator

BILLING: Final = json.dumps(
    {
        "type": "error",
        "error": {
            "type": "billing_error",
            "message": "out of credits or spend limit reached",
        },
    }
)
"""Anthropic's 402: ``billing_error``, "out of credits or spend limit reached" in its SDK's
reference (rubydoc.info/github/anthropics/anthropic-sdk-ruby, BetaBillingError)."""

EXA_CREDITS: Final = json.dumps(
    {"error": "Account credits exhausted or API key spending budget exceeded"}
)
"""Exa's 402 (https://exa.ai/docs/reference/error-codes)."""

TAVILY_PAYGO: Final = json.dumps(
    {
        "detail": {
            "error": "This request exceeds the pay-as-you-go limit. "
            "You can increase your limit on the Tavily dashboard"
        }
    }
)
"""Tavily's 433 (https://help.tavily.com/articles/8645538886-understanding-http-errors)."""

TAVILY_PLAN: Final = json.dumps(
    {
        "detail": {
            "error": "This request exceeds your plan's set usage limit. "
            "Please upgrade your plan or contact support@tavily.com."
        }
    }
)
"""Tavily's 432: the plan's monthly credits (same page)."""

JINA_BALANCE: Final = json.dumps(
    {"code": 402, "message": "Account balance not enough to run this query, please recharge."}
)
"""Jina's 402 (quoted in jina-ai/reader #1200 and jina-ai/node-DeepResearch #21)."""

PREPAID: Final = [
    ("anthropic", 402, BILLING),
    ("exa", 402, EXA_CREDITS),
    ("tavily", 433, TAVILY_PAYGO),
    ("jina", 402, JINA_BALANCE),
]


def _fallback(provider: str) -> str:
    return "brave" if provider == "tavily" else "tavily"


async def _mark_after(provider: str, status: int, body: str) -> float | None:
    """The re-check time the provider's mark carries after it answered ``status``."""
    fallback = _fallback(provider)
    async with Simulator([provider, fallback]) as sim:
        sim[provider].always(Fault.http(status, body))
        settings = sim.settings(providers=(provider, fallback), cache=False)
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            answer = await ws.run("python asyncio")
            assert answer.response.provider == fallback  # no answer lost meanwhile
            store = await ws.state()
            now = time.time()
            mark = await store.get_mark(provider, now)
            assert mark is not None and mark.kind == "exhausted"
            return await next_recheck(store, provider, mark, now)


async def _alone(provider: str, status: int, body: str) -> SearchProviderError:
    """The error the provider, asked alone, raised for ``status`` and ``body``."""
    async with Simulator([provider]) as sim:
        sim[provider].always(Fault.http(status, body))
        settings = sim.settings(provider=provider, fallback=False, cache=False)
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            with pytest.raises(AllProvidersFailedError) as raised:
                await ws.search("python asyncio")
    [error] = raised.value.failures
    return error


@pytest.mark.parametrize(("provider", "status", "body"), PREPAID)
async def test_a_documented_spent_balance_is_re_checked(
    provider: str, status: int, body: str
) -> None:
    before = time.time()
    recheck = await _mark_after(provider, status, body)
    assert recheck is not None
    assert before + CREDIT_RECHECK_SECONDS <= recheck <= time.time() + CREDIT_RECHECK_SECONDS


@pytest.mark.parametrize(("provider", "status", "body"), PREPAID)
async def test_a_documented_spent_balance_is_raised_as_credits_spent(
    provider: str, status: int, body: str
) -> None:
    error = await _alone(provider, status, body)
    assert isinstance(error, CreditsSpentError)
    assert error.status == status


async def test_guard_tavily_plan_limit_still_waits_for_next_month() -> None:
    """Guard (passes before and after): 432 is the plan's monthly credits, not a balance."""
    assert await _mark_after("tavily", 432, TAVILY_PLAN) is None


async def test_guard_tavily_plan_limit_is_a_plain_spent_quota() -> None:
    """Guard (passes before and after): the class of 432 stays QuotaExhaustedError."""
    error = await _alone("tavily", 432, TAVILY_PLAN)
    assert type(error) is QuotaExhaustedError
