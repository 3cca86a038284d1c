"""DuckDuckGo end to end through ``WebSearch`` against the loopback simulator.

Every call forces ``provider="duckduckgo"`` so only DuckDuckGo runs; the real provider code
(form building, headers, status classification, parsing, pagination) talks to the
simulated ``/html/`` endpoint.
"""

from typing import Any

import pytest
from aiohttp import web

from tests.conftest import read_capture
from tests.functional._sim_helpers import failure_after, only_failure, sim_client, simulator_fixture
from websearch_core import WebSearch
from websearch_core.errors import (
    AuthorizationError,
    ChallengeError,
    EmptyResponseError,
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.providers.duckduckgo import CHALLENGE_MESSAGE, HOMEPAGE_MESSAGE
from websearch_core.testing import Fault, Simulator
from websearch_core.testing.protocols.duckduckgo import SIM_VQD, DuckDuckGoProtocol
from websearch_core.testing.simulator import RecordedRequest, SimResult, default_results

QUERY = "rust async runtime"
CHALLENGE_TEXT = (
    "Error: DuckDuckGo blocked the request with a bot-detection challenge. DuckDuckGo "
    "throttles automated HTML searches from datacenter/shared-egress IPs; configure a "
    "credentialed provider such as Brave, Tavily, Exa, or Kagi for reliable web search."
)


sim = simulator_fixture("duckduckgo")


async def _failure(ws: WebSearch, **params: Any) -> SearchProviderError:
    return await only_failure(ws, "duckduckgo", QUERY, **params)


async def _failure_after(
    sim: Simulator, *faults: Fault | None, always: bool = False, **overrides: Any
) -> SearchProviderError:
    return await failure_after(sim, "duckduckgo", QUERY, *faults, always=always, **overrides)


def _requests(sim: Simulator) -> list[RecordedRequest]:
    return sim["duckduckgo"].requests


# --- request shape and success -----------------------------------------------------------------


async def test_success_and_request_shape(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="duckduckgo")
    assert result.error is None
    response = result.response
    assert response.provider == "duckduckgo"
    expected = default_results(QUERY)
    assert [s.url for s in response.sources] == [r.url for r in expected]
    first = response.sources[0]
    assert first.title == f"{QUERY} result 1"
    assert first.url == "https://site1.example.org/rust-async-runtime"  # uddg unwrapped
    assert first.snippet == f"Snippet 1 about {QUERY}."
    assert first.published_date == "2026-01-01T00:00:00Z"
    assert first.age_seconds is not None
    lines = result.text.splitlines()
    assert lines[0].startswith(f"[1] {QUERY} result 1 (")  # the age depends on today
    assert lines[1:3] == [
        "    https://site1.example.org/rust-async-runtime",
        f"    Snippet 1 about {QUERY}.",
    ]

    (request,) = _requests(sim)
    assert request.method == "POST"
    assert request.path == "/html/"
    assert request.form() == [("q", QUERY), ("kl", "us-en"), ("b", "")]
    assert request.header("Content-Type") == "application/x-www-form-urlencoded"
    assert request.header("Referer") == "https://html.duckduckgo.com/"
    assert request.header("Sec-Fetch-Site") == "same-origin"
    assert request.header("Sec-Fetch-Mode") == "navigate"
    user_agent = request.header("User-Agent") or ""
    assert user_agent.startswith("Mozilla/5.0 (") and "Chrome/" in user_agent
    assert (request.header("Accept") or "").startswith("text/html")
    assert request.header("Accept-Language") == "en-US,en;q=0.9"
    assert request.header("Authorization") is None
    assert "sim-key" not in str(request.headers) and "sim-key" not in request.body.decode()


async def test_form_carries_region_and_recency(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        await ws.search(QUERY, provider="duckduckgo", recency="week", language="pt-BR")
        await ws.search(QUERY, provider="duckduckgo", recency="day", country="GB")
        await ws.search(QUERY, provider="duckduckgo", language="de")
    forms = [request.form() for request in _requests(sim)]
    assert forms == [
        [("q", QUERY), ("kl", "br-pt"), ("df", "w"), ("b", "")],
        [("q", QUERY), ("kl", "uk-en"), ("df", "d"), ("b", "")],
        [("q", QUERY), ("kl", "de-de"), ("b", "")],  # a bare language: its home region
    ]


async def test_a_region_kl_lacks_is_recorded_unapplied_not_native(sim: Simulator) -> None:
    """``kl`` falls back to ``us-en`` for a language or country DDG lists no region for:
    the record said ``native`` for ``af`` and ``country=KE`` though only ``us-en`` left.
    Now the note names them; a language beside such a country keeps its own region."""
    async with sim_client(sim) as ws:
        afrikaans = await ws.run(QUERY, provider="duckduckgo", language="af", use_cache=False)
        kenya = await ws.run(QUERY, provider="duckduckgo", country="KE", use_cache=False)
        both = await ws.run(
            QUERY, provider="duckduckgo", language="de", country="KE", use_cache=False
        )
        mixed = await ws.run(
            QUERY, provider="duckduckgo", language="de", country="US", use_cache=False
        )
    forms = [dict(request.form())["kl"] for request in _requests(sim)]
    assert forms == ["us-en", "us-en", "de-de", "us-en"]
    assert afrikaans.text.endswith("Filters not applied: language=af.")
    assert kenya.text.endswith("Filters not applied: country=KE.")
    assert both.text.endswith("Filters not applied: country=KE.")
    assert mixed.text.endswith("Filters not applied: language=de.")


async def test_japanese_and_korean_go_to_their_regions(sim: Simulator) -> None:
    """DDG writes Japan's and Korea's regions ``jp-jp`` and ``kr-kr``: a bare ``ja`` or
    ``ko`` found no region speaking it and went as ``us-en`` (recorded applied)."""
    async with sim_client(sim) as ws:
        japanese = await ws.run(QUERY, provider="duckduckgo", language="ja", use_cache=False)
        await ws.run(QUERY, provider="duckduckgo", language="ko", use_cache=False)
    forms = [dict(request.form())["kl"] for request in _requests(sim)]
    assert forms == ["jp-jp", "kr-kr"]
    assert [item.applied for item in japanese.response.filters] == [("native",)]


async def test_available_with_no_keys_at_all(sim: Simulator) -> None:
    async with WebSearch(sim.settings(), api_keys={}) as ws:
        result = await ws.run(QUERY)
    assert result.error is None
    assert result.response.provider == "duckduckgo"


# --- pagination --------------------------------------------------------------------------------


async def test_limit_fifteen_posts_the_next_page_form(sim: Simulator) -> None:
    sim["duckduckgo"].results = default_results(QUERY, 25)
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="duckduckgo", limit=15, recency="month")
    assert [s.url for s in response.sources] == [r.url for r in default_results(QUERY, 25)[:15]]
    first, second = _requests(sim)
    assert first.form() == [("q", QUERY), ("kl", "us-en"), ("df", "m"), ("b", "")]
    assert second.path == "/html/"
    assert second.form() == [
        ("q", QUERY),
        ("s", "10"),
        ("nextParams", ""),
        ("v", "l"),
        ("o", "json"),
        ("dc", "11"),
        ("api", "d.js"),
        ("vqd", SIM_VQD),
        ("kl", "us-en"),
        ("df", "m"),
    ]
    assert second.header("Referer") == "https://html.duckduckgo.com/"


async def test_count_is_capped_at_twenty(sim: Simulator) -> None:
    sim["duckduckgo"].results = default_results(QUERY, 45)
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="duckduckgo", limit=50)
    assert len(response.sources) == 20
    assert len(_requests(sim)) == 2


async def test_num_search_results_wins_over_limit(sim: Simulator) -> None:
    sim["duckduckgo"].results = default_results(QUERY, 30)
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="duckduckgo", limit=3, num_search_results=12)
    assert len(response.sources) == 12
    assert len(_requests(sim)) == 2


async def test_small_limit_is_one_page(sim: Simulator) -> None:
    sim["duckduckgo"].results = default_results(QUERY, 30)
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="duckduckgo", limit=4)
    assert len(response.sources) == 4
    assert len(_requests(sim)) == 1


async def test_no_next_page_means_no_second_request(sim: Simulator) -> None:
    async with sim_client(sim) as ws:  # the default ten results fit on one page
        response = await ws.search(QUERY, provider="duckduckgo", limit=20)
    assert len(response.sources) == 10
    assert len(_requests(sim)) == 1


async def test_duplicate_urls_across_pages_are_dropped(sim: Simulator) -> None:
    page = [
        SimResult(title=f"t{i}", url=f"https://dup{i % 12}.example/", snippet="s")
        for i in range(25)
    ]
    sim["duckduckgo"].results = page
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="duckduckgo", limit=20)
    urls = [s.url for s in response.sources]
    assert len(urls) == len(set(urls))
    # page 1 has dup0..dup9, page 2 adds dup10 and dup11, page 3 adds nothing and stops
    assert len(urls) == 12
    assert len(_requests(sim)) == 3


class _ChallengeOnSecondPage(DuckDuckGoProtocol):
    def answer(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        if dict(request.form()).get("s"):
            return self.challenge()
        return super().answer(request, results)


async def test_challenge_on_a_later_page_keeps_the_first_page(sim: Simulator) -> None:
    sim["duckduckgo"].results = default_results(QUERY, 25)
    sim["duckduckgo"].protocol = _ChallengeOnSecondPage()
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="duckduckgo", limit=20)
    assert len(response.sources) == 10
    assert len(_requests(sim)) == 2


@pytest.mark.parametrize(
    "fault",
    [Fault.reset(), Fault.http(503, "<p>busy</p>", {"Content-Type": "text/html"})],
    ids=["reset", "503"],
)
async def test_a_failed_later_page_keeps_the_first_page(sim: Simulator, fault: Fault) -> None:
    sim["duckduckgo"].results = default_results(QUERY, 25)
    sim["duckduckgo"].enqueue(None, fault)
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="duckduckgo", limit=20)
    assert [s.url for s in response.sources] == [r.url for r in default_results(QUERY, 10)]
    assert len(_requests(sim)) == 2


# --- no results, challenges, unreadable pages --------------------------------------------------


async def test_no_results_page_moves_the_chain_on_as_204(sim: Simulator) -> None:
    sim["duckduckgo"].results = []
    async with sim_client(sim) as ws:
        failure = await _failure(ws)
        result = await ws.run(QUERY, provider="duckduckgo")
    assert isinstance(failure, EmptyResponseError)
    assert failure.status == 204
    assert result.text == "Error: DuckDuckGo returned no renderable search content."


async def test_challenge_is_never_an_empty_success(sim: Simulator) -> None:
    sim["duckduckgo"].enqueue(Fault.challenge(), Fault.challenge())
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="duckduckgo")
        failure = await _failure(ws)
    assert result.is_error
    assert result.text == CHALLENGE_TEXT
    assert result.error == CHALLENGE_MESSAGE
    assert result.response.provider == "duckduckgo"
    (attempt,) = result.response.attempts
    assert (attempt.outcome, attempt.status) == ("failed", 429)
    assert isinstance(failure, ChallengeError)
    assert failure.status == 429


@pytest.mark.parametrize(
    ("capture", "message"),
    [
        ("html_anomaly_modal_challenge_2026-04.html", CHALLENGE_MESSAGE),
        ("html_homepage_instead_of_results_2026.html", HOMEPAGE_MESSAGE),
    ],
)
async def test_real_block_pages_served_with_200(sim: Simulator, capture: str, message: str) -> None:
    body = read_capture(f"duckduckgo/{capture}").decode("utf-8")
    failure = await _failure_after(sim, Fault.http(200, body, {"Content-Type": "text/html"}))
    assert isinstance(failure, ChallengeError)
    assert failure.message == message


async def test_malformed_page_is_a_parse_error(sim: Simulator) -> None:
    sim["duckduckgo"].enqueue(Fault.malformed(), Fault.malformed())
    async with sim_client(sim) as ws:
        failure = await _failure(ws)
        result = await ws.run(QUERY, provider="duckduckgo")
    assert isinstance(failure, ResponseParseError)
    assert failure.message == "DuckDuckGo returned an unrecognised page"
    assert result.text == "Error: DuckDuckGo returned an unrecognised page"


# --- HTTP and transport failures ---------------------------------------------------------------


async def test_403_capture_is_an_authorization_failure(sim: Simulator) -> None:
    body = read_capture("duckduckgo/lite_403_error_body_2026-09.html").decode("utf-8")
    sim["duckduckgo"].enqueue(Fault.http(403, body), Fault.http(403, body))
    async with sim_client(sim) as ws:
        failure = await _failure(ws)
        result = await ws.run(QUERY, provider="duckduckgo")
    assert isinstance(failure, AuthorizationError)
    assert failure.message == "duckduckgo: 403 forbidden"
    assert failure.status == 403
    assert result.text == (
        "Error: DuckDuckGo blocked the request (403); it needs no API key, so the engine is "
        "refusing automated searches from this address. Try another provider or retry later."
    )
