"""Gemini: request bodies, grounded-stream parsing, error handling and the captures, pure."""

import dataclasses
import json
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import read_capture
from tests.providers._helpers import stored_context
from websearch_core.credentials import Credentials, CredentialStore, OAuthToken
from websearch_core.errors import (
    AuthorizationError,
    EmptyResponseError,
    ProviderConnectionError,
    ProviderNotConfiguredError,
    ProviderTimeoutError,
    ProviderUnavailableError,
    QuotaExhaustedError,
    RateLimitedError,
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.models import SearchParams
from websearch_core.providers import get_provider
from websearch_core.providers._gemini_catalog import parse_catalog, parse_quota, refuses_model
from websearch_core.providers._gemini_errors import (
    auth_error_code,
    error_text,
    is_invalid_auth,
    retry_delay_hint,
)
from websearch_core.providers._gemini_interactions import parse_interaction
from websearch_core.providers._gemini_parse import (
    body_chunks,
    events_chunks,
    parse_chunks,
    project_id,
)
from websearch_core.providers.base import ProviderContext, error_for, raise_for_error_map
from websearch_core.providers.gemini import (
    CLOUD_CODE_ERRORS,
    CODE_ASSIST_ENDPOINTS,
    DEVELOPER_ERRORS,
    INFO,
    GeminiProvider,
    code_assist_body,
    model_name,
    request_body,
)
from websearch_core.sanitize import clean_response
from websearch_core.settings import Settings
from websearch_core.sse import SseEvent, parse_sse
from websearch_core.transport import HttpRequest, HttpResponse, SseResponse

STREAM = "gemini/stream_generate_content_google_search.sse"
CALL = "gemini/generate_content_google_search_call1.json"
INTERACTIONS = "gemini/interactions_api_google_search.json"
REDIRECT = "https://vertexaisearch.cloud.google.com/grounding-api-redirect/"


def context(
    tmp_path: Path | None = None,
    *,
    keys: dict[str, str] | None = None,
    environ: dict[str, str] | None = None,
    token: OAuthToken | None = None,
) -> ProviderContext:
    return stored_context(
        "gemini", tmp_path, keys=keys, environ=environ, token=token, system_prompt="SYSTEM"
    )


def google_error(status: int, message: str, reason: str, **extra: Any) -> str:
    return json.dumps({"error": {"code": status, "message": message, "status": reason, **extra}})


# --- facts and availability -------------------------------------------------------------------


def test_registry_returns_the_gemini_provider_with_its_facts() -> None:
    provider = get_provider("gemini")
    assert isinstance(provider, GeminiProvider)
    assert (INFO.id, INFO.label, INFO.kind) == ("gemini", "Gemini", "answer")
    assert INFO.env_vars == ("GEMINI_API_KEY", "GOOGLE_API_KEY")
    assert INFO.honours == {
        "query",
        "limit",
        "num_search_results",
        "max_tokens",
        "temperature",
        "recency",
        "date_after",
        "date_before",
    }
    assert [mode for mode, _ in INFO.mode_filters] == ["OAuth"]
    assert (INFO.default_results, INFO.max_results) == (None, None)
    assert INFO.docs_url == "https://ai.google.dev/gemini-api/docs/google-search"
    assert CODE_ASSIST_ENDPOINTS == (
        "https://daily-cloudcode-pa.googleapis.com",
        "https://daily-cloudcode-pa.sandbox.googleapis.com",
    )


def test_availability(tmp_path: Path) -> None:
    provider = GeminiProvider()
    assert not provider.is_available(context(tmp_path))
    assert provider.is_available(context(environ={"GEMINI_API_KEY": "k"}))
    assert provider.is_available(context(environ={"GOOGLE_API_KEY": "k"}))
    assert provider.is_available(context(tmp_path, token=OAuthToken(access_token="t")))
    both = context(environ={"GEMINI_API_KEY": "first", "GOOGLE_API_KEY": "second"})
    assert provider.api_key(both) == "first"


async def test_missing_credentials_message(tmp_path: Path) -> None:
    with pytest.raises(ProviderNotConfiguredError) as caught:
        await GeminiProvider().search(SearchParams(query="x"), context(tmp_path))
    assert caught.value.message == (
        "Gemini credentials not found. Set GEMINI_API_KEY or GOOGLE_API_KEY or configure an "
        'API key for provider "gemini".'
    )


def test_model_from_the_environment() -> None:
    assert model_name(context()) == "gemini-3.5-flash-lite"
    assert model_name(context(environ={"GEMINI_SEARCH_MODEL": " gemini-2.5-pro "})) == (
        "gemini-2.5-pro"
    )


def test_model_setting_ranks_below_the_spec_variable() -> None:
    configured = dataclasses.replace(context(), settings=Settings(gemini_model="gemini-2.0-flash"))
    assert model_name(configured) == "gemini-2.0-flash"
    both = dataclasses.replace(
        context(environ={"GEMINI_SEARCH_MODEL": "gemini-2.5-pro"}),
        settings=Settings(gemini_model="gemini-2.0-flash"),
    )
    assert model_name(both) == "gemini-2.5-pro"


# --- request bodies ---------------------------------------------------------------------------


def test_request_body_without_generation_config() -> None:
    assert request_body(SearchParams(query="rust", limit=3, recency="day"), "SYS") == {
        "contents": [{"role": "user", "parts": [{"text": "rust"}]}],
        "tools": [{"google_search": {}}],
        "systemInstruction": {"parts": [{"text": "SYS"}]},
    }


def test_request_body_generation_config() -> None:
    body = request_body(SearchParams(query="q", max_tokens=256, temperature=0.0), "S")
    assert body["generationConfig"] == {"maxOutputTokens": 256, "temperature": 0.0}
    assert request_body(SearchParams(query="q", temperature=1.5), "S")["generationConfig"] == {
        "temperature": 1.5
    }


def test_code_assist_body() -> None:
    body = code_assist_body(
        SearchParams(query="q", max_tokens=10), "S", model="m", project="p", request_id="agent-1"
    )
    assert body == {
        "project": "p",
        "model": "m",
        "request": {
            "contents": [{"role": "user", "parts": [{"text": "q"}]}],
            "tools": [{"google_search": {}}],
            "systemInstruction": {"role": "user", "parts": [{"text": "S"}]},
            "generationConfig": {"maxOutputTokens": 10},
        },
        "requestType": "agent",
        "userAgent": "antigravity",
        "requestId": "agent-1",
    }


# --- the captures -----------------------------------------------------------------------------


def test_capture_stream() -> None:
    chunks, unreadable = events_chunks(parse_sse(read_capture(STREAM)))
    assert (len(chunks), unreadable) == (10, 0)
    response = parse_chunks(chunks, requested_model="gemini-2.5-flash", auth_mode="api_key")
    assert response.answer is not None
    assert response.answer.startswith(
        "### Weather in San Francisco is Mild and Partly Cloudy Today\n\n**San Francisco, CA** - "
        "Today's weather in San Francisco is partly cloudy with temperatures ranging from the "
        "high 50s to the low 80s, according to various weather reports."
    )
    assert response.answer.endswith(
        "gradually cooling down in the evening. The chance of rain remains low throughout the day."
    )
    assert [s.title for s in response.sources] == [
        "Weather information for San Francisco, CA, US",
        "timeanddate.com",
        "weather.gov",
        "wunderground.com",
        "accuweather.com",
    ]
    # Google's own box comes with raw spaces in its URI: sent on encoded, it survives the
    # response's cleaning, which drops a URL with a space (and its citations with it).
    assert (
        response.sources[0].url
        == "https://www.google.com/search?q=weather+in+San%20Francisco,%20CA,+US"
    )
    cleaned = clean_response(response, cap=10)
    assert (len(cleaned.sources), len(cleaned.citations)) == (5, 9)
    assert response.sources[1].url.startswith(REDIRECT + "AUZIYQE9XF-Y6nU0j1wObrFC2S")
    assert len(response.citations) == 9  # 8 supports, one naming two chunks; not de-duplicated
    first = response.citations[0]
    assert (first.title, first.url) == (
        "Weather information for San Francisco, CA, US",
        response.sources[0].url,
    )
    assert first.cited_text == (
        "As of Tuesday afternoon, the temperature is around 69°F (21°C), with a real feel of "
        "about 76°F (24°C) and humidity at approximately 68%."
    )
    assert [c.title for c in response.citations[6:8]] == ["accuweather.com", "timeanddate.com"]
    assert response.search_queries == ("weather in San Francisco today",)
    assert response.usage is not None
    assert (response.usage.input_tokens, response.usage.output_tokens) == (17, 241)
    assert response.usage.total_tokens == 772
    assert (response.model, response.request_id) == ("gemini-2.5-pro", "ftnJaMmAMcm-qtsPwvCCoAo")
    limited = parse_chunks(chunks, requested_model="m", auth_mode="oauth", limit=2)
    assert len(limited.sources) == 2 and len(limited.citations) == 9
    assert limited.auth_mode == "oauth"


def test_capture_generate_content() -> None:
    chunks = body_chunks(read_capture(CALL))
    response = parse_chunks(chunks, requested_model="m", auth_mode="api_key")
    assert response.answer is not None
    assert response.answer.startswith("## Weather in San Francisco is Mild and Partly Cloudy")
    assert [(s.title, s.url[:60]) for s in response.sources] == [
        (
            "Weather information for San Francisco, CA, US",
            "https://www.google.com/search?q=weather+in+San%20Francisco,%",
        ),
        ("weather.gov", REDIRECT[:60]),
        ("wunderground.com", REDIRECT[:60]),
    ]
    assert [(c.title, c.cited_text) for c in response.citations[2:4]] == [
        (
            "weather.gov",
            "According to the latest weather reports, the forecast for the remainder of the day "
            "is expected to be sunny, with highs ranging from the mid-60s to the lower 80s.",
        ),
        ("wunderground.com", "Winds are predicted to come from the west at 10 to 15 mph."),
    ]
    assert response.search_queries == ("weather in San Francisco today",)
    assert response.usage is not None and response.usage.total_tokens == 550
    assert response.request_id == "btnJaOrqE4_6qtsP7bOboQs"


def test_capture_wrapped_as_code_assist_chunks() -> None:
    chunks, _ = events_chunks(parse_sse(read_capture(STREAM)))
    wrapped = [{"response": chunk, "traceId": "t"} for chunk in chunks]
    plain = parse_chunks(chunks, requested_model="m", auth_mode="oauth")
    assert parse_chunks(wrapped, requested_model="m", auth_mode="oauth") == plain


def test_capture_interactions_api() -> None:
    data = json.loads(read_capture(INTERACTIONS))
    response = parse_interaction(data)
    assert response.answer is not None
    assert response.answer.startswith(
        "Here's a look at some notable AI developments from the past week:"
    )
    assert [s.title for s in response.sources] == [
        "marketingprofs.com",
        "sap.com",
        "youtube.com",
        "etcjournal.com",
    ]
    assert all(s.url.startswith(REDIRECT) for s in response.sources)
    assert len(response.citations) == 18
    assert response.citations[0].cited_text == (
        "The platform supports various buying models and integrates with major advertising "
        "and ad-tech firms."
    )
    assert response.search_queries == (
        "notable AI developments May 8-15 2026",
        "AI news this week May 2026",
    )
    assert response.usage is not None
    assert (response.usage.input_tokens, response.usage.output_tokens) == (22, 973)
    assert response.model == "gemini-2.5-flash"
    # It is not a generateContent body: the streaming parser finds nothing grounded in it.
    with pytest.raises(EmptyResponseError):
        parse_chunks([data], requested_model="m", auth_mode="api_key")
    with pytest.raises(ResponseParseError):
        parse_interaction({"candidates": []})


# --- parsing details --------------------------------------------------------------------------


def test_thought_parts_and_bad_indices_are_skipped() -> None:
    chunk = {
        "candidates": [
            {
                "content": {"parts": [{"text": "thinking", "thought": True}, {"text": "Answer"}]},
                "groundingMetadata": {
                    "groundingChunks": [{"web": {"uri": "https://a.example/", "title": ""}}],
                    "groundingSupports": [
                        {"segment": {"text": "Answer"}, "groundingChunkIndices": [0, 7, "x"]}
                    ],
                    "webSearchQueries": ["q", "q", " "],
                },
            }
        ]
    }
    response = parse_chunks([chunk], requested_model="gemini-2.5-flash", auth_mode="api_key")
    assert response.answer == "Answer"
    assert [(s.title, s.url) for s in response.sources] == [
        ("https://a.example/", "https://a.example/")
    ]
    assert [(c.url, c.cited_text) for c in response.citations] == [("https://a.example/", "Answer")]
    assert response.search_queries == ("q",)
    assert response.model == "gemini-2.5-flash"


def test_empty_grounded_response() -> None:
    with pytest.raises(EmptyResponseError) as caught:
        parse_chunks(
            [{"candidates": [{"finishReason": "SAFETY"}]}], requested_model="m", auth_mode="x"
        )
    assert (caught.value.message, caught.value.status) == (
        "Gemini API returned an empty grounded response",
        502,
    )


def test_unreadable_events_and_bodies() -> None:
    chunks, unreadable = events_chunks([SseEvent(data="<html>"), SseEvent(data="[1]")])
    assert (chunks, unreadable) == ([], 2)
    with pytest.raises(ResponseParseError, match="invalid JSON"):
        body_chunks(b"<html>")
    with pytest.raises(ResponseParseError, match="unexpected body"):
        body_chunks(b"[1, 2]")
    assert project_id({"cloudaicompanionProject": {"id": " p-1 "}}) == "p-1"
    assert project_id({"cloudaicompanionProject": "p-2"}) == "p-2"
    assert project_id({"currentTier": {}}) is None


# --- errors and retry hints -------------------------------------------------------------------


def test_error_text_and_invalid_auth() -> None:
    body = google_error(
        400,
        "API key not valid. Please pass a valid API key.",
        "INVALID_ARGUMENT",
        details=[{"reason": "API_KEY_INVALID"}],
    )
    assert error_text(body) == "API key not valid. Please pass a valid API key."
    assert error_text("  plain text ") == "plain text"
    assert is_invalid_auth(400, body)
    assert not is_invalid_auth(401, body)
    assert not is_invalid_auth(400, google_error(400, "Bad field", "INVALID_ARGUMENT"))


@pytest.mark.parametrize(
    ("headers", "body", "expected"),
    [
        ({"retry-after-ms": "1500"}, "", 1.5),
        ({"Retry-After": "7"}, "", 7.0),
        ({"x-ratelimit-reset-after": "3"}, "", 3.0),
        (
            {},
            google_error(
                429,
                "You exceeded your current quota.",
                "RESOURCE_EXHAUSTED",
                details=[
                    {"@type": "type.googleapis.com/google.rpc.QuotaFailure"},
                    {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "34s"},
                ],
            ),
            34.0,
        ),
        ({}, "Please retry in 12.5s.", 12.5),
        ({}, "try again in 500ms", 0.5),
        ({}, "Your quota will reset after 1h2m3s.", 3723.0),
        ({}, "nothing to go on", None),
    ],
)
def test_retry_delay_hints(headers: dict[str, str], body: str, expected: float | None) -> None:
    assert retry_delay_hint(headers, body) == expected


def _reply(status: int, body: str, headers: dict[str, str] | None = None) -> HttpResponse:
    return HttpResponse(status=status, body=body.encode(), headers=headers or {})


def test_error_maps_classify() -> None:
    raise_for_error_map(INFO, DEVELOPER_ERRORS, _reply(200, ""))
    invalid = _reply(400, google_error(400, "API key not valid.", "INVALID_ARGUMENT"))
    with pytest.raises(AuthorizationError) as developer:
        raise_for_error_map(INFO, DEVELOPER_ERRORS, invalid)
    assert (developer.value.message, developer.value.status) == (
        "Gemini Developer API error (400): API key not valid.",
        400,
    )
    with pytest.raises(AuthorizationError) as cloud:
        raise_for_error_map(INFO, CLOUD_CODE_ERRORS, invalid)
    assert cloud.value.message == "Gemini Cloud Code API error (400): API key not valid."
    with pytest.raises(AuthorizationError) as unauthorized:
        raise_for_error_map(INFO, DEVELOPER_ERRORS, _reply(401, "nope"))
    assert unauthorized.value.message == "gemini: 401 unauthorized"
    bad_field = _reply(400, google_error(400, "Bad field", "INVALID_ARGUMENT"))
    with pytest.raises(SearchProviderError) as bad:
        raise_for_error_map(INFO, DEVELOPER_ERRORS, bad_field)
    assert type(bad.value) is SearchProviderError
    assert bad.value.message == "Gemini Developer API error (400): Bad field"
    overloaded = _reply(503, google_error(503, "The model is overloaded.", "UNAVAILABLE"))
    with pytest.raises(ProviderUnavailableError) as server:
        raise_for_error_map(INFO, CLOUD_CODE_ERRORS, overloaded)
    assert server.value.message == "Gemini Cloud Code API error (503): The model is overloaded."


def test_auth_error_code_reads_only_a_400_as_bad_credentials() -> None:
    assert auth_error_code(google_error(400, "API key not valid.", "INVALID_ARGUMENT")) == (
        "INVALID_AUTH"
    )
    assert auth_error_code("API_KEY_INVALID") == "INVALID_AUTH"  # no JSON: the text decides
    unauthenticated = google_error(401, "Invalid authentication credentials", "UNAUTHENTICATED")
    assert auth_error_code(unauthenticated) is None  # the status already says so
    assert auth_error_code(google_error(400, "Bad field", "INVALID_ARGUMENT")) is None


def test_the_error_maps_carry_googles_wait_hint() -> None:
    retry_info = [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "7s"}]
    busy = _reply(429, google_error(429, "Slow down.", "RESOURCE_EXHAUSTED", details=retry_info))
    limited = error_for(INFO, CLOUD_CODE_ERRORS, busy)
    assert isinstance(limited, RateLimitedError)
    assert (limited.message, limited.retry_after) == (
        "Gemini Cloud Code API error (429): Slow down.",
        7.0,
    )
    spent = _reply(
        429, google_error(429, "Quota exceeded. Please retry in 40s.", "RESOURCE_EXHAUSTED")
    )
    quota = error_for(INFO, DEVELOPER_ERRORS, spent)
    assert isinstance(quota, QuotaExhaustedError) and quota.reset_at is not None
    assert 30 < (quota.reset_at - datetime.now(UTC)).total_seconds() <= 40
    plain = error_for(INFO, DEVELOPER_ERRORS, _reply(429, google_error(429, "Slow down.", "X")))
    assert isinstance(plain, RateLimitedError) and plain.retry_after is None


# --- the protocol through search(), over a scripted transport --------------------------------

SSE_OK = (  # one chunk, ended as a real stream's last chunk is: with its finishReason
    b'data: {"candidates": [{"content": {"parts": [{"text": "Answer."}]}, "groundingMetadata":'
    b' {"groundingChunks": [{"web": {"uri": "https://a.example/", "title": "a"}}]},'
    b' "finishReason": "STOP"}]}\n\n'
)
LOAD_OK = b'{"cloudaicompanionProject": "proj-1"}'


class ScriptedTransport:
    """Answers each request with the next scripted reply (or raises it) and records it."""

    def __init__(self, *replies: tuple[int, bytes] | SearchProviderError) -> None:
        self.replies = list(replies)
        self.sent: list[HttpRequest] = []

    def _next(self, request: HttpRequest) -> tuple[int, bytes]:
        self.sent.append(request)
        reply = self.replies.pop(0)
        if isinstance(reply, SearchProviderError):
            raise reply
        return reply

    async def send(self, provider: str, label: str, request: HttpRequest) -> HttpResponse:
        assert (provider, label, request.stream) == ("gemini", "Gemini", False)
        status, body = self._next(request)
        return HttpResponse(status=status, body=body, url=request.url)

    async def send_sse(self, provider: str, label: str, request: HttpRequest) -> SseResponse:
        assert (provider, label, request.stream) == ("gemini", "Gemini", True)
        status, body = self._next(request)
        events = tuple(parse_sse(body)) if 200 <= status < 300 else ()
        return SseResponse(status=status, body=body, events=events, url=request.url)


def scripted(
    tmp_path: Path,
    transport: ScriptedTransport,
    *,
    environ: dict[str, str] | None = None,
    refresh: Any = None,
    entries: tuple[str, ...] = ("gemini",),
) -> ProviderContext:
    store = CredentialStore(tmp_path / "credentials.json")
    for entry in entries:
        store.set_oauth(entry, OAuthToken(access_token="old", expires_at=time.time() + 3600))
    return ProviderContext(
        transport=transport,  # type: ignore[arg-type]
        settings=Settings(),
        credentials=Credentials(
            store=store,
            environ=environ if environ is not None else {"GOOGLE_CLOUD_PROJECT": "p"},
            refreshers={entry: refresh for entry in entries} if refresh else None,
        ),
        system_prompt="SYSTEM",
    )


@pytest.mark.parametrize("status", [429, 500, 503])
async def test_oauth_tries_the_first_endpoint_once_then_moves_to_the_second(
    tmp_path: Path, sleeps: list[float], status: int
) -> None:
    busy = (status, google_error(status, "Overloaded", "UNAVAILABLE").encode())
    transport = ScriptedTransport(busy, (200, SSE_OK))
    response = await GeminiProvider().search(SearchParams(query="q"), scripted(tmp_path, transport))
    first, second = (
        f"{endpoint}/v1internal:streamGenerateContent" for endpoint in CODE_ASSIST_ENDPOINTS
    )
    # The reference's fetchWithRetry: one attempt at an endpoint that is not the last.
    assert [request.url for request in transport.sent] == [first, second]
    assert sleeps == []
    assert (response.answer, response.auth_mode) == ("Answer.", "oauth")


PROD_STREAM = "https://cloudcode-pa.googleapis.com/v1internal:streamGenerateContent"


@pytest.mark.parametrize("entries", [("gemini-cli",), ("gemini", "gemini-cli")])
async def test_a_gemini_cli_sign_in_goes_to_the_production_host_alone(
    tmp_path: Path, sleeps: list[float], entries: tuple[str, ...]
) -> None:
    busy = (503, google_error(503, "Overloaded", "UNAVAILABLE").encode())
    transport = ScriptedTransport(busy, busy, (200, SSE_OK))
    ctx = scripted(tmp_path, transport, entries=entries)
    response = await GeminiProvider().search(SearchParams(query="q"), ctx)
    # Its one host is the last: it retries there (the reference's fetchWithRetry) and never
    # moves on to Antigravity's daily hosts.
    assert [request.url for request in transport.sent] == [PROD_STREAM] * 3
    assert sleeps == [1.0, 2.0]
    assert transport.sent[0].headers["User-Agent"].startswith("GeminiCLI/0.46.0/")
    assert (response.answer, response.auth_mode) == ("Answer.", "oauth")


async def test_a_gemini_cli_load_asks_the_production_host(tmp_path: Path) -> None:
    transport = ScriptedTransport((200, LOAD_OK), (200, SSE_OK))
    ctx = scripted(tmp_path, transport, environ={}, entries=("gemini-cli",))
    await GeminiProvider().search(SearchParams(query="q"), ctx)
    assert [request.url for request in transport.sent] == [
        "https://cloudcode-pa.googleapis.com/v1internal:loadCodeAssist",
        PROD_STREAM,
    ]
    assert transport.sent[1].json["project"] == "proj-1"
    assert all("Client-Metadata" in request.headers for request in transport.sent)


async def test_oauth_a_408_at_the_first_endpoint_is_neither_retried_nor_moved_on(
    tmp_path: Path, sleeps: list[float]
) -> None:
    transport = ScriptedTransport((408, b"Request Timeout"))
    with pytest.raises(SearchProviderError) as caught:
        await GeminiProvider().search(SearchParams(query="q"), scripted(tmp_path, transport))
    assert caught.value.message == "Gemini Cloud Code API error (408): Request Timeout"
    assert len(transport.sent) == 1 and sleeps == []


async def test_oauth_last_endpoint_failure_is_the_cloud_code_error(
    tmp_path: Path, sleeps: list[float]
) -> None:
    busy = (503, google_error(503, "Overloaded", "UNAVAILABLE").encode())
    transport = ScriptedTransport(*[busy] * 5)
    with pytest.raises(ProviderUnavailableError) as caught:
        await GeminiProvider().search(SearchParams(query="q"), scripted(tmp_path, transport))
    assert caught.value.message == "Gemini Cloud Code API error (503): Overloaded"
    # One attempt at the first endpoint, four at the last.
    assert len(transport.sent) == 5 and sleeps == [1.0, 2.0, 4.0]


async def test_connection_failures_move_on_then_resend_three_times(
    tmp_path: Path, sleeps: list[float]
) -> None:
    reset = ProviderConnectionError("gemini", "Gemini connection failed", 502)
    transport = ScriptedTransport(reset, reset, reset, reset, (200, SSE_OK))
    response = await GeminiProvider().search(SearchParams(query="q"), scripted(tmp_path, transport))
    assert [r.url.split("/v1")[0] for r in transport.sent] == [CODE_ASSIST_ENDPOINTS[0]] + [
        CODE_ASSIST_ENDPOINTS[1]
    ] * 4
    assert response.answer == "Answer."
    assert sleeps == [1.0, 2.0, 4.0]  # the move is at once; resends back off
    transport = ScriptedTransport(*[reset] * 5)
    with pytest.raises(ProviderConnectionError):
        await GeminiProvider().search(SearchParams(query="q"), scripted(tmp_path, transport))
    assert len(transport.sent) == 5
    timeout = ProviderTimeoutError("gemini", "Gemini search timed out after 1s", 504)
    transport = ScriptedTransport(timeout)
    with pytest.raises(ProviderTimeoutError):
        await GeminiProvider().search(SearchParams(query="q"), scripted(tmp_path, transport))
    assert len(transport.sent) == 1  # a timeout has used the time: no other endpoint


async def test_a_refresh_during_the_stream_step_resends_that_step(tmp_path: Path) -> None:
    async def refresh(provider: str, token: OAuthToken) -> OAuthToken:
        return OAuthToken(access_token="new")

    unauthenticated = google_error(401, "Invalid authentication credentials", "UNAUTHENTICATED")
    transport = ScriptedTransport((200, LOAD_OK), (401, unauthenticated.encode()), (200, SSE_OK))
    ctx = scripted(tmp_path, transport, environ={}, refresh=refresh)
    await GeminiProvider().search(SearchParams(query="q"), ctx)
    load, refused, resent = transport.sent
    assert load.url.endswith("/v1internal:loadCodeAssist")
    assert (
        refused.url == resent.url == f"{CODE_ASSIST_ENDPOINTS[0]}/v1internal:streamGenerateContent"
    )
    assert [r.headers["Authorization"] for r in transport.sent] == [
        "Bearer old",
        "Bearer old",
        "Bearer new",
    ]
    assert resent.json["project"] == "proj-1"


async def test_a_load_without_a_project_names_the_fix(tmp_path: Path) -> None:
    transport = ScriptedTransport((200, b'{"currentTier": {}}'))
    with pytest.raises(ProviderNotConfiguredError) as caught:
        await GeminiProvider().search(
            SearchParams(query="q"), scripted(tmp_path, transport, environ={})
        )
    assert caught.value.message.startswith("Gemini OAuth: no Cloud Code Assist project")


async def test_the_final_error_carries_the_bodys_wait_hint(
    tmp_path: Path, sleeps: list[float]
) -> None:
    quota = google_error(
        429,
        "You exceeded your current quota.",
        "RESOURCE_EXHAUSTED",
        details=[{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "400s"}],
    )
    transport = ScriptedTransport((429, quota.encode()))
    ctx = dataclasses.replace(
        scripted(tmp_path, transport), credentials=Credentials(explicit={"gemini": "k"})
    )
    with pytest.raises(QuotaExhaustedError) as caught:
        await GeminiProvider().search(SearchParams(query="q"), ctx)
    assert caught.value.message == "gemini: credits exhausted"  # the shared classifier's
    assert caught.value.reset_at is not None
    assert 390 < (caught.value.reset_at - datetime.now(UTC)).total_seconds() <= 400
    assert sleeps == [] and len(transport.sent) == 1  # over five minutes: not waited out


async def test_a_wait_hint_of_exactly_five_minutes_is_waited_out(
    tmp_path: Path, sleeps: list[float]
) -> None:
    """Guard (spec, Limits & Caps): Gemini's rate-limit delay budget, ``5 * 60 * 1000`` ms.

    The test above holds a hint over the budget; this one its edge, a hint of the whole
    budget, which is waited and the step sent again. It failed with the budget one second
    short (``max_delay=299.0``), which every other test let through. The wait is booked
    (the ``sleeps`` fixture), not slept.
    """
    hint = [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "300s"}]
    busy = google_error(429, "Slow down.", "RESOURCE_EXHAUSTED", details=hint)
    transport = ScriptedTransport((429, busy.encode()), (200, SSE_OK))
    ctx = dataclasses.replace(
        scripted(tmp_path, transport), credentials=Credentials(explicit={"gemini": "k"})
    )
    response = await GeminiProvider().search(SearchParams(query="q"), ctx)
    assert sleeps == [300.0] and len(transport.sent) == 2
    assert response.answer == "Answer."


def test_the_catalogue_offers_served_ids_and_prefers_the_web_search_model() -> None:
    catalog = parse_catalog(
        {
            "models": {
                " gemini-3.5-flash-low ": {"displayName": "Gemini 3.5 Flash (Low)"},
                "gemini-3.5-flash-high": {},
                "gemini-3.1-pro-high": {},
                "chat_internal": {"isInternal": True},
                "": {},
            },
            "webSearchModelIds": ["gone-model", "gemini-3.1-pro-high", "gemini-3.5-flash-low"],
            "defaultAgentModelId": "gemini-3.5-flash-high",
            "deprecatedModelIds": {"gemini-3.1-pro-high": {"newModelId": "gemini-pro-agent"}},
        }
    )
    assert catalog is not None
    # A retired id still listed in `models` is refused upstream; internal ids are not choices.
    assert catalog.offered == ("gemini-3.5-flash-low", "gemini-3.5-flash-high")
    assert catalog.candidates == ("gemini-3.5-flash-low", "gemini-3.5-flash-high")
    assert catalog.pick == "gemini-3.5-flash-low"
    assert catalog.serves("gemini-3.5-flash-high") and not catalog.serves("gemini-3.1-pro-high")


def test_without_a_web_search_model_the_default_agent_model_is_picked() -> None:
    fallback = parse_catalog({"models": {"a": {}, "b": {}}, "defaultAgentModelId": "b"})
    assert fallback is not None and fallback.pick == "b"
    nothing = parse_catalog({"models": {"a": {}}, "webSearchModelIds": ["z"]})
    assert nothing is not None and nothing.pick is None


@pytest.mark.parametrize("reply", [None, [], {"models": ["a"]}, {"webSearchModelIds": ["a"]}])
def test_a_reply_without_a_models_map_is_no_catalogue(reply: Any) -> None:
    assert parse_catalog(reply) is None


def test_a_gemini_cli_quota_reply_offers_its_buckets_and_picks_a_stable_flash() -> None:
    reply = {
        "buckets": [
            {"modelId": "gemini-2.5-pro", "tokenType": "REQUESTS", "remainingFraction": 1},
            {"modelId": "gemini-2.5-flash-lite", "tokenType": "REQUESTS"},
            {"modelId": "gemini-3-flash-preview", "tokenType": "REQUESTS"},
            {"modelId": "gemini-2.5-flash", "tokenType": "INPUT_TOKENS"},
            {"modelId": "gemini-2.5-flash", "tokenType": "REQUESTS"},
            {"tokenType": "REQUESTS"},
            "not a bucket",
        ]
    }
    catalog = parse_quota(reply)
    assert catalog is not None
    assert catalog.offered == (
        "gemini-2.5-pro",
        "gemini-2.5-flash-lite",
        "gemini-3-flash-preview",
        "gemini-2.5-flash",
    )
    # The Gemini CLI's own stable Flash first; a preview is never a replacement.
    assert catalog.candidates == ("gemini-2.5-flash", "gemini-2.5-flash-lite")
    # A stable Flash the preferred list does not know is still one, ahead of a Flash-Lite.
    other = parse_quota({"buckets": [{"modelId": "gemini-4-flash-lite"}, {"modelId": "x-flash"}]})
    assert other is not None and other.candidates == ("x-flash", "gemini-4-flash-lite")
    pro_only = parse_quota({"buckets": [{"modelId": "gemini-2.5-pro"}]})
    assert pro_only is not None and pro_only.pick is None


@pytest.mark.parametrize("reply", [None, [], {"buckets": {}}, {"models": {"a": {}}}])
def test_a_reply_without_buckets_is_no_gemini_cli_list(reply: Any) -> None:
    assert parse_quota(reply) is None


@pytest.mark.parametrize(
    ("status", "message", "refused"),
    [
        (404, "Requested entity was not found.", True),
        (404, "anything at all", True),
        (400, "You don't have access to this model or the model name is invalid", True),
        (400, "* GenerateContentRequest.model: unexpected model name format\n", True),
        (
            400,
            "models/gemini-pro is not found for API version v1beta, or is not supported for"
            " generateContent. Call ListModels to see the list of available models.",
            True,
        ),
        (400, "This model models/gemini-2.0-flash is no longer available to new users.", True),
        (400, "Request contains an invalid argument.", False),
        (400, 'Invalid JSON payload received. Unknown name "x": Cannot find field.', False),
        (400, "API key not valid. Please pass a valid API key.", False),
        (403, "You don't have access to this model or the model name is invalid", False),
    ],
)
def test_which_refusals_name_the_model(status: int, message: str, refused: bool) -> None:
    assert refuses_model(status, google_error(status, message, "X")) is refused
