"""Parallel end to end through ``WebSearch`` against the loopback simulator.

Every call forces ``provider="parallel"`` so only Parallel runs, whatever else is registered.
"""

from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest

from tests.functional._sim_helpers import fault_failure, sim_client, simulator_fixture
from websearch_core.errors import (
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.testing import Fault, RecordedRequest, SimResult, Simulator
from websearch_core.testing.protocols.parallel import ParallelProtocol

QUERY = "solid state batteries"
BASE_BODY = {
    "objective": QUERY,
    "search_queries": [QUERY],
    "mode": "fast",
    "excerpts": {"max_chars_per_result": 10000},
}


sim = simulator_fixture("parallel")


async def _failure(
    sim: Simulator, fault: Fault, overrides: dict[str, Any] | None = None
) -> SearchProviderError:
    return await fault_failure(sim, "parallel", QUERY, fault, overrides)


# --- request shape and success ----------------------------------------------------------------


async def test_request_shape_and_parsed_response(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="parallel")
    assert result.error is None
    response = result.response
    assert response.provider == "parallel"
    assert response.auth_mode == "api_key"
    assert [a.outcome for a in response.attempts] == ["success"]
    assert len(response.sources) == 10
    first = response.sources[0]
    # The protocol read the query from ``objective``, so results are derived from it.
    assert first.title == f"{QUERY} result 1"
    assert first.url == "https://site1.example.org/solid-state-batteries"
    assert first.snippet == f"Snippet 1 about {QUERY}.\n\nMore about {QUERY} result 1."
    assert first.published_date == "2026-01-01"
    assert first.age_seconds is not None
    assert response.request_id is not None and response.request_id.startswith("search_")
    assert result.text.startswith(f"[1] {QUERY} result 1")

    (request,) = sim["parallel"].requests
    assert request.method == "POST"
    assert request.path == "/v1beta/search"
    assert request.query == ()
    assert request.header("x-api-key") == "sim-key-parallel"
    assert request.header("parallel-beta") == "search-extract-2025-10-10"
    assert request.header("Accept") == "application/json"
    assert (request.header("Content-Type") or "").startswith("application/json")
    assert request.json() == BASE_BODY


async def test_limit_slices_locally_and_is_not_sent(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="parallel", limit=3)
    assert [s.title for s in response.sources] == [f"{QUERY} result {i}" for i in (1, 2, 3)]
    assert sim["parallel"].requests[0].json() == BASE_BODY


async def test_recency_and_domains_become_a_source_policy(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        await ws.run(  # only the request matters: no simulated result is on nature.com
            QUERY,
            provider="parallel",
            recency="month",
            include_domains=("nature.com",),
            exclude_domains=("reddit.com",),
        )
    after = (datetime.now(UTC).date() - timedelta(days=30)).isoformat()
    assert sim["parallel"].requests[0].json() == {
        **BASE_BODY,
        "source_policy": {"include_domains": ["nature.com"], "after_date": after},
    }


async def test_date_after_and_exclude_domains(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        await ws.search(
            QUERY, provider="parallel", date_after=date(2025, 1, 2), exclude_domains=("a.com",)
        )
    assert sim["parallel"].requests[0].json()["source_policy"] == {
        "exclude_domains": ["a.com"],
        "after_date": "2025-01-02",
    }


async def test_explicit_results_are_served_as_set(sim: Simulator) -> None:
    sim["parallel"].results = [
        SimResult(title="Only", url="https://only.example.org/", snippet="one", published=None)
    ]
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="parallel")
    (source,) = response.sources
    assert (source.title, source.url) == ("Only", "https://only.example.org/")
    assert source.snippet == "one\n\nMore about Only."
    assert source.published_date is None


# --- faults ----------------------------------------------------------------------------------


async def test_error_envelope_message_is_quoted(sim: Simulator) -> None:
    body = '{"type": "error", "error": {"ref_id": "r1", "message": "Request validation error"}}'
    failure = await _failure(sim, Fault.http(422, body))
    assert type(failure) is SearchProviderError and failure.status == 422
    assert failure.message == "Parallel API error (422): Request validation error"


async def test_malformed_body(sim: Simulator) -> None:
    failure = await _failure(sim, Fault.malformed())
    assert isinstance(failure, ResponseParseError)
    assert failure.message.startswith("Parallel search returned invalid JSON: ")


async def test_wrong_shape_body(sim: Simulator) -> None:
    failure = await _failure(sim, Fault.http(200, '{"search_id": "s", "results": null}'))
    assert isinstance(failure, ResponseParseError)
    assert failure.message == "Parallel search returned an invalid response payload."


# --- the protocol on its own ------------------------------------------------------------------


def _recorded(headers: dict[str, str], body: bytes) -> RecordedRequest:
    return RecordedRequest(
        method="POST", path="/v1beta/search", query=(), headers=headers, body=body
    )


def test_protocol_refuses_a_missing_key() -> None:
    response = ParallelProtocol().answer(_recorded({}, b'{"objective": "x"}'), [])
    assert response.status == 401


@pytest.mark.parametrize("body", [b"nope", b"{}", b'{"objective": " ", "search_queries": []}'])
def test_protocol_refuses_a_request_without_an_objective(body: bytes) -> None:
    response = ParallelProtocol().answer(_recorded({"x-api-key": "k"}, body), [])
    assert response.status == 422


def test_protocol_falls_back_to_search_queries() -> None:
    body = b'{"search_queries": ["from queries"]}'
    response = ParallelProtocol().answer(_recorded({"x-api-key": "k"}, body), [])
    assert response.status == 200


def test_protocol_challenge_is_a_403() -> None:
    assert ParallelProtocol().challenge().status == 403
