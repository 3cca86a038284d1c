"""Parallel end to end through ``WebSearch`` against the loopback simulator.

Every call forces ``provider="parallel"`` so only Parallel runs, whatever else is registered.
"""

import json
import logging
from datetime import UTC, date, datetime, timedelta
from typing import Any, cast

import pytest
from aiohttp import web

from tests.functional._sim_helpers import fault_failure, sim_client, simulator_fixture
from tests.providers.test_parallel import body_for as expected_body
from websearch_core.errors import (
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.sanitize import LINE_LIMIT
from websearch_core.testing import Fault, RecordedRequest, SimResult, Simulator
from websearch_core.testing.protocols.parallel import ParallelProtocol
from websearch_core.utf16_text import truncate_text

QUERY = "solid state batteries"


def body_for(count: int = 10, **policy: Any) -> dict[str, Any]:
    """The ``/v1/search`` body expected for :data:`QUERY`."""
    return expected_body(QUERY, count, **policy)


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
    assert request.path == "/v1/search"
    assert request.query == ()
    assert request.header("x-api-key") == "sim-key-parallel"
    assert request.header("parallel-beta") is None
    assert request.header("Accept") == "application/json"
    assert (request.header("Content-Type") or "").startswith("application/json")
    assert request.json() == body_for()


async def test_limit_is_sent_as_max_results(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="parallel", limit=3)
    assert [s.title for s in response.sources] == [f"{QUERY} result {i}" for i in (1, 2, 3)]
    assert sim["parallel"].requests[0].json() == body_for(3)


async def test_a_long_query_reaches_the_simulator_whole_in_the_objective(sim: Simulator) -> None:
    query = " ".join(f"term{i:03d}" for i in range(60))  # 479 characters
    async with sim_client(sim) as ws:
        response = await ws.search(query, provider="parallel")
    # Derived from the objective, and cut as every provider's title is (caps51).
    assert response.sources[0].title == truncate_text(f"{query} result 1", LINE_LIMIT)
    body = sim["parallel"].requests[0].json()
    assert body["objective"] == query
    assert body["search_queries"] == [" ".join(f"term{i:03d}" for i in range(25))]


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
    # The excluded list does not go (one list a request) and is checked here, so three
    # times the count is asked for.
    assert sim["parallel"].requests[0].json() == body_for(
        30, include_domains=["nature.com"], after_date=after
    )


async def test_date_after_and_exclude_domains(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        await ws.search(
            QUERY, provider="parallel", date_after=date(2025, 1, 2), exclude_domains=("a.com",)
        )
    assert sim["parallel"].requests[0].json()["advanced_settings"]["source_policy"] == {
        "exclude_domains": ["a.com"],
        "after_date": "2025-01-02",
    }


async def test_country_reaches_parallel_as_location(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="parallel", country="GB")
    assert len(response.sources) == 10  # the simulator took the body as v1 allows it
    expected = body_for()
    expected["advanced_settings"]["location"] = "gb"
    assert sim["parallel"].requests[0].json() == expected


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


# --- warnings --------------------------------------------------------------------------------

LOCATION_WARNING = "Location 'zz' is not supported; searching without it."


def _warn(sim: Simulator, *messages: str) -> None:
    """Make every answer carry ``messages`` as Parallel's ``warnings``."""
    protocol = cast(ParallelProtocol, sim["parallel"].protocol)
    protocol.warnings = [{"type": "warning", "message": m, "detail": None} for m in messages]


async def test_a_warning_is_a_note_and_a_log_line_and_costs_no_result(
    sim: Simulator, caplog: pytest.LogCaptureFixture
) -> None:
    """Before, Parallel's warnings were dropped: no note, no log line."""
    _warn(sim, LOCATION_WARNING)
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="parallel", country="ZZ")
    assert result.error is None and len(result.response.sources) == 10
    assert result.response.notes == (f"Parallel warning: {LOCATION_WARNING}",)
    # The spec's text has no place for a provider's note: the model's text is unchanged.
    assert result.text.startswith(f"[1] {QUERY} result 1") and "warning" not in result.text
    (record,) = [r for r in caplog.records if r.name == "websearch_core.providers.parallel"]
    assert record.levelno == logging.WARNING
    assert record.getMessage() == f"Parallel warning: {LOCATION_WARNING}"


async def test_a_warning_explains_an_empty_answer(sim: Simulator) -> None:
    """Before, the error said the answer was empty and not why."""
    sim["parallel"].results = []
    _warn(sim, LOCATION_WARNING)
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="parallel")
    assert result.error == (
        f"Parallel returned no renderable search content. Parallel warning: {LOCATION_WARNING}"
    )


async def test_a_warning_echoing_the_key_says_it_masked(
    sim: Simulator, caplog: pytest.LogCaptureFixture
) -> None:
    """Before, no warning was read (nothing to mask; the note assertions fail then)."""
    key = sim.api_keys()["parallel"]
    _warn(sim, f"Key {key} is on a trial plan.", "Second warning.")
    caplog.set_level(logging.DEBUG)
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="parallel")
    assert result.response.notes == (
        "Parallel warning: Key *** is on a trial plan.",
        "Parallel warning: Second warning.",
    )
    seen = [result.text, result.response.model_dump_json(), *caplog.messages]
    assert not [text for text in seen if key in text]
    assert "Parallel warning: Key *** is on a trial plan; Parallel warning: Second warning." in (
        caplog.messages
    )


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

V1_BODY = {"search_queries": ["x"], "objective": "x", "mode": "turbo"}
LEGACY_BODY = {
    "objective": "x",
    "search_queries": ["x"],
    "mode": "fast",
    "excerpts": {"max_chars_per_result": 10000},
}


def _recorded(headers: dict[str, str], body: Any, path: str = "/v1/search") -> RecordedRequest:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    return RecordedRequest(method="POST", path=path, query=(), headers=headers, body=raw)


def _refusal(response: web.Response) -> tuple[int, dict[str, Any]]:
    assert isinstance(response.body, bytes)
    return response.status, json.loads(response.body)


def test_protocol_refuses_a_missing_key() -> None:
    response = ParallelProtocol().answer(_recorded({}, V1_BODY), [])
    assert response.status == 401


def test_protocol_serves_a_v1_request() -> None:
    response = ParallelProtocol().answer(_recorded({"x-api-key": "k"}, V1_BODY), [])
    assert response.status == 200


def test_protocol_refuses_the_legacy_beta_request() -> None:
    # The old wire, path and header and body, is what the provider used to send.
    legacy = {"x-api-key": "k", "parallel-beta": "search-extract-2025-10-10"}
    old_path = ParallelProtocol().answer(_recorded(legacy, LEGACY_BODY, "/v1beta/search"), [])
    assert old_path.status == 404
    beta_header = ParallelProtocol().answer(_recorded(legacy, V1_BODY), [])
    assert _refusal(beta_header)[0] == 422
    status, envelope = _refusal(
        ParallelProtocol().answer(_recorded({"x-api-key": "k"}, LEGACY_BODY), [])
    )
    assert status == 422
    assert envelope["type"] == "error"
    assert envelope["error"]["message"] == "Request validation error"
    assert envelope["error"]["detail"] == "body: unknown fields ['excerpts']"


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        (b"nope", "body: not JSON"),
        ({}, "search_queries: a list of one or more queries is required"),
        ({"objective": "x"}, "search_queries: a list of one or more queries is required"),
        ({"search_queries": [" "]}, "search_queries: each query must be a non-empty string"),
        ({"search_queries": ["q"] * 6}, "search_queries: at most 5 queries"),
        (
            {"search_queries": ["q" * 201]},
            "search_queries: each query must be at most 200 characters",
        ),
        ({**V1_BODY, "mode": "fast"}, "mode: must be one of ['advanced', 'basic', 'turbo']"),
        ({**V1_BODY, "source_policy": {}}, "body: unknown fields ['source_policy']"),
        (
            {**V1_BODY, "advanced_settings": {"excerpts": {}}},
            "advanced_settings: unknown fields ['excerpts']",
        ),
        (
            {**V1_BODY, "advanced_settings": {"location": "gbr"}},
            "advanced_settings.location: must be an ISO 3166-1 alpha-2 country code",
        ),
        (
            {**V1_BODY, "advanced_settings": {"source_policy": {"after_date": "2026-1-2"}}},
            "advanced_settings.source_policy.after_date: must be a YYYY-MM-DD date",
        ),
        (
            {
                **V1_BODY,
                "advanced_settings": {
                    "source_policy": {
                        "include_domains": ["a.com"] * 150,
                        "exclude_domains": ["b.com"] * 51,
                    }
                },
            },
            "advanced_settings.source_policy: at most 200 domains in all",
        ),
    ],
)
def test_protocol_refuses_what_v1_does_not_take(body: Any, detail: str) -> None:
    status, envelope = _refusal(ParallelProtocol().answer(_recorded({"x-api-key": "k"}, body), []))
    assert status == 422
    assert envelope["error"]["detail"] == detail


async def test_a_validation_refusal_reads_the_envelope_message(sim: Simulator) -> None:
    # The simulator's own 422 (envelope with ref_id, message and detail) as the answer.
    refusal = ParallelProtocol().answer(_recorded({"x-api-key": "k"}, LEGACY_BODY), [])
    assert isinstance(refusal.body, bytes)
    failure = await _failure(sim, Fault.http(422, refusal.body.decode()))
    assert type(failure) is SearchProviderError and failure.status == 422
    assert failure.message == "Parallel API error (422): Request validation error"


def test_protocol_falls_back_to_search_queries() -> None:
    body = {"search_queries": ["from queries"]}
    assert ParallelProtocol().query_of(_recorded({"x-api-key": "k"}, body)) == "from queries"


def test_protocol_challenge_is_a_403() -> None:
    assert ParallelProtocol().challenge().status == 403
