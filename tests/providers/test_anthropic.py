"""Anthropic: request building, capture parsing, the stream fold and pause_turn, no server."""

import json
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import read_capture
from websearch_core.credentials import Credentials, CredentialStore, OAuthToken
from websearch_core.errors import (
    AuthorizationError,
    ConfigurationError,
    ProviderNotConfiguredError,
    ProviderUnavailableError,
    QuotaExhaustedError,
    RateLimitedError,
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.format import format_provider_failure
from websearch_core.models import SearchParams, SearchUsage
from websearch_core.providers import get_provider
from websearch_core.providers._anthropic_request import FILTERS
from websearch_core.providers.anthropic import (
    DEFAULT_MAX_TOKENS,
    DEFAULT_MODEL,
    INFO,
    MAX_CONTINUATIONS,
    MISSING_CREDENTIALS_MESSAGE,
    AnthropicAuth,
    AnthropicProvider,
    base_url,
    message_from_stream,
    messages_url,
    page_age_seconds,
    parse_messages,
    request_body,
    request_headers,
    temperature_allowed,
)
from websearch_core.providers.base import ProviderContext
from websearch_core.settings import Settings
from websearch_core.sse import SseEvent, parse_sse
from websearch_core.testing import RecordedRequest, SimResult
from websearch_core.testing.protocols.anthropic import AnthropicProtocol, message_events
from websearch_core.transport import HttpRequest, HttpResponse

CAPTURE_1 = "anthropic/messages_web_search_tool_call1.json"
CAPTURE_2 = "anthropic/messages_web_search_tool_call2.json"
CAPTURE_STREAM = "anthropic/messages_web_search_tool_stream.sse"
CAPTURE_PAUSE = "anthropic/messages_web_search_pause_turn_call1.json"
NOW = datetime(2025, 9, 16, tzinfo=UTC)


def capture(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(read_capture(name))
    return data


def context(
    keys: dict[str, str] | None = None,
    environ: dict[str, str] | None = None,
    store: CredentialStore | None = None,
    transport: Any = None,
    refreshers: Any = None,
) -> ProviderContext:
    return ProviderContext(
        transport=transport,
        settings=Settings(),
        credentials=Credentials(
            explicit=keys or {}, environ=environ or {}, store=store, refreshers=refreshers
        ),
        system_prompt="Answer from the web.",
    )


# --- facts ------------------------------------------------------------------------------------


def test_registry_returns_the_anthropic_provider_with_its_facts() -> None:
    assert isinstance(get_provider("anthropic"), AnthropicProvider)
    assert (INFO.id, INFO.label, INFO.kind) == ("anthropic", "Anthropic", "answer")
    assert INFO.env_vars == ("ANTHROPIC_SEARCH_API_KEY", "ANTHROPIC_API_KEY")
    assert INFO.docs_url.startswith("https://docs.anthropic.com/")
    assert INFO.honours == {
        "query",
        "limit",
        "num_search_results",
        "max_tokens",
        "temperature",
        "include_domains",
        "exclude_domains",
        "country",
    }
    assert (DEFAULT_MODEL, DEFAULT_MAX_TOKENS) == ("claude-haiku-4-5", 4096)


# --- request ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, "https://api.anthropic.com"),
        (
            {"ANTHROPIC_BASE_URL": "https://gw.example/anthropic/v1/"},
            "https://gw.example/anthropic",
        ),
        (
            {
                "ANTHROPIC_SEARCH_BASE_URL": "https://search.example//",
                "ANTHROPIC_BASE_URL": "https://chat.example",
            },
            "https://search.example",
        ),
        (
            {"ANTHROPIC_SEARCH_BASE_URL": "  ", "ANTHROPIC_BASE_URL": "https://c.example/v1"},
            "https://c.example",
        ),
    ],
)
def test_base_url_prefers_the_search_only_variable(environ: dict[str, str], expected: str) -> None:
    assert base_url(environ) == expected
    assert messages_url(expected) == f"{expected}/v1/messages"


def test_default_body() -> None:
    body = request_body(SearchParams(query="rust 2024 edition"), system_prompt="Be exact.")
    assert body == {
        "model": "claude-haiku-4-5",
        "max_tokens": 4096,
        "messages": [{"role": "user", "content": "rust 2024 edition"}],
        "tools": [{"type": "web_search_20250305", "name": "web_search"}],
        "system": [{"type": "text", "text": "Be exact."}],
    }


def test_max_tokens_temperature_and_domains_pass_through() -> None:
    params = SearchParams(
        query="x",
        max_tokens=900,
        temperature=0.3,
        include_domains=("www.python.org",),
        exclude_domains=("w3schools.com",),
        recency="week",
        limit=4,
    )
    body = request_body(params, model="claude-sonnet-4-5")
    assert body["max_tokens"] == 900
    assert body["temperature"] == 0.3
    # The API refuses allowed_domains and blocked_domains together: the allow list wins.
    assert body["tools"] == [
        {"type": "web_search_20250305", "name": "web_search", "allowed_domains": ["python.org"]}
    ]
    assert "system" not in body  # no system prompt given
    assert set(body) == {"model", "max_tokens", "messages", "tools", "temperature"}
    blocked = request_body(SearchParams(query="x", exclude_domains=("a.example",)))
    assert blocked["tools"][0]["blocked_domains"] == ["a.example"]


def test_country_goes_as_the_tools_user_location_in_upper_case() -> None:
    # anthropics/anthropic-sdk-python src/anthropic/types/web_search_tool_20250305_param.py:
    # user_location {type: Required["approximate"], city, country (two-letter ISO code),
    # region, timezone}; the web search tool page's example writes "US".
    params = SearchParams(query="x", country="de", include_domains=("python.org",))
    assert request_body(params)["tools"] == [
        {
            "type": "web_search_20250305",
            "name": "web_search",
            "allowed_domains": ["python.org"],
            "user_location": {"type": "approximate", "country": "DE"},
        }
    ]
    assert FILTERS.native >= {"country"}


def test_language_has_no_tool_field_and_is_not_sent() -> None:
    # Guard (passes before and after the country change): the tool has no language field.
    body = request_body(SearchParams(query="x", language="de"))
    assert body["tools"] == [{"type": "web_search_20250305", "name": "web_search"}]
    assert "language" not in FILTERS.native


@pytest.mark.parametrize(
    ("model", "allowed"),
    [
        ("claude-haiku-4-5", True),
        ("claude-sonnet-4-5-20250929", True),
        ("claude-opus-4-1", True),
        ("claude-opus-4-7", False),
        ("claude-opus-5-0", False),
        ("claude-sonnet-5", False),
        ("claude-fable-5", False),
        ("claude-mythos-5-1", False),
        ("claude-mythos-4", True),
    ],
)
def test_temperature_is_dropped_for_models_that_refuse_it(model: str, allowed: bool) -> None:
    assert temperature_allowed(model) is allowed
    body = request_body(SearchParams(query="x", temperature=0.0), model=model)
    assert ("temperature" in body) is allowed


def test_continuation_sends_the_paused_content_back() -> None:
    paused = [{"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}}]
    body = request_body(SearchParams(query="q"), assistant_content=paused)
    assert body["messages"] == [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": paused},
    ]


def test_headers_for_an_api_key_a_gateway_and_oauth() -> None:
    key = AnthropicAuth(token="sk-ant-api03-key", kind="api_key")
    official = request_headers(key, "https://api.anthropic.com")
    assert official == {
        "Accept": "application/json",
        "Content-Type": "application/json",
        "anthropic-version": "2023-06-01",
        "anthropic-beta": "web-search-2025-03-05",
        "x-api-key": "sk-ant-api03-key",
    }
    gateway = request_headers(key, "https://llm-gateway.example")
    assert gateway["Authorization"] == "Bearer sk-ant-api03-key"
    assert "x-api-key" not in gateway
    oauth = request_headers(
        AnthropicAuth(token="sk-ant-oat01-t", kind="oauth"), "https://api.anthropic.com"
    )
    assert oauth["Authorization"] == "Bearer sk-ant-oat01-t"
    assert oauth["anthropic-beta"] == "oauth-2025-04-20,web-search-2025-03-05"
    assert "x-api-key" not in oauth
    assert "sk-ant" not in repr(key)


# --- credentials ------------------------------------------------------------------------------


async def test_search_key_ranks_above_the_general_key() -> None:
    provider = AnthropicProvider()
    both = context(environ={"ANTHROPIC_SEARCH_API_KEY": "search", "ANTHROPIC_API_KEY": "general"})
    assert (await provider.resolve_auth(both)) == AnthropicAuth(token="search", kind="api_key")
    general = context(environ={"ANTHROPIC_API_KEY": "general"})
    assert (await provider.resolve_auth(general)).token == "general"
    assert provider.is_available(general)


async def test_a_claude_oauth_key_is_sent_as_bearer() -> None:
    auth = await AnthropicProvider().resolve_auth(context(keys={"anthropic": "sk-ant-oat01-abc"}))
    assert auth.kind == "oauth" and not auth.stored_oauth


async def test_stored_oauth_token_is_used_without_a_key(tmp_path: Path) -> None:
    store = CredentialStore(tmp_path / "c.json")
    store.set_oauth(
        "anthropic", OAuthToken(access_token="oauth-tok", expires_at=time.time() + 3600)
    )
    ctx = context(store=store)
    provider = AnthropicProvider()
    assert provider.is_available(ctx)
    assert (await provider.resolve_auth(ctx)) == AnthropicAuth(
        token="oauth-tok", kind="oauth", stored_oauth=True
    )


async def test_no_credentials_gives_the_reference_message(tmp_path: Path) -> None:
    ctx = context(store=CredentialStore(tmp_path / "none.json"))
    assert not AnthropicProvider().is_available(ctx)
    with pytest.raises(ProviderNotConfiguredError) as caught:
        await AnthropicProvider().resolve_auth(ctx)
    assert (
        caught.value.message
        == MISSING_CREDENTIALS_MESSAGE
        == (
            "No Anthropic credentials found. Set ANTHROPIC_SEARCH_API_KEY or ANTHROPIC_API_KEY, "
            "or configure Anthropic OAuth."
        )
    )


# --- ages -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("6 days ago", 6 * 86400),
        ("1 week ago", 7 * 86400),
        ("29 minutes ago", 29 * 60),
        ("3 hours ago", 3 * 3600),
        ("1 month ago", 30 * 86400),
        ("2 years ago", 2 * 365 * 86400),
        ("5mo", 5 * 30 * 86400),
        ("45 s ago", 45),
        ("August 12, 2025", 35 * 86400),
        ("2025-09-15", 86400),
        ("a while ago", None),
        ("", None),
        (None, None),
    ],
)
def test_page_age(text: str | None, seconds: int | None) -> None:
    assert page_age_seconds(text, now=NOW) == seconds


# --- the real captures ------------------------------------------------------------------------


@pytest.mark.conformance
def test_capture_call1_answer_sources_citations_and_usage() -> None:
    response = parse_messages([capture(CAPTURE_1)], now=NOW)
    assert response.provider == "anthropic"
    assert response.model == "claude-sonnet-4-20250514"
    assert response.request_id == "msg_0119wM5YxCLg3hwUWrxEQ9Y8"
    assert response.search_queries == ("San Francisco weather today",)
    assert response.usage == SearchUsage(input_tokens=8984, output_tokens=520, search_requests=1)
    assert response.answer is not None
    # Blocks cut around citations are joined as they are: the list stays a list.
    assert response.answer.startswith(
        "Based on the search results, here's the weather information for San Francisco today "
        "(September 16, 2025):\n\n**Current Conditions:**\n- Temperature: 66°F with clear skies\n"
        "- Wind: W at 3 mph with gusts up to 5 mph\n"
    )
    assert "\n**Tonight:**\n- Low: 57°F with clear to partly cloudy conditions\n" in response.answer
    assert response.answer.endswith("so sensitive individuals should limit outdoor activities.")
    assert len(response.sources) == 10
    first, second, third = response.sources[:3]
    assert (first.title, first.url, first.published_date, first.age_seconds, first.snippet) == (
        "San Francisco, CA Weather Forecast | AccuWeather",
        "https://www.accuweather.com/en/us/san-francisco/94103/weather-forecast/347629",
        "6 days ago",
        6 * 86400,
        None,
    )
    assert second.url == "https://weather.com/weather/tenday/l/San+Francisco+CA+USCA0987:1:US"
    assert (third.published_date, third.age_seconds) == (None, None)
    assert response.sources[4].title == "National Weather Service"
    assert response.sources[4].age_seconds == 7 * 86400
    # Eight citations in the text, one exact repeat ("Winds W at 10 to 20 mph.") dropped.
    assert len(response.citations) == 7
    assert response.citations[1].cited_text == (
        "The air has reached a high level of pollution and is unhealthy for sensitive groups."
    )
    assert response.citations[5].url == "https://www.wunderground.com/hourly/us/ca/san-francisco"
    assert response.citations[5].title == (
        "San Francisco, CA Hourly Weather Forecast | Weather Underground"
    )
    assert response.citations[5].cited_text == (
        "Some clouds in the morning will give way to mainly sunny skies for the afternoon."
    )


@pytest.mark.conformance
def test_capture_call2_dates_and_limit() -> None:
    data = capture(CAPTURE_2)
    response = parse_messages([data], SearchParams(query="x", limit=7), now=NOW)
    assert response.search_queries == ("Mexico City weather today",)
    assert response.usage == SearchUsage(input_tokens=19859, output_tokens=544, search_requests=1)
    assert len(response.sources) == 7
    cuauhtemoc = response.sources[2]
    assert cuauhtemoc.title == (
        "Weather Forecast and Conditions for Cuauhtémoc, Mexico - The Weather Channel | Weather.com"
    )
    assert cuauhtemoc.url == (
        "https://weather.com/weather/today/l/Cuauht%C3%A9moc+Mexico?"
        "canonicalCityId=7164197a006f4e553a538a0b73c06757"
    )
    assert (cuauhtemoc.published_date, cuauhtemoc.age_seconds) == ("August 12, 2025", 35 * 86400)
    assert response.sources[6].published_date == "June 19, 2025"
    assert response.sources[0].age_seconds == 30 * 86400  # "1 month ago"


@pytest.mark.conformance
def test_capture_call2_num_search_results_before_limit() -> None:
    """Guard of spec Modes (Anthropic): ``num_results = params.numSearchResults ?? params.limit``.

    The capture's sources cut to ``num_search_results`` (5), not ``limit`` (2). It passes
    on main; with the parser counting ``limit`` alone it kept 2 (stop 48).
    """
    asked = SearchParams(query="x", limit=2, num_search_results=5)
    response = parse_messages([capture(CAPTURE_2)], asked, now=NOW)
    assert len(response.sources) == 5
    assert response.answer is not None
    assert (
        "- High 73F with partly cloudy conditions early followed by scattered thunderstorms."
        in (response.answer)
    )
    # Nine citation entries, three exact repeats of the AccuWeather header dropped.
    assert len(response.citations) == 6
    assert [c.url for c in response.citations][2:5] == [
        "https://weather.com/weather/tenday/l/"
        "6121681b2c5df01145b9723d497c595c53ae08104787aa1c26bafdf2fb875c07",
        "https://www.wunderground.com/weather/mx/mexico-city",
        "https://www.wunderground.com/weather/mx/mexico-city",
    ]
    assert response.citations[2].cited_text == (
        "High 73F. Winds NNE at 10 to 15 mph. Chance of rain 70%."
    )
    assert (
        response.citations[4].title
        == "Mexico City, Mexico Weather Conditions | Weather Underground"
    )


@pytest.mark.conformance
def test_capture_stream_folds_into_the_same_message() -> None:
    events = parse_sse(read_capture(CAPTURE_STREAM))
    message = message_from_stream(events)
    assert message["id"] == "msg_019ifek4sTha46JcCb2z2yPp"
    assert message["stop_reason"] == "end_turn"
    kinds = [block["type"] for block in message["content"]]
    assert kinds[:4] == ["server_tool_use", "web_search_tool_result", "text", "server_tool_use"]
    assert message["content"][0]["input"] == {"query": "top world news today"}
    response = parse_messages([message], now=NOW)
    assert response.search_queries == (
        "top world news today",
        "breaking news headlines August 14 2025",
    )
    assert response.usage == SearchUsage(input_tokens=31772, output_tokens=644, search_requests=2)
    assert response.model == "claude-sonnet-4-20250514"
    assert response.answer is not None
    assert response.answer.startswith(
        "Let me search for more specific breaking news stories to get clearer headlines.\n\n"
        "Based on the search results, I can identify the top 3 major news stories"
    )
    assert "**3. Air Canada Flight Disruption**\nAir Canada plans to lock out" in response.answer
    assert len(response.sources) == 19  # 20 results, one URL seen twice
    assert [(s.title, s.url, s.published_date) for s in response.sources[:2]] == [
        (
            "World news - breaking news, video, headlines and opinion | CNN",
            "https://www.cnn.com/world",
            "4 hours ago",
        ),
        (
            "Breaking News, World News and Video from Al Jazeera",
            "https://www.aljazeera.com/",
            "1 hour ago",
        ),
    ]
    assert response.sources[0].age_seconds == 4 * 3600
    assert len(response.citations) == 8
    assert response.citations[1].url == "https://abcnews.go.com/"
    assert response.citations[1].cited_text is None  # the stream sent cited_text ""
    assert response.citations[-1].title == (
        "International News | Latest World News, Videos & Photos -ABC News - ABC News"
    )
    assert response.citations[-1].cited_text is not None
    assert response.citations[-1].cited_text.startswith(
        "... Air Canada says it will begin cancelling"
    )


@pytest.mark.conformance
def test_capture_pause_turn_parses_and_continues() -> None:
    paused = capture(CAPTURE_PAUSE)
    assert paused["stop_reason"] == "pause_turn"
    alone = parse_messages([paused], now=NOW)
    assert len(alone.search_queries) == 11
    assert alone.search_queries[-1] == "latest news air quality San Francisco"
    assert alone.usage == SearchUsage(input_tokens=401468, output_tokens=792, search_requests=10)
    assert alone.answer is not None
    assert alone.answer.startswith(
        "I'll run these searches for you one at a time. Let me begin:\n\n"
        "Now continuing with the remaining searches:"
    )
    assert alone.sources[0].url == (
        "https://www.accuweather.com/en/us/san-francisco/94103/weather-forecast/347629"
    )
    assert alone.sources[0].published_date == "5 days ago"
    # The continuation supplies the pending search's results and the rest of the answer.
    pending = paused["content"][-1]
    continuation = {
        "id": "msg_continued",
        "model": paused["model"],
        "stop_reason": "end_turn",
        "content": [
            {
                "type": "web_search_tool_result",
                "tool_use_id": pending["id"],
                "content": [
                    {
                        "type": "web_search_result",
                        "title": "AirNow",
                        "url": "https://www.airnow.gov/aqi/",
                        "page_age": "2 days ago",
                    }
                ],
            },
            {"type": "text", "text": "All done."},
        ],
        "usage": {
            "input_tokens": 1000,
            "output_tokens": 50,
            "server_tool_use": {"web_search_requests": 1},
        },
    }
    joined = parse_messages([paused, continuation], request_id="req_1", now=NOW)
    assert joined.request_id == "req_1"
    assert joined.answer is not None and joined.answer.endswith("\n\nAll done.")
    assert joined.sources[-1].url == "https://www.airnow.gov/aqi/"
    assert len(joined.sources) == len(alone.sources) + 1
    assert joined.usage == SearchUsage(input_tokens=402468, output_tokens=842, search_requests=11)
    assert parse_messages([paused, continuation]).request_id == "msg_continued"


# --- parsing rules ----------------------------------------------------------------------------


def test_error_results_and_other_blocks_are_skipped() -> None:
    message = {
        "id": "m",
        "content": [
            {"type": "thinking", "thinking": "hmm", "signature": "s"},
            {"type": "server_tool_use", "name": "web_search", "input": {"query": "  q  "}},
            {
                "type": "web_search_tool_result",
                "content": {
                    "type": "web_search_tool_result_error",
                    "error_code": "max_uses_exceeded",
                },
            },
            {"type": "server_tool_use", "name": "web_fetch", "input": {"url": "https://a.example"}},
            {
                "type": "web_search_tool_result",
                "content": [{"type": "web_search_result", "url": "ftp://x"}, "junk"],
            },
            {
                "type": "text",
                "text": "Only text.",
                "citations": [{"type": "char_location", "url": "https://x.example"}],
            },
        ],
    }
    response = parse_messages([message])
    assert response.search_queries == ("q",)
    assert response.sources == ()
    assert response.citations == ()
    assert response.answer == "Only text."
    assert response.usage is None


@pytest.mark.parametrize("citations", [7, True, 1.5, {"url": "https://a.example/"}, "cite"])
def test_citations_that_are_not_a_list_are_ignored(citations: Any) -> None:
    # A number here used to raise TypeError, which ended the search instead of failing over.
    message = {"id": "m", "content": [{"type": "text", "text": "Hi.", "citations": citations}]}
    response = parse_messages([message])
    assert response.answer == "Hi."
    assert response.citations == ()


@pytest.mark.parametrize("bad", [[], "x", {"content": "text"}, {"content": None}])
def test_wrong_shape_is_a_parse_error(bad: Any) -> None:
    with pytest.raises(ResponseParseError) as caught:
        parse_messages([bad])
    assert caught.value.message.startswith("Anthropic API returned an unexpected response shape")


def test_stream_and_json_of_the_simulated_answer_parse_alike() -> None:
    results = [
        SimResult(
            title=f"T{i}",
            url=f"https://s{i}.example.org/p",
            snippet=f"Fact {i}.",
            published="2025-09-01T00:00:00Z",
        )
        for i in range(1, 5)
    ]
    body = {
        "model": "claude-haiku-4-5",
        "max_tokens": 10,
        "messages": [{"role": "user", "content": "q"}],
        "tools": [{"type": "web_search_20250305", "name": "web_search"}],
    }
    request = RecordedRequest(
        method="POST",
        path="/v1/messages",
        query=(),
        headers={"x-api-key": "k", "anthropic-version": "2023-06-01"},
        body=json.dumps(body).encode(),
    )
    reply = AnthropicProtocol().answer(request, results)
    assert reply.text is not None
    message = json.loads(reply.text)
    streamed = message_from_stream(
        SseEvent(data=json.dumps(event), event=event["type"]) for event in message_events(message)
    )
    assert parse_messages([streamed], now=NOW) == parse_messages([message], now=NOW)
    assert parse_messages([message], now=NOW).answer == (
        "Here is what the search found about q:\n\n- Fact 1.\n- Fact 2.\n- Fact 3."
    )


@pytest.mark.parametrize(
    ("kind", "error_type", "status"),
    [
        ("overloaded_error", ProviderUnavailableError, 529),
        ("rate_limit_error", RateLimitedError, 429),
        ("authentication_error", AuthorizationError, 401),
        ("billing_error", QuotaExhaustedError, 402),
        ("invalid_request_error", SearchProviderError, 400),
    ],
)
def test_stream_error_events_are_classified(kind: str, error_type: type, status: int) -> None:
    events = [
        SseEvent(
            data=json.dumps({"type": "message_start", "message": {"id": "m"}}),
            event="message_start",
        ),
        SseEvent(
            data=json.dumps({"type": "error", "error": {"type": kind, "message": "Nope"}}),
            event="error",
        ),
    ]
    with pytest.raises(SearchProviderError) as caught:
        message_from_stream(events)
    assert type(caught.value) is error_type
    assert caught.value.status == status


def test_a_400_saying_the_credit_balance_is_too_low_is_spent_credits() -> None:
    # Anthropic's answer to an account without credits, as quoted from live answers in
    # anthropics/claude-code issues #4208 and #66314 (request id shortened).
    body = (
        b'{"type":"error","error":{"type":"invalid_request_error","message":"Your credit '
        b"balance is too low to access the Anthropic API. Please go to Plans & Billing to "
        b'upgrade or purchase credits."},"request_id":"req_011Cb"}'
    )
    with pytest.raises(QuotaExhaustedError) as caught:
        AnthropicProvider().check_response(HttpResponse(status=400, body=body))
    assert caught.value.status == 400
    assert caught.value.message == f"Anthropic API error (400): {body.decode()}"


def test_another_invalid_request_stays_a_plain_provider_error() -> None:
    # Guard (passes before and after): only the low-balance message reads as spent credits.
    body = b'{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: 0"}}'
    with pytest.raises(SearchProviderError) as caught:
        AnthropicProvider().check_response(HttpResponse(status=400, body=body))
    assert type(caught.value) is SearchProviderError


def test_streamed_tool_input_with_a_lone_surrogate_is_read_not_a_type_error() -> None:
    # A "\\ud800" escape leaves a lone surrogate in the joined partial_json; decoding it
    # raised TypeError, which ended the search instead of failing over.
    block = {"type": "server_tool_use", "name": "web_search", "input": {}}
    delta = {"type": "input_json_delta", "partial_json": '{"query": "q\ud800"}'}
    events = [
        {"type": "message_start", "message": {"id": "m", "content": []}},
        {"type": "content_block_start", "index": 0, "content_block": block},
        {"type": "content_block_delta", "index": 0, "delta": delta},
        {"type": "content_block_stop", "index": 0},
    ]
    message = message_from_stream([SseEvent(data=json.dumps(event)) for event in events])
    assert message["content"][0]["input"] == {"query": "q\ud800"}


@pytest.mark.parametrize("start", [7, True, None, {"a": 1}, "x"])
def test_deltas_onto_a_start_block_of_the_wrong_types_fold_not_crash(start: Any) -> None:
    # A start block whose text/citations/thinking held a number, null or an object made the
    # fold raise TypeError or AttributeError instead of reading the stream.
    block = {"type": "text", "text": start, "citations": start, "thinking": start}
    deltas = [
        {"type": "text_delta", "text": "Hi."},
        {"type": "citations_delta", "citation": {"type": "x"}},
        {"type": "thinking_delta", "thinking": "t"},
    ]
    events = [
        {"type": "message_start", "message": {"id": "m", "content": []}},
        {"type": "content_block_start", "index": 0, "content_block": block},
        *({"type": "content_block_delta", "index": 0, "delta": delta} for delta in deltas),
        {"type": "content_block_stop", "index": 0},
    ]
    message = message_from_stream([SseEvent(data=json.dumps(event)) for event in events])
    folded = message["content"][0]
    so_far = start if isinstance(start, str) else ""  # a string start is text to extend
    assert (folded["text"], folded["citations"], folded["thinking"]) == (
        f"{so_far}Hi.",
        [{"type": "x"}],
        f"{so_far}t",
    )


def test_stream_without_message_start_or_with_bad_json_is_a_parse_error() -> None:
    with pytest.raises(ResponseParseError, match="no message_start"):
        message_from_stream([SseEvent(data='{"type": "ping"}')])
    with pytest.raises(ResponseParseError, match="invalid JSON"):
        message_from_stream([SseEvent(data="{oops")])
    bad_input = [
        SseEvent(data=json.dumps({"type": "message_start", "message": {"id": "m"}})),
        SseEvent(
            data=json.dumps(
                {
                    "type": "content_block_start",
                    "index": 0,
                    "content_block": {"type": "server_tool_use", "input": {}},
                }
            )
        ),
        SseEvent(
            data=json.dumps(
                {
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {"type": "input_json_delta", "partial_json": '{"q'},
                }
            )
        ),
        SseEvent(data=json.dumps({"type": "content_block_stop", "index": 0})),
    ]
    with pytest.raises(ResponseParseError, match="invalid tool input"):
        message_from_stream(bad_input)


# --- errors -----------------------------------------------------------------------------------


def test_404_keeps_its_status_for_the_spec_message() -> None:
    body = b'{"type":"error","error":{"type":"not_found_error","message":"model: claude-x"}}'
    with pytest.raises(SearchProviderError) as caught:
        AnthropicProvider().check_response(HttpResponse(status=404, body=body))
    assert caught.value.status == 404
    assert caught.value.message == f"Anthropic API error (404): {body.decode()}"
    assert format_provider_failure(caught.value, "Anthropic") == (
        "Anthropic web search returned 404 (model or endpoint not found)."
    )


def test_statuses_go_through_the_shared_classifier() -> None:
    provider = AnthropicProvider()
    with pytest.raises(AuthorizationError) as unauthorized:
        provider.check_response(HttpResponse(status=401, body=b"{}"))
    assert unauthorized.value.message == "anthropic: 401 unauthorized"
    with pytest.raises(RateLimitedError) as limited:
        provider.check_response(
            HttpResponse(status=429, body=b"slow down", headers={"retry-after": "3"})
        )
    assert limited.value.retry_after == 3.0
    with pytest.raises(ProviderUnavailableError) as overloaded:
        provider.check_response(HttpResponse(status=529, body=b"Overloaded"))
    assert overloaded.value.message == "Anthropic API error (529): Overloaded"
    provider.check_response(HttpResponse(status=200, body=b"{}"))


# --- search with a scripted transport ----------------------------------------------------------


class ScriptedTransport:
    def __init__(self, *responses: HttpResponse) -> None:
        self.responses = list(responses)
        self.sent: list[HttpRequest] = []

    async def send(self, provider: str, label: str, request: HttpRequest) -> HttpResponse:
        assert (provider, label) == ("anthropic", "Anthropic")
        self.sent.append(request)
        return self.responses.pop(0)


def ok(message: dict[str, Any], request_id: str = "req_x") -> HttpResponse:
    return HttpResponse(
        status=200, body=json.dumps(message).encode(), headers={"request-id": request_id}
    )


def paused(n: int) -> dict[str, Any]:
    return {
        "id": f"msg_{n}",
        "model": "claude-haiku-4-5",
        "stop_reason": "pause_turn",
        "content": [
            {"type": "text", "text": f"Part {n}."},
            {
                "type": "server_tool_use",
                "id": f"srv_{n}",
                "name": "web_search",
                "input": {"query": f"q{n}"},
            },
        ],
        "usage": {
            "input_tokens": 10,
            "output_tokens": 1,
            "server_tool_use": {"web_search_requests": 1},
        },
    }


async def test_search_resumes_a_paused_turn_and_joins_it() -> None:
    final = {
        "id": "msg_f",
        "model": "claude-haiku-4-5",
        "stop_reason": "end_turn",
        "content": [{"type": "text", "text": "Done."}],
    }
    transport = ScriptedTransport(ok(paused(1), "req_1"), ok(final, "req_2"))
    ctx = context(keys={"anthropic": "sk-ant-api03-k"}, transport=transport)
    response = await AnthropicProvider().search(SearchParams(query="q"), ctx)
    assert response.answer == "Part 1.\n\nDone."
    assert response.search_queries == ("q1",)
    assert response.request_id == "req_2"
    assert response.auth_mode == "api_key"
    first, second = (request.json for request in transport.sent)
    assert first["messages"] == [{"role": "user", "content": "q"}]
    assert second["messages"] == [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": paused(1)["content"]},
    ]
    assert first["system"] == [{"type": "text", "text": "Answer from the web."}]
    assert transport.sent[0].url == "https://api.anthropic.com/v1/messages"


async def test_pause_turn_is_resumed_at_most_max_continuations_times() -> None:
    transport = ScriptedTransport(*(ok(paused(n)) for n in range(MAX_CONTINUATIONS + 1)))
    ctx = context(keys={"anthropic": "k"}, transport=transport)
    response = await AnthropicProvider().search(SearchParams(query="q"), ctx)
    assert len(transport.sent) == MAX_CONTINUATIONS + 1 == 4
    assert response.answer == "Part 0.\n\nPart 1.\n\nPart 2.\n\nPart 3."
    assert len(transport.sent[-1].json["messages"][1]["content"]) == 2 * MAX_CONTINUATIONS


async def test_search_uses_the_search_model_and_base_url_variables() -> None:
    final = {"id": "m", "content": [{"type": "text", "text": "A."}]}
    transport = ScriptedTransport(ok(final))
    environ = {
        "ANTHROPIC_API_KEY": "k",
        "ANTHROPIC_SEARCH_MODEL": "claude-sonnet-4-5",
        "ANTHROPIC_SEARCH_BASE_URL": "https://gw.example/v1",
    }
    await AnthropicProvider().search(
        SearchParams(query="q"), context(environ=environ, transport=transport)
    )
    (request,) = transport.sent
    assert request.url == "https://gw.example/v1/messages"
    assert request.json["model"] == "claude-sonnet-4-5"
    assert request.headers["Authorization"] == "Bearer k"


@pytest.mark.parametrize("cut", ["/", "?", "#"])
async def test_a_token_cut_short_in_the_base_url_is_refused_before_any_request(cut: str) -> None:
    # https://Zq7x/Wk...@gw reads as the host Zq7x: the request would go there, and no
    # userinfo would be found to mask in its error. Refused, naming the variable only.
    transport = ScriptedTransport()
    environ = {
        "ANTHROPIC_API_KEY": "k",
        "ANTHROPIC_BASE_URL": f"https://Zq7x{cut}Wk0123456789@gw.example/v1",
    }
    with pytest.raises(ConfigurationError) as raised:
        await AnthropicProvider().search(
            SearchParams(query="q"), context(environ=environ, transport=transport)
        )
    assert str(raised.value).startswith("Invalid ANTHROPIC_BASE_URL: has an '@' after its host")
    assert "Zq7x" not in str(raised.value) and "Wk0123456789" not in str(raised.value)
    assert transport.sent == []


async def test_stored_oauth_token_is_refreshed_once_after_a_401(tmp_path: Path) -> None:
    store = CredentialStore(tmp_path / "c.json")
    store.set_oauth(
        "anthropic",
        OAuthToken(access_token="old", refresh_token="r", expires_at=time.time() + 3600),
    )

    async def refresh(provider: str, token: OAuthToken) -> OAuthToken:
        return OAuthToken(access_token="new", refresh_token="r2", expires_at=time.time() + 3600)

    final = {"id": "m", "content": [{"type": "text", "text": "A."}]}
    transport = ScriptedTransport(HttpResponse(status=401, body=b"{}"), ok(final))
    ctx = context(store=store, transport=transport, refreshers={"anthropic": refresh})
    response = await AnthropicProvider().search(SearchParams(query="q"), ctx)
    assert response.auth_mode == "oauth"
    assert [r.headers["Authorization"] for r in transport.sent] == ["Bearer old", "Bearer new"]
    assert store.get_oauth("anthropic") is not None


async def test_a_401_without_a_refresh_hook_ends_the_search(tmp_path: Path) -> None:
    store = CredentialStore(tmp_path / "c.json")
    store.set_oauth("anthropic", OAuthToken(access_token="old", expires_at=time.time() + 3600))
    transport = ScriptedTransport(HttpResponse(status=401, body=b"{}"))
    with pytest.raises(AuthorizationError) as caught:
        await AnthropicProvider().search(
            SearchParams(query="q"), context(store=store, transport=transport)
        )
    # The loop tries the refresh the 401 calls for; with no hook the server's 401 stands.
    assert caught.value.status == 401
    assert caught.value.message == "anthropic: 401 unauthorized"
    assert len(transport.sent) == 1


async def test_an_api_key_401_is_not_retried() -> None:
    transport = ScriptedTransport(HttpResponse(status=401, body=b"{}"))
    with pytest.raises(AuthorizationError):
        await AnthropicProvider().search(
            SearchParams(query="q"), context(keys={"anthropic": "k"}, transport=transport)
        )
    assert len(transport.sent) == 1


async def test_a_refreshed_token_carries_into_the_continuation_and_is_refreshed_once(
    tmp_path: Path,
) -> None:
    store = CredentialStore(tmp_path / "c.json")
    store.set_oauth("anthropic", OAuthToken(access_token="old", expires_at=time.time() + 3600))
    calls: list[str] = []

    async def refresh(provider: str, token: OAuthToken) -> OAuthToken:
        calls.append(token.access_token)
        return OAuthToken(access_token=f"new{len(calls)}", expires_at=time.time() + 3600)

    final = {"id": "m", "content": [{"type": "text", "text": "A."}]}
    unauthorized = HttpResponse(status=401, body=b"{}")
    transport = ScriptedTransport(unauthorized, ok(paused(1)), ok(final))
    ctx = context(store=store, transport=transport, refreshers={"anthropic": refresh})
    response = await AnthropicProvider().search(SearchParams(query="q"), ctx)
    assert response.answer == "Part 1.\n\nA."
    assert [r.headers["Authorization"] for r in transport.sent] == [
        "Bearer old",
        "Bearer new1",
        "Bearer new1",
    ]

    # A second 401 after the refresh is final: one refresh per search.
    store.set_oauth("anthropic", OAuthToken(access_token="old", expires_at=time.time() + 3600))
    calls.clear()
    transport = ScriptedTransport(unauthorized, unauthorized)
    ctx = context(store=store, transport=transport, refreshers={"anthropic": refresh})
    with pytest.raises(AuthorizationError) as caught:
        await AnthropicProvider().search(SearchParams(query="q"), ctx)
    assert caught.value.message == "anthropic: 401 unauthorized"
    assert calls == ["old"] and len(transport.sent) == 2


async def test_a_404_through_search_keeps_its_status() -> None:
    body = b'{"type":"error","error":{"type":"not_found_error","message":"model: claude-x"}}'
    transport = ScriptedTransport(HttpResponse(status=404, body=body))
    with pytest.raises(SearchProviderError) as caught:
        await AnthropicProvider().search(
            SearchParams(query="q"), context(keys={"anthropic": "k"}, transport=transport)
        )
    assert caught.value.status == 404
    assert format_provider_failure(caught.value, "Anthropic") == (
        "Anthropic web search returned 404 (model or endpoint not found)."
    )


def test_a_stream_error_event_says_its_message() -> None:
    """A guard: a stream's ``error`` event puts its ``message`` in the error's text.

    The classification test checks the class and status only, so a text that dropped the
    message for the bare type passed every Anthropic test (stop 50's wire mutations).
    """
    events = [
        SseEvent(
            data=json.dumps(
                {"type": "error", "error": {"type": "invalid_request_error", "message": "Nope"}}
            ),
            event="error",
        ),
    ]
    with pytest.raises(SearchProviderError) as caught:
        message_from_stream(events)
    assert str(caught.value).endswith("invalid_request_error: Nope")
