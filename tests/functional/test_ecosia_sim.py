"""Ecosia end to end through ``WebSearch`` against the loopback simulator (no browser).

Escalation is off (``WEBSEARCH_BROWSER=off``) unless a test says otherwise, so each fault
maps to one error; ``tests/functional/test_browser.py`` drives the real browser past the
simulated Cloudflare challenge.
"""

from typing import Any

import pytest
from aiohttp import web

from tests.conftest import read_capture
from tests.functional._sim_helpers import (
    MISSING_CHROMIUM,
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
from websearch_core.providers.ecosia import BLOCKED_MESSAGE
from websearch_core.testing import Fault, Simulator
from websearch_core.testing.protocols.ecosia import AD_URL, EcosiaProtocol
from websearch_core.testing.simulator import RecordedRequest, SimResult, default_results

QUERY = "javascript tutorial"
pytestmark = pytest.mark.usefixtures("no_browser_escalation")


sim = simulator_fixture("ecosia")


async def _failure(ws: WebSearch, **params: Any) -> SearchProviderError:
    return await only_failure(ws, "ecosia", QUERY, **params)


async def _failure_after(
    sim: Simulator, *faults: Fault | None, always: bool = False, **overrides: Any
) -> SearchProviderError:
    return await failure_after(sim, "ecosia", QUERY, *faults, always=always, **overrides)


def _requests(sim: Simulator) -> list[RecordedRequest]:
    return sim["ecosia"].requests


@pytest.mark.usefixtures("browser_missing")
async def test_success_and_request_shape_without_touching_the_browser(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="ecosia", limit=50)
    assert result.error is None
    sources = result.response.sources
    assert [s.url for s in sources] == [r.url for r in default_results(QUERY)]
    assert AD_URL not in [s.url for s in sources]
    first = sources[0]
    assert first.title == f"{QUERY} result 1"
    assert first.snippet == f"Snippet 1 about {QUERY}."  # its leading date is the age
    assert first.published_date == "2026-01-01"  # the page's "1 Jan 2026", in ISO 8601
    assert first.age_seconds is not None

    (request,) = _requests(sim)
    assert (request.method, request.path) == ("GET", "/search")
    assert list(request.query) == [("q", QUERY)]  # no count, recency ignored
    assert request.header("Referer") == "https://www.ecosia.org/"
    assert request.header("Sec-Fetch-Mode") == "navigate"
    assert "Chrome/" in (request.header("User-Agent") or "")


async def test_count_applies_to_the_parsed_page(sim: Simulator) -> None:
    sim["ecosia"].results = default_results(QUERY, 25)
    async with sim_client(sim) as ws:
        few = await ws.search(QUERY, provider="ecosia", num_search_results=4, limit=9)
        many = await ws.search(QUERY, provider="ecosia", limit=100)
    assert len(few.sources) == 4
    assert len(many.sources) == 20


async def test_recency_is_never_sent_and_is_reported_where_unchecked(sim: Simulator) -> None:
    # Ecosia has no time filter: the dated results are checked here, the undated one is
    # kept and the note says the filter was not applied to it.
    old = SimResult(title="o", url="https://o.example/", snippet="s", published="2001-01-01")
    undated = SimResult(title="u", url="https://u.example/", snippet="s")
    sim["ecosia"].results = [old, undated]
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="ecosia", recency="week", use_cache=False)
    assert [s.url for s in result.response.sources] == [undated.url]
    (record,) = result.response.filters
    assert (record.name, record.applied) == ("recency", ("post", "ignored"))
    assert "Filters not applied: recency=week (some results unchecked)." in result.text
    assert [list(request.query) for request in _requests(sim)] == [[("q", QUERY)]]


# --- pagination --------------------------------------------------------------------------------


def _pages(sim: Simulator) -> list[str | None]:
    return [dict(request.query).get("p") for request in _requests(sim)]


async def test_more_than_a_page_follows_the_next_link(sim: Simulator) -> None:
    sim["ecosia"].results = default_results(QUERY, 25)
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="ecosia", limit=15)
    assert [s.url for s in response.sources] == [r.url for r in default_results(QUERY, 15)]
    first, second = _requests(sim)
    assert list(first.query) == [("q", QUERY)]
    assert (second.method, second.path) == ("GET", "/search")
    assert list(second.query) == [("q", QUERY), ("p", "1")]
    assert second.header("Referer") == "https://www.ecosia.org/"


async def test_paging_stops_at_twenty(sim: Simulator) -> None:
    sim["ecosia"].results = default_results(QUERY, 45)
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="ecosia", limit=50)
    assert [s.url for s in response.sources] == [r.url for r in default_results(QUERY, 20)]
    assert _pages(sim) == [None, "1"]


async def test_the_last_page_ends_the_paging(sim: Simulator) -> None:
    sim["ecosia"].results = default_results(QUERY, 15)
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="ecosia", limit=20)
    assert len(response.sources) == 15
    assert _pages(sim) == [None, "1"]


async def test_duplicates_across_pages_are_dropped_and_a_page_adding_none_stops(
    sim: Simulator,
) -> None:
    sim["ecosia"].results = [
        SimResult(title=f"t{i}", url=f"https://dup{i % 12}.example/", snippet="s")
        for i in range(35)
    ]
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="ecosia", limit=20)
    # page 0 has dup0..dup9, page 1 adds dup10 and dup11, page 2 adds nothing and stops
    assert [s.url for s in response.sources] == [f"https://dup{i}.example/" for i in range(12)]
    assert _pages(sim) == [None, "1", "2"]


class _BlockedAfterTheFirstPage(EcosiaProtocol):
    def answer(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        if request.path == "/search" and dict(request.query).get("p"):
            return self.challenge()
        return super().answer(request, results)


async def test_a_block_on_a_later_page_keeps_the_first_page(sim: Simulator) -> None:
    sim["ecosia"].results = default_results(QUERY, 25)
    sim["ecosia"].protocol = _BlockedAfterTheFirstPage()
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="ecosia", limit=20)
    assert [s.url for s in response.sources] == [r.url for r in default_results(QUERY, 10)]
    assert _pages(sim) == [None, "1"]


async def test_available_with_no_keys_at_all(sim: Simulator) -> None:
    async with WebSearch(sim.settings(), api_keys={}) as ws:
        result = await ws.run(QUERY, provider="ecosia")
    assert result.error is None


async def test_no_results_page_moves_the_chain_on_as_204(sim: Simulator) -> None:
    sim["ecosia"].results = []
    async with sim_client(sim) as ws:
        failure = await _failure(ws)
    assert isinstance(failure, EmptyResponseError)
    assert failure.message == "Ecosia returned no renderable search content."


async def test_cloudflare_challenge_is_never_an_empty_success(sim: Simulator) -> None:
    sim["ecosia"].protocol = EcosiaProtocol(cloudflare=True)
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="ecosia")
        failure = await _failure(ws)
    assert result.text == f"Error: {BLOCKED_MESSAGE}"
    assert isinstance(failure, ChallengeError)
    assert failure.status == 429


async def test_challenge_served_with_200_is_still_a_block(sim: Simulator) -> None:
    body = EcosiaProtocol().challenge().text or ""
    failure = await _failure_after(sim, Fault.http(200, body, {"Content-Type": "text/html"}))
    assert isinstance(failure, ChallengeError)
    assert failure.message == BLOCKED_MESSAGE


async def test_real_capture_served_end_to_end(sim: Simulator) -> None:
    body = read_capture("ecosia/serp_javascript_tutorial_2026.html").decode("utf-8")
    sim["ecosia"].enqueue(Fault.http(200, body, {"Content-Type": "text/html"}))
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="ecosia", limit=3)
    assert [(s.title, s.url) for s in response.sources] == [
        ("JavaScript Tutorial - W3Schools", "https://www.w3schools.com/js/"),
        ("The Modern JavaScript Tutorial", "https://javascript.info/"),
        ("JavaScript Tutorial", "https://www.javascripttutorial.net/"),
    ]


async def test_malformed_page_is_a_parse_error(sim: Simulator) -> None:
    failure = await _failure_after(sim, Fault.malformed())
    assert isinstance(failure, ResponseParseError)
    assert failure.message == "Ecosia returned an unrecognised page"


async def test_forbidden_and_rate_limited_are_the_cloudflare_block(sim: Simulator) -> None:
    sim["ecosia"].enqueue(Fault.forbidden(), Fault.rate_limited(retry_after=1))
    async with sim_client(sim) as ws:
        forbidden = await _failure(ws)
        limited = await _failure(ws)
    for failure in (forbidden, limited):
        assert isinstance(failure, ChallengeError)
        assert (failure.message, failure.status) == (BLOCKED_MESSAGE, 429)


@pytest.mark.usefixtures("browser_missing")
async def test_challenge_without_chromium_names_what_to_install(sim: Simulator) -> None:
    sim["ecosia"].protocol = EcosiaProtocol(cloudflare=True)
    async with sim_client(sim) as ws:
        failure = await _failure(ws)
    assert isinstance(failure, BrowserUnavailableError)
    assert failure.message.startswith(
        "Ecosia search failed: the plain fetch got HTTP 403 and headless Chromium is not "
        f"available (no Chromium executable at {MISSING_CHROMIUM})."
    )
    assert 'pip install "websearch-tools[browser]" and apt-get install chromium' in failure.message
