"""Perplexity end to end through ``WebSearch`` against the loopback simulator.

Every call forces ``provider="perplexity"`` unless the test is about the auto chain.
"""

import json
import time
from typing import Any

import pytest
from aiohttp import web

from tests.conftest import read_capture
from tests.functional._sim_helpers import (
    credential_store,
    failure_after,
    sim_client,
    simulator_fixture,
)
from websearch_core import WebSearch
from websearch_core.credentials import OAuthToken
from websearch_core.errors import (
    ProviderConnectionError,
    ProviderUnavailableError,
    QuotaExhaustedError,
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.prompts import SEARCH_SYSTEM_PROMPT
from websearch_core.testing import Fault, RecordedRequest, SimResult, Simulator
from websearch_core.testing.protocols.perplexity import PerplexityProtocol

QUERY = "python asyncio"
CAPTURED_STREAM = "perplexity/chat_completions_sonar_citations_stream.chunks.txt"
EVENT_STREAM = {"Content-Type": "text/event-stream"}


@pytest.fixture(autouse=True)
def _no_cookies(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PERPLEXITY_COOKIES", raising=False)
    monkeypatch.delenv("TZ", raising=False)


sim = simulator_fixture("perplexity")


async def _failure(
    sim: Simulator,
    *faults: Fault | None,
    keys: dict[str, str] | None = None,
    overrides: dict[str, Any] | None = None,
) -> SearchProviderError:
    return await failure_after(
        sim, "perplexity", QUERY, *faults, api_keys=keys, **(overrides or {})
    )


# --- API-key mode -----------------------------------------------------------------------------


async def test_api_key_request_shape_and_streamed_answer(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="perplexity", recency="week", limit=3)

    (request,) = sim["perplexity"].requests
    assert (request.method, request.path, request.query) == ("POST", "/chat/completions", ())
    assert request.header("Authorization") == "Bearer sim-key-perplexity"
    assert request.header("Accept") == "text/event-stream"
    body = request.json()
    assert body["messages"] == [
        {"role": "system", "content": SEARCH_SYSTEM_PROMPT},
        {"role": "user", "content": QUERY},
    ]
    assert {key: body[key] for key in ("model", "stream", "max_tokens", "temperature")} == {
        "model": "sonar-pro",
        "stream": True,
        "max_tokens": 8192,
        "temperature": 0.2,
    }
    assert (body["search_mode"], body["num_search_results"]) == ("web", 20)
    assert body["search_recency_filter"] == "week"

    assert response.answer == "Simulated answer about python asyncio from 10 sources.[1][2]"
    assert [(s.title, s.url, s.snippet, s.published_date) for s in response.sources] == [
        (
            f"{QUERY} result {i}",
            f"https://site{i}.example.org/python-asyncio",
            f"Snippet {i} about {QUERY}.",
            f"2026-01-0{i}",
        )
        for i in (1, 2, 3)
    ]
    # The limit cuts the citations of the sources it cuts too (stop 54, filters56): the
    # answer's markers of them went, and the list named pages no longer shown.
    assert [c.url for c in response.citations] == [s.url for s in response.sources]
    assert response.citations[0].title == f"{QUERY} result 1"
    assert response.related_questions == ("What else is new about python asyncio?",)
    assert response.usage is not None and response.usage.total_tokens == 32
    assert (response.model, response.auth_mode) == ("sonar-pro", "api_key")
    assert response.request_id is not None and len(response.request_id) == 36


async def test_token_cap_temperature_and_breadth_pass_through(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        response = await ws.search(
            QUERY, provider="perplexity", max_tokens=300, temperature=1.1, num_search_results=4
        )
    body = sim["perplexity"].requests[0].json()
    assert (body["max_tokens"], body["temperature"], body["num_search_results"]) == (300, 1.1, 4)
    assert len(response.sources) == 4


async def test_country_reaches_the_api_as_user_location(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="perplexity", country="ca")
    body = sim["perplexity"].requests[0].json()
    assert body["web_search_options"] == {
        "search_type": "pro",
        "search_context_size": "high",
        "user_location": {"country": "CA"},
    }
    assert response.auth_mode == "api_key" and len(response.sources) == 10


def _api_answer(body: dict[str, Any]) -> web.Response:
    """What the simulated API answers a key-mode ``/chat/completions`` request of ``body``."""
    request = RecordedRequest(
        method="POST",
        path="/chat/completions",
        query=(),
        headers={"Authorization": "Bearer k"},
        body=json.dumps(body).encode(),
    )
    return PerplexityProtocol().answer(request, [])


@pytest.mark.parametrize(("country", "status"), [("CAN", 400), ("C1", 400), ("CA", 200)])
def test_the_api_refuses_a_country_that_is_not_two_letters(country: str, status: int) -> None:
    # The simulator's check, met head on: the adapter never sends such a code.
    body = {
        "messages": [{"role": "user", "content": QUERY}],
        "web_search_options": {"user_location": {"country": country}},
    }
    response = _api_answer(body)
    assert response.status == status
    if status == 400:
        assert isinstance(response.body, bytes)
        assert json.loads(response.body)["error"]["type"] == "invalid_request_error"


@pytest.mark.parametrize(
    "fields",
    [
        {"num_search_results": "20"},
        {"num_search_results": True},
        {"language_preference": ["en"]},
        {"reasoning_effort": "max"},
        {"search_mode": "news"},
        {"search_recency_filter": "decade"},
        {"web_search_options": {"search_type": "deep"}},
        {"web_search_options": {"search_context_size": "huge"}},
    ],
)
def test_the_api_refuses_a_field_its_request_schema_does_not_take(fields: dict[str, Any]) -> None:
    # The simulator's check, met head on: the types and values of Perplexity's SDKs
    # (perplexity-py completion_create_params.py, perplexity-node chat/completions.ts).
    body = {"messages": [{"role": "user", "content": QUERY}], **fields}
    response = _api_answer(body)
    assert response.status == 400
    assert isinstance(response.body, bytes)
    assert json.loads(response.body)["error"]["type"] == "invalid_request_error"


async def test_tool_text_for_the_model(sim: Simulator) -> None:
    sim["perplexity"].results = [
        SimResult(
            title="Tasks",
            url="https://docs.python.org/3/library/asyncio-task.html",
            snippet="Coroutines.",
        )
    ]
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="perplexity")
    assert result.text == (
        "Simulated answer about python asyncio from 1 sources.[1]\n"
        "\n## Sources\n"
        "1 source\n"
        "[1] Tasks\n"
        "    https://docs.python.org/3/library/asyncio-task.html\n"
        "    Coroutines.\n"
        "\n## Citations\n"
        "1 citation\n"
        "[1] Tasks\n"
        "    https://docs.python.org/3/library/asyncio-task.html\n"
        "\n## Related\n"
        "1 question\n"
        "- What else is new about python asyncio?"
    )


async def test_a_plain_json_completion_is_read_too(sim: Simulator) -> None:
    completion = {
        "id": "c-1",
        "model": "sonar-pro",
        "citations": ["https://a.example.org/"],
        "choices": [{"message": {"role": "assistant", "content": "Plain answer [1]"}}],
    }
    sim["perplexity"].enqueue(
        Fault.http(200, json.dumps(completion), {"Content-Type": "application/json"})
    )
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="perplexity")
    assert response.answer == "Plain answer [1]"
    assert [s.url for s in response.sources] == ["https://a.example.org/"]


async def test_openrouter_fallback(sim: Simulator) -> None:
    async with sim_client(sim, api_keys={"openrouter": "or-key"}) as ws:
        response = await ws.search(QUERY, provider="perplexity", limit=2)
    (request,) = sim["perplexity"].requests
    assert request.path == "/api/v1/chat/completions"
    assert request.header("Authorization") == "Bearer or-key"
    assert request.json()["model"] == "perplexity/sonar-pro"
    assert [(s.title, s.url, s.snippet) for s in response.sources] == [
        (
            f"{QUERY} result {i}",
            f"https://site{i}.example.org/python-asyncio",
            f"Snippet {i} about {QUERY}.",
        )
        for i in (1, 2)
    ]
    assert response.model == "perplexity/sonar-pro"
    assert response.auth_mode == "api_key"


# --- ask mode ---------------------------------------------------------------------------------


async def test_cookies_use_the_ask_endpoint(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(
        "PERPLEXITY_COOKIES", "pplx.visitor-id=v; __Secure-next-auth.session-token=s"
    )
    async with sim_client(sim, api_keys={}) as ws:
        response = await ws.search(QUERY, provider="perplexity", limit=2, max_tokens=50)
    (request,) = sim["perplexity"].requests
    assert request.path == "/rest/sse/perplexity_ask"
    assert request.header("Cookie") == "pplx.visitor-id=v; __Secure-next-auth.session-token=s"
    assert request.header("Accept") == "text/event-stream"
    assert request.header("X-App-ApiVersion") == "2.18"
    assert request.header("Authorization") is None
    body = request.json()
    assert body["query_str"] == QUERY
    assert body["params"]["timezone"] == "UTC"
    assert "max_tokens" not in body["params"]
    assert response.answer == "Simulated answer about python asyncio."
    assert [(s.title, s.url, s.snippet) for s in response.sources] == [
        (
            f"{QUERY} result {i}",
            f"https://site{i}.example.org/python-asyncio",
            f"Snippet {i} about {QUERY}.",
        )
        for i in (1, 2)
    ]
    assert response.sources[0].published_date == "2026-01-01T00:00:00Z"
    assert (response.model, response.auth_mode) == ("pplx_pro", "oauth")
    assert response.request_id == request.header("X-Request-ID")


async def test_cookies_are_in_the_auto_chain(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with sim_client(sim, api_keys={}) as ws:
        nothing = await ws.run(QUERY)
    assert nothing.text == "Error: No web search provider configured."
    monkeypatch.setenv("PERPLEXITY_COOKIES", "a=b")
    async with sim_client(sim, api_keys={}) as ws:
        result = await ws.run(QUERY)
    assert not result.is_error and result.response.provider == "perplexity"


async def test_anonymous_when_selected_without_credentials(sim: Simulator) -> None:
    async with sim_client(sim, api_keys={}) as ws:
        response = await ws.search(QUERY, provider="perplexity")
    (request,) = sim["perplexity"].requests
    assert request.path == "/rest/sse/perplexity_ask"
    assert request.header("Cookie") is None
    assert request.header("X-App-ApiClient") is None
    assert "Chrome/" in (request.header("User-Agent") or "")
    assert request.json()["params"]["send_back_text_in_streaming_api"] is True
    assert (response.model, response.auth_mode) == ("turbo", "anonymous")
    assert len(response.sources) == 10


async def test_oauth_token_is_refreshed_after_a_401(sim: Simulator) -> None:
    credential_store(sim).set_oauth(
        "perplexity", OAuthToken(access_token="old-token", refresh_token="r", expires_at=None)
    )
    calls: list[str] = []

    async def refresh(provider: str, token: OAuthToken) -> OAuthToken:
        calls.append(token.access_token)
        return OAuthToken(access_token="new-token", expires_at=time.time() + 3600)

    sim["perplexity"].enqueue(Fault.unauthorized())
    async with WebSearch(
        sim.settings(), api_keys={}, oauth_refreshers={"perplexity": refresh}
    ) as ws:
        response = await ws.search(QUERY, provider="perplexity")
    first, second = sim["perplexity"].requests
    assert first.header("Cookie") == "__Secure-next-auth.session-token=old-token"
    assert second.header("Cookie") == "__Secure-next-auth.session-token=new-token"
    assert calls == ["old-token"]
    assert response.auth_mode == "oauth"
    stored = credential_store(sim).get_oauth("perplexity")
    assert stored is not None and stored.access_token == "new-token"


async def test_soon_expiring_oauth_token_is_refreshed_first(sim: Simulator) -> None:
    credential_store(sim).set_oauth(
        "perplexity", OAuthToken(access_token="old", expires_at=time.time() + 120)
    )

    async def refresh(provider: str, token: OAuthToken) -> OAuthToken:
        return OAuthToken(access_token="fresh", expires_at=time.time() + 3600)

    async with WebSearch(
        sim.settings(), api_keys={}, oauth_refreshers={"perplexity": refresh}
    ) as ws:
        await ws.search(QUERY, provider="perplexity")
    (request,) = sim["perplexity"].requests
    assert request.header("Cookie") == "__Secure-next-auth.session-token=fresh"


async def test_after_a_401_a_token_renewed_elsewhere_within_five_minutes_is_renewed_again(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The 401's refresh used the 60 s margin of every other provider: a token another
    # process had just renewed, with 1-5 minutes left, was sent after the 401, and the
    # next search refreshed it again by Perplexity's own 5-minute margin.
    store = credential_store(sim)
    store.set_oauth("perplexity", OAuthToken(access_token="old", refresh_token="r0"))
    protocol = sim["perplexity"].protocol
    answer = protocol.answer

    def renewed_elsewhere(request: Any, results: Any) -> Any:
        # Another process renews the sign-in while this search's first request is out,
        # and the service has already stopped taking the old token.
        if "old" in (request.header("Cookie") or ""):
            short = OAuthToken("renewed", refresh_token="r1", expires_at=time.time() + 180)
            store.set_oauth("perplexity", short)
            return web.Response(status=401, text="Unauthorized")
        return answer(request, results)

    monkeypatch.setattr(protocol, "answer", renewed_elsewhere)
    refreshed: list[str] = []

    async def refresh(provider: str, token: OAuthToken) -> OAuthToken:
        refreshed.append(token.access_token)
        return OAuthToken(access_token="fresh", expires_at=time.time() + 3600)

    async with WebSearch(
        sim.settings(), api_keys={}, oauth_refreshers={"perplexity": refresh}
    ) as ws:
        await ws.search(QUERY, provider="perplexity")
        await ws.search("another query", provider="perplexity")
    sent = [r.header("Cookie") for r in sim["perplexity"].requests]
    session = "__Secure-next-auth.session-token="
    assert sent == [f"{session}old", f"{session}fresh", f"{session}fresh"]
    assert refreshed == ["renewed"]


async def test_a_failing_method_falls_through_to_the_next(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PERPLEXITY_COOKIES", "expired=1")
    sim["perplexity"].enqueue(Fault.unauthorized())
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="perplexity")
    assert [r.path for r in sim["perplexity"].requests] == [
        "/rest/sse/perplexity_ask",
        "/chat/completions",
    ]
    assert response.auth_mode == "api_key"


async def test_every_method_failing_raises_the_last_error(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PERPLEXITY_COOKIES", "expired=1")
    failure = await _failure(sim, Fault.unauthorized(), Fault.payment_required())
    assert isinstance(failure, QuotaExhaustedError)
    assert len(sim["perplexity"].requests) == 2


async def test_ask_transport_failure_is_retried_once(sim: Simulator) -> None:
    sim["perplexity"].enqueue(Fault.reset())
    async with sim_client(sim, api_keys={}) as ws:
        response = await ws.search(QUERY, provider="perplexity")
    assert len(sim["perplexity"].requests) == 2
    assert response.answer == "Simulated answer about python asyncio."
    failure = await _failure(sim, Fault.reset(), Fault.reset(), keys={})
    assert isinstance(failure, ProviderConnectionError)
    assert len(sim["perplexity"].requests) == 4  # two more: one send, one retry


async def test_ask_http_error_is_final(sim: Simulator) -> None:
    failure = await _failure(sim, Fault.server_error(502, "bad gateway"), keys={})
    assert isinstance(failure, ProviderUnavailableError)
    assert failure.message == "Perplexity ask API error (502): bad gateway"
    assert len(sim["perplexity"].requests) == 1


async def test_ask_stream_error_event(sim: Simulator) -> None:
    body = 'event: message\ndata: {"error_code": "QUERY_BLOCKED", "error_message": "Blocked"}\n\n'
    failure = await _failure(sim, Fault.http(200, body, EVENT_STREAM), keys={})
    assert type(failure) is SearchProviderError
    assert (failure.message, failure.status) == ("Perplexity ask stream error: Blocked", 400)


async def test_ask_without_a_stream(sim: Simulator) -> None:
    failure = await _failure(sim, Fault.malformed(), keys={})
    assert isinstance(failure, ResponseParseError)
    assert failure.message == "Perplexity ask API returned no event stream"
    empty = await _failure(sim, Fault.http(200, ""), keys={})
    assert isinstance(empty, ProviderUnavailableError)
    assert empty.message == "Perplexity ask API returned no response body"


def _ask_stream(*snapshots: dict[str, Any], end_event: bool = False) -> str:
    """An ask stream as the endpoint writes it: ``message`` events, then ``end_of_stream``."""
    events = "".join(f"event: message\ndata: {json.dumps(item)}\n\n" for item in snapshots)
    return events + ("event: end_of_stream\ndata: {}\n\n" if end_event else "")


_ASK_SOURCES = {
    "status": "PENDING",
    "blocks": [
        {
            "intended_usage": "web_results",
            "web_result_block": {
                "web_results": [{"name": "Tasks", "url": "https://docs.python.org/3/"}]
            },
        }
    ],
}
_ASK_HALF_ANSWER = {
    "status": "PENDING",
    "blocks": [
        {
            "intended_usage": "ask_text_0_markdown",
            "markdown_block": {"chunks": ["asyncio runs "], "chunk_starting_offset": 0},
        }
    ],
}


async def test_an_ask_stream_ended_before_its_final_event_is_a_failure(sim: Simulator) -> None:
    # The body closes cleanly after half an answer, with no final snapshot and no
    # end_of_stream: never to be read as the whole answer. Failed before (answered
    # "asyncio runs").
    cut = Fault.http(200, _ask_stream(_ASK_SOURCES, _ASK_HALF_ANSWER), EVENT_STREAM)
    failure = await _failure(sim, cut, keys={})
    assert isinstance(failure, ProviderUnavailableError)
    assert (failure.message, failure.status) == (
        "Perplexity ask API stream ended before its final event",
        500,
    )


async def test_a_cut_ask_stream_lets_the_chain_move_on() -> None:
    # Failed before: the cut answer was the search's answer and Tavily was never asked.
    async with Simulator(["perplexity", "tavily"]) as both:
        both["perplexity"].enqueue(Fault.http(200, _ask_stream(_ASK_SOURCES), EVENT_STREAM))
        keys = {"tavily": both.api_keys()["tavily"]}
        async with WebSearch(both.settings(provider="perplexity"), api_keys=keys) as ws:
            result = await ws.run(QUERY)
        assert result.response.provider == "tavily"
        attempts = [(a.provider, a.outcome) for a in result.response.attempts]
        assert attempts == [("perplexity", "failed"), ("tavily", "success")]


@pytest.mark.parametrize(
    ("last", "end_event"),
    [
        ({"final_sse_message": True, "status": "COMPLETED"}, True),
        ({"final_sse_message": True}, False),
        ({"status": "COMPLETED"}, False),
        ({"final": True}, False),
        ({"status": "PENDING"}, True),
    ],
    ids=["live-shape", "final_sse_message", "completed", "final", "end_of_stream"],
)
async def test_guard_an_ask_stream_with_any_end_marker_answers(
    sim: Simulator, last: dict[str, Any], end_event: bool
) -> None:
    # Guard (passes before and after): each marker the reference or live clients read as the
    # end of the stream lets its answer through.
    body = _ask_stream(_ASK_SOURCES, _ASK_HALF_ANSWER, last, end_event=end_event)
    sim["perplexity"].enqueue(Fault.http(200, body, EVENT_STREAM))
    async with sim_client(sim, api_keys={}) as ws:
        response = await ws.search(QUERY, provider="perplexity")
    assert response.answer == "asyncio runs"
    assert [source.url for source in response.sources] == ["https://docs.python.org/3/"]


# --- faults in API-key mode -------------------------------------------------------------------


async def test_malformed_body(sim: Simulator) -> None:
    failure = await _failure(sim, Fault.malformed())
    assert isinstance(failure, ResponseParseError)
    assert failure.message == "Perplexity API returned invalid JSON"


async def test_stream_cut_mid_event(sim: Simulator) -> None:
    cut = Fault.http(200, 'data: {"id": "x", "choices": [{"delta": {"content": "Hal', EVENT_STREAM)
    failure = await _failure(sim, cut)
    assert isinstance(failure, ProviderConnectionError)
    assert failure.message.startswith("Perplexity ")
    assert failure.message.endswith("stream ended in the middle of an event")


async def test_error_inside_the_stream(sim: Simulator) -> None:
    body = 'data: {"error": {"message": "Service overloaded", "code": 503}}\n\n'
    failure = await _failure(sim, Fault.http(200, body, EVENT_STREAM))
    assert (failure.message, failure.status) == (
        "Perplexity API error (503): Service overloaded",
        503,
    )


def _captured_stream(chunks: int | None = None) -> str:
    """The real streamed capture's first ``chunks`` chunks as events, with no ``[DONE]``."""
    lines = read_capture(CAPTURED_STREAM).decode("utf-8").splitlines()
    kept = [line for line in lines if line.strip()][:chunks]
    return "".join(f"data: {line}\n\n" for line in kept)


async def test_a_stream_ended_before_its_last_chunk_is_a_stream_failure(sim: Simulator) -> None:
    # The body ends cleanly, but before the chunk that says why generation stopped: half an
    # answer, never to be read as the whole. Failed before (the cut answer was returned).
    cut = Fault.http(200, _captured_stream(-1), EVENT_STREAM)
    failure = await _failure(sim, cut)
    assert (failure.message, failure.status) == (
        "Perplexity API error (500): Perplexity API stream failed",
        500,
    )


async def test_a_finished_stream_without_done_still_answers(sim: Simulator) -> None:
    # Guard (passes before and after): the capture's last chunk carries finish_reason, which
    # is the end of the stream whether or not "data: [DONE]" follows it.
    sim["perplexity"].enqueue(Fault.http(200, _captured_stream(), EVENT_STREAM))
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="perplexity")
    assert response.answer == "The current population of **[2][3]"


# --- domain filters ---------------------------------------------------------------------------

DOMAIN_PAGES = [
    SimResult(title="Docs", url="https://docs.rs/tokio", snippet="Tokio docs."),
    SimResult(title="Thread", url="https://www.reddit.com/r/rust/tokio", snippet="A thread."),
    SimResult(title="Blog", url="https://blog.example.org/tokio", snippet="A post."),
]
MIXED = "tokio site:docs.rs -site:reddit.com"


def _user_message(body: dict[str, Any]) -> str:
    (user,) = [m["content"] for m in body["messages"] if m["role"] == "user"]
    return str(user)


@pytest.mark.parametrize(
    ("keys", "path"),
    [(None, "/chat/completions"), ({"openrouter": "or-key"}, "/api/v1/chat/completions")],
    ids=["api_key", "openrouter"],
)
async def test_mixed_domain_filters_send_the_allowlist_and_check_the_rest_here(
    sim: Simulator, keys: dict[str, str] | None, path: str
) -> None:
    sim["perplexity"].results = list(DOMAIN_PAGES)
    async with sim_client(sim, api_keys=keys) as ws:
        result = await ws.run(MIXED, provider="perplexity", use_cache=False)
    (request,) = sim["perplexity"].requests
    assert request.path == path
    body = request.json()
    assert body["search_domain_filter"] == ["docs.rs"]  # never ["docs.rs", "-reddit.com"]
    assert _user_message(body) == "tokio -site:reddit.com"
    assert [s.url for s in result.response.sources] == ["https://docs.rs/tokio"]
    assert [(f.name, f.value, f.applied) for f in result.response.filters] == [
        ("include_domains", "docs.rs", ("native", "post")),
        ("exclude_domains", "reddit.com", ("query", "post")),
    ]
    assert "Filters not applied" not in result.text


async def test_the_ask_endpoint_gets_one_mode_too(sim: Simulator) -> None:
    sim["perplexity"].results = list(DOMAIN_PAGES)
    async with sim_client(sim, api_keys={}) as ws:
        result = await ws.run(MIXED, provider="perplexity", use_cache=False)
    (request,) = sim["perplexity"].requests
    assert request.path == "/rest/sse/perplexity_ask"
    body = request.json()
    assert body["params"]["search_domain_filter"] == ["docs.rs"]
    assert body["query_str"] == "tokio -site:reddit.com"
    assert [s.url for s in result.response.sources] == ["https://docs.rs/tokio"]
    assert {f.value: f.applied for f in result.response.filters}["reddit.com"] == (
        "query",
        "post",
    )


async def test_a_denylist_over_20_is_asked_in_the_question_and_checked_here(
    sim: Simulator,
) -> None:
    excluded = (*(f"spam{i}.example.net" for i in range(20)), "reddit.com")
    sim["perplexity"].results = list(DOMAIN_PAGES)
    async with sim_client(sim) as ws:
        result = await ws.run("tokio", provider="perplexity", exclude_domains=excluded)
    body = sim["perplexity"].requests[0].json()
    assert "search_domain_filter" not in body  # 21 entries: more than Perplexity takes
    assert _user_message(body) == "tokio " + " ".join(f"-site:{domain}" for domain in excluded)
    assert [s.url for s in result.response.sources] == [
        "https://docs.rs/tokio",
        "https://blog.example.org/tokio",
    ]
    records = {f.value: f.applied for f in result.response.filters}
    assert records["spam0.example.net"] == records["reddit.com"] == ("query", "post")
