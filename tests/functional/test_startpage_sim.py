"""Startpage end to end through ``WebSearch`` against the loopback simulator.

Every call forces ``provider="startpage"`` so only Startpage runs; the real provider code
(homepage token, form POST, tokenless fallback, status classification, CAPTCHA detection)
talks to the simulated homepage and ``/sp/search``.
"""

from typing import Any

import pytest
from aiohttp import web

from tests.conftest import read_capture
from tests.functional._sim_helpers import failure_after, only_failure, sim_client, simulator_fixture
from websearch_core import WebSearch
from websearch_core.errors import (
    ChallengeError,
    EmptyResponseError,
    ProviderConnectionError,
    ProviderTimeoutError,
    ProviderUnavailableError,
    QuotaExhaustedError,
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.providers.startpage import CHALLENGE_MESSAGE
from websearch_core.testing import Fault, Simulator
from websearch_core.testing.protocols.startpage import CAPTCHA_PAGE, SIM_SC, StartpageProtocol
from websearch_core.testing.simulator import RecordedRequest, SimResult, default_results

QUERY = "rust async runtime"
CHALLENGE_TEXT = (
    "Error: Startpage blocked the request with a CAPTCHA challenge. Startpage rate-limits "
    "automated searches from datacenter/shared-egress IPs; try another provider such as "
    "DuckDuckGo or Mojeek, or retry later."
)
HIDDEN = [
    ("lui", "english"),
    ("language", "english"),
    ("sc", SIM_SC),
    ("cat", "web"),
    ("t", "device"),
    ("abd", "0"),
    ("abe", "0"),
]


sim = simulator_fixture("startpage")


async def _failure(ws: WebSearch, **params: Any) -> SearchProviderError:
    return await only_failure(ws, "startpage", QUERY, **params)


async def _failure_after(
    sim: Simulator, *faults: Fault | None, always: bool = False, **overrides: Any
) -> SearchProviderError:
    return await failure_after(sim, "startpage", QUERY, *faults, always=always, **overrides)


def _requests(sim: Simulator) -> list[RecordedRequest]:
    return sim["startpage"].requests


def _shape(sim: Simulator) -> list[tuple[str, str]]:
    return [(request.method, request.path) for request in _requests(sim)]


# --- the token flow ----------------------------------------------------------------------------


async def test_success_gets_the_homepage_then_posts_the_token(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="startpage")
    assert result.error is None
    response = result.response
    assert response.provider == "startpage"
    assert [s.url for s in response.sources] == [r.url for r in default_results(QUERY)]
    first = response.sources[0]
    assert first.title == f"{QUERY} result 1"
    assert first.url == "https://site1.example.org/rust-async-runtime"
    assert first.snippet == f"Snippet 1 about {QUERY}."
    assert first.published_date == "2026-01-01"  # the page's "1 Jan 2026", in ISO 8601
    assert first.age_seconds is not None
    assert result.text.splitlines()[1:3] == [
        "    https://site1.example.org/rust-async-runtime",
        f"    Snippet 1 about {QUERY}.",
    ]

    home, search = _requests(sim)
    assert (home.method, home.path, home.query, home.body) == ("GET", "/", (), b"")
    assert home.header("Referer") is None
    assert home.header("Sec-Fetch-Site") == "none"
    assert (search.method, search.path, search.query) == ("POST", "/sp/search", ())
    assert search.form() == [*HIDDEN, ("query", QUERY)]
    assert search.header("Content-Type") == "application/x-www-form-urlencoded"
    assert search.header("Referer") == "https://www.startpage.com/"
    assert search.header("Origin") == "https://www.startpage.com"
    assert search.header("Sec-Fetch-Site") == "same-origin"
    user_agent = search.header("User-Agent") or ""
    assert user_agent.startswith("Mozilla/5.0 (") and "Chrome/" in user_agent
    for request in (home, search):
        assert request.header("Authorization") is None
        assert "sim-key" not in str(request.headers) and b"sim-key" not in request.body


@pytest.mark.parametrize(
    ("recency", "with_date"), [("day", "d"), ("week", "w"), ("month", "m"), ("year", "y")]
)
async def test_recency_is_posted_as_with_date(sim: Simulator, recency: str, with_date: str) -> None:
    async with sim_client(sim) as ws:
        await ws.search(QUERY, provider="startpage", recency=recency)
    search = _requests(sim)[1]
    assert search.form() == [*HIDDEN, ("query", QUERY), ("with_date", with_date)]


async def test_works_with_no_keys_at_all(sim: Simulator) -> None:
    async with WebSearch(sim.settings(), api_keys={}) as ws:
        response = await ws.search(QUERY, provider="startpage")
    assert response.provider == "startpage"
    assert len(response.sources) == 10


async def test_count_is_a_local_cut(sim: Simulator) -> None:
    sim["startpage"].results = default_results(QUERY, 25)
    async with sim_client(sim) as ws:
        small = await ws.search(QUERY, provider="startpage", limit=3)
        pages = await ws.search(f"{QUERY} 2", provider="startpage", num_search_results=20)
    assert [s.url for s in small.sources] == [r.url for r in default_results(QUERY, 3)]
    assert [s.url for s in pages.sources] == [r.url for r in default_results(QUERY, 20)]
    for request in _requests(sim):
        assert "count" not in dict(request.form()) and request.query == ()


# --- pagination --------------------------------------------------------------------------------


def _searches(sim: Simulator) -> list[RecordedRequest]:
    return [request for request in _requests(sim) if request.path == "/sp/search"]


async def test_more_than_a_page_posts_the_pagers_next_form(sim: Simulator) -> None:
    sim["startpage"].results = default_results(QUERY, 25)
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="startpage", limit=15, recency="month")
    assert [s.url for s in response.sources] == [r.url for r in default_results(QUERY, 15)]
    assert _shape(sim) == [("GET", "/"), ("POST", "/sp/search"), ("POST", "/sp/search")]
    second = _searches(sim)[1]
    assert second.form() == [
        ("lui", "english"),
        ("language", "english"),
        ("query", QUERY),
        ("cat", "web"),
        ("sc", SIM_SC),
        ("pl", ""),
        ("t", "device"),
        ("segment", "startpage.udog"),
        ("page", "2"),
        ("abd", "0"),
        ("abe", "0"),
        ("with_date", "m"),
    ]
    assert second.header("Referer") == "https://www.startpage.com/sp/search"
    assert second.header("Content-Type") == "application/x-www-form-urlencoded"


async def test_paging_stops_at_twenty(sim: Simulator) -> None:
    sim["startpage"].results = default_results(QUERY, 45)
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="startpage", limit=50)
    assert [s.url for s in response.sources] == [r.url for r in default_results(QUERY, 20)]
    assert [dict(r.form()).get("page") for r in _searches(sim)] == [None, "2"]


async def test_the_last_page_ends_the_paging(sim: Simulator) -> None:
    sim["startpage"].results = default_results(QUERY, 15)
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="startpage", limit=20)
    assert len(response.sources) == 15
    assert [dict(r.form()).get("page") for r in _searches(sim)] == [None, "2"]


async def test_one_page_is_enough_for_ten(sim: Simulator) -> None:
    sim["startpage"].results = default_results(QUERY, 25)
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="startpage")
    assert len(response.sources) == 10
    assert len(_searches(sim)) == 1


async def test_duplicate_urls_across_pages_are_dropped_and_a_page_adding_none_stops(
    sim: Simulator,
) -> None:
    sim["startpage"].results = [
        SimResult(title=f"t{i}", url=f"https://dup{i % 12}.example/", snippet="s")
        for i in range(35)
    ]
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="startpage", limit=20)
    urls = [s.url for s in response.sources]
    # page 1 has dup0..dup9, page 2 adds dup10 and dup11, page 3 adds nothing and stops
    assert urls == [f"https://dup{i}.example/" for i in range(12)]
    assert [dict(r.form()).get("page") for r in _searches(sim)] == [None, "2", "3"]


async def test_the_tokenless_fallback_pages_through_the_pager_too(sim: Simulator) -> None:
    sim["startpage"].results = default_results(QUERY, 25)
    sim["startpage"].enqueue(Fault.http(503, "down", {"Content-Type": "text/plain"}))
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="startpage", limit=20)
    assert len(response.sources) == 20
    assert _shape(sim) == [("GET", "/"), ("GET", "/sp/search"), ("POST", "/sp/search")]


class _CaptchaOnLaterPages(StartpageProtocol):
    def answer(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        if dict(request.form()).get("page", "1") != "1":
            return self.challenge()
        return super().answer(request, results)


async def test_a_captcha_on_a_later_page_keeps_the_first_page(sim: Simulator) -> None:
    sim["startpage"].results = default_results(QUERY, 25)
    sim["startpage"].protocol = _CaptchaOnLaterPages()
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="startpage", limit=20)
    assert [s.url for s in response.sources] == [r.url for r in default_results(QUERY, 10)]
    assert len(_searches(sim)) == 2


async def test_duplicate_urls_are_dropped(sim: Simulator) -> None:
    sim["startpage"].results = [
        SimResult(title=f"t{i}", url=f"https://dup{i % 3}.example/", snippet="s") for i in range(9)
    ]
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="startpage")
    assert len(response.sources) == 3


# --- the tokenless fallback --------------------------------------------------------------------


@pytest.mark.parametrize(
    "home_fault",
    [
        Fault.server_error(500),
        Fault.http(200, "<html><body>a redesigned homepage</body></html>"),  # no sc
        Fault.challenge(),
        Fault.http(302, "", {"Location": "/sp/captcha?bc=1"}),
        Fault.forbidden(),
        Fault.malformed(),
    ],
)
async def test_homepage_failure_falls_back_to_the_tokenless_get(
    sim: Simulator, home_fault: Fault
) -> None:
    sim["startpage"].enqueue(home_fault)
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="startpage", recency="week")
    assert len(response.sources) == 10
    fallback = _requests(sim)[-1]
    assert (fallback.method, fallback.path) == ("GET", "/sp/search")
    assert fallback.query == (("query", QUERY), ("with_date", "w"))
    assert fallback.body == b""
    assert fallback.header("Referer") == "https://www.startpage.com/"
    assert _shape(sim)[0] == ("GET", "/")
    assert ("POST", "/sp/search") not in _shape(sim)


async def test_hanging_homepage_leaves_time_for_the_fallback(sim: Simulator) -> None:
    sim["startpage"].enqueue(Fault.hang(3))
    async with sim_client(sim, timeout_seconds=1.0) as ws:
        response = await ws.search(QUERY, provider="startpage")
    assert len(response.sources) == 10
    assert _shape(sim) == [("GET", "/"), ("GET", "/sp/search")]


def _post(body: bytes) -> RecordedRequest:
    return RecordedRequest(method="POST", path="/sp/search", query=(), headers={}, body=body)


def test_the_simulator_enforces_the_token() -> None:
    # What makes the success test above meaningful: a POST without the right sc is blocked.
    protocol = StartpageProtocol()
    results = default_results(QUERY)
    for body in (b"query=x", b"sc=wrong&query=x"):
        assert protocol.answer(_post(body), results).text == CAPTCHA_PAGE
    answered = protocol.answer(_post(f"sc={SIM_SC}&query=x".encode()), results).text or ""
    assert 'class="result ' in answered


async def test_captcha_page_on_the_post_is_a_challenge(sim: Simulator) -> None:
    failure = await _failure_after(
        sim, None, Fault.http(200, CAPTCHA_PAGE, {"Content-Type": "text/html"})
    )
    assert isinstance(failure, ChallengeError)
    assert _shape(sim) == [("GET", "/"), ("POST", "/sp/search")]


# --- no results, challenges, unreadable pages --------------------------------------------------


async def test_no_results_page_moves_the_chain_on_as_204(sim: Simulator) -> None:
    sim["startpage"].results = []
    async with sim_client(sim) as ws:
        failure = await _failure(ws)
        result = await ws.run(QUERY, provider="startpage")
    assert isinstance(failure, EmptyResponseError)
    assert failure.status == 204
    assert result.text == "Error: Startpage returned no renderable search content."


async def test_captcha_everywhere_is_a_challenge_never_an_empty_success(sim: Simulator) -> None:
    sim["startpage"].always(Fault.challenge())
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="startpage")
    assert result.is_error
    assert result.text == CHALLENGE_TEXT
    assert result.error == CHALLENGE_MESSAGE
    (attempt,) = result.response.attempts
    assert (attempt.outcome, attempt.status) == ("failed", 429)
    assert _shape(sim) == [("GET", "/"), ("GET", "/sp/search")]  # homepage, then fallback


async def test_captcha_on_the_search_after_a_good_homepage(sim: Simulator) -> None:
    failure = await _failure_after(sim, None, Fault.challenge())
    assert isinstance(failure, ChallengeError)
    assert failure.message == CHALLENGE_MESSAGE
    assert failure.status == 429
    assert _shape(sim) == [("GET", "/"), ("POST", "/sp/search")]  # no second try


async def test_redirect_of_the_search_to_the_captcha(sim: Simulator) -> None:
    sim["startpage"].enqueue(
        None, Fault.http(302, "", {"Location": "/sp/captcha-block?bc=XX"}), None
    )
    async with sim_client(sim) as ws:
        failure = await _failure(ws)
    assert isinstance(failure, ChallengeError)
    assert [request.path for request in _requests(sim)] == ["/", "/sp/search", "/sp/captcha-block"]


async def test_real_results_capture_served_by_the_simulator(sim: Simulator) -> None:
    body = read_capture("startpage/serp_javascript_tutorial_http_2026.html").decode()
    sim["startpage"].enqueue(None, Fault.http(200, body, {"Content-Type": "text/html"}))
    async with sim_client(sim) as ws:
        response = await ws.search("javascript tutorial", provider="startpage")
    assert response.sources[0].url == "https://www.w3schools.com/js/"
    assert len(response.sources) == 10


async def test_malformed_page_is_a_parse_error(sim: Simulator) -> None:
    sim["startpage"].always(Fault.malformed())
    async with sim_client(sim) as ws:
        failure = await _failure(ws)
        result = await ws.run(QUERY, provider="startpage")
    assert isinstance(failure, ResponseParseError)
    assert failure.message == "Startpage returned an unrecognised page"
    assert result.text == "Error: Startpage returned an unrecognised page"


# --- HTTP and transport failures of the search request -----------------------------------------


async def test_payment_required(sim: Simulator) -> None:
    failure = await _failure_after(sim, None, Fault.payment_required())
    assert isinstance(failure, QuotaExhaustedError)
    assert failure.message == "startpage: 402 credits exhausted"


@pytest.mark.parametrize("status", [500, 503])
async def test_server_errors(sim: Simulator, status: int) -> None:
    failure = await _failure_after(sim, Fault.server_error(status), always=True)
    assert isinstance(failure, ProviderUnavailableError)
    assert (failure.message, failure.status) == (f"Startpage HTML error ({status})", status)
    assert _shape(sim) == [("GET", "/"), ("GET", "/sp/search")]


async def test_other_client_error(sim: Simulator) -> None:
    failure = await _failure_after(sim, None, Fault.http(400, "bad request"))
    assert type(failure) is SearchProviderError
    assert (failure.message, failure.status) == ("Startpage HTML error (400)", 400)


async def test_hang_times_out(sim: Simulator) -> None:
    failure = await _failure_after(sim, Fault.hang(3), always=True, timeout_seconds=0.5)
    assert isinstance(failure, ProviderTimeoutError)
    assert failure.message == "Startpage search timed out after 0.5s"
    assert _shape(sim) == [("GET", "/"), ("GET", "/sp/search")]


async def test_hang_of_the_post_times_out(sim: Simulator) -> None:
    failure = await _failure_after(sim, None, Fault.hang(3), timeout_seconds=0.5)
    assert isinstance(failure, ProviderTimeoutError)
    assert failure.message == "Startpage search timed out after 0.5s"


async def test_reset_of_the_post_is_a_connection_error(sim: Simulator) -> None:
    failure = await _failure_after(sim, None, Fault.reset())
    assert isinstance(failure, ProviderConnectionError)
    assert _shape(sim) == [("GET", "/"), ("POST", "/sp/search")]
