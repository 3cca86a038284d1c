"""Google end to end through ``WebSearch`` against the loopback simulator (no browser).

Every call forces ``provider="google"``. Escalation to headless Chromium is switched off
(``WEBSEARCH_BROWSER=off``) unless a test says otherwise, so the plain fetch's page is final
and each fault maps to one error; ``tests/functional/test_browser.py`` drives the real
browser. Tests that leave escalation on point ``WEBSEARCH_CHROMIUM_PATH`` at a missing file,
which proves the browser is not touched when the plain fetch suffices, and gives the
"what to install" failure when it is needed.
"""

import re
from typing import Any

import aiohttp
import aiohttp.abc
import pytest

from tests.conftest import read_capture
from tests.functional._sim_helpers import (
    MISSING_CHROMIUM,
    Unresolvable,
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
    HostNotFoundError,
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.providers.google import JAVASCRIPT_MESSAGE, TRAFFIC_MESSAGE
from websearch_core.testing import Fault, Simulator
from websearch_core.testing.protocols.google import AD_URL, GoogleProtocol
from websearch_core.testing.simulator import RecordedRequest, default_results

QUERY = "rust async runtime"
pytestmark = pytest.mark.usefixtures("no_browser_escalation")


sim = simulator_fixture("google")


async def _failure(ws: WebSearch, **params: Any) -> SearchProviderError:
    return await only_failure(ws, "google", QUERY, **params)


async def _failure_after(
    sim: Simulator, *faults: Fault | None, always: bool = False, **overrides: Any
) -> SearchProviderError:
    return await failure_after(sim, "google", QUERY, *faults, always=always, **overrides)


def _requests(sim: Simulator) -> list[RecordedRequest]:
    return sim["google"].requests


# --- request shape and success -----------------------------------------------------------------


@pytest.mark.usefixtures("browser_missing")
async def test_success_and_request_shape_without_touching_the_browser(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="google")
    assert result.error is None
    response = result.response
    assert response.provider == "google"
    expected = default_results(QUERY)
    assert [s.url for s in response.sources] == [r.url for r in expected]  # /url?q= unwrapped
    assert AD_URL not in [s.url for s in response.sources]
    first = response.sources[0]
    assert first.title == f"{QUERY} result 1"
    assert first.url == "https://site1.example.org/rust-async-runtime"
    assert first.snippet == f"Jan 1, 2026 — Snippet 1 about {QUERY}."
    assert first.published_date == "2026-01-01"  # the page's "Jan 1, 2026", in ISO 8601
    assert first.age_seconds is not None
    assert result.text.splitlines()[1] == "    https://site1.example.org/rust-async-runtime"

    (request,) = _requests(sim)  # one plain GET: no home page, no browser
    assert request.method == "GET"
    assert request.path == "/search"
    assert list(request.query) == [
        ("q", QUERY),
        ("hl", "en"),
        ("gl", "us"),
        ("udm", "14"),
        ("pws", "0"),
    ]
    assert request.header("Referer") == "https://www.google.com/"
    assert request.header("Sec-Fetch-Site") == "same-origin"
    assert request.header("Sec-Fetch-Mode") == "navigate"
    assert "Chrome/" in (request.header("User-Agent") or "")
    assert request.header("Accept-Language") == "en-US,en;q=0.9"
    assert request.header("Authorization") is None


async def test_recency_count_language_and_domains_reach_the_url(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        await ws.search(QUERY, provider="google", recency="month", limit=50)
        await ws.run(  # only the request matters: no simulated result is on docs.rs
            QUERY,
            provider="google",
            num_search_results=7,
            limit=2,
            language="pt-BR",
            include_domains=("docs.rs",),
        )
    first, second = (dict(r.query) for r in _requests(sim))
    assert first["tbs"] == "qdr:m"
    assert (second["hl"], second["gl"]) == ("pt-BR", "br")
    assert "num" not in first and "num" not in second  # Google ignores it
    assert second["q"] == f"{QUERY} site:docs.rs"
    assert "tbs" not in second


async def test_result_count_is_applied_to_the_one_page(sim: Simulator) -> None:
    sim["google"].results = default_results(QUERY, 25)
    async with sim_client(sim) as ws:
        few = await ws.search(QUERY, provider="google", limit=3)
        many = await ws.search(QUERY, provider="google", limit=100)
    assert len(few.sources) == 3
    assert [source.title for source in many.sources] == [
        f"{QUERY} result {n}" for n in range(1, 11)
    ]
    assert len(_requests(sim)) == 2  # one page each: no second page is asked for


async def test_available_with_no_keys_at_all(sim: Simulator) -> None:
    async with WebSearch(sim.settings(), api_keys={}) as ws:
        result = await ws.run(QUERY, provider="google")
    assert result.error is None
    assert result.response.provider == "google"


# --- no results, challenges, unreadable pages --------------------------------------------------


async def test_no_results_page_moves_the_chain_on_as_204(sim: Simulator) -> None:
    sim["google"].results = []
    async with sim_client(sim) as ws:
        failure = await _failure(ws)
        result = await ws.run(QUERY, provider="google")
    assert isinstance(failure, EmptyResponseError)
    assert result.text == "Error: Google returned no renderable search content."


async def test_traffic_challenge_is_never_an_empty_success(sim: Simulator) -> None:
    sim["google"].always(Fault.challenge())
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="google")
        failure = await _failure(ws)
    assert result.text == f"Error: {TRAFFIC_MESSAGE}"
    (attempt,) = result.response.attempts
    assert (attempt.outcome, attempt.status) == ("failed", 429)
    assert isinstance(failure, ChallengeError)


@pytest.mark.parametrize(
    ("capture", "status", "message"),
    [
        ("google/sorry_unusual_traffic_recaptcha_2026-07.html", 429, TRAFFIC_MESSAGE),
        ("google/sorry_unusual_traffic_recaptcha_2026-07.html", 200, TRAFFIC_MESSAGE),
        ("google/enablejs_js_required_shell_2026-09.html", 200, JAVASCRIPT_MESSAGE),
    ],
)
async def test_real_block_pages(sim: Simulator, capture: str, status: int, message: str) -> None:
    body = read_capture(capture).decode("utf-8")
    failure = await _failure_after(sim, Fault.http(status, body, {"Content-Type": "text/html"}))
    assert isinstance(failure, ChallengeError)
    assert (failure.message, failure.status) == (message, 429)


async def test_javascript_only_page_without_a_browser_is_the_javascript_challenge(
    sim: Simulator,
) -> None:
    sim["google"].protocol = GoogleProtocol(rendering="javascript")
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="google")
    assert result.text == f"Error: {JAVASCRIPT_MESSAGE}"


async def test_malformed_page_is_a_parse_error(sim: Simulator) -> None:
    failure = await _failure_after(sim, Fault.malformed())
    assert isinstance(failure, ResponseParseError)
    assert failure.message == "Google returned an unrecognised page"


# --- HTTP and transport failures ---------------------------------------------------------------


async def test_forbidden_and_rate_limited_are_the_traffic_block(sim: Simulator) -> None:
    sim["google"].enqueue(Fault.forbidden(), Fault.rate_limited(retry_after=1))
    async with sim_client(sim) as ws:
        forbidden = await _failure(ws)
        limited = await _failure(ws)
    for failure in (forbidden, limited):
        assert isinstance(failure, ChallengeError)
        assert (failure.message, failure.status) == (TRAFFIC_MESSAGE, 429)


# --- escalation needed, browser missing --------------------------------------------------------


@pytest.mark.usefixtures("browser_missing")
async def test_challenge_without_chromium_names_what_to_install(sim: Simulator) -> None:
    sim["google"].always(Fault.challenge())
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="google")
        failure = await _failure(ws)
    assert isinstance(failure, BrowserUnavailableError)
    assert failure.status == 503
    assert failure.message == (
        "Google browser search failed: the plain fetch got HTTP 429 and headless Chromium is "
        f"not available (no Chromium executable at {MISSING_CHROMIUM}). Install it with: pip "
        'install "websearch-tools[browser]" and apt-get install chromium (or set '
        "WEBSEARCH_CHROMIUM_PATH to a Chromium executable)."
    )
    assert result.text == f"Error: {failure.message}"
    assert [r.path for r in _requests(sim)] == ["/search", "/search"]  # no browser traffic


@pytest.mark.usefixtures("browser_missing")
async def test_transport_failure_without_chromium_names_what_to_install(sim: Simulator) -> None:
    failure = await _failure_after(sim, Fault.reset(), always=True)
    assert isinstance(failure, BrowserUnavailableError)
    # One sentence, Google named once: it read "the plain fetch got Google connection
    # failed (...) and headless Chromium is not available".
    assert re.fullmatch(
        r"Google browser search failed: the connection failed \(127\.0\.0\.1:\d+\): "
        r"[^,(]+ \(\w+\), and headless Chromium is not available \(no Chromium "
        r"executable at /nonexistent/chromium-for-tests\)\. "
        r"Install it with: pip install \"websearch-tools\[browser\]\" and apt-get install "
        r"chromium \(or set WEBSEARCH_CHROMIUM_PATH to a Chromium executable\)\.",
        failure.message,
    ), failure.message


@pytest.mark.usefixtures("browser_missing")
async def test_a_host_that_does_not_resolve_is_not_taken_to_the_browser(sim: Simulator) -> None:
    connector = aiohttp.TCPConnector(resolver=Unresolvable())
    async with aiohttp.ClientSession(connector=connector) as session:
        settings = sim.settings(base_urls={"google": "http://search.invalid"})
        async with WebSearch(settings, session=session) as ws:
            failure = await _failure(ws)
    assert isinstance(failure, HostNotFoundError)
    assert (failure.message, failure.status) == (
        "Google browser search failed: the connection failed (search.invalid): the host "
        "name could not be resolved (ClientConnectorDNSError), and headless Chromium is not "
        "installed",
        503,
    )  # no "install Chromium": a browser on this machine would not resolve it either; and
    # not "was not tried" (it said so with Chromium missing), nor Google named twice


async def test_a_failed_fetch_with_the_browser_off_says_the_browser_never_ran(
    sim: Simulator, stand_in_chromium: None
) -> None:
    """The fixed "browser search failed" prefix must not read as Chromium having failed."""
    failure = await _failure_after(sim, Fault.reset(), always=True)
    assert failure.status == 503
    assert failure.message.startswith("Google browser search failed: the connection failed")
    assert failure.message.endswith(
        ", and headless Chromium was not started: WEBSEARCH_BROWSER=off turns it off (unset "
        "WEBSEARCH_BROWSER to let Google load the page in it)"
    )


async def test_the_browser_off_and_missing_says_to_install_it_before_unsetting_the_switch(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Unsetting the switch alone would only lead to the next failure, Chromium missing."""
    monkeypatch.setenv("WEBSEARCH_CHROMIUM_PATH", MISSING_CHROMIUM)
    failure = await _failure_after(sim, Fault.reset(), always=True)
    assert failure.status == 503
    assert failure.message.startswith("Google browser search failed: the connection failed")
    assert failure.message.endswith(
        ", and headless Chromium was not started: WEBSEARCH_BROWSER=off turns it off, and it "
        f"is not installed (no Chromium executable at {MISSING_CHROMIUM}). Install it with: "
        'pip install "websearch-tools[browser]" and apt-get install chromium (or set '
        "WEBSEARCH_CHROMIUM_PATH to a Chromium executable), then unset WEBSEARCH_BROWSER to "
        "let Google load the page in it"
    )


async def test_special_characters_in_the_query_are_encoded(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        await ws.search("a&b=c #hash", provider="google")
    (request,) = _requests(sim)
    assert request.query_dict()["q"] == "a&b=c #hash"
    assert set(request.query_dict()) == {"q", "hl", "gl", "udm", "pws"}
