"""Codex (label OpenAI) end to end through ``WebSearch`` against the loopback simulator.

The simulator streams real Responses API events over SSE, so these tests run the transport's
SSE reader. Every call forces ``provider="codex"``; the OAuth token lives in the credential
store, as a login flow would leave it.
"""

import json
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.conftest import read_capture
from tests.functional._sim_helpers import chatgpt_token, fault_failure, sim_client
from websearch_core.credentials import CredentialStore, OAuthToken
from websearch_core.errors import (
    ProviderConnectionError,
    ProviderUnavailableError,
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.models import SearchUsage
from websearch_core.prompts import SEARCH_SYSTEM_PROMPT
from websearch_core.providers.codex import DEFAULT_MODELS
from websearch_core.testing import Fault, SimResult, Simulator
from websearch_core.testing.protocols.codex import CodexProtocol

QUERY = "python asyncio"
CAPTURED_STREAM = "openai/responses_web_search_tool_stream.sse"
EVENT_STREAM = {"Content-Type": "text/event-stream"}


TOKEN = chatgpt_token("acct-sim")
RESULTS = [
    SimResult(
        title="Coroutines and Tasks",
        url="https://docs.python.org/3/library/asyncio-task.html",
        snippet="Tasks schedule coroutines concurrently.",
    ),
    SimResult(
        title="asyncio",
        url="https://docs.python.org/3/library/asyncio.html",
        snippet="asyncio writes concurrent code.",
    ),
    SimResult(
        title="Real Python",
        url="https://realpython.com/async-io-python/",
        snippet="Async IO is a design.",
    ),
    SimResult(
        title="PEP 492", url="https://peps.python.org/pep-0492/", snippet="async and await syntax."
    ),
]


@pytest.fixture
async def sim() -> AsyncIterator[Simulator]:
    async with Simulator(["codex"]) as simulator:
        simulator["codex"].results = list(RESULTS)
        CredentialStore(simulator.settings().resolved_credentials_file()).set_oauth(
            "codex",
            OAuthToken(
                access_token=TOKEN, refresh_token="refresh-1", expires_at=time.time() + 3600
            ),
        )
        yield simulator


def protocol(sim: Simulator) -> CodexProtocol:
    simulated = sim["codex"].protocol
    assert isinstance(simulated, CodexProtocol)
    return simulated


async def _failure(
    sim: Simulator, fault: Fault, overrides: dict[str, Any] | None = None
) -> SearchProviderError:
    return await fault_failure(sim, "codex", QUERY, fault, overrides)


# --- request shape and success ----------------------------------------------------------------


async def test_request_shape_and_parsed_stream(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        response = await ws.search(
            QUERY, provider="codex", recency="week", max_tokens=99, temperature=0.7
        )

    (request,) = sim["codex"].requests
    assert (request.method, request.path) == ("POST", "/backend-api/codex/responses")
    assert request.header("Authorization") == f"Bearer {TOKEN}"
    assert request.header("chatgpt-account-id") == "acct-sim"
    assert request.header("Accept") == "text/event-stream"
    assert request.header("OpenAI-Beta") == "responses=experimental"
    assert request.header("x-api-key") is None
    assert request.json() == {
        "model": "gpt-5.5",
        "stream": True,
        "store": False,
        "instructions": SEARCH_SYSTEM_PROMPT,
        "input": [
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": QUERY}]}
        ],
        "tools": [{"type": "web_search", "search_context_size": "high"}],
        "tool_choice": {"type": "web_search"},
        "include": ["web_search_call.action.sources"],
        "parallel_tool_calls": True,
    }

    assert response.provider == "codex"
    assert response.auth_mode == "oauth"
    assert response.model == "gpt-5.5"
    assert response.request_id is not None and response.request_id.startswith("resp_")
    links = [
        f"([{host}]({url}?utm_source=openai))"
        for host, url in [
            ("docs.python.org", RESULTS[0].url),
            ("docs.python.org", RESULTS[1].url),
            ("realpython.com", RESULTS[2].url),
        ]
    ]
    assert response.answer == (
        "Here is what the search found about python asyncio. "
        f"Tasks schedule coroutines concurrently. {links[0]} "
        f"asyncio writes concurrent code. {links[1]} "
        f"Async IO is a design. {links[2]}"
    )
    # action.sources come first (URL-only titles), then the citations name the cited ones.
    assert [(s.title, s.url) for s in response.sources] == [
        (r.title, r.url) for r in RESULTS[:3]
    ] + [("https://peps.python.org/pep-0492/", "https://peps.python.org/pep-0492/")]
    assert [c.url for c in response.citations] == [r.url for r in RESULTS[:3]]
    first = response.citations[0]
    assert first.title == "Coroutines and Tasks"
    assert (
        first.cited_text is not None
        and "Tasks schedule coroutines concurrently. (docs.python.org)" in first.cited_text
    )
    assert response.sources[0].snippet == first.cited_text
    # 9014 input tokens of which 8000 were cached.
    assert response.usage == SearchUsage(input_tokens=1014, output_tokens=400, total_tokens=9414)


async def test_tool_text_and_limit(sim: Simulator) -> None:
    sim["codex"].results = RESULTS[:1]
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="codex", limit=1)
    assert not result.is_error
    url = "https://docs.python.org/3/library/asyncio-task.html"
    snippet = (
        "Here is what the search found about python asyncio. Tasks schedule coroutines "
        "concurrently. (docs.python.org)"
    )
    link = f"([docs.python.org]({url}?utm_source=openai))"
    assert result.text == (
        "Here is what the search found about python asyncio. Tasks schedule coroutines "
        f"concurrently. {link}\n"
        "\n## Sources\n1 source\n"
        f"[1] Coroutines and Tasks\n    {url}\n    {snippet}\n"
        "\n## Citations\n1 citation\n"
        f"[1] Coroutines and Tasks\n    {url}\n    {snippet}"
    )


async def test_unsupported_models_fall_through_to_one_the_account_has(sim: Simulator) -> None:
    protocol(sim).supported_models = frozenset({"gpt-5"})
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="codex")
    assert [r.json()["model"] for r in sim["codex"].requests] == list(DEFAULT_MODELS)
    assert response.model == "gpt-5"


async def test_pinned_model_is_not_replaced(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CODEX_SEARCH_MODEL", "gpt-5.5-mini")
    protocol(sim).supported_models = frozenset({"gpt-5"})
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="codex")
    assert len(sim["codex"].requests) == 1
    assert result.text == (
        'Error: Codex API error (400): {"detail": "The \'gpt-5.5-mini\' model is not supported '
        'when using Codex with a ChatGPT account."}'
    )


async def test_an_answer_that_never_searched_is_refused(sim: Simulator) -> None:
    protocol(sim).searches = False
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="codex")
    assert len(sim["codex"].requests) == len(DEFAULT_MODELS)
    assert result.text == (
        "Error: Codex returned a completion without running web search (no web_search_call "
        "event); refusing to treat a non-search answer as a search result"
    )


async def test_plain_json_answer_to_a_streaming_request(sim: Simulator) -> None:
    body = {
        "id": "resp_plain",
        "object": "response",
        "model": "gpt-5",
        "output": [
            {
                "type": "web_search_call",
                "status": "completed",
                "action": {"type": "search", "query": QUERY},
            },
            {
                "type": "message",
                "content": [
                    {
                        "type": "output_text",
                        "text": "See https://plain.example/doc.",
                        "annotations": [],
                    }
                ],
            },
        ],
    }
    sim["codex"].enqueue(Fault.http(200, json.dumps(body), {"Content-Type": "application/json"}))
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="codex")
    assert response.request_id == "resp_plain"
    assert [s.url for s in response.sources] == ["https://plain.example/doc"]


# --- OAuth ------------------------------------------------------------------------------------


async def test_401_refreshes_the_token_and_retries_once(sim: Simulator) -> None:
    seen: list[str | None] = []

    async def refresh(provider: str, token: OAuthToken) -> OAuthToken:
        seen.append(token.refresh_token)
        return OAuthToken(
            access_token=chatgpt_token("acct-new"),
            refresh_token="refresh-2",
            expires_at=time.time() + 3600,
        )

    sim["codex"].enqueue(Fault.unauthorized('{"detail": "token expired"}'))
    async with sim_client(sim, oauth_refreshers={"codex": refresh}) as ws:
        response = await ws.search(QUERY, provider="codex")
    assert seen == ["refresh-1"]
    first, second = sim["codex"].requests
    assert first.header("chatgpt-account-id") == "acct-sim"
    assert second.header("chatgpt-account-id") == "acct-new"
    assert response.answer is not None


async def test_expired_token_without_a_hook_is_an_authorization_failure(sim: Simulator) -> None:
    store = CredentialStore(sim.settings().resolved_credentials_file())
    store.set_oauth("codex", OAuthToken(access_token=TOKEN, expires_at=time.time() - 60))
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="codex")
    # No server refused it: the text says what to do, not "Check API key or base URL".
    assert result.text == (
        "Error: codex: OAuth token expired and no refresh hook is configured "
        "(pass WebSearch(oauth_refreshers=...), or websearch --refresh-hook codex=MODULE:FUNCTION "
        "or WEBSEARCH_REFRESH_HOOKS on the command line, or store a new token)"
    )
    assert sim["codex"].requests == []


async def test_without_a_token_codex_is_not_available(sim: Simulator) -> None:
    CredentialStore(sim.settings().resolved_credentials_file()).remove("codex")
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="codex")
    why = (
        "OpenAI was forced but cannot run (not configured: store a ChatGPT OAuth token for "
        'provider "codex" from Python, with CredentialStore.set_oauth); fell back to the auto '
        "chain"
    )
    assert result.text == f"Error: No web search provider configured. {why}."
    assert sim["codex"].requests == []


# --- faults -----------------------------------------------------------------------------------


async def test_malformed_stream(sim: Simulator) -> None:
    failure = await _failure(sim, Fault.malformed())
    assert isinstance(failure, ResponseParseError)
    assert failure.message == "Codex stream carried invalid JSON"


async def test_stream_cut_mid_event(sim: Simulator) -> None:
    body = protocol(sim).cut_stream().decode()
    failure = await _failure(sim, Fault.http(200, body, {"Content-Type": "text/event-stream"}))
    assert isinstance(failure, ProviderConnectionError)
    assert failure.message.startswith("Codex request failed: the stream ")
    assert failure.message.endswith("ended in the middle of an event")


def _captured_events(deltas: int | None = None) -> str:
    """The real capture's events, up to its ``deltas``-th text delta when given."""
    text = read_capture(CAPTURED_STREAM).decode("utf-8").replace("\r\n", "\n")
    kept: list[str] = []
    for event in (chunk for chunk in text.split("\n\n") if chunk.strip()):
        kept.append(event + "\n\n")
        if deltas is not None and "response.output_text.delta" in event:
            deltas -= 1
            if deltas == 0:
                break
    return "".join(kept)


async def test_a_stream_ended_before_the_response_completed_is_a_failed_request(
    sim: Simulator,
) -> None:
    # The body closes cleanly twenty deltas into the answer: half a sentence, never to be
    # read as the whole. Failed before (the streamed deltas were the answer).
    cut = Fault.http(200, _captured_events(deltas=20), EVENT_STREAM)
    failure = await _failure(sim, cut)
    assert isinstance(failure, ProviderUnavailableError)
    assert (failure.message, failure.status) == (
        "Codex request failed: the stream ended before the response was completed",
        500,
    )


async def test_the_whole_captured_stream_answers(sim: Simulator) -> None:
    # Guard (passes before and after): the capture ends with response.completed.
    sim["codex"].enqueue(Fault.http(200, _captured_events(), EVENT_STREAM))
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="codex")
    assert response.answer.endswith("A light jacket is useful for the cooler evening.")
