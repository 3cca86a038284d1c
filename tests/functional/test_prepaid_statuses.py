"""Each provider's documented out-of-credit answer is a spent prepaid balance, re-checked.

The loopback simulators answer with the status and body each service documents for a
balance or spend limit its owner tops up (Anthropic's 402, Exa's 402, Tavily's 433,
Jina's 402, Gemini's 402 to a key, Kagi's error 101, OpenAI's billing codes for Codex,
Kimi Code's 403 for a spent billing cycle);
the provider's mark must carry the re-check note, so it is asked again after
:data:`~websearch_core.orchestration.credit_probe.CREDIT_RECHECK_SECONDS` rather than next
month. Tavily's 432 (the plan's monthly credits) and OpenAI's assigned usage limit are the
guards that still wait.
"""

import json
import time
from typing import Final

import pytest

from tests.functional._sim_helpers import codex_sign_in
from websearch_core import WebSearch
from websearch_core.errors import (
    AllProvidersFailedError,
    AuthorizationError,
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

GEMINI_PREPAY: Final = json.dumps(
    {
        "error": {
            "code": 402,
            "message": "Your prepayment credits are depleted. Please go to AI Studio at "
            "https://ai.studio/projects to manage your project and billing. Learn more at "
            "https://ai.google.dev/gemini-api/docs/billing#prepay.",
            "status": "RESOURCE_EXHAUSTED",
        }
    }
)
"""Gemini's 402 to a key (discuss.ai.google.dev, "API update: Depleted prepay credits now
return HTTP 402 instead of 429")."""


def _kagi_error(code: int, message: str) -> str:
    """Kagi's error envelope (help.kagi.com/kagi/api/intro/response-format.html)."""
    meta = {"id": "e3b0c442", "node": "us-east", "ms": 0, "api_balance": 0.0}
    return json.dumps({"meta": meta, "data": None, "error": [{"code": code, "msg": message}]})


KAGI_CREDIT: Final = _kagi_error(101, "Insufficient credit")
"""Kagi's error 101; the status is not documented (a user reports 400, a client's error
reference 403), so both are tried."""


def _openai_error(code: str | None) -> str:
    """OpenAI's billing refusal: ``insufficient_quota`` told apart by ``error.code``
    (https://developers.openai.com/api/docs/guides/error-codes)."""
    message = "You exceeded your current quota, please check your plan and billing details."
    error = {"message": message, "type": "insufficient_quota", "param": None, "code": code}
    return json.dumps({"error": error})


def _kimi_error(message: str, kind: str) -> str:
    """Kimi Code's error envelope, ``{"error": {"message", "type"}}``."""
    return json.dumps({"error": {"message": message, "type": kind}})


KIMI_CYCLE: Final = _kimi_error(
    "You've reached your usage limit for this billing cycle. "
    "Your quota will be refreshed in the next cycle.",
    "access_terminated_error",
)
"""Kimi Code's spent billing cycle, 403 (keyword and status in
https://www.kimi.com/code/docs/en/kimi-code/error-reference.html); this whole body as a
quota probe's test of api.kimi.com/coding records it, the same sentences with
``permission_error`` as a Kimi router logged them live in 2026-08."""

KIMI_CYCLE_SHORT: Final = _kimi_error(
    "You've reached your usage limit for this billing cycle.", "permission_error"
)
"""The same refusal in its first sentence only, with ``permission_error`` (as an incident
report of a Kimi Code agent quotes it, 2026-03-16; an agent's fixture has it with
``access_terminated_error``): no "quota" word for the shared classifier, which read it as a
refused key."""

KIMI_CODING_AGENTS: Final = _kimi_error(
    "Kimi For Coding is currently only available for Coding Agents", "access_terminated_error"
)
"""Kimi Code's other documented 403 (same page): the key may not be used this way."""

PREPAID: Final = [
    ("anthropic", 402, BILLING),
    ("exa", 402, EXA_CREDITS),
    ("tavily", 433, TAVILY_PAYGO),
    ("jina", 402, JINA_BALANCE),
    ("gemini", 402, GEMINI_PREPAY),
    ("kagi", 400, KAGI_CREDIT),
    ("kagi", 403, KAGI_CREDIT),
    ("codex", 429, _openai_error("credit_balance_exhausted")),
    ("codex", 429, _openai_error("organization_spend_limit_exceeded")),
    ("codex", 429, _openai_error("project_spend_limit_exceeded")),
    ("kimi", 403, KIMI_CYCLE),
    ("kimi", 403, KIMI_CYCLE_SHORT),
]


def _fallback(provider: str) -> str:
    return "brave" if provider == "tavily" else "tavily"


def _sign_in(sim: Simulator, provider: str) -> None:
    """Store the ChatGPT sign-in Codex needs (it reads no key), as a login would."""
    if provider != "codex":
        return
    codex_sign_in(sim, refresh_token=None)


async def _mark_after(provider: str, status: int, body: str) -> float | None:
    """The re-check time the provider's mark carries after it answered ``status``."""
    fallback = _fallback(provider)
    async with Simulator([provider, fallback]) as sim:
        _sign_in(sim, provider)
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
        _sign_in(sim, provider)
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


@pytest.mark.parametrize("code", ["organization_usage_limit_exceeded", "insufficient_quota", None])
async def test_guard_openai_limits_its_owner_cannot_raise_still_wait(code: str | None) -> None:
    """Guard (passes before and after): OpenAI's assigned usage limit, or a billing refusal
    whose code does not say which, is a plain spent quota held out until next month."""
    assert await _mark_after("codex", 429, _openai_error(code)) is None
    error = await _alone("codex", 429, _openai_error(code))
    assert type(error) is QuotaExhaustedError


async def test_guard_kagi_bad_key_stays_an_authorization_failure() -> None:
    """Guard (passes before and after): Kagi's error 2 is no balance."""
    error = await _alone("kagi", 401, _kagi_error(2, "Unauthorized"))
    assert type(error) is AuthorizationError


async def _mark_after_refusal(provider: str, status: int, body: str) -> str | None:
    """The kind of mark the provider carries after it answered ``status`` and ``body``."""
    fallback = _fallback(provider)
    async with Simulator([provider, fallback]) as sim:
        sim[provider].always(Fault.http(status, body))
        settings = sim.settings(providers=(provider, fallback), cache=False)
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            answer = await ws.run("python asyncio")
            assert answer.response.provider == fallback
            mark = await (await ws.state()).get_mark(provider, time.time())
            return None if mark is None else mark.kind


async def test_guard_kimi_key_refused_for_this_use_stays_an_authorization_failure() -> None:
    """Guard (passes before and after): a 403 that names no billing cycle is no balance."""
    error = await _alone("kimi", 403, KIMI_CODING_AGENTS)
    assert type(error) is AuthorizationError
    assert await _mark_after_refusal("kimi", 403, KIMI_CODING_AGENTS) == "unauthorized"
