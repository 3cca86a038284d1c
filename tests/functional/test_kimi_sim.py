"""Kimi Code search end to end through ``WebSearch`` against the loopback simulator.

Every call forces ``provider="kimi"`` so only Kimi runs, whatever else is registered.
"""

import hashlib
import json
from datetime import date
from typing import Any

import pytest

from tests.functional._sim_helpers import fault_failure, fault_result, sim_client, simulator_fixture
from websearch_core import WebSearch
from websearch_core.errors import (
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.providers import SEARCH_PROVIDER_ORDER
from websearch_core.testing import Fault, RecordedRequest, SimResult, Simulator
from websearch_core.testing.protocols.kimi import KimiProtocol

QUERY = "kimi k2 release notes"
OTHERS = tuple(pid for pid in SEARCH_PROVIDER_ORDER if pid != "kimi")
"""Excluded where the auto chain runs, so no other provider can reach the network."""


@pytest.fixture(autouse=True)
def _no_url_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MOONSHOT_SEARCH_BASE_URL", raising=False)
    monkeypatch.delenv("KIMI_SEARCH_BASE_URL", raising=False)


sim = simulator_fixture("kimi")


async def _failure(sim: Simulator, fault: Fault, **overrides: Any) -> SearchProviderError:
    return await fault_failure(sim, "kimi", QUERY, fault, overrides)


async def _error_text(sim: Simulator, fault: Fault) -> str:
    return (await fault_result(sim, "kimi", QUERY, fault)).text


# --- request shape and success ----------------------------------------------------------------


async def test_request_shape_and_parsed_results(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="kimi", limit=3)

    (request,) = sim["kimi"].requests
    assert request.method == "POST"
    assert request.path == "/coding/v1/search"
    assert request.query == ()
    assert request.header("Authorization") == "Bearer sim-key-kimi"
    assert request.header("Accept") == "application/json"
    assert request.header("Content-Type") == "application/json"
    assert request.json() == {
        "text_query": QUERY,
        "limit": 3,
        "enable_page_crawling": False,
        "timeout_seconds": 30,
    }

    assert response.provider == "kimi"
    assert response.auth_mode == "api_key"
    assert response.request_id == hashlib.sha256(QUERY.encode()).hexdigest()[:24]
    assert [(s.title, s.url, s.snippet, s.author) for s in response.sources] == [
        (
            f"{QUERY} result {i}",
            f"https://site{i}.example.org/kimi-k2-release-notes",
            f"Snippet {i} about {QUERY}.",
            f"site{i}.example.org",
        )
        for i in (1, 2, 3)
    ]
    assert [s.published_date for s in response.sources] == [
        "2026-01-01",
        "2026-01-02",
        "2026-01-03",
    ]
    assert all(s.age_seconds is not None for s in response.sources)


async def test_limit_defaults_to_10_and_caps_at_20(sim: Simulator) -> None:
    sim["kimi"].results = [
        SimResult(title=f"r{i}", url=f"https://r{i}.example.org/", snippet="s") for i in range(30)
    ]
    async with sim_client(sim) as ws:
        default = await ws.search(QUERY, provider="kimi")
        capped = await ws.search(QUERY, provider="kimi", num_search_results=50)
    assert [r.json()["limit"] for r in sim["kimi"].requests] == [10, 20]
    assert (len(default.sources), len(capped.sources)) == (10, 20)


async def test_tool_text(sim: Simulator) -> None:
    sim["kimi"].results = [
        SimResult(title="Kimi K2", url="https://moonshot.example/k2", snippet="Released."),
    ]
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="kimi", date_after=date(2020, 1, 1))
    # Kimi has no date filter and the result no date: kept, and the model is told.
    assert result.text == (
        "[1] Kimi K2\n    https://moonshot.example/k2\n    Released.\n"
        "Filters not applied: date_after=2020-01-01 (some results unchecked)."
    )
    assert "date" not in json.dumps(sim["kimi"].requests[0].json())


async def test_full_url_override_from_the_environment(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KIMI_SEARCH_BASE_URL", sim["kimi"].base_url + "/custom/search")
    async with WebSearch(sim.settings(base_urls={}), api_keys={"kimi": "k"}) as ws:
        response = await ws.search(QUERY, provider="kimi", limit=1)
    assert sim["kimi"].requests[0].path == "/custom/search"
    assert len(response.sources) == 1


async def test_auto_chain_uses_the_search_key_from_the_environment(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KIMI_SEARCH_API_KEY", "sk-kimi-env")
    async with WebSearch(sim.settings(exclude=OTHERS)) as ws:
        response = await ws.search(QUERY)
    assert response.provider == "kimi"
    assert sim["kimi"].requests[0].header("Authorization") == "Bearer sk-kimi-env"


async def test_moonshot_api_key_alone_does_not_enable_kimi(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MOONSHOT_API_KEY", "sk-open-platform")
    async with WebSearch(sim.settings(exclude=OTHERS)) as ws:
        auto = await ws.run(QUERY)
        forced = await ws.run(QUERY, provider="kimi")
    assert auto.text == "Error: No web search provider configured."
    # an explicit selection of an unavailable provider says why, then falls back to the
    # (empty) auto chain
    assert forced.text == (
        "Error: No web search provider configured. Kimi was forced but cannot run (no API key: "
        "set MOONSHOT_SEARCH_API_KEY or KIMI_SEARCH_API_KEY, or store the key with "
        "'websearch auth set kimi'); fell back to the auto chain."
    )
    assert sim["kimi"].requests == []


async def test_no_results_is_an_empty_response_error(sim: Simulator) -> None:
    sim["kimi"].results = []
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="kimi")
    assert result.text == "Error: Kimi returned no renderable search content."


# --- faults -----------------------------------------------------------------------------------


async def test_malformed_chat_completions_body_is_a_parse_error(sim: Simulator) -> None:
    failure = await _failure(sim, Fault.malformed())
    assert isinstance(failure, ResponseParseError)
    assert failure.message == "Kimi search API returned an unexpected response shape"
    assert await _error_text(sim, Fault.malformed()) == (
        "Error: Kimi search API returned an unexpected response shape"
    )


# --- the protocol itself ----------------------------------------------------------------------


def test_the_protocol_needs_a_bearer_token_and_a_text_query() -> None:
    protocol = KimiProtocol()
    no_token = RecordedRequest(
        method="POST", path="/coding/v1/search", query=(), headers={}, body=b"{}"
    )
    assert protocol.answer(no_token, []).status == 401
    no_query = RecordedRequest(
        method="POST",
        path="/coding/v1/search",
        query=(),
        headers={"Authorization": "Bearer k"},
        body=b'{"query": "x"}',
    )
    assert protocol.answer(no_query, []).status == 400
