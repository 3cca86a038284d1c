"""SearXNG end to end through ``WebSearch`` against the loopback simulator.

Every call forces ``provider="searxng"`` so only SearXNG runs, whatever else is registered.
"""

import base64
from typing import Any, cast

import pytest

from tests.functional._sim_helpers import only_failure, sim_client, simulator_fixture
from websearch_core import WebSearch
from websearch_core.chain import resolve_candidates
from websearch_core.credentials import Credentials
from websearch_core.errors import (
    AuthorizationError,
    ChallengeError,
    ConfigurationError,
    ProviderNotConfiguredError,
    ProviderUnavailableError,
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.models import SearchCitation, SourceRank
from websearch_core.providers.base import ProviderContext
from websearch_core.settings import Settings
from websearch_core.testing import Fault, Simulator
from websearch_core.testing.protocols.searxng import NOT_FOUND_PAGE, SearxngProtocol
from websearch_core.testing.simulator import SimResult
from websearch_core.transport import Transport

QUERY = "espresso grind size"


sim = simulator_fixture("searxng")


def _protocol(sim: Simulator) -> SearxngProtocol:
    return cast(SearxngProtocol, sim["searxng"].protocol)


def _with(sim: Simulator, **searxng: Any) -> WebSearch:
    return sim_client(sim, searxng={"endpoint": sim["searxng"].base_url, **searxng})


async def _failure(ws: WebSearch, **params: Any) -> BaseException:
    return await only_failure(ws, "searxng", QUERY, **params)


# --- request shape and success ---------------------------------------------------------------


async def test_success_and_request_shape(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="searxng")
    assert result.error is None
    response = result.response
    assert response.provider == "searxng"
    assert [a.outcome for a in response.attempts] == ["success"]
    assert len(response.sources) == 10
    assert response.sources[0].title == f"{QUERY} result 1"
    assert response.sources[0].url == "https://site1.example.org/espresso-grind-size"
    assert response.sources[0].snippet == f"Snippet 1 about {QUERY}."
    assert response.sources[0].published_date == "2026-01-01T00:00:00Z"
    assert response.sources[0].age_seconds is not None
    assert response.related_questions == (f"{QUERY} tutorial", f"{QUERY} examples")
    assert result.text.startswith(f"[1] {QUERY} result 1")
    assert "\n## Related\n2 questions\n" in result.text

    (request,) = sim["searxng"].requests
    assert request.method == "GET"
    assert request.path == "/search"
    assert request.query == (("q", QUERY), ("format", "json"))
    assert request.header("Accept") == "application/json"
    assert request.header("Authorization") is None
    assert request.body == b""


async def test_count_recency_and_language(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        response = await ws.search(
            QUERY, provider="searxng", limit=3, recency="week", language="pt-BR"
        )
    assert len(response.sources) == 3
    query = sim["searxng"].requests[0].query_dict()
    assert query == {
        "q": QUERY,
        "format": "json",
        "pageno": "1",
        "time_range": "week",  # accepted as is by SearXNG (and by the simulator's check)
        "language": "pt-BR",
    }


async def test_more_results_than_the_maximum_are_cut_to_twenty(sim: Simulator) -> None:
    sim["searxng"].results = [
        SimResult(title=f"R{i}", url=f"https://r{i}.example.org/", snippet=f"s{i}")
        for i in range(30)
    ]
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="searxng", num_search_results=50)
    assert [s.title for s in response.sources] == [f"R{i}" for i in range(20)]
    assert response.sources[0].published_date is None


async def test_instance_settings_are_sent(sim: Simulator) -> None:
    async with _with(
        sim, categories="general,it", engines="brave, google", safesearch=2, language="de"
    ) as ws:
        await ws.search(QUERY, provider="searxng")
    query = sim["searxng"].requests[0].query_dict()
    assert query["categories"] == "general,it"
    assert query["engines"] == "brave,google"
    assert query["safesearch"] == "2"
    assert query["language"] == "de"


async def test_endpoint_alone_routes_requests(sim: Simulator) -> None:
    settings = sim.settings(base_urls={}, searxng={"endpoint": sim["searxng"].base_url + "/"})
    async with WebSearch(settings) as ws:
        response = await ws.search(QUERY, provider="searxng")
    assert response.provider == "searxng"
    assert sim["searxng"].requests[0].path == "/search"


@pytest.mark.parametrize("suffix", ["/search", "/search/", "/searxng/search//"])
async def test_endpoint_given_as_the_search_url_is_not_doubled(sim: Simulator, suffix: str) -> None:
    async with _with(sim, endpoint=sim["searxng"].base_url + suffix) as ws:
        result = await ws.run(QUERY, provider="searxng")
    assert result.error is None and len(result.response.sources) == 10
    assert sim["searxng"].requests[0].path == suffix.rstrip("/")


async def test_endpoint_path_prefix_is_kept(sim: Simulator) -> None:
    async with _with(sim, endpoint=sim["searxng"].base_url + "/searxng/") as ws:
        await ws.search(QUERY, provider="searxng")
    assert sim["searxng"].requests[0].path == "/searxng/search"


def test_auto_chain_leaves_out_searxng_without_endpoint(sim: Simulator) -> None:
    def chain(settings: Settings) -> list[str]:
        context = ProviderContext(
            transport=cast(Transport, None), settings=settings, credentials=Credentials()
        )
        providers = resolve_candidates(context, order=("searxng",)).providers
        return [p.info.id for p in providers]

    assert chain(sim.settings()) == ["searxng"]
    assert chain(sim.settings(searxng={})) == []
    assert chain(sim.settings(searxng={"token": "t", "basic_username": "u"})) == []


# --- auth ------------------------------------------------------------------------------------


async def test_bearer_token(sim: Simulator) -> None:
    async with _with(sim, token="t") as ws:
        await ws.search(QUERY, provider="searxng")
    assert sim["searxng"].requests[0].header("Authorization") == "Bearer t"


async def test_basic_auth_wins_over_bearer(sim: Simulator) -> None:
    async with _with(sim, basic_username="alice", basic_password="s3cr:et", token="t") as ws:
        await ws.search(QUERY, provider="searxng")
    expected = "Basic " + base64.b64encode(b"alice:s3cr:et").decode()
    assert sim["searxng"].requests[0].header("Authorization") == expected


async def test_incomplete_basic_auth_fails_before_any_request(sim: Simulator) -> None:
    async with _with(sim, basic_username="alice") as ws:
        result = await ws.run(QUERY, provider="searxng")
        failure = await _failure(ws)
    assert sim["searxng"].requests == []
    # the chain records it; search() reports non-provider errors as SearchProviderError
    assert isinstance(failure, ConfigurationError | SearchProviderError)
    assert str(failure) == result.error
    assert result.error == (
        "SearXNG Basic auth requires both searxng.basic_username and searxng.basic_password, "
        "or SEARXNG_BASIC_USERNAME and SEARXNG_BASIC_PASSWORD."
    )
    assert result.text == f"Error: {result.error}"


async def test_basic_credentials_from_environment(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SEARXNG_ENDPOINT", sim["searxng"].base_url)
    monkeypatch.setenv("SEARXNG_BASIC_USERNAME", "bob")
    monkeypatch.setenv("SEARXNG_BASIC_PASSWORD", "hunter22")
    async with WebSearch() as ws:
        await ws.search(QUERY, provider="searxng")
    expected = "Basic " + base64.b64encode(b"bob:hunter22").decode()
    assert sim["searxng"].requests[0].header("Authorization") == expected


# --- what SearXNG sends besides results ----------------------------------------------------


async def test_engines_infobox_and_corrections_reach_the_model(sim: Simulator) -> None:
    protocol = _protocol(sim)
    protocol.corrections = ["espresso grind sizes"]
    protocol.infoboxes = [
        {
            "infobox": "Espresso",
            "id": "https://en.wikipedia.org/wiki/Espresso",
            "content": "Coffee brewed by forcing hot water through finely ground beans.",
            "attributes": [{"label": "Country of origin", "value": "Italy"}],
            "engine": "wikipedia",
            "engines": ["wikipedia"],
        }
    ]
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="searxng", limit=3)
    response = result.response
    assert [source.engines for source in response.sources] == [
        (SourceRank(engine="brave", rank=1), SourceRank(engine="google", rank=1)),
        (SourceRank(engine="brave", rank=2),),
        (SourceRank(engine="google", rank=3),),
    ]
    assert response.answer == (
        "Espresso\nCoffee brewed by forcing hot water through finely ground beans.\n"
        "Country of origin: Italy"
    )
    assert response.citations == (
        SearchCitation(url="https://en.wikipedia.org/wiki/Espresso", title="Espresso"),
    )
    assert response.related_questions == (
        "espresso grind sizes",
        f"{QUERY} tutorial",
        f"{QUERY} examples",
    )
    assert not response.partial
    assert result.text.startswith("Espresso\nCoffee brewed by forcing hot water")
    assert "\n## Sources\n3 sources\n[1] espresso grind size result 1" in result.text
    assert "\n## Citations\n1 citation\n[1] Espresso\n" in result.text
    assert "\n## Related\n3 questions\n- espresso grind sizes\n" in result.text


async def test_unresponsive_engines_make_a_partial_uncached_response(
    sim: Simulator, caplog: pytest.LogCaptureFixture
) -> None:
    _protocol(sim).unresponsive_engines = [["duckduckgo", "CAPTCHA"], ["qwant", "timeout"]]
    async with sim_client(sim) as ws:
        first = await ws.run(QUERY, provider="searxng")
        second = await ws.run(QUERY, provider="searxng")
    assert first.error is None and len(first.response.sources) == 10
    assert first.response.partial
    assert "SearXNG answered without these engines: duckduckgo: CAPTCHA; qwant: timeout" in (
        caplog.messages
    )
    # A partial answer is never cached: the second call asks the instance again.
    assert not second.response.cached
    assert len(sim["searxng"].requests) == 2


async def test_unresponsive_engines_and_no_results_is_an_error_naming_them(
    sim: Simulator,
) -> None:
    sim["searxng"].results = []
    _protocol(sim).unresponsive_engines = [["duckduckgo", "CAPTCHA"], ["qwant", "timeout"]]
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="searxng")
        failure = await _failure(ws)
    assert result.error == (
        "SearXNG returned no usable results; upstream engines failed: "
        "duckduckgo: CAPTCHA; qwant: timeout"
    )
    assert isinstance(failure, ProviderUnavailableError) and failure.status == 503


async def test_automatic_language_is_sent_and_accepted(sim: Simulator) -> None:
    async with _with(sim, language="auto") as ws:
        result = await ws.run(QUERY, provider="searxng")
    assert result.error is None
    assert sim["searxng"].requests[0].query_dict()["language"] == "auto"


# --- refused before sending ----------------------------------------------------------------


@pytest.mark.parametrize("query", ["!!g espresso", "espresso !!ddg grind", "!! espresso"])
async def test_external_bang_is_refused_and_never_sent(sim: Simulator, query: str) -> None:
    async with sim_client(sim) as ws:
        result = await ws.run(query, provider="searxng")
        failure = await only_failure(ws, "searxng", query)
    assert sim["searxng"].requests == []
    assert result.error is not None
    assert result.error.startswith("SearXNG redirects a query with an external bang (")
    assert type(failure) is SearchProviderError and failure.status == 400


async def test_a_single_bang_selects_an_engine_and_is_sent(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        result = await ws.run(f"!wp {QUERY}", provider="searxng")
    assert result.error is None
    assert sim["searxng"].requests[0].query_dict()["q"] == f"!wp {QUERY}"


# --- faults ----------------------------------------------------------------------------------


@pytest.mark.parametrize("status", [401, 403])
async def test_authorization_failures(sim: Simulator, status: int) -> None:
    sim["searxng"].always(Fault.http(status, "denied"))
    async with _with(sim, token="t") as ws:
        result = await ws.run(QUERY, provider="searxng")
        failure = await _failure(ws)
    expected = f"SearXNG authorization failed ({status}). Check API key or base URL."
    assert result.error == expected
    assert isinstance(failure, AuthorizationError) and failure.status == status


async def test_malformed_body(sim: Simulator) -> None:
    sim["searxng"].always(Fault.malformed())
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="searxng")
        failure = await _failure(ws)
    assert result.error == "SearXNG API returned invalid JSON"
    assert isinstance(failure, ResponseParseError)
    assert not isinstance(failure, ChallengeError)


async def test_challenge_page_is_never_an_empty_success(sim: Simulator) -> None:
    sim["searxng"].always(Fault.challenge())
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="searxng")
        failure = await _failure(ws)
    assert result.error is not None
    assert result.error.startswith("SearXNG instance served a bot-check page")
    assert "Verifying your request" in result.error
    assert result.response.sources == ()
    assert isinstance(failure, ChallengeError) and failure.provider == "searxng"


@pytest.mark.parametrize(
    "searxng", [{}, {"token": "t"}, {"basic_username": "u", "basic_password": "p"}]
)
async def test_json_format_disabled_is_reported_as_what_it_is(
    sim: Simulator, searxng: dict[str, str]
) -> None:
    _protocol(sim).formats = ("html",)
    async with _with(sim, **searxng) as ws:
        result = await ws.run(QUERY, provider="searxng")
        failure = await _failure(ws)
    host = sim["searxng"].base_url.removeprefix("http://")
    expected = (
        f"SearXNG instance at {host} does not serve the JSON format (403): "
        'enable "json" in search.formats of its settings.yml.'
    )
    assert result.error == expected
    assert result.text == f"Error: {expected}"
    assert "API key" not in result.text and "authorization" not in result.text
    assert type(failure) is ProviderNotConfiguredError
    (attempt,) = result.response.attempts
    assert (attempt.outcome, attempt.status, attempt.detail) == ("failed", None, expected)


async def test_html_error_page_is_reported_by_status_and_title(sim: Simulator) -> None:
    page = NOT_FOUND_PAGE.replace("404 Not Found", "502 Bad Gateway")
    sim["searxng"].always(Fault.http(502, page, {"Content-Type": "text/html"}))
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="searxng")
        failure = await _failure(ws)
    assert result.error == "SearXNG API error (502): 502 Bad Gateway"
    assert isinstance(failure, ProviderUnavailableError) and failure.status == 502


async def test_simulator_refuses_what_a_real_instance_refuses(sim: Simulator) -> None:
    import aiohttp

    base = sim["searxng"].base_url
    async with aiohttp.ClientSession() as session:
        async with session.get(base + "/search/search", params={"q": "x", "format": "json"}) as r:
            assert r.status == 404 and "404 Not Found" in await r.text()
        params = {"q": "x", "format": "json", "time_range": "fortnight"}
        async with session.get(base + "/search", params=params) as r:
            assert r.status == 400
            assert await r.json() == {"error": 'Invalid value "fortnight" for parameter time_range'}
        params = {"q": "!!g x", "format": "json"}
        async with session.get(base + "/search", params=params, allow_redirects=False) as r:
            assert r.status == 302
            assert r.headers["Location"] == "https://external.example/search?q=x"
        _protocol(sim).formats = ("html",)
        async with session.get(base + "/search", params={"q": "x", "format": "json"}) as r:
            assert r.status == 403 and "403 Forbidden" in await r.text()


async def test_simulator_answers_html_without_format_json(sim: Simulator) -> None:
    import aiohttp

    async with (
        aiohttp.ClientSession() as session,
        session.get(sim["searxng"].base_url + "/search", params={"q": "x"}) as response,
    ):
        assert response.status == 200
        assert response.content_type == "text/html"


async def test_results_the_filters_drop_name_the_engines_that_did_not_answer(
    sim: Simulator,
) -> None:
    # As its "no renderable search content" error does: the engines that did not answer
    # may be the ones whose results would have matched, so the filter error names them too.
    sim["searxng"].results = [
        SimResult("Grinders", "https://elsewhere.example/grind", "Burr grinders compared.")
    ]
    sim["searxng"].honour_operators = False  # an engine of its leaked off the site
    _protocol(sim).unresponsive_engines = [["duckduckgo", "CAPTCHA"], ["qwant", "timeout"]]
    _protocol(sim).suggests = False
    async with sim_client(sim) as ws:
        result = await ws.run(f"{QUERY} site:wanted.example", provider="searxng")
    assert result.error == (
        "SearXNG returned no results matching the filters (include_domains dropped 1). SearXNG "
        "engine "
        "did not answer: duckduckgo: CAPTCHA. SearXNG engine did not answer: qwant: timeout."
    )
