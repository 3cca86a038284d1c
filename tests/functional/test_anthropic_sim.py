"""Anthropic end to end through ``WebSearch`` against the loopback simulator.

Every call forces ``provider="anthropic"`` so only Anthropic runs.
"""

import json
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.functional._sim_helpers import fault_failure, sim_client
from websearch_core import WebSearch
from websearch_core.credentials import CredentialStore, OAuthToken
from websearch_core.errors import (
    AllProvidersFailedError,
    ProviderUnavailableError,
    QuotaExhaustedError,
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.models import SearchUsage
from websearch_core.prompts import SEARCH_SYSTEM_PROMPT
from websearch_core.providers.anthropic import MAX_CONTINUATIONS
from websearch_core.testing import Fault, RecordedRequest, SimResult, Simulator
from websearch_core.testing.protocols.anthropic import LOW_CREDIT_MESSAGE, AnthropicProtocol

QUERY = "python asyncio"
RESULTS = [
    SimResult(
        title="Coroutines and Tasks",
        url="https://docs.python.org/3/library/asyncio-task.html",
        snippet="Coroutines declared with async/await are the preferred way to write asyncio code.",
        published="2025-11-02T00:00:00Z",
    ),
    SimResult(
        title="asyncio — Asynchronous I/O",
        url="https://docs.python.org/3/library/asyncio.html",
        snippet="asyncio is a library to write concurrent code using the async/await syntax.",
    ),
    SimResult(
        title="Real Python: Async IO",
        url="https://realpython.com/async-io-python/",
        snippet="Async IO is a concurrent programming design.",
        published="2024-03-05",
    ),
    SimResult(
        title="PEP 492",
        url="https://peps.python.org/pep-0492/",
        snippet="Coroutines with async and await syntax.",
    ),
]


@pytest.fixture
async def sim() -> AsyncIterator[Simulator]:
    async with Simulator(["anthropic"]) as simulator:
        simulator["anthropic"].results = list(RESULTS)
        yield simulator


def protocol(sim: Simulator) -> AnthropicProtocol:
    simulated = sim["anthropic"].protocol
    assert isinstance(simulated, AnthropicProtocol)
    return simulated


async def _failure(
    sim: Simulator, fault: Fault, overrides: dict[str, Any] | None = None
) -> SearchProviderError:
    return await fault_failure(sim, "anthropic", QUERY, fault, overrides)


# --- request shape and success ----------------------------------------------------------------


async def test_request_shape_and_parsed_response(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="anthropic")

    (request,) = sim["anthropic"].requests
    assert (request.method, request.path, request.query) == ("POST", "/v1/messages", ())
    assert request.header("x-api-key") == "sim-key-anthropic"
    assert request.header("Authorization") is None
    assert request.header("anthropic-version") == "2023-06-01"
    assert request.header("anthropic-beta") == "web-search-2025-03-05"
    assert (request.header("Content-Type") or "").startswith("application/json")
    assert request.json() == {
        "model": "claude-haiku-4-5",
        "max_tokens": 4096,
        "messages": [{"role": "user", "content": QUERY}],
        "tools": [{"type": "web_search_20250305", "name": "web_search"}],
        "system": [{"type": "text", "text": SEARCH_SYSTEM_PROMPT}],
    }

    assert response.provider == "anthropic"
    assert response.auth_mode == "api_key"
    assert response.model == "claude-haiku-4-5"
    assert response.request_id is not None and response.request_id.startswith("req_sim")
    assert response.answer == (
        "Here is what the search found about python asyncio:\n\n"
        "- Coroutines declared with async/await are the preferred way to write asyncio code.\n"
        "- asyncio is a library to write concurrent code using the async/await syntax.\n"
        "- Async IO is a concurrent programming design."
    )
    assert [(s.title, s.url, s.published_date) for s in response.sources] == [
        (
            "Coroutines and Tasks",
            "https://docs.python.org/3/library/asyncio-task.html",
            "2025-11-02",  # the upstream's "November 2, 2025", in ISO 8601
        ),
        ("asyncio — Asynchronous I/O", "https://docs.python.org/3/library/asyncio.html", None),
        ("Real Python: Async IO", "https://realpython.com/async-io-python/", "2024-03-05"),
        ("PEP 492", "https://peps.python.org/pep-0492/", None),
    ]
    assert response.sources[0].age_seconds is not None and response.sources[0].age_seconds > 0
    assert [(c.url, c.cited_text) for c in response.citations] == [
        (r.url, r.snippet) for r in RESULTS[:3]
    ]
    assert response.search_queries == (QUERY,)
    assert response.usage == SearchUsage(input_tokens=2800, output_tokens=320, search_requests=1)


async def test_tool_text(sim: Simulator) -> None:
    sim["anthropic"].results = [RESULTS[1], RESULTS[3]]
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="anthropic")
    assert not result.is_error
    assert result.text == (
        "Here is what the search found about python asyncio:\n\n"
        "- asyncio is a library to write concurrent code using the async/await syntax.\n"
        "- Coroutines with async and await syntax.\n"
        "\n## Sources\n2 sources\n"
        "[1] asyncio — Asynchronous I/O\n    https://docs.python.org/3/library/asyncio.html\n"
        "[2] PEP 492\n    https://peps.python.org/pep-0492/\n"
        "\n## Citations\n2 citations\n"
        "[1] asyncio — Asynchronous I/O\n    https://docs.python.org/3/library/asyncio.html\n"
        "    asyncio is a library to write concurrent code using the async/await syntax.\n"
        "[2] PEP 492\n    https://peps.python.org/pep-0492/\n"
        "    Coroutines with async and await syntax.\n"
        "Search queries: 1\n- python asyncio"
    )


async def test_passthrough_fields_and_limit_on_the_wire(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        response = await ws.search(
            QUERY,
            provider="anthropic",
            limit=2,
            max_tokens=1500,
            temperature=0.2,
            recency="day",
            include_domains=("docs.python.org",),
        )
    body = sim["anthropic"].requests[0].json()
    assert body["max_tokens"] == 1500
    assert body["temperature"] == 0.2
    assert body["tools"] == [
        {
            "type": "web_search_20250305",
            "name": "web_search",
            "allowed_domains": ["docs.python.org"],
        }
    ]
    assert "recency" not in str(body)
    # The simulated tool honoured the allow list. Anthropic has no recency parameter, and
    # its answer is written from its sources, so none is dropped on a date: the recency
    # is reported as ignored (the spec's "only providers that implement it use it").
    assert [s.url for s in response.sources] == [r.url for r in RESULTS[:2]]
    assert [(f.name, f.applied) for f in response.filters] == [
        ("include_domains", ("native", "post")),
        ("recency", ("ignored",)),
    ]


async def test_search_model_variable_and_a_404_model(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_SEARCH_MODEL", "claude-sonnet-4-5")
    async with sim_client(sim) as ws:
        await ws.search(QUERY, provider="anthropic", temperature=0.5)
    assert sim["anthropic"].requests[0].json()["model"] == "claude-sonnet-4-5"
    monkeypatch.setenv("ANTHROPIC_SEARCH_MODEL", "gpt-oops")
    async with sim_client(sim) as ws:
        result = await ws.run("another question", provider="anthropic")
    assert result.text == "Error: Anthropic web search returned 404 (model or endpoint not found)."


async def test_paused_turns_are_resumed_and_joined(sim: Simulator) -> None:
    protocol(sim).pauses = 2
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="anthropic")
    requests = sim["anthropic"].requests
    assert len(requests) == 3
    first, second, third = (r.json() for r in requests)
    assert len(first["messages"]) == 1
    assert second["messages"][1]["role"] == "assistant"
    assert [b["type"] for b in second["messages"][1]["content"]] == ["text", "server_tool_use"]
    assert len(third["messages"][1]["content"]) == 5
    assert response.answer is not None
    assert response.answer.startswith("I will search for that.\n\nSearching again.\n\nHere is what")
    assert response.search_queries == (QUERY, f"{QUERY} (2)")
    assert len(response.sources) == 4  # the same results twice, de-duplicated
    assert response.usage is not None and response.usage.search_requests == 2


async def test_pausing_forever_stops_after_the_bound(sim: Simulator) -> None:
    protocol(sim).pauses = 50
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="anthropic")
    assert len(sim["anthropic"].requests) == MAX_CONTINUATIONS + 1
    assert response.answer is not None and response.answer.endswith("Searching again.")
    assert len(response.sources) == 4


# --- OAuth ------------------------------------------------------------------------------------


async def test_stored_oauth_token_is_a_bearer_and_refreshed_after_a_401(sim: Simulator) -> None:
    settings = sim.settings()
    store = CredentialStore(settings.resolved_credentials_file())
    store.set_oauth(
        "anthropic",
        OAuthToken(access_token="oat-old", refresh_token="r", expires_at=time.time() + 3600),
    )
    calls: list[str] = []

    async def refresh(provider: str, token: OAuthToken) -> OAuthToken:
        calls.append(provider)
        return OAuthToken(access_token="oat-new", refresh_token="r2", expires_at=time.time() + 3600)

    sim["anthropic"].enqueue(Fault.unauthorized())
    async with WebSearch(settings, api_keys={}, oauth_refreshers={"anthropic": refresh}) as ws:
        response = await ws.search(QUERY, provider="anthropic")
    assert calls == ["anthropic"]
    assert [r.header("Authorization") for r in sim["anthropic"].requests] == [
        "Bearer oat-old",
        "Bearer oat-new",
    ]
    assert all(r.header("x-api-key") is None for r in sim["anthropic"].requests)
    assert (
        sim["anthropic"].requests[1].header("anthropic-beta")
        == "oauth-2025-04-20,web-search-2025-03-05"
    )
    assert response.auth_mode == "oauth"
    stored = store.get_oauth("anthropic")
    assert stored is not None and stored.access_token == "oat-new"


async def test_without_credentials_a_forced_anthropic_is_unavailable(sim: Simulator) -> None:
    async with sim_client(sim, api_keys={}) as ws:
        result = await ws.run(QUERY, provider="anthropic")
    why = (
        "Anthropic was forced but cannot run (no API key: set ANTHROPIC_SEARCH_API_KEY or "
        "ANTHROPIC_API_KEY, or store the key with 'websearch auth set anthropic'); fell back "
        "to the auto chain"
    )
    assert result.text == f"Error: No web search provider configured. {why}."
    assert result.response.attempts[0].detail == why
    assert sim["anthropic"].requests == []


# --- faults -----------------------------------------------------------------------------------


async def test_server_error(sim: Simulator) -> None:
    failure = await _failure(
        sim, Fault.server_error(529, '{"type":"error","error":{"type":"overloaded_error"}}')
    )
    assert isinstance(failure, ProviderUnavailableError) and failure.status == 529
    assert failure.message == (
        'Anthropic API error (529): {"type":"error","error":{"type":"overloaded_error"}}'
    )


async def test_spent_credits_are_a_quota_failure_not_a_bad_request(sim: Simulator) -> None:
    protocol(sim).credits_spent = True
    async with sim_client(sim) as ws:
        with pytest.raises(AllProvidersFailedError) as caught:
            await ws.search(QUERY, provider="anthropic")
    (failure,) = caught.value.failures
    assert isinstance(failure, QuotaExhaustedError) and failure.status == 400
    assert LOW_CREDIT_MESSAGE in failure.message
    assert failure.message.startswith("Anthropic API error (400): ")


async def test_malformed(sim: Simulator) -> None:
    failure = await _failure(sim, Fault.malformed())
    assert isinstance(failure, ResponseParseError)
    assert failure.message.startswith("Anthropic API returned an unexpected response shape")


async def test_not_json(sim: Simulator) -> None:
    failure = await _failure(sim, Fault.http(200, "<html>gateway</html>"))
    assert isinstance(failure, ResponseParseError)
    assert failure.message == "Anthropic API returned invalid JSON"


# --- the protocol on its own ------------------------------------------------------------------


async def test_protocol_streams_when_asked(sim: Simulator) -> None:
    import aiohttp

    from websearch_core.providers.anthropic import message_from_stream, parse_messages
    from websearch_core.sse import parse_sse

    body = {
        "model": "claude-haiku-4-5",
        "max_tokens": 100,
        "stream": True,
        "messages": [{"role": "user", "content": QUERY}],
        "tools": [{"type": "web_search_20250305", "name": "web_search"}],
    }
    headers = {"x-api-key": "k", "anthropic-version": "2023-06-01"}
    async with aiohttp.ClientSession() as session:
        url = f"{sim['anthropic'].base_url}/v1/messages"
        async with session.post(url, json=body, headers=headers) as reply:
            assert reply.content_type == "text/event-stream"
            raw = await reply.read()
        async with session.post(url, json={**body, "stream": False}, headers=headers) as reply:
            plain = await reply.json()
    streamed = message_from_stream(parse_sse(raw))
    assert parse_messages([streamed]) == parse_messages([plain])


async def test_with_both_domain_lists_the_blocked_ones_are_asked_and_checked_not_sent(
    sim: Simulator,
) -> None:
    # Guard (passes before and after): the simulator answers a tool with both lists 400,
    # as the API does (test_protocol_refuses_both_domain_lists_in_one_tool); the adapter
    # sends only the allow list, so the search still succeeds through it.
    sim["anthropic"].results = [
        SimResult(title="Tasks", url="https://docs.python.org/3/library/asyncio.html", snippet="A"),
        SimResult(title="News", url="https://www.python.org/news/", snippet="B"),
        SimResult(title="Blog", url="https://blog.example.org/asyncio", snippet="C"),
    ]
    async with sim_client(sim) as ws:
        response = await ws.search(
            f"{QUERY} site:python.org -site:docs.python.org",
            provider="anthropic",
            use_cache=False,
        )
    body = sim["anthropic"].requests[0].json()
    # The API refuses allowed_domains with blocked_domains: only the allow list is sent.
    assert body["tools"][0]["allowed_domains"] == ["python.org"]
    assert "blocked_domains" not in body["tools"][0]
    assert body["messages"][0]["content"] == f"{QUERY} -site:docs.python.org"
    # The simulated tool kept python.org's pages; the local check dropped docs.python.org.
    assert [s.url for s in response.sources] == ["https://www.python.org/news/"]
    assert [(f.name, f.value, f.applied) for f in response.filters] == [
        ("include_domains", "python.org", ("native", "post")),
        ("exclude_domains", "docs.python.org", ("query", "post")),
    ]


async def test_country_reaches_the_tool_as_user_location_and_is_recorded_native(
    sim: Simulator,
) -> None:
    # Anthropic's web search tool takes user_location {type: "approximate", country: <ISO
    # 3166-1 alpha-2>} (anthropic-sdk-python web_search_tool_20250305_param.py).
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="anthropic", country="at", use_cache=False)
    (request,) = sim["anthropic"].requests
    (tool,) = request.json()["tools"]
    assert tool["user_location"] == {"type": "approximate", "country": "AT"}
    assert [(f.name, f.value, f.applied) for f in response.filters] == [
        ("country", "at", ("native",))
    ]
    assert [s.url for s in response.sources] == [r.url for r in RESULTS]


def _messages_request(tool: dict[str, Any]) -> RecordedRequest:
    body = {
        "model": "claude-haiku-4-5",
        "max_tokens": 64,
        "messages": [{"role": "user", "content": QUERY}],
        "tools": [{"type": "web_search_20250305", "name": "web_search", **tool}],
    }
    return RecordedRequest(
        method="POST",
        path="/v1/messages",
        query=(),
        headers={"x-api-key": "k", "anthropic-version": "2023-06-01"},
        body=json.dumps(body).encode(),
    )


@pytest.mark.parametrize(
    ("location", "named"),
    [
        ({"country": "US"}, "user_location.type"),
        ({"type": "exact", "country": "US"}, "user_location.type"),
        ({"type": "approximate", "country": "USA"}, "user_location.country"),
        ({"type": "approximate", "country": "US", "zip": "94103"}, "user_location.zip"),
        ({"type": "approximate", "city": 7}, "user_location.city"),
    ],
)
def test_protocol_refuses_a_user_location_the_tool_does_not_take(
    location: dict[str, Any], named: str
) -> None:
    response = AnthropicProtocol().answer(_messages_request({"user_location": location}), [])
    assert response.status == 400
    assert isinstance(response.text, str) and named in response.text


def test_protocol_takes_a_full_approximate_location() -> None:
    # Guard (passes before and after): every key the SDK types is accepted.
    location = {
        "type": "approximate",
        "city": "San Francisco",
        "region": "California",
        "country": "US",
        "timezone": "America/Los_Angeles",
    }
    response = AnthropicProtocol().answer(_messages_request({"user_location": location}), [])
    assert response.status == 200


@pytest.mark.parametrize(
    "lists",
    [
        {"allowed_domains": ["python.org"], "blocked_domains": ["docs.python.org"]},
        {"allowed_domains": ["python.org"], "blocked_domains": []},
    ],
)
def test_protocol_refuses_both_domain_lists_in_one_tool(lists: dict[str, list[str]]) -> None:
    """Failed before: the allow list won and the search was answered. Anthropic's web search
    tool page says ``allowed_domains`` cannot be used alongside ``blocked_domains``."""
    response = AnthropicProtocol().answer(_messages_request(lists), [])
    assert response.status == 400
    assert isinstance(response.text, str)
    error = json.loads(response.text)
    assert error["type"] == "error"
    assert error["error"]["type"] == "invalid_request_error"
    assert "allowed_domains" in error["error"]["message"]
    assert "blocked_domains" in error["error"]["message"]


@pytest.mark.parametrize(
    "lists", [{"allowed_domains": ["python.org"]}, {"blocked_domains": ["docs.python.org"]}]
)
def test_protocol_takes_one_domain_list(lists: dict[str, list[str]]) -> None:
    # Guard (passes before and after): either list alone is answered.
    response = AnthropicProtocol().answer(_messages_request(lists), [])
    assert response.status == 200
