"""Jina (s.jina.ai) end to end through ``WebSearch`` against the loopback simulator.

Every call forces ``provider="jina"`` so only Jina runs, whatever else is registered.
"""

from typing import Any, cast

import aiohttp
import pytest

from tests.functional._sim_helpers import only_failure, sim_client, simulator_fixture
from websearch_core import WebSearch
from websearch_core.chain import resolve_candidates
from websearch_core.credentials import Credentials
from websearch_core.errors import (
    EmptyResponseError,
    ResponseParseError,
)
from websearch_core.providers.base import ProviderContext
from websearch_core.testing import Fault, Simulator
from websearch_core.testing.simulator import SimResult
from websearch_core.transport import Transport

QUERY = "jina reader api"
SLUG = "jina-reader-api"


sim = simulator_fixture("jina")


async def _failure(ws: WebSearch, **params: Any) -> BaseException:
    return await only_failure(ws, "jina", QUERY, **params)


# --- request shape and success ---------------------------------------------------------------


async def test_success_and_request_shape(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="jina")
    assert result.error is None
    response = result.response
    assert response.provider == "jina"
    assert response.auth_mode == "api_key"
    assert [a.outcome for a in response.attempts] == ["success"]
    assert len(response.sources) == 5
    first = response.sources[0]
    assert first.title == f"{QUERY} result 1"
    assert first.url == f"https://site1.example.org/{SLUG}"
    assert first.snippet == f"Snippet 1 about {QUERY}."
    assert first.published_date == "2026-01-01T00:00:00Z"
    assert first.age_seconds is not None
    assert result.text.startswith(f"[1] {QUERY} result 1 (")

    (request,) = sim["jina"].requests
    assert request.method == "GET"
    assert request.path == f"/{QUERY}"
    assert request.query == (("count", "5"),)
    assert request.header("Accept") == "application/json"
    assert request.header("Authorization") == "Bearer sim-key-jina"
    assert request.header("X-Respond-With") == "no-content"
    assert request.header("X-Retain-Images") == "none"
    assert request.header("X-Site") is None
    assert request.body == b""


async def test_query_with_reserved_characters_survives_the_path(sim: Simulator) -> None:
    query = "C++ / Rust? #1 100%"
    async with sim_client(sim) as ws:
        response = await ws.search(query, provider="jina")
    assert sim["jina"].requests[0].path == f"/{query}"
    assert response.sources[0].title == f"{query} result 1"


@pytest.mark.parametrize(
    ("params", "count", "served"),
    [({"limit": 3}, "3", 3), ({"num_search_results": 50, "limit": 2}, "20", 10)],
)
async def test_count_and_slicing(
    sim: Simulator, params: dict[str, Any], count: str, served: int
) -> None:
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="jina", **params)
    assert sim["jina"].requests[0].query_dict() == {"count": count}
    assert len(response.sources) == served


async def test_include_domains_are_the_x_site_header(sim: Simulator) -> None:
    sim["jina"].results = [
        SimResult("Docs", "https://docs.jina.ai/a", "docs"),
        SimResult("Other", "https://example.com/b", "other"),
        SimResult("Home", "https://jina.ai/", "home"),
        SimResult("Third", "https://example.net/c", "third"),
    ]
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="jina", include_domains=["jina.ai"])
        both = await ws.search(QUERY, provider="jina", include_domains=["jina.ai", "example.com"])
    first, second = sim["jina"].requests
    assert first.header("X-Site") == "jina.ai"
    assert [s.title for s in response.sources] == ["Docs", "Home"]
    assert response.sources[0].published_date is None
    # Jina splits X-Site on ", " (jina-ai/reader, the explicit operators' from()).
    assert second.header("X-Site") == "jina.ai, example.com"
    assert [s.title for s in both.sources] == ["Docs", "Other", "Home"]
    assert [(f.name, f.value, f.applied) for f in both.filters] == [
        ("include_domains", "jina.ai", ("native", "post")),
        ("include_domains", "example.com", ("native", "post")),
    ]


async def test_a_site_with_no_results_is_an_empty_answer_not_an_api_error(
    sim: Simulator,
) -> None:
    # s.jina.ai answers a search that found nothing with a 422 AssertionFailureError; the
    # chain reports it as it does any provider's empty answer (204).
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="jina", include_domains=["nowhere.example"])
        failure = await _failure(ws, include_domains=["nowhere.example"])
    assert sim["jina"].requests[0].header("X-Site") == "nowhere.example"
    assert isinstance(failure, EmptyResponseError)
    assert failure.status == 204
    assert result.error == failure.message
    assert "Jina API error" not in failure.message


def test_auto_chain_needs_a_key(sim: Simulator) -> None:
    def chain(keys: dict[str, str], forced: str | None = None) -> list[str]:
        context = ProviderContext(
            transport=cast(Transport, None),
            settings=sim.settings(),
            credentials=Credentials(explicit=keys, environ={}),
        )
        providers = resolve_candidates(context, forced=forced, order=("jina",)).providers
        return [p.info.id for p in providers]

    assert chain({}) == []
    assert chain({}, forced="jina") == []  # explicit selection needs the key too
    assert chain({"jina": "k"}) == ["jina"]


# --- faults ----------------------------------------------------------------------------------


async def test_malformed_body(sim: Simulator) -> None:
    sim["jina"].always(Fault.malformed())
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="jina")
        failure = await _failure(ws)
    assert result.error == "Jina API returned invalid response: expected data array"
    assert isinstance(failure, ResponseParseError)


# --- the simulator itself --------------------------------------------------------------------


async def test_simulator_answers_text_without_the_json_accept_header(sim: Simulator) -> None:
    async with (
        aiohttp.ClientSession() as session,
        session.get(
            sim["jina"].base_url + "/hello", headers={"Authorization": "Bearer k"}
        ) as response,
    ):
        assert response.status == 200
        assert response.content_type == "text/plain"
        assert (await response.text()).startswith("[1] Title: hello result 1")


async def test_simulator_answers_jinas_422_when_nothing_is_found(sim: Simulator) -> None:
    sim["jina"].results = []
    async with (
        aiohttp.ClientSession() as session,
        session.get(
            sim["jina"].base_url + "/hello",
            headers={"Authorization": "Bearer k", "Accept": "application/json"},
        ) as response,
    ):
        status, data = response.status, await response.json()
    assert status == 422
    assert data == {
        "data": None,
        "code": 422,
        "name": "AssertionFailureError",
        "status": 42206,
        "message": "No search results available for query hello",
        "readableMessage": "AssertionFailureError: No search results available for query hello",
    }


async def test_simulator_serves_content_unless_told_not_to(sim: Simulator) -> None:
    async with (
        aiohttp.ClientSession() as session,
        session.get(
            sim["jina"].base_url + "/hello",
            headers={"Authorization": "Bearer k", "Accept": "application/json"},
        ) as response,
    ):
        data = await response.json()
    assert data["code"] == 200
    assert data["data"][0]["content"] == "# hello result 1\n\nSnippet 1 about hello."
