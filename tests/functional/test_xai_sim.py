"""xAI end to end through ``WebSearch`` against the loopback simulator.

Every call forces ``provider="xai"`` so only xAI runs.
"""

import json
import uuid
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from tests.functional._sim_helpers import fault_failure, sim_client, simulator_fixture
from websearch_core.errors import (
    AllProvidersFailedError,
    AuthorizationError,
    QuotaExhaustedError,
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.prompts import SEARCH_SYSTEM_PROMPT
from websearch_core.providers.xai import parse_response_object, response_from_events
from websearch_core.sse import parse_sse
from websearch_core.testing import Fault, RecordedRequest, SimResult, Simulator
from websearch_core.testing.protocols.xai import XaiProtocol, spent_credits_message

QUERY = "python asyncio"


sim = simulator_fixture("xai")


async def _failure(
    sim: Simulator, fault: Fault, overrides: dict[str, Any] | None = None
) -> SearchProviderError:
    return await fault_failure(sim, "xai", QUERY, fault, overrides)


# --- request shape and success ----------------------------------------------------------------


async def test_request_shape_and_parsed_response(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="xai")

    (request,) = sim["xai"].requests
    assert (request.method, request.path, request.query) == ("POST", "/v1/responses", ())
    assert request.header("Authorization") == "Bearer sim-key-xai"
    assert (request.header("Content-Type") or "").startswith("application/json")
    assert request.json() == {
        "model": "grok-4.3",
        "input": [
            {"role": "system", "content": SEARCH_SYSTEM_PROMPT},
            {"role": "user", "content": QUERY},
        ],
        "tools": [{"type": "web_search"}],
    }

    assert response.provider == "xai"
    assert response.auth_mode == "api_key"
    assert response.model == "grok-4.3"
    assert (
        response.request_id is not None
        and str(uuid.UUID(response.request_id)) == response.request_id
    )
    assert response.answer == (
        "Here is what I found about python asyncio:\n"
        "- Snippet 1 about python asyncio.\n"
        "- Snippet 2 about python asyncio.\n"
        "- Snippet 3 about python asyncio."
    )
    urls = [f"https://site{i}.example.org/python-asyncio" for i in range(1, 11)]
    assert [s.url for s in response.sources] == urls
    assert all(s.title == s.url and s.snippet is None for s in response.sources)
    assert [c.url for c in response.citations] == urls
    assert response.usage is not None and response.usage.input_tokens == 1914


async def test_tool_text(sim: Simulator) -> None:
    sim["xai"].results = [
        SimResult(
            title="Tasks",
            url="https://docs.python.org/3/library/asyncio-task.html",
            snippet="Tasks run coroutines.",
        )
    ]
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="xai")
    url = "https://docs.python.org/3/library/asyncio-task.html"
    assert result.text == (
        "Here is what I found about python asyncio:\n- Tasks run coroutines.\n"
        f"\n## Sources\n1 source\n[1] {url}\n    {url}\n"
        f"\n## Citations\n1 citation\n[1] {url}\n    {url}"
    )


async def test_a_limit_and_recency_make_one_request_without_live_search(sim: Simulator) -> None:
    # The simulator answers search_parameters with 410, as xAI does since Live Search ended.
    async with sim_client(sim) as ws:
        result = await ws.run(
            QUERY, provider="xai", limit=3, recency="week", max_tokens=512, temperature=0.4
        )
    (request,) = sim["xai"].requests
    body = request.json()
    assert "search_parameters" not in body
    assert body["tools"] == [{"type": "web_search"}]
    assert (body["max_output_tokens"], body["temperature"]) == (512, 0.4)
    response = result.response
    assert len(response.sources) == len(response.citations) == 3
    assert [(f.name, f.value, f.applied) for f in response.filters] == [
        ("recency", "week", ("ignored",))
    ]
    assert "Filters not applied: recency=week." in result.text


async def test_domains_go_in_the_tool_and_the_rest_in_the_question(sim: Simulator) -> None:
    sim["xai"].results = [
        SimResult(title=f"r{i}", url=f"https://{host}/page{i}", snippet=f"s{i}")
        for i, host in enumerate(
            ["docs.python.org", "peps.python.org", "realpython.com", "spam.example"]
        )
    ]
    many = ("python.org", "realpython.com", "a.example", "b.example", "c.example", "d.example")
    async with sim_client(sim) as ws:
        one = await ws.search(f"{QUERY} site:python.org -site:spam.example", provider="xai")
        six = await ws.search(QUERY, provider="xai", include_domains=many)
        out = await ws.search(QUERY, provider="xai", exclude_domains=("realpython.com",))
    first, second, third = (r.json() for r in sim["xai"].requests)
    assert first["tools"] == [
        {"type": "web_search", "filters": {"allowed_domains": ["python.org"]}}
    ]
    assert first["input"][-1]["content"] == f"{QUERY} -site:spam.example"
    assert [s.url for s in one.sources] == [
        "https://docs.python.org/page0",
        "https://peps.python.org/page1",
    ]
    assert {f.name: f.applied for f in one.filters} == {
        "include_domains": ("native", "post"),
        "exclude_domains": ("query", "post"),
    }
    # Six domains are more than the tool takes: asked in the question, checked here.
    assert second["tools"] == [{"type": "web_search"}]
    assert second["input"][-1]["content"].endswith(
        "(" + " OR ".join(f"site:{d}" for d in many) + ")"
    )
    assert {f.applied for f in six.filters} == {("query", "post")}
    assert [s.url for s in six.sources] == [s.url for s in one.sources] + [
        "https://realpython.com/page2"
    ]
    assert third["tools"] == [
        {"type": "web_search", "filters": {"excluded_domains": ["realpython.com"]}}
    ]
    assert "realpython.com" not in " ".join(s.url for s in out.sources)
    assert len(sim["xai"].requests) == 3


async def test_local_cap_defaults_to_10_and_stops_at_30(sim: Simulator) -> None:
    sim["xai"].results = [
        SimResult(title=f"r{i}", url=f"https://r{i}.example.com/", snippet=f"s{i}")
        for i in range(40)
    ]
    async with sim_client(sim) as ws:
        default = await ws.search(QUERY, provider="xai")
        widest = await ws.search("another query", provider="xai", num_search_results=80)
    assert len(default.sources) == len(default.citations) == 10
    assert "search_parameters" not in sim["xai"].requests[1].json()
    assert len(widest.sources) == len(widest.citations) == 30


async def test_the_simulator_answers_live_search_with_410(sim: Simulator) -> None:
    body = {"model": "grok-4.3", "input": QUERY, "search_parameters": {"max_search_results": 3}}
    url = f"{sim['xai'].base_url}/v1/responses"
    headers = {"Authorization": "Bearer k"}
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, json=body, headers=headers) as reply,
    ):
        assert reply.status == 410
        assert (await reply.json())["error"].startswith("Live search is deprecated.")


async def test_search_model_variable(sim: Simulator, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XAI_SEARCH_MODEL", "grok-4-fast-reasoning")
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="xai")
    assert sim["xai"].requests[0].json()["model"] == "grok-4-fast-reasoning"
    assert response.model == "grok-4-fast-reasoning"


# --- faults -----------------------------------------------------------------------------------


async def test_wrong_key_400(sim: Simulator) -> None:
    body = json.dumps(
        {
            "code": "Client specified an invalid argument",
            "error": "Incorrect API key provided: si***ai.",
        }
    )
    failure = await _failure(sim, Fault.http(400, body))
    assert isinstance(failure, AuthorizationError) and failure.status == 400
    assert failure.message == f"xAI Responses API error (400): {body}"


async def test_spent_credits_429_is_a_quota_failure_asked_once(sim: Simulator) -> None:
    simulated = sim["xai"].protocol
    assert isinstance(simulated, XaiProtocol)
    simulated.credits_spent = True
    async with sim_client(sim) as ws:
        with pytest.raises(AllProvidersFailedError) as caught:
            await ws.search(QUERY, provider="xai")
    (failure,) = caught.value.failures
    assert isinstance(failure, QuotaExhaustedError) and failure.status == 429
    assert spent_credits_message() in failure.message
    assert len(sim["xai"].requests) == 1  # not retried as a rate limit


async def test_malformed(sim: Simulator) -> None:
    failure = await _failure(sim, Fault.malformed())
    assert isinstance(failure, ResponseParseError)
    assert failure.message.startswith("xAI Responses API returned an unexpected shape")


async def test_not_json(sim: Simulator) -> None:
    failure = await _failure(sim, Fault.http(200, "<html>busy</html>"))
    assert isinstance(failure, ResponseParseError)
    assert failure.message == "xAI Responses API returned invalid JSON: Expecting value"


# --- the protocol's stream --------------------------------------------------------------------


async def test_protocol_stream_folds_into_the_json_answer(sim: Simulator) -> None:
    body = {
        "model": "grok-4.3",
        "input": [{"role": "user", "content": QUERY}],
        "tools": [{"type": "web_search"}],
    }
    headers = {"Authorization": "Bearer k"}
    url = f"{sim['xai'].base_url}/v1/responses"
    async with aiohttp.ClientSession() as session:
        async with session.post(url, json={**body, "stream": True}, headers=headers) as reply:
            assert reply.content_type == "text/event-stream"
            raw = await reply.read()
        async with session.post(url, json=body, headers=headers) as reply:
            plain = await reply.json()
    streamed = response_from_events(json.loads(event.data) for event in parse_sse(raw))
    from_stream = parse_response_object(streamed)
    from_json = parse_response_object(plain)
    assert from_stream == from_json
    assert from_stream.answer is not None and from_stream.answer.startswith("Here is what I found")


# --- the protocol on its own ------------------------------------------------------------------


def _answer(tool: dict[str, Any], results: list[SimResult]) -> web.Response:
    body = {"model": "grok-4.3", "input": [{"role": "user", "content": QUERY}], "tools": [tool]}
    request = RecordedRequest(
        method="POST",
        path="/v1/responses",
        query=(),
        headers={"Authorization": "Bearer k"},
        body=json.dumps(body).encode(),
    )
    protocol = XaiProtocol()
    # The simulator serves what the protocol's declared domain lists let through.
    return protocol.answer(request, protocol.operators.select(request, results))


def _cited(response: web.Response) -> list[str]:
    assert response.status == 200 and isinstance(response.body, bytes)
    return [s.url for s in parse_response_object(json.loads(response.body)).sources]


ON_AND_OFF = [
    SimResult(title="on", url="https://docs.python.org/a", snippet="on"),
    SimResult(title="off", url="https://spam.example/b", snippet="off"),
]


@pytest.mark.parametrize(
    ("filters", "kept"),
    [
        ({"allowed_domains": ["python.org"]}, ["https://docs.python.org/a"]),
        ({"excluded_domains": ["python.org"]}, ["https://spam.example/b"]),
    ],
)
def test_protocol_reads_the_lists_under_filters(filters: dict[str, Any], kept: list[str]) -> None:
    assert _cited(_answer({"type": "web_search", "filters": filters}, ON_AND_OFF)) == kept


@pytest.mark.parametrize(
    ("tool", "error"),
    [
        (
            {"type": "web_search", "allowed_domains": ["python.org"]},
            "allowed_domains: set under filters, not on the web_search tool",
        ),
        (
            {"type": "web_search", "excluded_domains": ["python.org"]},
            "excluded_domains: set under filters, not on the web_search tool",
        ),
        ({"type": "web_search", "filters": ["python.org"]}, "filters: must be an object"),
        (
            {
                "type": "web_search",
                "filters": {"allowed_domains": ["a"], "excluded_domains": ["b"]},
            },
            "allowed_domains cannot be set together with excluded_domains",
        ),
        (
            {"type": "web_search", "filters": {"allowed_domains": [f"d{i}" for i in range(6)]}},
            "at most 5 domains are allowed",
        ),
    ],
)
def test_protocol_refuses_lists_xai_does_not_take(tool: dict[str, Any], error: str) -> None:
    response = _answer(tool, ON_AND_OFF)
    assert response.status == 400 and isinstance(response.body, bytes)
    assert json.loads(response.body)["error"] == error
