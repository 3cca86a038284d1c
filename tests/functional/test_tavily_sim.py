"""Tavily end to end through ``WebSearch`` against the loopback simulator.

Every call forces ``provider="tavily"`` so only Tavily runs, whatever else is registered.
"""

import hashlib
import json
import uuid
from datetime import date
from typing import Any

import pytest

from tests.functional._sim_helpers import fault_failure, fault_result, sim_client, simulator_fixture
from websearch_core.errors import (
    AllProvidersFailedError,
    EmptyResponseError,
    ProviderUnavailableError,
    QuotaExhaustedError,
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.testing import Fault, RecordedRequest, SimResult, Simulator
from websearch_core.testing.protocols.tavily import TavilyProtocol

QUERY = "python asyncio"
BASE_BODY = {
    "query": QUERY,
    "search_depth": "basic",
    "max_results": 5,
    "include_answer": "advanced",
    "include_raw_content": False,
}
EMPTY = json.dumps({"answer": None, "query": QUERY, "request_id": "empty-1", "results": []})


sim = simulator_fixture("tavily")


async def _failure(
    sim: Simulator, fault: Fault, overrides: dict[str, Any] | None = None, **params: Any
) -> SearchProviderError:
    return await fault_failure(sim, "tavily", QUERY, fault, overrides, **params)


async def _error_text(sim: Simulator, fault: Fault) -> str:
    return (await fault_result(sim, "tavily", QUERY, fault)).text


# --- request shape and success ----------------------------------------------------------------


async def test_request_shape_and_parsed_response(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="tavily")

    (request,) = sim["tavily"].requests
    assert request.method == "POST"
    assert request.path == "/search"
    assert request.query == ()
    assert request.header("Authorization") == "Bearer sim-key-tavily"
    assert (request.header("Content-Type") or "").startswith("application/json")
    assert request.json() == BASE_BODY

    assert response.provider == "tavily"
    assert response.auth_mode == "api_key"
    assert response.answer == "Simulated answer about python asyncio, from 5 sources."
    digest = hashlib.sha256(QUERY.encode()).digest()[:16]
    assert response.request_id == str(uuid.UUID(bytes=digest, version=4))
    assert [(s.title, s.url, s.snippet) for s in response.sources[:2]] == [
        (
            "python asyncio result 1",
            "https://site1.example.org/python-asyncio",
            "Snippet 1 about python asyncio.",
        ),
        (
            "python asyncio result 2",
            "https://site2.example.org/python-asyncio",
            "Snippet 2 about python asyncio.",
        ),
    ]
    assert len(response.sources) == 5
    # General-topic results carry no date, as in the real captures.
    assert all(s.published_date is None for s in response.sources)


async def test_tool_text_has_the_answer_then_the_sources(sim: Simulator) -> None:
    sim["tavily"].results = [
        SimResult(
            title="Tasks",
            url="https://docs.python.org/3/library/asyncio-task.html",
            snippet="Coroutines and tasks.",
        ),
        SimResult(title="", url="https://b.example.org/x", snippet="Untitled page."),
    ]
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="tavily")
    assert not result.is_error
    assert result.text == (
        "Simulated answer about python asyncio, from 2 sources.\n"
        "\n## Sources\n"
        "2 sources\n"
        "[1] Tasks\n"
        "    https://docs.python.org/3/library/asyncio-task.html\n"
        "    Coroutines and tasks.\n"
        "[2] https://b.example.org/x\n"
        "    https://b.example.org/x\n"
        "    Untitled page."
    )


async def test_a_local_checks_over_fetch_is_cut_back_to_the_default_five(
    sim: Simulator,
) -> None:
    """Guard (spec, Limits & Caps): Tavily's result count is default ``5``.

    Tavily cannot apply ``inurl:`` itself, so the check is local and three times the
    count is asked upstream (15) to leave enough after it. Every result here passes the
    check, so the answer must be cut back to the default five: it came back with fifteen
    when the attempt skipped the plan's cap (``FilterPlan.result_cap``), which every
    other test let through (each gave a ``limit``, and the caller's limit cut it).
    """
    sim["tavily"].results = [
        SimResult(f"R{i}", f"https://docs.example.org/p{i}", f"Page {i}.") for i in range(15)
    ]
    async with sim_client(sim) as ws:
        response = await ws.search(f"inurl:docs {QUERY}", provider="tavily")
    assert sim["tavily"].requests[0].json()["max_results"] == 15
    assert [s.title for s in response.sources] == ["R0", "R1", "R2", "R3", "R4"]


async def test_filters_and_counts_on_the_wire(sim: Simulator) -> None:
    # On the domain asked for: Tavily serves only pages from its include_domains.
    sim["tavily"].results = [
        SimResult("datetime", "https://docs.python.org/3/library/datetime.html", "Dates.")
    ]
    async with sim_client(sim) as ws:
        await ws.search(QUERY, provider="tavily", recency="week", limit=12)
        await ws.search(
            QUERY,
            provider="tavily",
            recency="week",
            num_search_results=40,
            date_after=date(2025, 5, 1),
            date_before=date(2025, 5, 31),
            include_domains=("docs.python.org",),
            exclude_domains=("www.w3schools.com",),
        )
    first, second = (r.json() for r in sim["tavily"].requests)
    assert first == {**BASE_BODY, "max_results": 12, "time_range": "week"}
    assert second == {
        **BASE_BODY,
        "max_results": 20,
        "start_date": "2025-05-01",
        "end_date": "2025-05-31",
        "include_domains": ["docs.python.org"],
        "exclude_domains": ["w3schools.com"],
    }


async def test_country_goes_as_tavilys_name_and_is_recorded_native(sim: Simulator) -> None:
    # docs.tavily.com/documentation/api-reference/endpoint/search: country is one of a list of
    # lower-case English names ("united kingdom"), only with the general topic (the default).
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="tavily", country="gb")
    body = sim["tavily"].requests[0].json()
    assert body == {**BASE_BODY, "country": "united kingdom"}
    assert [(f.name, f.applied) for f in response.filters] == [("country", ("native",))]


async def test_a_country_tavily_has_no_name_for_is_not_sent_and_recorded_ignored(
    sim: Simulator,
) -> None:
    # Guard (passes before and after): Hong Kong is not on Tavily's list, so nothing is sent
    # and the record does not claim it.
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="tavily", country="hk")
    assert sim["tavily"].requests[0].json() == BASE_BODY
    assert [(f.name, f.applied) for f in response.filters] == [("country", ("ignored",))]


async def test_empty_time_filtered_answer_is_retried_without_the_filter(sim: Simulator) -> None:
    sim["tavily"].enqueue(Fault.http(200, EMPTY, {"Content-Type": "application/json"}))
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="tavily", recency="day")
    first, second = (r.json() for r in sim["tavily"].requests)
    assert first == {**BASE_BODY, "time_range": "day"}
    assert second == BASE_BODY
    assert sim["tavily"].requests[1].header("Authorization") == "Bearer sim-key-tavily"
    assert len(response.sources) == 5
    assert response.answer is not None


async def test_retry_that_is_still_empty_fails_as_empty(sim: Simulator) -> None:
    sim["tavily"].always(Fault.http(200, EMPTY))
    async with sim_client(sim) as ws:
        with pytest.raises(AllProvidersFailedError) as caught:
            await ws.search(QUERY, provider="tavily", date_after=date(2031, 1, 1))
        result = await ws.run(QUERY, provider="tavily", date_after=date(2031, 1, 1))
    (failure,) = caught.value.failures
    assert isinstance(failure, EmptyResponseError)
    assert failure.status == 204
    assert result.text == "Error: Tavily returned no renderable search content."
    assert len(sim["tavily"].requests) == 4
    assert [("start_date" in r.json()) for r in sim["tavily"].requests] == [
        True,
        False,
        True,
        False,
    ]


async def test_empty_answer_without_a_time_filter_is_not_retried(sim: Simulator) -> None:
    failure = await _failure(sim, Fault.http(200, EMPTY))
    assert isinstance(failure, EmptyResponseError)
    assert len(sim["tavily"].requests) == 1


async def test_max_results_below_the_spec_minimum_asks_for_5_and_returns_the_limit(
    sim: Simulator,
) -> None:
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="tavily", limit=2)
    assert sim["tavily"].requests[0].json()["max_results"] == 5
    assert len(response.sources) == 2


# --- faults -----------------------------------------------------------------------------------


@pytest.mark.parametrize("status", [432, 433])
async def test_tavily_plan_limit_statuses_are_quota_exhausted(sim: Simulator, status: int) -> None:
    body = json.dumps({"detail": {"error": "This request exceeds your plan's set usage limit."}})
    failure = await _failure(sim, Fault.http(status, body))
    assert isinstance(failure, QuotaExhaustedError)
    assert failure.status == status
    assert await _error_text(sim, Fault.http(status, body)) == (
        f"Error: Tavily API error ({status}): This request exceeds your plan's set usage limit."
    )


async def test_server_error_message_comes_from_the_json_detail(sim: Simulator) -> None:
    body = json.dumps({"detail": {"error": "Upstream search unavailable"}})
    failure = await _failure(sim, Fault.server_error(502, body))
    assert type(failure) is ProviderUnavailableError
    assert failure.status == 502
    assert failure.message == "Tavily API error (502): Upstream search unavailable"


async def test_malformed_body(sim: Simulator) -> None:
    failure = await _failure(sim, Fault.malformed())
    assert isinstance(failure, ResponseParseError)
    assert failure.message.startswith("Tavily API returned an unexpected response shape")


async def test_non_json_body(sim: Simulator) -> None:
    failure = await _failure(sim, Fault.http(200, "<html>maintenance</html>"))
    assert isinstance(failure, ResponseParseError)
    assert failure.message == "Tavily API returned invalid JSON"


# --- the protocol on its own ------------------------------------------------------------------


def _recorded(headers: dict[str, str], body: Any) -> RecordedRequest:
    return RecordedRequest(
        method="POST", path="/search", query=(), headers=headers, body=json.dumps(body).encode()
    )


def test_protocol_refuses_a_request_without_a_bearer_token() -> None:
    response = TavilyProtocol().answer(_recorded({}, {"query": "x"}), [])
    assert response.status == 401
    assert response.text is not None
    assert json.loads(response.text) == {
        "detail": {"error": "Unauthorized: missing or invalid API key."}
    }


@pytest.mark.parametrize("country", ["us", "US", "United States", 49])
def test_protocol_refuses_a_country_not_written_as_tavilys_names(country: Any) -> None:
    auth = {"Authorization": "Bearer k"}
    response = TavilyProtocol().answer(_recorded(auth, {"query": "x", "country": country}), [])
    assert response.status == 400


def test_protocol_dates_news_results_only() -> None:
    results = [SimResult(title="t", url="https://a.example/", snippet="s", published="2026-01-01")]
    auth = {"Authorization": "Bearer k"}
    general = TavilyProtocol().answer(_recorded(auth, {"query": "x"}), results)
    news = TavilyProtocol().answer(_recorded(auth, {"query": "x", "topic": "news"}), results)
    assert general.text is not None and news.text is not None
    assert "published_date" not in json.loads(general.text)["results"][0]
    assert json.loads(news.text)["results"][0]["published_date"] == "2026-01-01"
    assert json.loads(general.text)["answer"] is None  # include_answer was not asked for
