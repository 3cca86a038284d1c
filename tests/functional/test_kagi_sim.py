"""Kagi end to end through ``WebSearch`` against the loopback simulator.

Every call forces ``provider="kagi"`` so only Kagi runs, whatever else is registered.
"""

import json
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from aiohttp import web

from tests.functional._sim_helpers import fault_failure, sim_client, simulator_fixture
from websearch_core.errors import (
    AuthorizationError,
    QuotaExhaustedError,
    RateLimitedError,
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.testing import Fault, RecordedRequest, SimResult, Simulator
from websearch_core.testing.protocols.kagi import KagiProtocol, error_body
from websearch_core.testing.simulator import default_results

QUERY = "steve jobs biography"


sim = simulator_fixture("kagi")


async def _failure(
    sim: Simulator, fault: Fault, overrides: dict[str, Any] | None = None
) -> SearchProviderError:
    return await fault_failure(sim, "kagi", QUERY, fault, overrides)


# --- request shape and success ----------------------------------------------------------------


async def test_request_shape_and_parsed_response(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="kagi")
    assert result.error is None
    response = result.response
    assert response.provider == "kagi"
    assert [a.outcome for a in response.attempts] == ["success"]
    assert len(response.sources) == 10
    first = response.sources[0]
    assert first.title == f"{QUERY} result 1"
    assert first.url == "https://site1.example.org/steve-jobs-biography"
    assert first.snippet == f"Snippet 1 about {QUERY}."
    assert first.published_date == "2026-01-01T00:00:00Z"
    assert first.age_seconds is not None
    assert response.related_questions == (f"{QUERY} tutorial", f"{QUERY} examples")
    assert response.answer == f"Simulated direct answer about {QUERY}."
    assert response.request_id is not None and response.request_id.startswith("trace-")
    assert result.text.startswith(f"Simulated direct answer about {QUERY}.\n\n## Sources\n")

    (request,) = sim["kagi"].requests
    assert request.method == "POST"
    assert request.path == "/api/v1/search"
    assert request.query == ()
    assert request.header("Authorization") == "Bearer sim-key-kagi"
    assert request.header("Accept") == "application/json"
    assert (request.header("Content-Type") or "").startswith("application/json")
    assert request.json() == {"query": QUERY, "workflow": "search", "limit": 10}


async def test_limit_and_recency_are_sent(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="kagi", limit=3, recency="week")
    assert len(response.sources) == 3
    expected = (datetime.now(UTC).date() - timedelta(days=7)).isoformat()
    assert sim["kagi"].requests[0].json() == {
        "query": QUERY,
        "workflow": "search",
        "limit": 3,
        "filters": {"after": expected},
    }


async def test_dates_and_country_go_in_filters_and_kagi_applies_them(sim: Simulator) -> None:
    # Kagi's OpenAPI description (search_request_filters) has region, after and before: the
    # dates are applied upstream, so the simulator (like Kagi) serves only days 3 to 5.
    sim["kagi"].honour_dates = True
    async with sim_client(sim) as ws:
        response = await ws.search(
            QUERY,
            provider="kagi",
            date_after=date(2026, 1, 3),
            date_before=date(2026, 1, 5),
            country="de",
        )
    (request,) = sim["kagi"].requests
    assert request.json()["filters"] == {
        "after": "2026-01-03",
        "before": "2026-01-05",
        "region": "DE",
    }
    assert [s.published_date for s in response.sources] == [
        "2026-01-03T00:00:00Z",
        "2026-01-04T00:00:00Z",
        "2026-01-05T00:00:00Z",
    ]
    applied = {record.name: record.applied for record in response.filters}
    assert applied == {
        "date_after": ("native",),
        "date_before": ("native",),
        "country": ("native",),
    }


async def test_num_search_results_wins_and_is_clamped_to_forty(sim: Simulator) -> None:
    sim["kagi"].results = [
        SimResult(title=f"R{i}", url=f"https://r{i}.example.org/", snippet=f"s{i}")
        for i in range(50)
    ]
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="kagi", num_search_results=60, limit=2)
    assert sim["kagi"].requests[0].json()["limit"] == 40
    assert [s.title for s in response.sources] == [f"R{i}" for i in range(40)]
    assert response.sources[0].published_date is None


# --- faults ----------------------------------------------------------------------------------


async def test_error_envelope_detail_is_quoted(sim: Simulator) -> None:
    body = '{"meta": {}, "data": null, "error": [{"code": 503, "msg": "Search backend down"}]}'
    failure = await _failure(sim, Fault.server_error(503, body))
    assert failure.message == "Kagi API error (503): Search backend down"


@pytest.mark.parametrize(
    ("status", "kind", "text"),
    [
        (401, AuthorizationError, "kagi: 401 unauthorized"),
        (402, QuotaExhaustedError, "kagi: credits exhausted"),
        (429, RateLimitedError, "Kagi API error (429): Rate limited or usage limit exhausted"),
    ],
)
async def test_refusals_in_v1s_envelope_read_as_the_spec_says(
    sim: Simulator, status: int, kind: type[SearchProviderError], text: str
) -> None:
    # v1 names 401 and 429 (its 429 is "Rate limited or usage limit exhausted"); 402 is
    # v0's credit refusal, kept because an old gateway may still answer it.
    body = error_body("2" if status == 401 else str(status), _V1_DESCRIPTIONS[status])
    failure = await _failure(sim, Fault.http(status, body))
    assert type(failure) is kind
    assert failure.message == text


_V1_DESCRIPTIONS = {
    401: "Unauthorized",
    402: "Insufficient credit to perform this request",
    429: "Rate limited or usage limit exhausted",
}


@pytest.mark.parametrize("status", [200, 400, 429, 503])
async def test_v0_and_v1_error_shapes_read_into_the_same_text(sim: Simulator, status: int) -> None:
    """A guard (passes before and after): the parser reads ``msg`` and ``message`` alike."""
    v0 = json.dumps({"meta": {}, "data": None, "error": [{"code": status, "msg": "Down"}]})
    v1 = error_body(str(status), "Down")
    failures = [await _failure(sim, Fault.http(status, body)) for body in (v0, v1)]
    assert failures[0].message == failures[1].message
    assert type(failures[0]) is type(failures[1])


async def test_malformed_body(sim: Simulator) -> None:
    failure = await _failure(sim, Fault.malformed())
    assert isinstance(failure, ResponseParseError)
    assert failure.message == "Kagi API returned an invalid response: expected data to be an object"


async def test_non_json_body(sim: Simulator) -> None:
    failure = await _failure(sim, Fault.http(200, "<html>maintenance</html>"))
    assert isinstance(failure, ResponseParseError)
    assert failure.message == "Kagi API returned an invalid response: invalid JSON"


# --- the protocol on its own ------------------------------------------------------------------


def _recorded(headers: dict[str, str], body: bytes) -> RecordedRequest:
    return RecordedRequest(
        method="POST", path="/api/v1/search", query=(), headers=headers, body=body
    )


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bot k"}])
def test_protocol_refuses_a_request_without_the_bearer_scheme(headers: dict[str, str]) -> None:
    response = KagiProtocol().answer(_recorded(headers, b'{"query": "x"}'), [])
    assert response.status == 401


@pytest.mark.parametrize("body", [b"not json", b'{"limit": 3}', b'{"query": "  "}'])
def test_protocol_refuses_a_request_without_a_query(body: bytes) -> None:
    response = KagiProtocol().answer(_recorded({"Authorization": "Bearer k"}, body), [])
    assert response.status == 400


def _error_entries(response: web.Response) -> list[dict[str, Any]]:
    assert isinstance(response.text, str)
    envelope = json.loads(response.text)
    assert envelope["data"] is None and "trace" in envelope["meta"]
    entries: list[dict[str, Any]] = envelope["error"]
    return entries


def test_protocol_refuses_a_missing_key_as_v1s_description_shows() -> None:
    # Kagi's OpenAPI 401 example: code "2", message "Unauthorized", a url and a location.
    response = KagiProtocol().answer(_recorded({}, b'{"query": "x"}'), [])
    assert _error_entries(response) == [
        {
            "code": "2",
            "url": "https://help.kagi.com/api/errors#unauthorized",
            "message": "Unauthorized",
            "location": None,
        }
    ]


@pytest.mark.parametrize(
    "body", [b"not json", b'{"query": "  "}', b'{"query": "x", "filters": {"after": "soon"}}']
)
def test_protocol_400s_are_in_v1s_shape(body: bytes) -> None:
    response = KagiProtocol().answer(_recorded({"Authorization": "Bearer k"}, body), [])
    (entry,) = _error_entries(response)
    assert isinstance(entry["code"], str)
    assert entry["message"] and "msg" not in entry


def test_protocol_date_window_reads_filters_after_and_before() -> None:
    body = b'{"query": "x", "filters": {"after": "2026-01-03", "before": "2026-01-05"}}'
    window = KagiProtocol().date_window(_recorded({"Authorization": "Bearer k"}, body))
    served = [r.published for r in default_results("x") if window.admits(r)]
    assert served == ["2026-01-03T00:00:00Z", "2026-01-04T00:00:00Z", "2026-01-05T00:00:00Z"]


@pytest.mark.parametrize("filters", [b'{"after": "last week"}', b'{"before": 20260105}'])
def test_protocol_refuses_a_filter_date_that_is_not_a_date(filters: bytes) -> None:
    body = b'{"query": "x", "filters": ' + filters + b"}"
    response = KagiProtocol().answer(_recorded({"Authorization": "Bearer k"}, body), [])
    assert response.status == 400


def test_protocol_challenge_is_a_403() -> None:
    assert KagiProtocol().challenge().status == 403


# --- the v1 success example's shape: meta and escaped text ------------------------------------


def test_protocol_success_meta_is_the_descriptions_trace_ms_and_node() -> None:
    headers = {"Authorization": "Bearer k"}
    response = KagiProtocol().answer(_recorded(headers, b'{"query": "x"}'), default_results("x"))
    assert isinstance(response, web.Response) and isinstance(response.text, str)
    assert set(json.loads(response.text)["meta"]) == {"trace", "ms", "node"}


def test_protocol_escapes_titles_and_snippets_as_kagi_does() -> None:
    result = SimResult("Steve Jobs | Apple, & Facts", "https://a.example/x", 'Steve\'s "book"')
    headers = {"Authorization": "Bearer k"}
    response = KagiProtocol().answer(_recorded(headers, b'{"query": "x"}'), [result])
    assert isinstance(response, web.Response) and isinstance(response.text, str)
    (item,) = json.loads(response.text)["data"]["search"]
    assert item["title"] == "Steve Jobs | Apple, &amp; Facts"
    assert item["snippet"] == "Steve&#39;s &quot;book&quot;"


async def test_escaped_titles_and_snippets_read_back_as_plain_text(sim: Simulator) -> None:
    sim["kagi"].results = [
        SimResult("Steve Jobs | Apple, & Facts", "https://a.example/x", 'Steve\'s "book" <1985>')
    ]
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="kagi")
    (source,) = response.sources
    assert source.title == "Steve Jobs | Apple, & Facts"
    assert source.snippet == 'Steve\'s "book" <1985>'
