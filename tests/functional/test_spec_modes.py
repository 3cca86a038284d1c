"""Spec §Modes clauses the chain tests left unproved, end to end against the simulator.

The excluded set is a list of providers the chain "must never return, including as
fallbacks" (spec §Modes, Excluded providers). The chain tests prove it for the auto order
and the preferred provider; these prove it for the two other ways a provider is named: a
forced ``provider`` argument and an ordered ``providers`` list, and for the auto chain a
forced provider that cannot run falls back to.
"""

from collections.abc import AsyncIterator
from typing import Any

import pytest

from websearch_core import WebSearch
from websearch_core.testing import Simulator

ALL = ["tavily", "brave", "searxng", "duckduckgo"]
QUERY = "python asyncio"


@pytest.fixture
async def sim() -> AsyncIterator[Simulator]:
    async with Simulator(ALL) as simulator:
        yield simulator


def _client(sim: Simulator, **overrides: Any) -> WebSearch:
    keys = overrides.pop("api_keys", sim.api_keys())
    return WebSearch(sim.settings(**overrides), api_keys=keys)


def _hits(sim: Simulator) -> dict[str, int]:
    return {pid: len(sim[pid].requests) for pid in ALL}


async def test_a_forced_provider_that_is_excluded_is_never_asked(sim: Simulator) -> None:
    """Forcing cannot undo an exclusion; the auto chain (without it) answers instead."""
    async with _client(sim, exclude=("tavily",)) as ws:
        result = await ws.run(QUERY, provider="tavily")
    assert _hits(sim)["tavily"] == 0
    assert result.error is None and result.response.provider == "brave"
    assert [a.provider for a in result.response.attempts if a.outcome != "skipped"] == ["brave"]


async def test_an_excluded_entry_of_the_providers_list_is_never_asked(sim: Simulator) -> None:
    async with _client(sim, providers=("tavily", "searxng"), exclude=("tavily",)) as ws:
        result = await ws.run(QUERY)
    assert _hits(sim) == {"tavily": 0, "brave": 0, "searxng": 1, "duckduckgo": 0}
    assert result.error is None and result.response.provider == "searxng"


async def test_the_auto_chain_a_forced_provider_falls_back_to_leaves_out_the_excluded(
    sim: Simulator,
) -> None:
    keys = {pid: key for pid, key in sim.api_keys().items() if pid != "tavily"}
    async with _client(sim, api_keys=keys, exclude=("brave", "searxng")) as ws:
        result = await ws.run(QUERY, provider="tavily")
    assert _hits(sim) == {"tavily": 0, "brave": 0, "searxng": 0, "duckduckgo": 1}
    assert result.error is None and result.response.provider == "duckduckgo"
