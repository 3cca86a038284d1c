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
    ProviderTimeoutError,
    ProviderUnavailableError,
    RateLimitedError,
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.providers.base import ProviderContext
from websearch_core.settings import Settings
from websearch_core.testing import Fault, Simulator
from websearch_core.testing.simulator import SimResult
from websearch_core.transport import Transport

QUERY = "espresso grind size"


sim = simulator_fixture("searxng")


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
        "time_range": "month",
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


@pytest.mark.parametrize("status", [500, 502, 503])
async def test_server_errors(sim: Simulator, status: int) -> None:
    sim["searxng"].always(Fault.server_error(status))
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="searxng")
        failure = await _failure(ws)
    assert result.error == f"SearXNG API error ({status}): internal error"
    assert isinstance(failure, ProviderUnavailableError) and failure.status == status


async def test_rate_limited_with_retry_after(sim: Simulator) -> None:
    sim["searxng"].always(Fault.rate_limited(retry_after=7, body="Too Many Requests"))
    async with sim_client(sim) as ws:
        failure = await _failure(ws)
    assert isinstance(failure, RateLimitedError)
    assert failure.retry_after == 7
    assert failure.message == "SearXNG API error (429): Too Many Requests"


async def test_hang_times_out(sim: Simulator) -> None:
    sim["searxng"].enqueue(Fault.hang(30))
    async with sim_client(sim, timeout_seconds=0.5) as ws:
        result = await ws.run(QUERY, provider="searxng")
    assert result.error == "SearXNG request timed out after 0.5s"
    assert result.response.attempts[-1].outcome == "failed"


async def test_hang_raises_timeout_error(sim: Simulator) -> None:
    sim["searxng"].enqueue(Fault.hang(30))
    async with sim_client(sim, timeout_seconds=0.5) as ws:
        failure = await _failure(ws)
    assert isinstance(failure, ProviderTimeoutError)


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


async def test_recovers_after_a_queued_fault(sim: Simulator) -> None:
    sim["searxng"].enqueue(Fault.server_error())
    async with sim_client(sim) as ws:
        first = await ws.run(QUERY, provider="searxng")
        second = await ws.run(QUERY, provider="searxng")
    assert first.is_error
    assert not second.is_error and len(second.response.sources) == 10


async def test_simulator_answers_html_without_format_json(sim: Simulator) -> None:
    import aiohttp

    async with (
        aiohttp.ClientSession() as session,
        session.get(sim["searxng"].base_url + "/search", params={"q": "x"}) as response,
    ):
        assert response.status == 200
        assert response.content_type == "text/html"
