"""Synthetic end to end through ``WebSearch`` against the loopback simulator.

Every call forces ``provider="synthetic"`` so only Synthetic runs.
"""

from typing import Any, cast

from tests.functional._sim_helpers import only_failure, sim_client, simulator_fixture
from websearch_core import WebSearch
from websearch_core.chain import resolve_candidates
from websearch_core.credentials import Credentials
from websearch_core.errors import (
    ResponseParseError,
)
from websearch_core.providers.base import ProviderContext
from websearch_core.testing import Fault, Simulator
from websearch_core.transport import Transport

QUERY = "python requests library"
SLUG = "python-requests-library"


sim = simulator_fixture("synthetic")


async def _failure(ws: WebSearch, **params: Any) -> BaseException:
    return await only_failure(ws, "synthetic", QUERY, **params)


# --- request shape and success ---------------------------------------------------------------


async def test_success_and_request_shape(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="synthetic")
    assert result.error is None
    response = result.response
    assert response.provider == "synthetic"
    assert response.auth_mode == "api_key"
    assert [a.outcome for a in response.attempts] == ["success"]
    assert len(response.sources) == 10
    first = response.sources[0]
    assert first.title == f"{QUERY} result 1"
    assert first.url == f"https://site1.example.org/{SLUG}"
    assert first.snippet == f"Snippet 1 about {QUERY}."
    assert first.published_date == "2026-01-01T00:00:00.000Z"
    assert first.age_seconds is not None
    assert result.text.startswith(f"[1] {QUERY} result 1 (")

    (request,) = sim["synthetic"].requests
    assert request.method == "POST"
    assert request.path == "/v2/search"
    assert request.query == ()
    assert request.header("Authorization") == "Bearer sim-key-synthetic"
    assert request.header("Content-Type") == "application/json"
    assert request.json() == {"query": QUERY}


async def test_count_is_applied_locally_and_never_sent(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="synthetic", limit=3)
    assert [s.title for s in response.sources] == [f"{QUERY} result {i}" for i in (1, 2, 3)]
    assert sim["synthetic"].requests[0].json() == {"query": QUERY}


def test_auto_chain_needs_a_key(sim: Simulator) -> None:
    def chain(keys: dict[str, str]) -> list[str]:
        context = ProviderContext(
            transport=cast(Transport, None),
            settings=sim.settings(),
            credentials=Credentials(explicit=keys, environ={}),
        )
        providers = resolve_candidates(context, order=("synthetic",)).providers
        return [p.info.id for p in providers]

    assert chain({}) == []
    assert chain({"synthetic": "k"}) == ["synthetic"]


# --- faults ----------------------------------------------------------------------------------


async def test_malformed_body(sim: Simulator) -> None:
    sim["synthetic"].always(Fault.malformed())
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="synthetic")
        failure = await _failure(ws)
    assert result.error == "Synthetic API returned an unexpected response shape"
    assert isinstance(failure, ResponseParseError)


async def test_empty_results_are_not_a_success(sim: Simulator) -> None:
    sim["synthetic"].results = []
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="synthetic")
    assert result.error == "Synthetic returned no renderable search content."
