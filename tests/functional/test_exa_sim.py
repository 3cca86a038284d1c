"""Exa end to end through ``WebSearch`` against the loopback simulator.

Every call forces ``provider="exa"`` so only Exa runs. With a key the search API is used;
with no key the explicit selection falls back to the keyless MCP tool.
"""

import json
from typing import Any, cast

import aiohttp
from aiohttp import web

from tests.functional._sim_helpers import only_failure, sim_client, simulator_fixture
from websearch_core import WebSearch
from websearch_core.chain import resolve_candidates
from websearch_core.credentials import Credentials
from websearch_core.errors import (
    RateLimitedError,
    ResponseParseError,
)
from websearch_core.providers.base import ProviderContext
from websearch_core.testing import Fault, RecordedRequest, Simulator
from websearch_core.testing.protocols.exa import FREE_RATE_LIMIT_TEXT, ExaProtocol
from websearch_core.testing.simulator import SimResult
from websearch_core.transport import Transport

QUERY = "latest llm research"
SLUG = "latest-llm-research"


sim = simulator_fixture("exa")


async def _failure(ws: WebSearch, **params: Any) -> BaseException:
    return await only_failure(ws, "exa", QUERY, **params)


# --- API mode --------------------------------------------------------------------------------


async def test_api_success_and_request_shape(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="exa")
    assert result.error is None
    response = result.response
    assert response.provider == "exa"
    assert response.auth_mode == "api_key"
    assert [a.outcome for a in response.attempts] == ["success"]
    assert len(response.sources) == 10
    first = response.sources[0]
    assert first.title == f"{QUERY} result 1"
    assert first.url == f"https://site1.example.org/{SLUG}"
    assert first.snippet == f"Snippet 1 about {QUERY}."
    assert first.author == "Sim Author 1"
    assert first.published_date == "2026-01-01T00:00:00Z"
    assert first.age_seconds is not None
    assert response.answer == "\n\n".join(
        f"**{QUERY} result {i}**: Snippet {i} about {QUERY}." for i in (1, 2, 3)
    )
    assert response.request_id is not None and len(response.request_id) == 32
    assert result.text.startswith(f"**{QUERY} result 1**: Snippet 1 about {QUERY}.")
    assert "\n## Sources\n10 sources\n[1] " in result.text

    (request,) = sim["exa"].requests
    assert request.method == "POST"
    assert request.path == "/search"
    assert request.query == ()
    assert request.header("x-api-key") == "sim-key-exa"
    assert request.header("Content-Type") == "application/json"
    assert request.json() == {
        "query": QUERY,
        "numResults": 10,
        "type": "auto",
        "contents": {"summary": {"query": QUERY}},
    }


async def test_api_count_domains_and_dates(sim: Simulator) -> None:
    sim["exa"].results = [
        SimResult("Old arXiv", "https://arxiv.org/abs/1", "old", "2023-05-01T00:00:00Z"),
        SimResult("New arXiv", "https://arxiv.org/abs/2", "new", "2025-02-01T00:00:00Z"),
        SimResult("Export arXiv", "https://export.arxiv.org/abs/3", "sub", "2025-03-01T00:00:00Z"),
        SimResult("Medium", "https://medium.com/p/4", "blog", "2025-02-02T00:00:00Z"),
        SimResult("Late arXiv", "https://arxiv.org/abs/5", "late", "2025-07-01T00:00:00Z"),
    ]
    async with sim_client(sim) as ws:
        response = await ws.search(
            QUERY,
            provider="exa",
            limit=2,
            include_domains=["arxiv.org", "medium.com"],
            exclude_domains=["export.arxiv.org"],
            date_after="2025-01-01",
            date_before="2025-06-30",
        )
    assert [s.title for s in response.sources] == ["New arXiv", "Medium"]
    body = sim["exa"].requests[0].json()
    assert body["numResults"] == 2
    assert body["includeDomains"] == ["arxiv.org", "medium.com"]
    assert body["excludeDomains"] == ["export.arxiv.org"]
    assert body["startPublishedDate"] == "2025-01-01T00:00:00.000Z"
    assert body["endPublishedDate"] == "2025-06-30T23:59:59.999Z"


async def test_api_sends_country_as_user_location_and_records_it_native(sim: Simulator) -> None:
    # docs.exa.ai/reference/search: userLocation, a two-letter ISO country code ("US").
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="exa", country="de")
    assert sim["exa"].requests[0].json()["userLocation"] == "DE"
    assert [(f.name, f.applied) for f in response.filters] == [("country", ("native",))]


async def test_keyless_mcp_records_a_country_as_ignored(sim: Simulator) -> None:
    # Guard (passes before and after): web_search_exa has no country field, so none is sent
    # and the record does not claim the API's userLocation for the keyless mode.
    async with sim_client(sim, api_keys={}) as ws:
        response = await ws.search(QUERY, provider="exa", country="de")
    arguments = sim["exa"].requests[0].json()["params"]["arguments"]
    assert arguments == {"query": QUERY}
    assert [(f.name, f.applied) for f in response.filters] == [("country", ("ignored",))]


def test_simulated_api_refuses_a_user_location_that_is_not_two_letters() -> None:
    body = b'{"query": "x", "userLocation": "Germany"}'
    request = RecordedRequest("POST", "/search", (), {"x-api-key": "k"}, body)
    response = ExaProtocol().answer(request, [])
    assert response.status == 400


def test_simulated_mcp_says_no_results_in_exas_words() -> None:
    call = {
        "jsonrpc": "2.0",
        "id": "n1",
        "method": "tools/call",
        "params": {"name": "web_search_exa", "arguments": {"query": "zzz site:nowhere.example"}},
    }
    headers = {"Accept": "application/json, text/event-stream"}
    request = RecordedRequest("POST", "/mcp", (), headers, json.dumps(call).encode())
    response = ExaProtocol().answer(request, [])
    assert isinstance(response, web.Response) and isinstance(response.text, str)
    reply = json.loads(response.text.split("data: ", 1)[1])
    assert reply["result"] == {
        "content": [
            {"type": "text", "text": "No search results found. Please try a different query."}
        ]
    }


async def test_num_search_results_wins_over_limit(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="exa", limit=2, num_search_results=4)
    assert len(response.sources) == 4
    assert sim["exa"].requests[0].json()["numResults"] == 4


def test_auto_chain_needs_a_key_explicit_selection_does_not(sim: Simulator) -> None:
    def chain(keys: dict[str, str], forced: str | None = None) -> list[str]:
        context = ProviderContext(
            transport=cast(Transport, None),
            settings=sim.settings(),
            credentials=Credentials(explicit=keys, environ={}),
        )
        providers = resolve_candidates(context, forced=forced, order=("exa",)).providers
        return [p.info.id for p in providers]

    assert chain({}) == []
    assert chain({"exa": "k"}) == ["exa"]
    assert chain({}, forced="exa") == ["exa"]


# --- keyless MCP mode --------------------------------------------------------------------------


async def test_keyless_mcp_success_and_request_shape(sim: Simulator) -> None:
    async with sim_client(sim, api_keys={}) as ws:
        result = await ws.run(QUERY, provider="exa")
    assert result.error is None
    response = result.response
    assert response.provider == "exa"
    assert response.auth_mode == "keyless"
    assert response.answer is None
    assert len(response.sources) == 8  # the MCP tool's own default count
    first = response.sources[0]
    assert first.title == f"{QUERY} result 1"
    assert first.url == f"https://site1.example.org/{SLUG}"
    assert first.snippet == f"Snippet 1 about {QUERY}.\nMore text from {QUERY} result 1."
    assert first.author == "Sim Author 1"
    assert first.published_date == "2026-01-01T00:00:00Z"
    assert first.age_seconds is not None
    assert result.text.startswith(f"[1] {QUERY} result 1 (")

    (request,) = sim["exa"].requests
    assert request.method == "POST"
    assert request.path == "/mcp"
    assert request.query == (("tools", "web_search_exa"),)
    assert request.header("x-api-key") is None
    assert request.header("Accept") == "application/json, text/event-stream"
    assert request.header("Content-Type") == "application/json"
    assert request.header("x-exa-source") == "websearch-tools"
    message = request.json()
    assert message["jsonrpc"] == "2.0"
    assert message["method"] == "tools/call"
    assert isinstance(message["id"], str) and message["id"]
    assert message["params"] == {"name": "web_search_exa", "arguments": {"query": QUERY}}


async def test_keyless_mcp_count_and_directives(sim: Simulator) -> None:
    sim["exa"].results = [
        SimResult(f"R{i}", f"https://{host}/p{i}", f"s{i}", "2025-02-01T00:00:00Z")
        for i, host in enumerate(["arxiv.org", "medium.com", "arxiv.org", "arxiv.org"])
    ]
    async with sim_client(sim, api_keys={}) as ws:
        response = await ws.search(
            QUERY,
            provider="exa",
            limit=2,
            include_domains=["arxiv.org"],
            date_after="2025-01-01",
        )
    assert [s.title for s in response.sources] == ["R0", "R2"]
    arguments = sim["exa"].requests[0].json()["params"]["arguments"]
    assert arguments == {"query": f"{QUERY} site:arxiv.org after:2025-01-01", "numResults": 2}


async def test_keyless_mcp_rate_limit(sim: Simulator) -> None:
    sim["exa"].always(Fault.rate_limited(retry_after=1))
    async with sim_client(sim, api_keys={}) as ws:
        result = await ws.run(QUERY, provider="exa")
        failure = await _failure(ws)
    assert result.error == (
        "exa: MCP rate limit reached (429); configure an Exa API key for higher limits"
    )
    assert isinstance(failure, RateLimitedError) and failure.retry_after == 1


async def test_keyless_mcp_in_band_rate_limit_is_a_rate_limit(sim: Simulator) -> None:
    # Exa's MCP server answers the keyless limit with a 200 reply holding a tool error.
    sim["exa"].protocol = ExaProtocol(keyless_calls=0)
    async with sim_client(sim, api_keys={}) as ws:
        result = await ws.run(QUERY, provider="exa")
        failure = await _failure(ws)
    assert result.error == FREE_RATE_LIMIT_TEXT
    assert isinstance(failure, RateLimitedError) and failure.status == 429
    assert all(r.path.startswith("/mcp") for r in sim["exa"].requests)


async def test_keyless_mcp_serves_its_calls_before_the_limit(sim: Simulator) -> None:
    sim["exa"].protocol = ExaProtocol(keyless_calls=1)
    async with sim_client(sim, api_keys={}) as ws:
        first = await ws.search(QUERY, provider="exa")
        failure = await only_failure(ws, "exa", "another query")  # not the cached one
    assert first.sources and first.auth_mode == "keyless"
    assert len(sim["exa"].requests) == 2
    assert isinstance(failure, RateLimitedError)


async def test_keyless_mcp_server_error_and_malformed(sim: Simulator) -> None:
    sim["exa"].enqueue(Fault.server_error(), Fault.malformed())
    async with sim_client(sim, api_keys={}) as ws:
        failed = await ws.run(QUERY, provider="exa")
        malformed = await _failure(ws)
    assert failed.error == "Exa MCP request failed (500): internal error"
    assert isinstance(malformed, ResponseParseError)
    assert malformed.message == "Failed to parse MCP response"


async def test_keyless_mcp_unauthorized(sim: Simulator) -> None:
    sim["exa"].always(Fault.unauthorized())
    async with sim_client(sim, api_keys={}) as ws:
        result = await ws.run(QUERY, provider="exa")
    assert result.error == "Exa authorization failed (401). Check API key or base URL."


async def test_simulated_mcp_refuses_a_client_that_cannot_take_sse(sim: Simulator) -> None:
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            sim["exa"].base_url + "/mcp",
            json={"jsonrpc": "2.0", "id": "1", "method": "tools/call", "params": {}},
            headers={"Accept": "application/json"},
        ) as response,
    ):
        assert response.status == 406


# --- API faults -------------------------------------------------------------------------------


async def test_malformed_body(sim: Simulator) -> None:
    sim["exa"].always(Fault.malformed())
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="exa")
        failure = await _failure(ws)
    assert result.error == "Exa API returned invalid JSON"
    assert isinstance(failure, ResponseParseError)
