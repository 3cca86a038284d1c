"""Yahoo end to end through ``WebSearch`` against the loopback simulator.

Every call forces ``provider="yahoo"`` so only Yahoo runs; the real provider code (query
string, headers, status classification, RU= unwrapping, consent detection) talks to the
simulated ``/search`` endpoint.
"""

from typing import Any

from tests.conftest import read_capture
from tests.functional._sim_helpers import failure_after, only_failure, sim_client, simulator_fixture
from websearch_core import WebSearch
from websearch_core.errors import (
    ChallengeError,
    EmptyResponseError,
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.providers.yahoo import CONSENT_MESSAGE
from websearch_core.testing import Fault, Simulator
from websearch_core.testing.protocols.yahoo import CONSENT_PAGE
from websearch_core.testing.simulator import RecordedRequest, SimResult, default_results

QUERY = "rust async runtime"
CONSENT_TEXT = (
    "Error: Yahoo served its GDPR consent interstitial instead of search results. This "
    "typically affects EU egress IPs; use another web search provider such as DuckDuckGo, "
    "Brave, or Mojeek."
)


sim = simulator_fixture("yahoo")


async def _failure(ws: WebSearch, **params: Any) -> SearchProviderError:
    return await only_failure(ws, "yahoo", QUERY, **params)


async def _failure_after(
    sim: Simulator, *faults: Fault | None, always: bool = False, **overrides: Any
) -> SearchProviderError:
    return await failure_after(sim, "yahoo", QUERY, *faults, always=always, **overrides)


def _requests(sim: Simulator) -> list[RecordedRequest]:
    return sim["yahoo"].requests


# --- request shape and success -----------------------------------------------------------------


async def test_success_and_request_shape(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="yahoo")
    assert result.error is None
    response = result.response
    assert response.provider == "yahoo"
    expected = default_results(QUERY)
    assert [s.url for s in response.sources] == [r.url for r in expected]  # the ad is dropped
    first = response.sources[0]
    assert first.title == f"{QUERY} result 1"
    assert first.url == "https://site1.example.org/rust-async-runtime"  # RU= unwrapped
    assert first.snippet == f"Snippet 1 about {QUERY}."
    assert first.published_date == "2026-01-01"  # the page's "Jan 1, 2026", in ISO 8601
    assert first.age_seconds is not None
    lines = result.text.splitlines()
    assert lines[0].startswith(f"[1] {QUERY} result 1 (")
    assert lines[1:3] == [
        "    https://site1.example.org/rust-async-runtime",
        f"    Snippet 1 about {QUERY}.",
    ]

    (request,) = _requests(sim)
    assert request.method == "GET"
    assert request.path == "/search"
    assert request.query == (("p", QUERY), ("n", "10"))
    assert request.body == b""
    assert request.header("Referer") == "https://search.yahoo.com/"
    assert request.header("Sec-Fetch-Site") == "same-origin"
    assert request.header("Sec-Fetch-Mode") == "navigate"
    user_agent = request.header("User-Agent") or ""
    assert user_agent.startswith("Mozilla/5.0 (") and "Chrome/" in user_agent
    assert request.header("Accept-Language") == "en-US,en;q=0.9"
    assert request.header("Authorization") is None
    assert "sim-key" not in str(request.headers) and "sim-key" not in str(request.query)


async def test_works_with_no_keys_at_all(sim: Simulator) -> None:
    async with WebSearch(sim.settings(), api_keys={}) as ws:
        response = await ws.search(QUERY, provider="yahoo")
    assert response.provider == "yahoo"
    assert len(response.sources) == 10


async def test_recency_and_count(sim: Simulator) -> None:
    sim["yahoo"].results = default_results(QUERY, 30)
    async with sim_client(sim) as ws:
        day = await ws.search(QUERY, provider="yahoo", recency="day", limit=4)
        await ws.search(f"{QUERY} w", provider="yahoo", recency="week")
        await ws.search(f"{QUERY} m", provider="yahoo", recency="month", num_search_results=12)
        year = await ws.search(f"{QUERY} y", provider="yahoo", recency="year", limit=50)
    assert [request.query for request in _requests(sim)] == [
        (("p", QUERY), ("n", "4"), ("btf", "d")),
        (("p", f"{QUERY} w"), ("n", "10"), ("btf", "w")),
        (("p", f"{QUERY} m"), ("n", "12"), ("btf", "m")),
        (("p", f"{QUERY} y"), ("n", "20")),  # no year filter on Yahoo
    ]
    assert len(day.sources) == 4
    assert len(year.sources) == 20


async def test_duplicate_urls_are_dropped(sim: Simulator) -> None:
    sim["yahoo"].results = [
        SimResult(title=f"t{i}", url=f"https://dup{i % 2}.example/", snippet="s") for i in range(6)
    ]
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="yahoo")
    assert [s.url for s in response.sources] == ["https://dup0.example/", "https://dup1.example/"]


# --- no results, consent, unreadable pages -----------------------------------------------------


async def test_zero_results_page_moves_the_chain_on_as_204(sim: Simulator) -> None:
    sim["yahoo"].results = []
    async with sim_client(sim) as ws:
        failure = await _failure(ws)
        result = await ws.run(QUERY, provider="yahoo")
    assert isinstance(failure, EmptyResponseError)
    assert failure.status == 204
    assert result.text == "Error: Yahoo returned no renderable search content."


async def test_real_zero_results_capture_is_a_204(sim: Simulator) -> None:
    body = read_capture("yahoo/zero_results_zrp_2026-09.html").decode()
    failure = await _failure_after(
        sim, Fault.http(200, body, {"Content-Type": "text/html; charset=utf-8"})
    )
    assert isinstance(failure, EmptyResponseError)


async def test_real_result_capture_served_by_the_simulator(sim: Simulator) -> None:
    body = read_capture("yahoo/serp_javascript_tutorial_2026.html").decode()
    sim["yahoo"].enqueue(Fault.http(200, body, {"Content-Type": "text/html; charset=utf-8"}))
    async with sim_client(sim) as ws:
        response = await ws.search("javascript tutorial", provider="yahoo")
    assert [s.url for s in response.sources][:2] == [
        "https://www.w3schools.com/Js/",
        "https://www.javascripttutorial.net/",
    ]
    assert len(response.sources) == 7


async def test_consent_wall_is_never_an_empty_success(sim: Simulator) -> None:
    sim["yahoo"].enqueue(Fault.challenge(), Fault.challenge())
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="yahoo")
        failure = await _failure(ws)
    assert result.is_error
    assert result.text == CONSENT_TEXT
    assert result.error == CONSENT_MESSAGE
    (attempt,) = result.response.attempts
    assert (attempt.outcome, attempt.status) == ("failed", 429)
    assert isinstance(failure, ChallengeError)
    assert failure.status == 429


async def test_redirect_to_the_consent_path_is_consent(sim: Simulator) -> None:
    # The simulator cannot be consent.yahoo.com, so the page it redirects to must tell.
    sim["yahoo"].enqueue(
        Fault.http(302, "", {"Location": "/v2/collectConsent?sessionId=3_cc"}),
        Fault.http(200, CONSENT_PAGE, {"Content-Type": "text/html"}),
    )
    async with sim_client(sim) as ws:
        failure = await _failure(ws)
    assert isinstance(failure, ChallengeError)
    assert [r.path for r in _requests(sim)] == ["/search", "/v2/collectConsent"]


async def test_malformed_page_is_a_parse_error(sim: Simulator) -> None:
    sim["yahoo"].enqueue(Fault.malformed(), Fault.malformed())
    async with sim_client(sim) as ws:
        failure = await _failure(ws)
        result = await ws.run(QUERY, provider="yahoo")
    assert isinstance(failure, ResponseParseError)
    assert failure.message == "Yahoo returned an unrecognised page"
    assert result.text == "Error: Yahoo returned an unrecognised page"
