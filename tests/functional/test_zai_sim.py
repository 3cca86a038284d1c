"""Z.AI end to end through ``WebSearch`` against the loopback MCP simulator.

Every call forces ``provider="zai"`` so only Z.AI runs, whatever else is registered.
"""

import json
from typing import Any

import pytest

from tests.functional._sim_helpers import failure_after, sim_client, simulator_fixture
from tests.zai_ids import pin_rpc_ids
from websearch_core import __version__
from websearch_core.errors import (
    AuthorizationError,
    ProviderConnectionError,
    QuotaExhaustedError,
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.testing import Fault, SimResult, Simulator
from websearch_core.testing.protocols.zai import ZaiProtocol
from websearch_core.testing.simulator import RecordedRequest

QUERY = "python asyncio"
PATH = "/api/mcp/web_search_prime/mcp"


sim = simulator_fixture("zai")


async def _failure(
    sim: Simulator, *faults: Fault | None, overrides: dict[str, Any] | None = None
) -> SearchProviderError:
    return await failure_after(sim, "zai", QUERY, *faults, **(overrides or {}))


def _methods(sim: Simulator) -> list[str]:
    return [request.json()["method"] for request in sim["zai"].requests]


# --- the MCP sequence and success -------------------------------------------------------------


async def test_session_sequence_and_argument_shapes(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="zai", limit=3)

    requests = sim["zai"].requests
    # The tool takes search_query, and that is the first shape sent: one call searches.
    assert _methods(sim) == ["initialize", "notifications/initialized", "tools/call"]
    for request in requests:
        assert (request.method, request.path) == ("POST", PATH)
        assert request.header("Authorization") == "Bearer sim-key-zai"
        assert request.header("Accept") == "application/json, text/event-stream"
        assert (request.header("Content-Type") or "").startswith("application/json")
    initialize = requests[0].json()
    assert initialize["params"] == {
        "protocolVersion": "2025-03-26",
        "capabilities": {},
        "clientInfo": {"name": "websearch-tools", "version": __version__},
    }
    assert isinstance(initialize["id"], str) and initialize["id"]
    assert requests[0].header("Mcp-Session-Id") is None
    session = requests[1].header("Mcp-Session-Id")
    assert session and all(r.header("Mcp-Session-Id") == session for r in requests[1:])
    assert "id" not in requests[1].json()
    (call,) = (r.json()["params"] for r in requests[2:])
    assert call == {"name": "webSearchPrime", "arguments": {"search_query": QUERY, "count": 3}}

    assert response.provider == "zai"
    assert response.auth_mode == "api_key"
    assert [(s.title, s.url, s.snippet, s.author) for s in response.sources] == [
        (
            f"{QUERY} result {i}",
            f"https://site{i}.example.org/python-asyncio",
            f"Snippet {i} about {QUERY}.",
            f"Sim Media {i}",
        )
        for i in (1, 2, 3)
    ]
    assert response.sources[0].published_date == "2026-01-01"
    assert response.sources[0].age_seconds is not None


async def test_default_count_and_num_search_results(sim: Simulator) -> None:
    sim["zai"].results = [
        SimResult(title=f"T{i}", url=f"https://e{i}.example.org/", snippet="s") for i in range(30)
    ]
    async with sim_client(sim) as ws:
        default = await ws.search(QUERY, provider="zai")
        wide = await ws.search(QUERY, provider="zai", limit=2, num_search_results=25)
    calls = [r.json() for r in sim["zai"].requests]
    counts = [c["params"]["arguments"]["count"] for c in calls if c["method"] == "tools/call"]
    assert counts == [10, 25]  # one call each: the first shape is the one the tool takes
    assert len(default.sources) == 10
    assert len(wide.sources) == 25


async def test_tool_text_for_the_model(sim: Simulator) -> None:
    sim["zai"].results = [
        SimResult(
            title="Tasks",
            url="https://docs.python.org/3/library/asyncio-task.html",
            snippet="Coroutines and tasks.",
        )
    ]
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="zai")
    assert not result.is_error
    assert result.text == (
        "[1] Tasks\n"
        "    https://docs.python.org/3/library/asyncio-task.html\n"
        "    Coroutines and tasks."
    )


async def test_all_three_shapes_then_the_refusal_surfaces(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    pin_rpc_ids(monkeypatch, "x")
    refusal = {
        "jsonrpc": "2.0",
        "id": "x",
        "result": {
            "content": [{"type": "text", "text": "MCP error -32602: Invalid arguments"}],
            "isError": True,
        },
    }
    stream = Fault.http(
        200, f"data: {json.dumps(refusal)}\n\n", {"Content-Type": "text/event-stream"}
    )
    failure = await _failure(sim, None, None, stream, stream, stream)
    assert type(failure) is SearchProviderError
    assert failure.message == "MCP error -32602: Invalid arguments"
    shapes = [r.json()["params"]["arguments"] for r in sim["zai"].requests[2:]]
    assert shapes == [
        {"search_query": QUERY, "count": 10},
        {"search_query": QUERY, "search_engine": "search-prime", "count": 10},
        {"query": QUERY, "count": 10},
    ]


async def test_plain_json_reply_without_session_header(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server that answers tools/call with plain JSON and hands out no session id."""
    pin_rpc_ids(monkeypatch, "1", "2")
    listing = json.dumps([{"title": "A", "link": "https://a.example.org/", "content": "x"}])
    initialize = json.dumps({"jsonrpc": "2.0", "id": "1", "result": {"capabilities": {}}})
    call = json.dumps(
        {"jsonrpc": "2.0", "id": "2", "result": {"content": [{"type": "text", "text": listing}]}}
    )
    json_type = {"Content-Type": "application/json"}
    sim["zai"].enqueue(
        Fault.http(200, initialize, json_type), Fault.http(202), Fault.http(200, call, json_type)
    )
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="zai")
    assert [s.url for s in response.sources] == ["https://a.example.org/"]
    assert all(r.header("Mcp-Session-Id") is None for r in sim["zai"].requests)
    assert len(sim["zai"].requests) == 3


# --- faults -----------------------------------------------------------------------------------


async def test_unauthorized_keeps_zais_message(sim: Simulator) -> None:
    failure = await _failure(sim, Fault.unauthorized())
    assert isinstance(failure, AuthorizationError)
    assert failure.status == 401
    assert failure.message == "Z.AI API error (401): invalid token"
    sim["zai"].enqueue(
        Fault.unauthorized(json.dumps({"success": False, "code": 401, "msg": "token expired"}))
    )
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="zai")
    assert result.text == "Error: Z.AI API error (401): token expired"
    assert len(sim["zai"].requests) == 2  # no shape retry after an authorization failure


async def test_missing_key_is_refused_by_the_server_with_its_own_words(sim: Simulator) -> None:
    response = ZaiProtocol().answer(
        RecordedRequest(method="POST", path=PATH, query=(), headers={}, body=b"{}"), []
    )
    assert response.status == 401
    assert response.text is not None
    assert json.loads(response.text)["msg"] == "token expired or incorrect"


async def test_rate_limited_on_the_tool_call_is_retried_by_the_chain(sim: Simulator) -> None:
    sim["zai"].enqueue(None, None, Fault.rate_limited(retry_after=1))
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="zai")
    assert len(response.sources) == 10
    methods = _methods(sim)
    assert methods[:3] == ["initialize", "notifications/initialized", "tools/call"]
    assert methods.count("initialize") == 2  # the chain's retry opens a new session


async def test_an_account_in_arrears_is_reported_as_a_spent_quota(sim: Simulator) -> None:
    # https://docs.z.ai/api-reference/api-code: HTTP 429 with business code 1113.
    arrears = json.dumps(
        {"error": {"code": "1113", "message": "Your account is in arrears, please recharge"}}
    )
    failure = await _failure(sim, Fault.http(429, arrears))
    assert isinstance(failure, QuotaExhaustedError)
    assert _methods(sim) == ["initialize"]  # a spent balance is not asked again
    assert failure.message == "Z.AI API error (429): Your account is in arrears, please recharge"


async def test_a_spent_coding_plan_window_is_reported_as_a_spent_quota(sim: Simulator) -> None:
    # Code 1310 with a 429, as live answers quoted in public projects show it; before, a
    # rate limit the chain asked again on every search.
    text = "[1310][Weekly/Monthly Limit Exhausted. Your limit will reset at 2099-01-01 00:00:00]"
    spent = json.dumps({"error": {"type": "rate_limit_error", "code": "1310", "message": text}})
    failure = await _failure(sim, Fault.http(429, spent))
    assert isinstance(failure, QuotaExhaustedError)
    assert failure.reset_at is not None
    assert _methods(sim) == ["initialize"]  # not asked again
    assert failure.message == f"Z.AI API error (429): {text}"


@pytest.mark.parametrize("position", [0, 2])
async def test_malformed_reply(sim: Simulator, position: int) -> None:
    faults: list[Fault | None] = [None] * position + [Fault.malformed()]
    failure = await _failure(sim, *faults)
    assert isinstance(failure, ResponseParseError)
    assert failure.message == "Failed to parse Z.AI MCP response"
    assert len(sim["zai"].requests) == position + 1  # a parse error is not a shape error


async def test_stream_cut_mid_event(sim: Simulator) -> None:
    cut = Fault.http(
        200, 'event: message\ndata: {"jsonrpc": "2.0", "id"', {"Content-Type": "text/event-stream"}
    )
    failure = await _failure(sim, None, None, cut)
    assert isinstance(failure, ProviderConnectionError)
    assert failure.message.startswith("Z.AI ")
    assert failure.message.endswith("stream ended in the middle of an event")
