"""A spent prepaid balance is re-checked by one request instead of waiting for next month.

Anthropic's low credit balance (400), xAI's spent credits (429) and Z.AI's arrears (429,
code 1113) come from the loopback simulators; the chain falls back to Tavily meanwhile.
Time is not waited out: the mark a real failure left is moved back by the re-check wait
(:func:`_age`), as if set that long ago, and the note the failure wrote is checked first.
"""

import asyncio
import dataclasses
import json
import time
from collections.abc import AsyncIterator
from typing import Any, Final

import pytest

from tests.functional._sim_helpers import sim_client
from websearch_core import WebSearch
from websearch_core.orchestration.credit_probe import (
    CREDIT_RECHECK_SECONDS,
    keep_recheck,
    next_recheck,
)
from websearch_core.orchestration.quota import utc_text
from websearch_core.state.base import StateStore
from websearch_core.testing import Fault, Simulator
from websearch_core.testing.protocols.anthropic import AnthropicProtocol
from websearch_core.testing.protocols.xai import XaiProtocol

FALLBACK = "tavily"


@pytest.fixture(params=["anthropic", "xai", "zai"])
def prepaid(request: pytest.FixtureRequest) -> str:
    """The provider whose prepaid balance runs out."""
    return str(request.param)


@pytest.fixture
async def sim(prepaid: str) -> AsyncIterator[Simulator]:
    async with Simulator([prepaid, FALLBACK]) as simulator:
        yield simulator


ARREARS: Final = json.dumps(
    {"error": {"code": "1113", "message": "Your account is in arrears, please recharge"}}
)
"""Z.AI's answer to a spent balance (https://docs.z.ai/api-reference/api-code): HTTP 429."""


def _spend(sim: Simulator, provider: str, spent: bool) -> None:
    if provider == "zai":  # its simulator has no balance of its own: the answer is a fault
        sim[provider].always(Fault.http(429, ARREARS) if spent else None)
        return
    protocol = sim[provider].protocol
    assert isinstance(protocol, AnthropicProtocol | XaiProtocol)
    protocol.credits_spent = spent


def _client(sim: Simulator, provider: str, state: dict[str, Any]) -> WebSearch:
    # Kept local: each test's chain is the prepaid provider, then FALLBACK.
    return sim_client(sim, providers=(provider, FALLBACK), cache=False, **state)


async def _spent_and_skipped(ws: WebSearch, sim: Simulator, provider: str) -> None:
    """The balance runs out: one request fails, the next search skips the provider."""
    _spend(sim, provider, True)
    first = await ws.run("python asyncio")
    second = await ws.run("python asyncio")
    assert first.response.provider == second.response.provider == FALLBACK
    assert len(sim[provider].requests) == 1
    assert second.response.attempts[0].outcome == "skipped"


async def _age(store: StateStore, provider: str) -> None:
    """Move the provider's mark back by the re-check wait, as if it were set that long ago.

    The failure's own note must be there first (it names the re-check time), or the
    re-check would be this helper's doing.
    """
    now = time.time()
    mark = await store.get_mark(provider, now)
    assert mark is not None and mark.kind == "exhausted"
    assert await next_recheck(store, provider, mark, now) == mark.set_at + CREDIT_RECHECK_SECONDS
    aged = dataclasses.replace(mark, set_at=mark.set_at - CREDIT_RECHECK_SECONDS - 1)
    await store.set_mark(provider, aged)
    await keep_recheck(store, provider, aged)


async def test_a_topped_up_balance_is_asked_again_and_its_mark_cleared(
    sim: Simulator, prepaid: str, any_state: dict[str, Any]
) -> None:
    async with _client(sim, prepaid, any_state) as ws:
        await _spent_and_skipped(ws, sim, prepaid)
        await _age(await ws.state(), prepaid)
        _spend(sim, prepaid, False)  # the owner tops the balance up
        probed = await ws.run("python asyncio")
        after = await ws.run("python asyncio")
        store = await ws.state()
        assert await store.get_mark(prepaid, time.time()) is None
    # Answered by the provider itself (Z.AI's answer takes a session's three requests).
    assert probed.response.provider == after.response.provider == prepaid


async def test_a_balance_still_spent_is_asked_once_by_many_searches_and_renewed(
    sim: Simulator, prepaid: str, any_state: dict[str, Any]
) -> None:
    async with _client(sim, prepaid, any_state) as ws:
        await _spent_and_skipped(ws, sim, prepaid)
        await _age(await ws.state(), prepaid)
        answers = await asyncio.gather(*(ws.run(f"query {n}") for n in range(6)))
        assert {a.response.provider for a in answers} == {FALLBACK}
        assert len(sim[prepaid].requests) == 2  # one probe among six searches
        later = await ws.run("python asyncio")  # renewed: no probe until the wait passes
    assert later.response.provider == FALLBACK
    assert len(sim[prepaid].requests) == 2


async def test_two_clients_on_one_store_send_one_probe(
    sim: Simulator, prepaid: str, any_state: dict[str, Any]
) -> None:
    if any_state["state_backend"] == "memory":
        pytest.skip("a memory store is one client's own")
    async with _client(sim, prepaid, any_state) as one, _client(sim, prepaid, any_state) as two:
        await _spent_and_skipped(one, sim, prepaid)
        await _age(await one.state(), prepaid)
        searches = [client.run(f"query {n}") for n in range(3) for client in (one, two)]
        answers = await asyncio.gather(*searches)
    assert {a.response.provider for a in answers} == {FALLBACK}
    assert len(sim[prepaid].requests) == 2


async def test_the_providers_table_says_when_the_balance_is_checked_again(
    sim: Simulator, prepaid: str, any_state: dict[str, Any]
) -> None:
    async with _client(sim, prepaid, any_state) as ws:
        await _spent_and_skipped(ws, sim, prepaid)
        store = await ws.state()
        mark = await store.get_mark(prepaid, time.time())
        assert mark is not None
        rows = {row.id: row for row in await ws.provider_status()}
        due = utc_text(mark.set_at + CREDIT_RECHECK_SECONDS)
        assert rows[prepaid].reason.endswith(f"; its credits are checked again from {due}")
        await _age(store, prepaid)
        rows = {row.id: row for row in await ws.provider_status()}
    assert rows[prepaid].reason.endswith("; its credits are checked again by the next search")


async def test_a_forced_search_that_succeeds_clears_the_mark(
    sim: Simulator, prepaid: str, any_state: dict[str, Any]
) -> None:
    """Naming the marked provider asks it at once; its answer proves the balance is back."""
    async with _client(sim, prepaid, any_state) as ws:
        await _spent_and_skipped(ws, sim, prepaid)
        _spend(sim, prepaid, False)  # topped up before any re-check is due
        forced = await ws.run("python asyncio", provider=prepaid)
        after = await ws.run("python asyncio")
        store = await ws.state()
        assert await store.get_mark(prepaid, time.time()) is None
    assert forced.response.provider == after.response.provider == prepaid


async def test_guard_a_free_tier_quota_still_waits_for_next_month(
    any_state: dict[str, Any],
) -> None:
    """Guard (passes before and after the re-check): Brave's 402 has no balance to top up,
    so its mark is not re-checked after six hours, and a forced success does not clear it."""
    async with Simulator(["brave", FALLBACK]) as sim:
        sim["brave"].always(Fault.payment_required())
        settings = sim.settings(providers=("brave", FALLBACK), cache=False, **any_state)
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            await ws.run("python asyncio")
            store = await ws.state()
            mark = await store.get_mark("brave", time.time())
            assert mark is not None and mark.kind == "exhausted"
            assert await next_recheck(store, "brave", mark, time.time()) is None
            aged = dataclasses.replace(mark, set_at=mark.set_at - CREDIT_RECHECK_SECONDS - 1)
            await store.set_mark("brave", aged)
            later = await ws.run("python asyncio")
            assert later.response.provider == FALLBACK
            assert len(sim["brave"].requests) == 1
            sim["brave"].always(None)
            forced = await ws.run("python asyncio", provider="brave")
            mark = await store.get_mark("brave", time.time())
        assert forced.response.provider == "brave"
        assert mark is not None and mark.kind == "exhausted"
