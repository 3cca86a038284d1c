"""Serper end to end through ``WebSearch`` against the loopback simulator.

Every call forces ``provider="serper"`` so only Serper runs, whatever else is registered.
"""

import hashlib
from datetime import UTC, datetime, timedelta
from typing import Any

from tests.functional._sim_helpers import fault_failure, sim_client, simulator_fixture
from websearch_core import WebSearch
from websearch_core.errors import (
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.testing import Fault, RecordedRequest, SimResult, Simulator
from websearch_core.testing.protocols.serper import SerperProtocol

QUERY = "eiffel tower height"


sim = simulator_fixture("serper")


async def _failure(sim: Simulator, fault: Fault, **overrides: Any) -> SearchProviderError:
    return await fault_failure(sim, "serper", QUERY, fault, overrides)


# --- request shape and success ----------------------------------------------------------------


async def test_request_shape_and_parsed_results(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        response = await ws.search(
            QUERY, provider="serper", limit=3, recency="month", country="FR", language="fr"
        )

    (request,) = sim["serper"].requests
    assert request.method == "POST"
    assert request.path == "/search"
    assert request.query == ()
    assert request.header("X-API-KEY") == "sim-key-serper"
    assert request.header("Content-Type") == "application/json"
    assert request.header("Authorization") is None
    assert request.json() == {"q": QUERY, "num": 3, "tbs": "qdr:m", "gl": "fr", "hl": "fr"}

    assert response.provider == "serper"
    assert response.auth_mode == "api_key"
    assert response.request_id == hashlib.sha256(QUERY.encode()).hexdigest()[:32]
    assert response.answer == f"{QUERY} result 1\nSimulated answer about {QUERY}."
    # the answer box links to result 1, which is not repeated
    assert [(s.title, s.url, s.snippet) for s in response.sources] == [
        (
            f"{QUERY} result {i}",
            f"https://site{i}.example.org/eiffel-tower-height",
            f"Snippet {i} about {QUERY}.",
        )
        for i in (1, 2, 3)
    ]
    # Serper's "Jan 1, 2026", in ISO 8601
    assert [s.published_date for s in response.sources] == [
        "2026-01-01",
        "2026-01-02",
        "2026-01-03",
    ]
    assert all(s.age_seconds is not None for s in response.sources)
    assert response.related_questions == (
        f"What is {QUERY}?",
        f"{QUERY} tutorial",
        f"{QUERY} news",
    )


async def test_tool_text_has_answer_sources_and_related(sim: Simulator) -> None:
    sim["serper"].results = [
        SimResult(title="Tour Eiffel", url="https://www.toureiffel.paris/en", snippet="330 m."),
    ]
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="serper")
    assert result.text == (
        f"Tour Eiffel\nSimulated answer about {QUERY}.\n"
        "\n## Sources\n1 source\n"
        "[1] Tour Eiffel\n    https://www.toureiffel.paris/en\n    330 m.\n"
        "\n## Related\n3 questions\n"
        f"- What is {QUERY}?\n- {QUERY} tutorial\n- {QUERY} news"
    )


async def test_recency_goes_as_tbs_and_google_applies_it(sim: Simulator) -> None:
    # Serper's request takes tbs qdr:h|d|w|m|y (api-evangelist/serper
    # openapi/serper-search-api-openapi.yml); Google leaves older pages out itself.
    now = datetime.now(UTC)
    sim["serper"].honour_dates = True
    sim["serper"].results = [
        SimResult(
            title=f"{age} days old",
            url=f"https://d{age}.example.org/",
            snippet="s",
            published=(now - timedelta(days=age)).isoformat(),
        )
        for age in (2, 20)
    ]
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="serper", recency="week")
    assert sim["serper"].requests[0].json()["tbs"] == "qdr:w"
    assert [s.title for s in response.sources] == ["2 days old"]
    (record,) = response.filters
    assert (record.name, record.applied) == ("recency", ("native",))


async def test_num_defaults_to_10_and_caps_at_100(sim: Simulator) -> None:
    sim["serper"].results = [
        SimResult(title=f"r{i}", url=f"https://r{i}.example.org/", snippet="s") for i in range(120)
    ]
    async with sim_client(sim) as ws:
        default = await ws.search(QUERY, provider="serper")
        capped = await ws.search(QUERY, provider="serper", num_search_results=100, limit=5)
    assert [r.json()["num"] for r in sim["serper"].requests] == [10, 100]
    assert (len(default.sources), len(capped.sources)) == (10, 100)


async def test_no_results_still_renders_related_searches(sim: Simulator) -> None:
    sim["serper"].results = []
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="serper")
    assert not result.is_error
    assert result.response.sources == ()
    assert result.text == f"\n## Related\n2 questions\n- {QUERY} tutorial\n- {QUERY} news"


# --- faults -----------------------------------------------------------------------------------


async def test_the_protocol_answers_a_missing_key_with_403(sim: Simulator) -> None:
    async with WebSearch(sim.settings(), api_keys={"serper": "k"}) as ws:
        await ws.search(QUERY, provider="serper")
    recorded = sim["serper"].requests[0]
    stripped = RecordedRequest(
        method=recorded.method,
        path=recorded.path,
        query=recorded.query,
        headers={k: v for k, v in recorded.headers.items() if k.lower() != "x-api-key"},
        body=recorded.body,
    )
    response = SerperProtocol().answer(stripped, [])
    assert response.status == 403


async def test_malformed_body(sim: Simulator) -> None:
    failure = await _failure(sim, Fault.malformed())
    assert isinstance(failure, ResponseParseError)
    assert failure.message.startswith("Serper API returned an unexpected response shape")
