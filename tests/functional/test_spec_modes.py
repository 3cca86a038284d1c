"""Spec §Modes clauses the chain tests left unproved, end to end against the simulator.

The excluded set is a list of providers the chain "must never return, including as
fallbacks" (spec §Modes, Excluded providers). The chain tests prove it for the auto order
and the preferred provider; these prove it for the two other ways a provider is named: a
forced ``provider`` argument and an ordered ``providers`` list, and for the auto chain a
forced provider that cannot run falls back to.
"""

from collections.abc import AsyncIterator

import pytest

from tests.functional._sim_helpers import requests_per_provider, sim_client, simulator_fixture
from websearch_core import WebSearch
from websearch_core.testing import Simulator

ALL = ["tavily", "brave", "searxng", "duckduckgo"]
QUERY = "python asyncio"


sim = simulator_fixture(*ALL)


async def test_a_forced_provider_that_is_excluded_is_never_asked(sim: Simulator) -> None:
    """Forcing cannot undo an exclusion; the auto chain (without it) answers instead."""
    async with sim_client(sim, exclude=("tavily",)) as ws:
        result = await ws.run(QUERY, provider="tavily")
    assert requests_per_provider(sim)["tavily"] == 0
    assert result.error is None and result.response.provider == "brave"
    assert [a.provider for a in result.response.attempts if a.outcome != "skipped"] == ["brave"]


async def test_an_excluded_entry_of_the_providers_list_is_never_asked(sim: Simulator) -> None:
    async with sim_client(sim, providers=("tavily", "searxng"), exclude=("tavily",)) as ws:
        result = await ws.run(QUERY)
    assert requests_per_provider(sim) == {"tavily": 0, "brave": 0, "searxng": 1, "duckduckgo": 0}
    assert result.error is None and result.response.provider == "searxng"


async def test_the_auto_chain_a_forced_provider_falls_back_to_leaves_out_the_excluded(
    sim: Simulator,
) -> None:
    keys = {pid: key for pid, key in sim.api_keys().items() if pid != "tavily"}
    async with sim_client(sim, api_keys=keys, exclude=("brave", "searxng")) as ws:
        result = await ws.run(QUERY, provider="tavily")
    assert requests_per_provider(sim) == {"tavily": 0, "brave": 0, "searxng": 0, "duckduckgo": 1}
    assert result.error is None and result.response.provider == "duckduckgo"


@pytest.fixture
async def perplexity_sim(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Simulator]:
    monkeypatch.delenv("PERPLEXITY_COOKIES", raising=False)
    async with Simulator(["perplexity"]) as simulator:
        yield simulator


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        ({"num_search_results": 3}, 10),  # breadth only: nothing for the ask endpoint to cut
        ({"limit": 4, "num_search_results": 2}, 4),  # limit alone cuts the sources
        ({"limit": 2, "num_search_results": 4}, 2),  # guard: limit cuts (passes both ways)
    ],
)
async def test_perplexity_s_ask_mode_cuts_its_sources_by_limit_alone(
    perplexity_sim: Simulator, counts: dict[str, int], expected: int
) -> None:
    """Spec §Modes, Perplexity: ``num_search_results`` is upstream breadth in API-key mode
    only; ``limit`` slices the sources in both modes. The ask endpoint (anonymous here,
    as with cookies or OAuth) takes no count, so ``num_search_results`` changes nothing."""
    async with WebSearch(perplexity_sim.settings(), api_keys={}) as ws:
        response = await ws.search(QUERY, provider="perplexity", **counts)
    assert response.auth_mode == "anonymous"
    assert "num_search_results" not in str(perplexity_sim["perplexity"].requests[0].json())
    assert len(response.sources) == expected


@pytest.mark.parametrize(
    ("provider", "path", "auth_mode"),
    [("perplexity", "/rest/sse/perplexity_ask", "anonymous"), ("exa", "/mcp", "keyless")],
)
async def test_a_preferred_provider_without_credentials_runs_keyless_before_the_chain(
    monkeypatch: pytest.MonkeyPatch, provider: str, path: str, auth_mode: str
) -> None:
    """Spec §Modes: the preferred provider is gated by explicit availability, so the
    ``provider`` setting (the reference's ``providers.webSearch``) reaches Perplexity's
    anonymous search and Exa's keyless MCP, which the auto chain never picks without a key.
    Guard: passes on the code before it; fails if the preferred provider were gated like
    the auto chain."""
    monkeypatch.delenv("PERPLEXITY_COOKIES", raising=False)
    async with Simulator([provider, "duckduckgo"]) as simulator:
        async with WebSearch(simulator.settings(provider=provider), api_keys={}) as ws:
            result = await ws.run(QUERY)
        assert [request.path for request in simulator[provider].requests] == [path]
        assert len(simulator["duckduckgo"].requests) == 0
    assert result.error is None
    assert (result.response.provider, result.response.auth_mode) == (provider, auth_mode)
