"""Z.AI: request bodies, reply parsing, argument-shape rule and the captures, pure."""

import json
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

from tests.conftest import read_capture
from tests.providers._helpers import key_context
from tests.zai_ids import pin_rpc_ids
from websearch_core import __version__
from websearch_core.credentials import Credentials
from websearch_core.errors import (
    AuthorizationError,
    ProviderNotConfiguredError,
    QuotaExhaustedError,
    RateLimitedError,
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.models import SearchParams
from websearch_core.providers import get_provider
from websearch_core.providers._zai_parse import (
    parse_messages_stream,
    parse_tool_result,
    result_items,
    tool_payload,
)
from websearch_core.providers._zai_rpc import raise_for_rpc_error, rpc_message
from websearch_core.providers.base import ProviderContext
from websearch_core.providers.zai import (
    INFO,
    TOOL_NAME,
    ZaiProvider,
    argument_shapes,
    call_body,
    check_status,
    decode_text,
    initialize_body,
    initialized_body,
    is_argument_shape_error,
    parse_payload,
    result_count,
)
from websearch_core.settings import Settings
from websearch_core.sse import SseEvent, parse_sse
from websearch_core.transport import HttpRequest, SseResponse

NOW = datetime(2025, 6, 1, tzinfo=UTC)
JSON_SHAPE = "zai/web_search_prime_tool_result_content_json_shape_2026-10.txt"
REPR_SHAPE = "zai/web_search_prime_tool_result_content_repr_shape_placeholder.txt"
DOC_EXAMPLE = "zai/web_search_api_doc_example_2025.json"
MESSAGES_STREAM = "zai/anthropic_compat_messages_stream_web_search_prime_2026-10.sse"


def context(key: str | None = "zai-key") -> ProviderContext:
    return key_context("zai", key)


def reply(result: Any, request_id: str = "1") -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def text_result(*texts: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text} for text in texts], "isError": False}


# --- facts and availability -------------------------------------------------------------------


def test_registry_returns_the_zai_provider_with_its_facts() -> None:
    provider = get_provider("zai")
    assert isinstance(provider, ZaiProvider)
    assert (INFO.id, INFO.label, INFO.kind) == ("zai", "Z.AI", "api")
    assert INFO.env_vars == ("ZAI_API_KEY",)
    assert INFO.honours == {"query", "limit", "num_search_results"}
    assert (INFO.default_results, INFO.max_results) == (10, None)
    assert INFO.docs_url == "https://docs.z.ai/devpack/mcp/search-mcp-server"


def test_availability_needs_a_key() -> None:
    provider = ZaiProvider()
    assert provider.is_available(context())
    assert not provider.is_available(context(None))
    assert not provider.is_explicitly_available(context(None))
    env_context = ProviderContext(
        transport=context().transport,
        settings=Settings(),
        credentials=Credentials(environ={"ZAI_API_KEY": " env-key "}),
    )
    assert provider.api_key(env_context) == "env-key"


async def test_missing_key_message_names_the_variable() -> None:
    with pytest.raises(ProviderNotConfiguredError) as caught:
        await ZaiProvider().search(SearchParams(query="x"), context(None))
    assert caught.value.message == (
        'Z.AI credentials not found. Set ZAI_API_KEY or configure an API key for provider "zai".'
    )


# --- request bodies ---------------------------------------------------------------------------


def test_json_rpc_bodies() -> None:
    assert initialize_body("id-1") == {
        "jsonrpc": "2.0",
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-03-26",
            "capabilities": {},
            "clientInfo": {"name": "websearch-tools", "version": __version__},
        },
        "id": "id-1",
    }
    assert initialized_body() == {
        "jsonrpc": "2.0",
        "method": "notifications/initialized",
        "params": {},
    }
    assert call_body({"search_query": "q", "count": 3}, "id-2") == {
        "jsonrpc": "2.0",
        "method": "tools/call",
        "params": {"name": "webSearchPrime", "arguments": {"search_query": "q", "count": 3}},
        "id": "id-2",
    }
    assert TOOL_NAME == "webSearchPrime"


def test_argument_shapes_in_order() -> None:
    # search_query first: the live tool refuses query (OpenClaw's test with a real key) and
    # Z.AI's own model calls it with search_query (fixtures/zai/*.sse).
    assert argument_shapes("rust", 7) == (
        {"search_query": "rust", "count": 7},
        {"search_query": "rust", "search_engine": "search-prime", "count": 7},
        {"query": "rust", "count": 7},
    )


def test_count_prefers_num_search_results_and_is_not_clamped() -> None:
    assert result_count(SearchParams(query="x")) == 10
    assert result_count(SearchParams(query="x", limit=3)) == 3
    assert result_count(SearchParams(query="x", limit=3, num_search_results=80)) == 80


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (SearchProviderError("zai", "Z.AI MCP error (-32602): bad", 400), True),
        (SearchProviderError("zai", "MCP error -32602: Invalid arguments", 32602), True),
        (SearchProviderError("zai", "search_query: Required", 500), True),
        (SearchProviderError("zai", "Z.AI API error (1214): something else", 500), False),
        (AuthorizationError("zai", "Z.AI API error (401): invalid token", 401), False),
        (QuotaExhaustedError("zai", "zai: credits exhausted", 400), False),
        (RateLimitedError("zai", "Z.AI API error (429): invalid rate", 429), False),
        (ResponseParseError("zai", "Failed to parse Z.AI MCP response", 400), False),
    ],
)
def test_argument_shape_errors(error: SearchProviderError, expected: bool) -> None:
    assert is_argument_shape_error(error) is expected


# --- the JSON-RPC envelope --------------------------------------------------------------------


def test_reply_from_json_and_from_sse() -> None:
    message = reply(text_result("hi"))
    assert rpc_message(json.dumps(message).encode()) == message
    body = (
        "event: message\ndata: "
        + json.dumps({"jsonrpc": "2.0", "method": "notifications/progress", "params": {}})
        + "\n\nevent: message\ndata: "
        + json.dumps(message)
        + "\n\n"
    ).encode()
    # Parsed by the transport (events given) or found in a body not labelled as a stream.
    assert rpc_message(body, parse_sse(body)) == message
    assert rpc_message(body) == message


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"<html>oops</html>",
        b'{"jsonrpc": "2.0", "method": "notifications/progress"}',
        b'data: {"jsonrpc": "2.0", "id": 1, "res',  # a stream cut mid-event
        b"data: not json\n\n",
    ],
)
def test_unreadable_replies_are_parse_errors(body: bytes) -> None:
    with pytest.raises(ResponseParseError) as caught:
        rpc_message(body)
    assert caught.value.message == "Failed to parse Z.AI MCP response"


def test_messages_stream_capture_is_not_an_mcp_reply() -> None:
    """The Anthropic-compatible stream holds no JSON-RPC reply: the MCP parser refuses it."""
    body = read_capture(MESSAGES_STREAM)
    with pytest.raises(ResponseParseError):
        rpc_message(body, parse_sse(body))


def test_zai_envelope_error() -> None:
    with pytest.raises(SearchProviderError) as caught:
        raise_for_rpc_error({"success": False, "code": 1214, "msg": "Invalid search engine"})
    assert type(caught.value) is SearchProviderError
    assert caught.value.message == "Z.AI API error (1214): Invalid search engine"
    assert caught.value.status == 400
    with pytest.raises(QuotaExhaustedError) as quota:
        raise_for_rpc_error({"success": False, "code": 429, "msg": "Insufficient balance"})
    assert quota.value.message == "Z.AI API error (429): Insufficient balance"


def test_json_rpc_error() -> None:
    with pytest.raises(SearchProviderError) as caught:
        raise_for_rpc_error({"error": {"code": -32602, "message": "Invalid params"}})
    assert caught.value.message == "Z.AI MCP error (-32602): Invalid params"
    assert caught.value.status == 400
    with pytest.raises(AuthorizationError) as auth:
        raise_for_rpc_error({"error": {"code": 401, "message": "Unauthorized"}})
    assert (auth.value.message, auth.value.status) == ("Z.AI MCP error (401): Unauthorized", 401)


def test_tool_error_result() -> None:
    result = {
        "content": [{"type": "text", "text": "MCP error -429: rate limited"}],
        "isError": True,
    }
    with pytest.raises(RateLimitedError) as caught:
        raise_for_rpc_error(reply(result))
    assert caught.value.message == "MCP error -429: rate limited"
    with pytest.raises(SearchProviderError) as plain:
        raise_for_rpc_error(reply({"content": [], "isError": True}))
    assert (plain.value.message, plain.value.status) == ("Z.AI MCP tool call failed", 400)


def test_no_error_in_a_good_reply() -> None:
    raise_for_rpc_error(reply(text_result("[]")))


def _status(status: int, body: str, headers: dict[str, str] | None = None) -> SseResponse:
    return SseResponse(status=status, body=body.encode(), headers=headers or {})


def test_http_401_and_403_keep_zai_words() -> None:
    body = json.dumps({"success": False, "code": 401, "msg": "token expired or incorrect"})
    with pytest.raises(AuthorizationError) as caught:
        check_status(_status(401, body))
    assert caught.value.message == "Z.AI API error (401): token expired or incorrect"
    with pytest.raises(AuthorizationError) as forbidden:
        check_status(_status(403, '{"error": {"code": "1113", "message": "Account suspended"}}'))
    assert forbidden.value.message == "Z.AI API error (403): Account suspended"


def test_other_http_failures_go_through_the_shared_classifier() -> None:
    with pytest.raises(QuotaExhaustedError) as quota:
        check_status(_status(402, "payment required"))
    assert quota.value.message == "zai: 402 credits exhausted"
    with pytest.raises(RateLimitedError) as limited:
        check_status(_status(429, "slow down", {"Retry-After": "3"}))
    assert (limited.value.retry_after, limited.value.message) == (
        3.0,
        "Z.AI API error (429): slow down",
    )
    with pytest.raises(SearchProviderError) as bad:
        check_status(_status(400, "Bad Request: No valid session ID provided"))
    assert bad.value.message == "Z.AI API error (400): Bad Request: No valid session ID provided"
    check_status(_status(202, ""))


ARREARS = "Your account is in arrears, please recharge and try again"
"""Business code 1113's text on https://docs.z.ai/api-reference/api-code."""


def test_a_429_for_an_account_in_arrears_is_a_spent_quota_not_a_rate_limit() -> None:
    # The error codes page pairs HTTP 429 with "Account balance exhausted" as well as with
    # too many concurrent requests; the business code 1113 says which.
    body = json.dumps({"error": {"code": "1113", "message": ARREARS}})
    with pytest.raises(QuotaExhaustedError) as spent:
        check_status(_status(429, body))
    assert (spent.value.message, spent.value.status) == (f"Z.AI API error (429): {ARREARS}", 429)
    envelope = json.dumps({"success": False, "code": 1113, "msg": ARREARS})
    with pytest.raises(QuotaExhaustedError):
        check_status(_status(429, envelope))


PLAN_WINDOWS = {
    "1308": "Usage limit reached for 5 hour. Your limit will reset at {when}",
    "1310": "[1310][Weekly/Monthly Limit Exhausted. Your limit will reset at {when}][2026072806]",
}
"""The Coding Plan's spent-window texts, as live answers quoted in public projects show them."""
BEIJING = timezone(timedelta(hours=8))


@pytest.mark.parametrize("code", sorted(PLAN_WINDOWS))
def test_a_spent_coding_plan_window_is_a_spent_quota_until_the_time_it_names(code: str) -> None:
    # Before, the 429 was a rate limit without a wait: asked again on every search for the
    # hours (1308) or days (1310) the window stays spent.
    reset = (datetime.now(UTC) + timedelta(hours=3)).astimezone(BEIJING).replace(microsecond=0)
    text = PLAN_WINDOWS[code].format(when=reset.strftime("%Y-%m-%d %H:%M:%S"))
    body = json.dumps({"error": {"type": "rate_limit_error", "code": code, "message": text}})
    with pytest.raises(QuotaExhaustedError) as spent:
        check_status(_status(429, body))
    assert spent.value.message == f"Z.AI API error (429): {text}"
    assert spent.value.reset_at is not None
    assert abs((spent.value.reset_at - reset).total_seconds()) < 60


def test_a_spent_window_without_a_reset_time_is_still_a_spent_quota() -> None:
    body = json.dumps({"error": {"code": "1310", "message": "Weekly/Monthly Limit Exhausted."}})
    with pytest.raises(QuotaExhaustedError) as spent:
        check_status(_status(429, body))
    assert spent.value.reset_at is None  # the ledger's own rule for a quota without one


def test_a_429_for_concurrency_stays_a_rate_limit() -> None:
    # Guard (passes before and after): only 1113 changes what a 429 means.
    body = json.dumps({"error": {"code": "1302", "message": "High concurrency usage"}})
    with pytest.raises(RateLimitedError):
        check_status(_status(429, body))


def test_an_arrears_envelope_inside_a_2xx_reply_is_a_spent_quota() -> None:
    with pytest.raises(QuotaExhaustedError) as spent:
        raise_for_rpc_error({"success": False, "code": 1113, "msg": ARREARS})
    assert spent.value.message == f"Z.AI API error (1113): {ARREARS}"
    with pytest.raises(QuotaExhaustedError):
        raise_for_rpc_error({"success": False, "code": "1113", "msg": ARREARS})


# --- tool results -----------------------------------------------------------------------------

ITEMS = [
    {
        "title": "Asyncio  docs",
        "link": "https://docs.python.org/3/library/asyncio.html",
        "content": "asyncio is a library",
        "media": "Python",
        "publish_date": "2025-05-31",
        "refer": "ref_1",
    },
    {"title": "", "url": "https://b.example.org/x", "content": "untitled"},
    {"title": "not a web page", "link": "ftp://files.example.org/a"},
]


def test_double_encoded_text_result() -> None:
    text = json.dumps(json.dumps(ITEMS))
    response = parse_tool_result(reply(text_result(text), "rid-1"), limit=10, now=NOW)
    assert [(s.title, s.url, s.snippet, s.author) for s in response.sources] == [
        (
            "Asyncio docs",
            "https://docs.python.org/3/library/asyncio.html",
            "asyncio is a library",
            "Python",
        ),
        ("https://b.example.org/x", "https://b.example.org/x", "untitled", None),
    ]
    assert response.sources[0].published_date == "2025-05-31"
    assert response.sources[0].age_seconds == 86_400
    assert response.answer is None
    assert response.auth_mode == "api_key"


def test_limit_slices_sources() -> None:
    text = json.dumps(ITEMS)
    response = parse_tool_result(reply(text_result(text)), limit=1)
    assert [s.url for s in response.sources] == ["https://docs.python.org/3/library/asyncio.html"]


def test_structured_content_and_request_id() -> None:
    result = {
        "content": [{"type": "text", "text": "Found 1 result."}],
        "structuredContent": {"search_result": ITEMS[:1], "request_id": "req-9"},
    }
    response = parse_tool_result(reply(result))
    assert [s.url for s in response.sources] == ["https://docs.python.org/3/library/asyncio.html"]
    assert response.request_id == "req-9"
    assert response.answer == "Found 1 result."


def test_plain_text_result_is_the_answer() -> None:
    response = parse_tool_result(reply(text_result("No results.", "  ", '{"note": "x"}')))
    assert response.sources == ()
    assert response.answer == 'No results.\n\n{"note": "x"}'


def test_result_without_result_object_is_a_parse_error() -> None:
    with pytest.raises(ResponseParseError):
        parse_tool_result({"jsonrpc": "2.0", "id": "1", "result": "oops"})
    with pytest.raises(ResponseParseError):
        tool_payload(None)


def test_a_lone_surrogate_in_the_tool_text_is_decoded_not_a_type_error() -> None:
    # A "\\ud800" escape in the reply makes the tool text hold a lone surrogate; decoding
    # that text raised TypeError, which ended the search instead of failing over.
    text = json.dumps([{"title": "T\ud800", "link": "https://a.example/"}], ensure_ascii=False)
    assert decode_text(text) == [{"title": "T\ud800", "link": "https://a.example/"}]
    assert decode_text(json.dumps(text)) == [{"title": "T\ud800", "link": "https://a.example/"}]


def test_decode_text_variants() -> None:
    assert decode_text('[{"a": 1}]') == [{"a": 1}]
    assert decode_text(json.dumps('[{"a": 1}]')) == [{"a": 1}]
    assert decode_text("[{'a': 1}]") == [{"a": 1}]
    assert decode_text("plain words") is None
    assert decode_text("[__import__('os')]") is None
    assert decode_text("") is None
    assert result_items({"results": [[{"a": 1}], {"text": [{"b": 2}]}]}) == [{"a": 1}, {"b": 2}]
    assert result_items({"other": []}) is None


# --- captures ---------------------------------------------------------------------------------


def test_capture_json_shape_nested_list() -> None:
    text = read_capture(JSON_SHAPE).decode("utf-8")
    response = parse_tool_result(reply(text_result(text)))
    assert [(s.title, s.url, s.snippet) for s in response.sources] == [
        (
            "人民币汇率中间价",
            "https://www.safe.gov.cn/AppStructured/hlw/RMBQuery.do",
            "人民币汇率中间价 USD/CNY 6.7351",
        ),
        ("美元兑人民币汇率 - 我查", "https://chl.cn/huilv/?usd", "1美元=6.7351元人民币"),
    ]
    # The same text double-encoded, as the MCP server sends it, reads the same.
    again = parse_tool_result(reply(text_result(json.dumps(text))))
    assert again.sources == response.sources


def test_capture_python_repr_shape() -> None:
    text = read_capture(REPR_SHAPE).decode("utf-8")
    response = parse_tool_result(reply(text_result(text)))
    assert [(s.title, s.url, s.snippet) for s in response.sources] == [("T", "https://e.com", "c")]


def test_capture_rest_doc_example() -> None:
    data = json.loads(read_capture(DOC_EXAMPLE))
    response = parse_payload(data, now=NOW)
    (source,) = response.sources
    assert (source.title, source.url, source.snippet) == (
        "2025年5月23日财经早资讯",
        "https://www.sohu.com/a/897879632_121123890",
        "1-4月我国对外直接投资575.4亿美元。",
    )
    assert (source.author, source.published_date) == ("搜狐", "2025-05-23")
    assert source.age_seconds == 9 * 86_400
    assert response.request_id == "20250526201557dda85ca6801b467b"
    # The same body inside a tool result's text is found too.
    wrapped = parse_tool_result(reply(text_result(json.dumps(data))))
    assert wrapped.sources[0].url == source.url


def test_capture_anthropic_compatible_stream() -> None:
    events = parse_sse(read_capture(MESSAGES_STREAM))
    response = parse_messages_stream(events)
    assert response.answer == "先搜索。查到了。今日中间价 6.7351。"
    assert response.search_queries == ("今日人民币对美元汇率中间价",)
    assert [s.url for s in response.sources] == [
        "https://www.safe.gov.cn/AppStructured/hlw/RMBQuery.do",
        "https://chl.cn/huilv/?usd",
    ]
    assert response.request_id == "msg_json"


def test_parse_payload_without_results_is_a_parse_error() -> None:
    with pytest.raises(ResponseParseError):
        parse_payload({"created": 1})
    assert parse_messages_stream([SseEvent(data="not json")]).answer is None


# --- the session through the core's loop ------------------------------------------------------


class ScriptedSse:
    """Answers each ``send_sse`` with the next scripted reply and records the requests."""

    def __init__(self, *replies: SseResponse) -> None:
        self.replies = list(replies)
        self.sent: list[HttpRequest] = []

    async def send_sse(self, provider: str, label: str, request: HttpRequest) -> SseResponse:
        assert (provider, label, request.stream) == ("zai", "Z.AI", True)
        self.sent.append(request)
        return self.replies.pop(0)


def _sse_reply(message: Any, headers: dict[str, str] | None = None) -> SseResponse:
    body = f"event: message\ndata: {json.dumps(message)}\n\n".encode()
    return SseResponse(status=200, body=body, events=tuple(parse_sse(body)), headers=headers or {})


def _scripted_context(transport: ScriptedSse) -> ProviderContext:
    return key_context("zai", "zai-key", transport=transport)


async def test_session_then_the_next_shape_after_a_refused_shape(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pin_rpc_ids(monkeypatch, "1", "2", "1")
    items = [{"title": "A", "link": "https://a.example/", "content": "a"}]
    transport = ScriptedSse(
        _sse_reply(reply({"protocolVersion": "2025-03-26"}), {"mcp-session-id": " s-1 "}),
        SseResponse(status=202, body=b""),
        _sse_reply({"jsonrpc": "2.0", "id": "2", "error": {"code": -32602, "message": "bad"}}),
        _sse_reply(reply(text_result(json.dumps(items)))),
    )
    response = await ZaiProvider().search(
        SearchParams(query="q", limit=3), _scripted_context(transport)
    )
    methods = [request.json["method"] for request in transport.sent]
    assert methods == ["initialize", "notifications/initialized", "tools/call", "tools/call"]
    assert "Mcp-Session-Id" not in transport.sent[0].headers
    assert all(r.headers["Mcp-Session-Id"] == "s-1" for r in transport.sent[1:])
    assert [r.json["params"]["arguments"] for r in transport.sent[2:]] == list(
        argument_shapes("q", 3)[:2]
    )
    assert [s.url for s in response.sources] == ["https://a.example/"]


async def test_a_quota_reply_is_raised_without_trying_another_shape(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pin_rpc_ids(monkeypatch, "1")
    transport = ScriptedSse(
        _sse_reply(reply({})),
        SseResponse(status=202, body=b""),
        _sse_reply({"success": False, "code": 429, "msg": "Insufficient balance"}),
    )
    with pytest.raises(QuotaExhaustedError) as caught:
        await ZaiProvider().search(SearchParams(query="q"), _scripted_context(transport))
    assert caught.value.message == "Z.AI API error (429): Insufficient balance"
    assert len(transport.sent) == 3 and "Mcp-Session-Id" not in transport.sent[2].headers


async def test_an_initialize_error_ends_the_session_before_the_notification(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pin_rpc_ids(monkeypatch, "1")
    refused = SseResponse(status=401, body=b'{"success": false, "msg": "token expired"}')
    transport = ScriptedSse(refused)
    with pytest.raises(AuthorizationError) as caught:
        await ZaiProvider().search(SearchParams(query="q"), _scripted_context(transport))
    assert caught.value.message == "Z.AI API error (401): token expired"
    rpc_refused = ScriptedSse(_sse_reply({"jsonrpc": "2.0", "id": "1", "error": {"code": -1}}))
    with pytest.raises(SearchProviderError) as rpc:
        await ZaiProvider().search(SearchParams(query="q"), _scripted_context(rpc_refused))
    assert rpc.value.message == "Z.AI MCP error (-1): Unknown error"
    assert (len(transport.sent), len(rpc_refused.sent)) == (1, 1)
