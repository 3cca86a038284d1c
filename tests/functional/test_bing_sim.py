"""Bing end to end through ``WebSearch`` against the loopback simulator.

Every call forces ``provider="bing"`` so only Bing runs; the real provider code (query
string, headers, status classification, ck/a unwrapping, challenge detection) talks to the
simulated ``/search`` endpoint.
"""

import re
from datetime import UTC, datetime
from typing import Any

import pytest

from tests.conftest import read_capture
from tests.functional._sim_helpers import failure_after, only_failure, sim_client, simulator_fixture
from websearch_core import WebSearch
from websearch_core.errors import (
    ChallengeError,
    EmptyResponseError,
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.providers.bing import CHALLENGE_MESSAGE
from websearch_core.testing import Fault, Simulator
from websearch_core.testing.protocols.bing import CHALLENGE_PAGE
from websearch_core.testing.simulator import RecordedRequest, SimResult, default_results

QUERY = "rust async runtime"
CHALLENGE_TEXT = (
    "Error: Bing blocked the request with a CAPTCHA challenge. Bing throttles automated "
    "searches from datacenter/shared-egress IPs; try the duckduckgo or mojeek provider, or "
    "configure a credentialed provider such as Brave, Tavily, Exa, or Kagi."
)


sim = simulator_fixture("bing")


async def _failure(ws: WebSearch, **params: Any) -> SearchProviderError:
    return await only_failure(ws, "bing", QUERY, **params)


async def _failure_after(
    sim: Simulator, *faults: Fault | None, always: bool = False, **overrides: Any
) -> SearchProviderError:
    return await failure_after(sim, "bing", QUERY, *faults, always=always, **overrides)


def _requests(sim: Simulator) -> list[RecordedRequest]:
    return sim["bing"].requests


# --- request shape and success -----------------------------------------------------------------


async def test_success_and_request_shape(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="bing")
    assert result.error is None
    response = result.response
    assert response.provider == "bing"
    expected = default_results(QUERY)
    assert [s.url for s in response.sources] == [r.url for r in expected]  # the ad is dropped
    first = response.sources[0]
    assert first.title == f"{QUERY} result 1"
    assert first.url == "https://site1.example.org/rust-async-runtime"  # ck/a unwrapped
    assert first.snippet == f"Snippet 1 about {QUERY}."
    assert first.published_date == "2026-01-01"  # the page's "Jan 1, 2026", in ISO 8601
    assert first.age_seconds is not None
    lines = result.text.splitlines()
    assert lines[0].startswith(f"[1] {QUERY} result 1 (")  # the age depends on today
    assert lines[1:3] == [
        "    https://site1.example.org/rust-async-runtime",
        f"    Snippet 1 about {QUERY}.",
    ]

    (request,) = _requests(sim)
    assert request.method == "GET"
    assert request.path == "/search"
    assert request.query == (
        ("q", QUERY),
        ("count", "10"),
        ("mkt", "en-US"),
        ("setlang", "en"),
    )
    assert request.body == b""
    assert request.header("Referer") == "https://www.bing.com/"
    assert request.header("Sec-Fetch-Site") == "same-origin"
    assert request.header("Sec-Fetch-Mode") == "navigate"
    user_agent = request.header("User-Agent") or ""
    assert user_agent.startswith("Mozilla/5.0 (") and "Chrome/" in user_agent
    assert (request.header("Accept") or "").startswith("text/html")
    assert request.header("Accept-Language") == "en-US,en;q=0.9"
    assert request.header("Authorization") is None
    assert "sim-key" not in str(request.headers) and "sim-key" not in str(request.query)


async def test_works_with_no_keys_at_all(sim: Simulator) -> None:
    async with WebSearch(sim.settings(), api_keys={}) as ws:
        response = await ws.search(QUERY, provider="bing")
    assert response.provider == "bing"
    assert len(response.sources) == 10


@pytest.mark.parametrize(
    ("recency", "filters"),
    [("day", 'ex1:"ez1"'), ("week", 'ex1:"ez2"'), ("month", 'ex1:"ez3"')],
)
async def test_recency_becomes_filters(sim: Simulator, recency: str, filters: str) -> None:
    async with sim_client(sim) as ws:
        await ws.search(QUERY, provider="bing", recency=recency)
    (request,) = _requests(sim)
    assert request.query[-1] == ("filters", filters)


async def test_year_recency_is_a_day_range_ending_today(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        await ws.search(QUERY, provider="bing", recency="year")
    (request,) = _requests(sim)
    match = re.fullmatch(r'ex1:"ez5_(\d+)_(\d+)"', request.query_dict()["filters"])
    assert match is not None
    start, end = int(match.group(1)), int(match.group(2))
    today = int(datetime.now(UTC).timestamp()) // 86_400
    assert end - start == 365
    assert end in (today - 1, today)


async def test_limit_is_sent_as_count_and_applied(sim: Simulator) -> None:
    sim["bing"].results = default_results(QUERY, 30)
    async with sim_client(sim) as ws:
        small = await ws.search(QUERY, provider="bing", limit=3)
        capped = await ws.search(f"{QUERY} capped", provider="bing", limit=50)
        wins = await ws.search(f"{QUERY} wins", provider="bing", limit=2, num_search_results=12)
    assert [s.url for s in small.sources] == [r.url for r in default_results(QUERY, 3)]
    assert len(capped.sources) == 20
    assert len(wins.sources) == 12
    assert [r.query_dict()["count"] for r in _requests(sim)] == ["3", "20", "12"]


async def test_duplicate_urls_are_dropped(sim: Simulator) -> None:
    sim["bing"].results = [
        SimResult(title=f"t{i}", url=f"https://dup{i % 3}.example/", snippet="s") for i in range(8)
    ]
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="bing")
    assert [s.url for s in response.sources] == [
        "https://dup0.example/",
        "https://dup1.example/",
        "https://dup2.example/",
    ]


# --- no results, challenges, unreadable pages --------------------------------------------------


async def test_no_results_page_moves_the_chain_on_as_204(sim: Simulator) -> None:
    sim["bing"].results = []
    async with sim_client(sim) as ws:
        failure = await _failure(ws)
        result = await ws.run(QUERY, provider="bing")
    assert isinstance(failure, EmptyResponseError)
    assert failure.status == 204
    assert result.text == "Error: Bing returned no renderable search content."


async def test_challenge_is_never_an_empty_success(sim: Simulator) -> None:
    sim["bing"].enqueue(Fault.challenge(), Fault.challenge())
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="bing")
        failure = await _failure(ws)
    assert result.is_error
    assert result.text == CHALLENGE_TEXT
    assert result.error == CHALLENGE_MESSAGE
    assert result.response.provider == "bing"
    (attempt,) = result.response.attempts
    assert (attempt.outcome, attempt.status) == ("failed", 429)
    assert isinstance(failure, ChallengeError)
    assert failure.status == 429


async def test_real_turnstile_capture_served_with_200_is_a_challenge(sim: Simulator) -> None:
    body = read_capture("bing/challenge_one_last_step_turnstile_in_serp_2026.html").decode()
    failure = await _failure_after(
        sim, Fault.http(200, body, {"Content-Type": "text/html; charset=utf-8"})
    )
    assert isinstance(failure, ChallengeError)
    assert failure.message == CHALLENGE_MESSAGE


async def test_real_serp_capture_served_by_the_simulator(sim: Simulator) -> None:
    body = read_capture("bing/serp_javascript_tutorial_http_2026.html").decode()
    sim["bing"].enqueue(Fault.http(200, body, {"Content-Type": "text/html; charset=utf-8"}))
    async with sim_client(sim) as ws:
        response = await ws.search("javascript tutorial", provider="bing")
    assert response.sources[0].title == "JavaScript Tutorial - W3Schools"
    assert response.sources[0].url == "https://www.w3schools.com/Js/"
    assert len(response.sources) == 10


async def test_redirect_to_turing_captcha_is_a_challenge(sim: Simulator) -> None:
    failure = await _failure_after(
        sim, Fault.http(302, "", {"Location": "/turing/captcha/challenge?q=x"})
    )
    assert isinstance(failure, ChallengeError)
    assert failure.message == CHALLENGE_MESSAGE
    assert [r.path for r in _requests(sim)] == ["/search", "/turing/captcha/challenge"]


async def test_challenge_page_with_an_error_status_is_still_a_challenge(sim: Simulator) -> None:
    failure = await _failure_after(
        sim, Fault.http(403, CHALLENGE_PAGE, {"Content-Type": "text/html"})
    )
    assert isinstance(failure, ChallengeError)


async def test_malformed_page_is_a_parse_error(sim: Simulator) -> None:
    sim["bing"].enqueue(Fault.malformed(), Fault.malformed())
    async with sim_client(sim) as ws:
        failure = await _failure(ws)
        result = await ws.run(QUERY, provider="bing")
    assert isinstance(failure, ResponseParseError)
    assert failure.message == "Bing returned an unrecognised page"
    assert result.text == "Error: Bing returned an unrecognised page"
