"""What a client makes once for all its searches must still follow each search.

A client keeps the chain's parts that depend only on it (:class:`~websearch_core.call_setup.
CallSetup`): the plan while the credentials stay the same, the marks' scope function of its
context, the redactor that follows its secrets, the fail-safe view of its store. Each of
these tests is a guard: it passed before they were kept, as it does now; each fails on a
cache that goes stale (said in each test's docstring), which is what it is there to catch.
"""

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from websearch_core import AllProvidersFailedError, Settings, WebSearch
from websearch_core.testing import Fault, Simulator

QUERY = "python asyncio"
LATER_KEY = "exa-LATECANARY-read-in-a-later-search-0123456789"


@pytest.fixture
async def sim() -> AsyncIterator[Simulator]:
    async with Simulator(["tavily", "brave", "duckduckgo", "exa"]) as simulator:
        yield simulator


def _chain(sim: Simulator, **overrides: Any) -> Settings:
    return sim.settings(providers=("tavily", "brave"), **overrides)


async def test_failing_searches_each_report_only_their_own_failures(sim: Simulator) -> None:
    """Guard: the kept plan is shared by every search and must not grow with their failures.

    Fails on a chain that appends a search's failures or attempts to the plan it was
    handed (the second search would report the first's failures before its own).
    """
    sim["tavily"].always(Fault.server_error(503))
    sim["brave"].always(Fault.server_error(502))
    async with WebSearch(_chain(sim), api_keys=sim.api_keys()) as ws:
        for _ in range(3):
            with pytest.raises(AllProvidersFailedError) as caught:
                await ws.search(QUERY, use_cache=False)
            # Failed, or skipped while cooling down: once each, in the plan's order.
            assert [error.provider for error in caught.value.failures] == ["tavily", "brave"]
            result = await ws.run(QUERY, use_cache=False)
            assert [a.provider for a in result.response.attempts] == ["tavily", "brave"]
            assert result.error is not None


async def test_a_forced_provider_and_the_auto_chain_in_turn_each_get_their_plan(
    sim: Simulator,
) -> None:
    """Guard: the kept plan is the plan of the search's forced provider, or of none.

    Fails on a plan kept without regard to the forced provider (searches in turn would
    be answered by whichever was planned first).
    """
    async with WebSearch(_chain(sim), api_keys=sim.api_keys()) as ws:
        for forced in (None, "brave", "brave", None, "tavily", None):
            response = await ws.search(QUERY, use_cache=False, provider=forced)
            assert response.provider == (forced or "tavily")


async def test_replaced_settings_are_planned_by_the_next_search(sim: Simulator) -> None:
    """Guard: a client whose settings are replaced plans its next search from the new ones.

    Fails on a setup (and its kept plan) that outlives the settings it was made from.
    """
    async with WebSearch(_chain(sim), api_keys=sim.api_keys()) as ws:
        assert (await ws.search(QUERY, use_cache=False)).provider == "tavily"
        ws.settings = sim.settings(providers=("duckduckgo", "brave"))
        assert (await ws.search(QUERY, use_cache=False)).provider == "duckduckgo"
        ws.settings = _chain(sim, exclude=("tavily",))
        assert (await ws.search(QUERY, use_cache=False)).provider == "brave"


async def test_a_key_exported_between_searches_is_planned_and_masked(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Guard: the kept plan and redactor follow a key exported after the first search.

    Fails on a plan kept past a change of the environment (Brave would stay unplanned), and
    on a redactor kept past the first search without following the credentials' secrets
    (the key Brave's upstream echoes would be shown).
    """
    monkeypatch.delenv("BRAVE_API_KEY", raising=False)
    body = json.dumps({"error": {"message": f"Invalid subscription token {LATER_KEY}."}})
    sim["brave"].always(Fault.http(400, body, {"Content-Type": "application/json"}))
    settings = sim.settings(exclude=("tavily", "exa"))  # the auto chain: Brave, DuckDuckGo
    async with WebSearch(settings) as ws:
        first = await ws.run(QUERY, use_cache=False)
        assert [a.provider for a in first.response.attempts] == ["duckduckgo"]
        monkeypatch.setenv("BRAVE_API_KEY", LATER_KEY)
        second = await ws.run(QUERY, use_cache=False)
    assert sim["brave"].requests  # asked with the key, which it echoed
    assert [(a.provider, a.outcome) for a in second.response.attempts] == [
        ("brave", "failed"),
        ("duckduckgo", "success"),
    ]
    shown = second.text + json.dumps(second.to_metadata(), default=str)
    assert LATER_KEY not in shown
    assert "***" in shown


async def test_two_clients_on_one_state_file_keep_marks_to_their_own_keys(
    sim: Simulator, tmp_path: Path
) -> None:
    """Guard: each client's marks are scoped by its own context, side by side.

    A key Brave refuses marks Brave for that key only: the other client, with another key
    and the same state file, is still answered by Brave. Fails on a marks' scope kept for
    settings rather than for each client's context (both clients' settings are equal).
    """
    settings = sim.settings(providers=("brave",), state_backend="sqlite", state_dir=tmp_path)
    refused = WebSearch(settings, api_keys={"brave": "brave-key-refused-0123456789"})
    working = WebSearch(settings, api_keys={"brave": "brave-key-working-0123456789"})
    async with refused, working:
        assert (await working.search(QUERY, use_cache=False)).provider == "brave"
        sim["brave"].enqueue(Fault.unauthorized())
        with pytest.raises(AllProvidersFailedError):
            await refused.search(QUERY, use_cache=False)
        again = await refused.run(QUERY, use_cache=False)
        assert [a.outcome for a in again.response.attempts] == ["skipped"]
        answered = await working.search(QUERY, use_cache=False)
    assert [a.outcome for a in answered.attempts] == ["success"]
    assert len(sim["brave"].requests) == 3  # the refused key's second search sent nothing


def test_one_client_searching_on_two_loops_in_turn() -> None:
    """Guard: a client used from one event loop, then another, answers on each.

    Each loop keeps its own setup (the session is the loop's); fails on per-client parts
    kept across loops that hold the first loop's session or store.
    """
    with Simulator(["tavily", "brave"]).running_in_thread() as sim:
        ws = WebSearch(_chain(sim), api_keys=sim.api_keys())

        async def search() -> str:
            return (await ws.search(QUERY, use_cache=False)).provider

        async def search_and_close() -> str:
            try:
                return await search()
            finally:
                await ws.aclose()

        assert asyncio.run(search()) == "tavily"
        assert asyncio.run(search_and_close()) == "tavily"
        assert len(sim["tavily"].requests) == 2
