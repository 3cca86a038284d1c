"""Mojeek end to end through ``WebSearch`` against the loopback simulator (no browser).

Escalation is off (``WEBSEARCH_BROWSER=off``) unless a test says otherwise, so each fault
maps to one error; ``tests/functional/test_browser.py`` solves the simulated ALTCHA wall in
the real browser.
"""

from typing import Any

import pytest

from tests.conftest import read_capture
from tests.functional._sim_helpers import (
    failure_after,
    only_failure,
    sim_client,
    simulator_fixture,
)
from websearch_core import WebSearch
from websearch_core.browser import BrowserUnavailableError
from websearch_core.errors import (
    ChallengeError,
    EmptyResponseError,
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.providers.mojeek import ROBOT_MESSAGE
from websearch_core.testing import Fault, Simulator
from websearch_core.testing.protocols.mojeek import MojeekProtocol
from websearch_core.testing.simulator import RecordedRequest, default_results

QUERY = "javascript tutorial"
pytestmark = pytest.mark.usefixtures("no_browser_escalation")


sim = simulator_fixture("mojeek")


async def _failure(ws: WebSearch, **params: Any) -> SearchProviderError:
    return await only_failure(ws, "mojeek", QUERY, **params)


async def _failure_after(
    sim: Simulator, *faults: Fault | None, always: bool = False, **overrides: Any
) -> SearchProviderError:
    return await failure_after(sim, "mojeek", QUERY, *faults, always=always, **overrides)


def _requests(sim: Simulator) -> list[RecordedRequest]:
    return sim["mojeek"].requests


@pytest.mark.usefixtures("browser_missing")
async def test_success_and_request_shape_without_touching_the_browser(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="mojeek", recency="month", limit=5)
    assert result.error is None
    sources = result.response.sources
    assert [s.url for s in sources] == [r.url for r in default_results(QUERY)[:5]]
    assert sources[0].title == f"{QUERY} result 1"
    assert sources[0].snippet == f"Snippet 1 about {QUERY}."
    assert sources[2].url == "https://site3.example.org/javascript-tutorial"  # a clu-result row

    (request,) = _requests(sim)
    assert (request.method, request.path) == ("GET", "/search")
    assert list(request.query) == [
        ("q", QUERY),
        ("t", "5"),
        ("arc", "none"),
        ("lang", "en"),
        ("lb", "en"),
        ("theme", "dark"),
        ("since", "month"),
    ]
    assert request.header("Referer") == "https://www.mojeek.de/?arc=none&lang=en&lb=en&theme=dark"
    assert request.header("Sec-Fetch-Site") == "same-origin"
    assert request.header("Upgrade-Insecure-Requests") == "1"


async def test_count_is_clamped(sim: Simulator) -> None:
    sim["mojeek"].results = default_results(QUERY, 30)
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="mojeek", num_search_results=40)
    assert len(response.sources) == 20
    assert _requests(sim)[0].query_dict()["t"] == "20"


async def test_available_with_no_keys_at_all(sim: Simulator) -> None:
    async with WebSearch(sim.settings(), api_keys={}) as ws:
        result = await ws.run(QUERY, provider="mojeek")
    assert result.error is None


async def test_no_pages_found_moves_the_chain_on_as_204(sim: Simulator) -> None:
    sim["mojeek"].results = []
    async with sim_client(sim) as ws:
        failure = await _failure(ws)
    assert isinstance(failure, EmptyResponseError)
    assert failure.message == "Mojeek returned no renderable search content."


async def test_altcha_wall_without_a_browser_is_the_robot_error(sim: Simulator) -> None:
    sim["mojeek"].protocol = MojeekProtocol(altcha=True)
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="mojeek")
        failure = await _failure(ws)
    assert result.text == f"Error: {ROBOT_MESSAGE}"
    assert isinstance(failure, ChallengeError)
    assert failure.status == 429


@pytest.mark.parametrize(
    ("capture", "status"),
    [
        ("mojeek/captcha_altcha_challenge_raw_2026.html", 200),
        ("mojeek/403_forbidden_automated_queries_2026-09.html", 403),
    ],
)
async def test_real_walls(sim: Simulator, capture: str, status: int) -> None:
    body = read_capture(capture).decode("utf-8")
    sim["mojeek"].enqueue(Fault.http(status, body, {"Content-Type": "text/html"}))
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="mojeek")
    assert result.text == f"Error: {ROBOT_MESSAGE}"
    assert result.response.attempts[0].status == 429


async def test_real_results_capture_served_end_to_end(sim: Simulator) -> None:
    body = read_capture("mojeek/serp_javascript_tutorial_2026.html").decode("utf-8")
    sim["mojeek"].enqueue(Fault.http(200, body, {"Content-Type": "text/html"}))
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="mojeek")
    assert len(response.sources) == 10
    assert (response.sources[0].title, response.sources[0].url) == (
        "The Modern JavaScript Tutorial",
        "https://javascript.info/",
    )


async def test_malformed_page_is_a_parse_error(sim: Simulator) -> None:
    failure = await _failure_after(sim, Fault.malformed())
    assert isinstance(failure, ResponseParseError)
    assert failure.message == "Mojeek returned an unrecognised page"


@pytest.mark.usefixtures("browser_missing")
async def test_altcha_without_chromium_names_what_to_install(sim: Simulator) -> None:
    sim["mojeek"].protocol = MojeekProtocol(altcha=True)
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="mojeek")
        failure = await _failure(ws)
    assert isinstance(failure, BrowserUnavailableError)
    assert result.text.startswith(
        "Error: Mojeek search failed: the plain fetch got a challenge page and headless "
        "Chromium is not available"
    )
    assert result.text.endswith(
        'Install it with: pip install "websearch-tools[browser]" and apt-get install chromium '
        "(or set WEBSEARCH_CHROMIUM_PATH to a Chromium executable)."
    )
    assert result.response.attempts[0].status == 503
    assert isinstance(result.error, str)
