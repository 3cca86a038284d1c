"""Exa: API and keyless-MCP request building and response parsing, pure (no server)."""

import json
from datetime import UTC, date, datetime
from typing import Any

import pytest

from tests.conftest import read_capture
from tests.providers._helpers import OFFLINE, ScriptedTransport, key_context, ok, status
from websearch_core.credentials import Credentials
from websearch_core.errors import (
    AuthorizationError,
    ProviderUnavailableError,
    QuotaExhaustedError,
    RateLimitedError,
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.models import SearchParams
from websearch_core.providers import get_provider
from websearch_core.providers.base import ProviderContext
from websearch_core.providers.exa import (
    EXA_API_ENDPOINT,
    EXA_MCP_ENDPOINT,
    INFO,
    MCP_RATE_LIMIT_MESSAGE,
    ExaProvider,
    api_request_body,
    build_answer,
    mcp_query,
    mcp_request_body,
    parse_mcp_body,
    parse_plain_text,
    parse_results,
)
from websearch_core.settings import Settings
from websearch_core.testing import MockTransport
from websearch_core.transport import HttpRequest, HttpResponse

NOW = datetime(2024, 11, 16, 1, 36, 32, 547000, tzinfo=UTC)
BASE_BODY = {
    "query": "x",
    "numResults": 10,
    "type": "auto",
    "contents": {"summary": {"query": "x"}},
}


def context(key: str | None = "exa-test-key", transport: Any = None) -> ProviderContext:
    return key_context("exa", key, transport=OFFLINE if transport is None else transport)


def sse(message: Any) -> str:
    return f"event: message\ndata: {json.dumps(message)}\n\n"


def rpc_result(result: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": "abc", "result": result}


# --- facts and availability ------------------------------------------------------------------


def test_registry_returns_the_exa_provider_with_its_facts() -> None:
    provider = get_provider("exa")
    assert isinstance(provider, ExaProvider)
    assert (INFO.id, INFO.label, INFO.kind) == ("exa", "Exa", "api")
    assert INFO.env_vars == ("EXA_API_KEY",)
    assert (INFO.default_results, INFO.max_results) == (10, 100)
    assert INFO.docs_url == "https://docs.exa.ai/reference/search"
    assert INFO.honours == {
        "query",
        "limit",
        "num_search_results",
        "include_domains",
        "exclude_domains",
        "date_after",
        "date_before",
        "country",
    }


def test_auto_chain_needs_a_key_but_explicit_selection_never_does() -> None:
    provider = ExaProvider()
    assert provider.is_available(context()) is True
    assert provider.is_explicitly_available(context()) is True
    assert provider.is_available(context(key=None)) is False
    assert provider.is_explicitly_available(context(key=None)) is True


def test_key_from_the_environment_variable() -> None:
    ctx = ProviderContext(
        transport=None,  # type: ignore[arg-type]
        settings=Settings(),
        credentials=Credentials(environ={"EXA_API_KEY": " env-key "}),
    )
    assert ExaProvider().api_key(ctx) == "env-key"
    assert ExaProvider().is_available(ctx)


# --- API request ------------------------------------------------------------------------------


def test_api_request_shape() -> None:
    request = ExaProvider().build_api_request(SearchParams(query="x"), "exa-test-key")
    assert request.method == "POST"
    assert request.url == EXA_API_ENDPOINT == "https://api.exa.ai/search"
    assert dict(request.headers) == {
        "Content-Type": "application/json",
        "x-api-key": "exa-test-key",
    }
    assert request.json == BASE_BODY
    assert list(request.params) == []
    assert "exa-test-key" not in repr(request)


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({}, 10),
        ({"limit": 3}, 3),
        ({"limit": 1}, 1),
        ({"limit": 100}, 100),
        ({"num_search_results": 25, "limit": 3}, 25),
    ],
)
def test_num_results_is_num_search_results_before_limit(
    fields: dict[str, int], expected: int
) -> None:
    assert api_request_body(SearchParams(query="x", **fields))["numResults"] == expected


def test_domains_and_dates_are_sent() -> None:
    body = api_request_body(
        SearchParams(
            query="x",
            include_domains=("www.arxiv.org", "acm.org"),
            exclude_domains=("medium.com",),
            date_after=date(2024, 1, 2),
            date_before=date(2024, 3, 4),
        )
    )
    assert body == {
        **BASE_BODY,
        "includeDomains": ["arxiv.org", "acm.org"],
        "excludeDomains": ["medium.com"],
        "startPublishedDate": "2024-01-02T00:00:00.000Z",
        "endPublishedDate": "2024-03-04T23:59:59.999Z",
    }


def test_unhonoured_fields_are_not_sent() -> None:
    body = api_request_body(
        SearchParams(query="x", recency="day", language="en", max_tokens=10, temperature=0.5)
    )
    assert body == BASE_BODY


@pytest.mark.parametrize(("country", "sent"), [("us", "US"), ("DE", "DE"), ("jp", "JP")])
def test_country_goes_as_user_location_in_upper_case(country: str, sent: str) -> None:
    # docs.exa.ai/reference/search: userLocation, "the two-letter ISO country code of the
    # user, e.g. US".
    body = api_request_body(SearchParams(query="x", country=country))
    assert body == {**BASE_BODY, "userLocation": sent}


def test_the_mcp_tool_is_sent_no_country() -> None:
    # Guard (passes before and after): web_search_exa takes only query and numResults here.
    body = mcp_request_body(SearchParams(query="x", country="de"), "id1")
    assert body["params"]["arguments"] == {"query": "x"}


# --- MCP request ------------------------------------------------------------------------------


def test_mcp_request_shape() -> None:
    request = ExaProvider().build_mcp_request(SearchParams(query="x"), "k3j2")
    assert request.method == "POST"
    assert request.url == EXA_MCP_ENDPOINT == "https://mcp.exa.ai/mcp"
    assert list(request.params) == [("tools", "web_search_exa")]
    assert dict(request.headers) == {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "x-exa-source": "websearch-tools",
    }
    assert request.json == {
        "jsonrpc": "2.0",
        "id": "k3j2",
        "method": "tools/call",
        "params": {"name": "web_search_exa", "arguments": {"query": "x"}},
    }


def test_mcp_query_appends_directives_for_filters() -> None:
    params = SearchParams(
        query="llm agents",
        include_domains=("arxiv.org", "acm.org"),
        exclude_domains=("medium.com",),
        date_after=date(2024, 1, 2),
        date_before=date(2024, 3, 4),
    )
    assert mcp_query(params) == (
        "llm agents site:arxiv.org site:acm.org -site:medium.com after:2024-01-02 before:2024-03-04"
    )
    assert mcp_query(SearchParams(query="plain", recency="week")) == "plain"


def test_mcp_num_results_only_when_asked() -> None:
    assert "numResults" not in mcp_request_body(SearchParams(query="x"), "1")["params"]["arguments"]
    arguments = mcp_request_body(SearchParams(query="x", limit=4), "1")["params"]["arguments"]
    assert arguments == {"query": "x", "numResults": 4}


# --- the real capture -------------------------------------------------------------------------


@pytest.mark.conformance
def test_parse_real_capture_doc_example() -> None:
    body = read_capture("exa/search_doc_example_latest_llm_research.json")
    response = ExaProvider().parse_api_response(
        HttpResponse(status=200, body=body), SearchParams(query="Latest research in LLMs")
    )
    assert response.provider == "exa"
    assert response.request_id == "b5947044c4b78efa9552a7c89b306d95"
    assert response.auth_mode == "api_key"
    (source,) = response.sources
    assert source.title == "A Comprehensive Overview of Large Language Models"
    assert source.url == "https://arxiv.org/pdf/2307.06435.pdf"
    assert source.snippet == (
        "This overview paper on Large Language Models (LLMs) highlights key developments..."
    )
    assert source.published_date == "2023-11-16T01:36:32.547Z"
    assert source.author == (
        "Humza  Naveed, University of Engineering and Technology (UET), Lahore, Pakistan"
    )
    assert source.age_seconds is not None and source.age_seconds > 0
    assert response.answer == (
        "**A Comprehensive Overview of Large Language Models**: This overview paper on Large "
        "Language Models (LLMs) highlights key developments..."
    )


@pytest.mark.conformance
def test_real_capture_age_and_fallback_snippets() -> None:
    data = json.loads(read_capture("exa/search_doc_example_latest_llm_research.json"))
    (source,) = parse_results(data, now=NOW)
    assert source.age_seconds == 366 * 86400  # 2024 is a leap year
    result = data["results"][0]
    without_summary = {**result, "summary": ""}
    (text_source,) = parse_results({"results": [without_summary]})
    assert text_source.snippet == (
        "Abstract Large Language Models (LLMs) have recently demonstrated remarkable "
        "capabilities..."
    )
    highlights_only = {**result, "summary": None, "text": "  "}
    (highlight_source,) = parse_results({"results": [highlights_only]})
    assert highlight_source.snippet == "Such requirements have limited their adoption..."


# --- parsing rules ----------------------------------------------------------------------------


def test_snippet_is_cut_to_500_characters() -> None:
    (source,) = parse_results({"results": [{"url": "https://a.example/", "text": "y" * 900}]})
    assert source.snippet is not None
    assert len(source.snippet) == 500
    assert source.snippet.endswith("…")
    (short,) = parse_results({"results": [{"url": "https://a.example/", "text": "y" * 500}]})
    assert short.snippet == "y" * 500


def test_highlights_are_joined_with_spaces() -> None:
    item = {"url": "https://a.example/", "highlights": [" one ", "", "two", 3]}
    (source,) = parse_results({"results": [item]})
    assert source.snippet == "one two"


def test_results_without_a_usable_url_are_skipped_and_titles_fall_back() -> None:
    data = {
        "results": [
            {"title": "No URL", "summary": "s"},
            {"title": "Bad", "url": "ftp://x.example/a"},
            "not an object",
            {"title": "  ", "url": " https://b.example/p ", "publishedDate": "not a date"},
        ]
    }
    (source,) = parse_results(data)
    assert source.title == "https://b.example/p"
    assert source.url == "https://b.example/p"
    assert source.snippet is None
    assert source.author is None
    assert source.published_date == "not a date"
    assert source.age_seconds is None


def test_sources_are_cut_to_the_requested_count() -> None:
    data = {"results": [{"url": f"https://r{i}.example/"} for i in range(5)]}
    assert [s.url for s in parse_results(data, limit=2)] == [
        "https://r0.example/",
        "https://r1.example/",
    ]
    response = ExaProvider().parse_api_response(ok(data), SearchParams(query="x", limit=3))
    assert len(response.sources) == 3


def test_answer_uses_up_to_three_summaries() -> None:
    data = {
        "results": [
            {"title": " First ", "url": "https://a.example/", "summary": " One. "},
            {"title": "Skipped", "url": "https://b.example/", "summary": "  "},
            {"url": "https://c.example/", "summary": "Two."},
            {"summary": "Three."},
            {"title": "Fourth", "url": "https://d.example/", "summary": "Four."},
        ]
    }
    assert build_answer(data) == (
        "**First**: One.\n\n**https://c.example/**: Two.\n\n**Untitled**: Three."
    )
    assert build_answer({"results": [{"url": "https://a.example/"}]}) is None
    assert build_answer({"results": None}) is None
    assert build_answer([]) is None


def test_missing_or_null_results_are_empty() -> None:
    assert parse_results({"requestId": "r"}) == ()
    assert parse_results({"results": None}) == ()


@pytest.mark.parametrize("data", [[], "x", {"results": {"a": 1}}, {"results": "none"}])
def test_wrong_shape_is_a_parse_error(data: Any) -> None:
    with pytest.raises(ResponseParseError) as caught:
        parse_results(data)
    assert caught.value.message == "Exa API returned an unexpected response shape"


def test_invalid_json_is_a_parse_error() -> None:
    with pytest.raises(ResponseParseError) as caught:
        ExaProvider().parse_api_response(status(200, "<html>"), SearchParams(query="x"))
    assert caught.value.message == "Exa API returned invalid JSON"


# --- API errors -------------------------------------------------------------------------------


def test_api_401_goes_through_the_shared_classifier() -> None:
    with pytest.raises(AuthorizationError) as caught:
        ExaProvider().check_api_response(status(401, '{"error": "Invalid API key"}'))
    assert (caught.value.status, caught.value.message) == (401, "exa: 401 unauthorized")


def test_api_402_and_credit_bodies_are_quota() -> None:
    with pytest.raises(QuotaExhaustedError):
        ExaProvider().check_api_response(status(402, "payment required"))
    with pytest.raises(QuotaExhaustedError) as caught:
        ExaProvider().check_api_response(status(400, '{"error": "Insufficient credits"}'))
    assert caught.value.message == "exa: credits exhausted"


def test_api_429_and_5xx() -> None:
    with pytest.raises(RateLimitedError) as limited:
        ExaProvider().check_api_response(status(429, "slow down", {"Retry-After": "3"}))
    assert limited.value.retry_after == 3.0
    assert limited.value.message == "Exa API error (429): slow down"
    with pytest.raises(ProviderUnavailableError) as unavailable:
        ExaProvider().check_api_response(status(503, ""))
    assert unavailable.value.message == "Exa API error (503)"
    with pytest.raises(SearchProviderError) as bad:
        ExaProvider().check_api_response(status(400, '{"error": "bad"}'))
    assert type(bad.value) is SearchProviderError
    assert bad.value.message == 'Exa API error (400): {"error": "bad"}'
    ExaProvider().check_api_response(status(200, "{}"))


# --- MCP errors and parsing -------------------------------------------------------------------


def test_mcp_429_names_the_keyless_limit() -> None:
    with pytest.raises(RateLimitedError) as caught:
        ExaProvider().check_mcp_response(status(429, "Too Many Requests", {"Retry-After": "1"}))
    assert (
        caught.value.message
        == MCP_RATE_LIMIT_MESSAGE
        == ("exa: MCP rate limit reached (429); configure an Exa API key for higher limits")
    )
    assert caught.value.retry_after == 1.0


def test_mcp_other_statuses() -> None:
    with pytest.raises(ProviderUnavailableError) as caught:
        ExaProvider().check_mcp_response(status(502, "bad gateway"))
    assert caught.value.message == "Exa MCP request failed (502): bad gateway"
    with pytest.raises(AuthorizationError):
        ExaProvider().check_mcp_response(status(403, "no"))
    ExaProvider().check_mcp_response(status(200, ""))


PLAIN_LISTING = (
    "Title: First result\n"
    "URL: https://a.example/one\n"
    "Published Date: 2024-11-15T01:36:32.000Z\n"
    "Author: Ada\n"
    "Text: Line one.\n"
    "\n"
    "Line two after a blank line.\n"
    "\n"
    "Title: Second result\n"
    "URL: https://b.example/two\n"
    "Text: Only text.\n"
    "\n"
    "Title: No URL here\n"
    "Text: dropped\n"
)


def test_plain_text_listing() -> None:
    first, second = parse_plain_text(PLAIN_LISTING, now=NOW)
    assert first.title == "First result"
    assert first.url == "https://a.example/one"
    assert first.author == "Ada"
    assert first.published_date == "2024-11-15T01:36:32.000Z"
    assert first.age_seconds == 86400
    assert first.snippet == "Line one.\n\nLine two after a blank line."
    assert (second.title, second.url, second.snippet) == (
        "Second result",
        "https://b.example/two",
        "Only text.",
    )
    assert second.author is None and second.published_date is None


def test_mcp_payload_text_with_a_lone_surrogate_is_read_not_a_type_error() -> None:
    # A "\\ud800" escape leaves a lone surrogate in the decoded tool text; decoding that
    # text as JSON raised TypeError, which ended the search instead of failing over.
    payload = {"results": [{"url": "https://a.example/", "title": "T\ud800"}]}
    text = json.dumps(payload, ensure_ascii=False)
    body = sse(rpc_result({"content": [{"type": "text", "text": text}]}))
    response = parse_mcp_body(body, limit=10)
    assert [s.url for s in response.sources] == ["https://a.example/"]


def test_mcp_sse_with_a_plain_text_listing() -> None:
    body = sse(rpc_result({"content": [{"type": "text", "text": PLAIN_LISTING}]}))
    response = parse_mcp_body(body, limit=10)
    assert response.provider == "exa"
    assert response.auth_mode == "keyless"
    assert response.answer is None
    assert [s.url for s in response.sources] == ["https://a.example/one", "https://b.example/two"]
    assert len(parse_mcp_body(body, limit=1).sources) == 1


def test_mcp_plain_json_with_structured_content() -> None:
    payload = {
        "requestId": "req-9",
        "results": [
            {"title": "T", "url": "https://a.example/", "summary": "S.", "author": "Bo"},
        ],
        "searchTime": 120,
    }
    body = json.dumps(rpc_result({"content": [], "structuredContent": payload}))
    response = parse_mcp_body(body)
    assert response.request_id == "req-9"
    assert response.answer == "**T**: S."
    assert [(s.title, s.snippet, s.author) for s in response.sources] == [("T", "S.", "Bo")]


def test_mcp_json_payload_inside_the_text_content() -> None:
    payload = {"costDollars": {"total": 0.005}, "results": [{"url": "https://a.example/"}]}
    body = sse(rpc_result({"content": [{"type": "text", "text": json.dumps(payload)}]}))
    response = parse_mcp_body(body)
    assert [s.url for s in response.sources] == ["https://a.example/"]


def test_mcp_first_json_data_line_wins() -> None:
    first = rpc_result({"content": [{"type": "text", "text": "Title: A\nURL: https://a.example/"}]})
    body = "event: message\ndata: not json\n\n" + sse(first) + sse({"jsonrpc": "2.0"})
    assert [s.url for s in parse_mcp_body(body).sources] == ["https://a.example/"]


def test_mcp_json_rpc_error() -> None:
    body = sse({"jsonrpc": "2.0", "id": "1", "error": {"code": -32602, "message": "bad args"}})
    with pytest.raises(SearchProviderError) as caught:
        parse_mcp_body(body)
    assert caught.value.message == "MCP error: bad args"


def test_mcp_tool_error() -> None:
    body = sse(rpc_result({"isError": True, "content": [{"type": "text", "text": " boom "}]}))
    with pytest.raises(SearchProviderError) as caught:
        parse_mcp_body(body)
    assert caught.value.message == "boom"
    with pytest.raises(SearchProviderError) as bare:
        parse_mcp_body(sse(rpc_result({"isError": True, "content": []})))
    assert bare.value.message == "Exa MCP returned an error"


@pytest.mark.parametrize(
    "text",
    [
        # exa-labs/exa-mcp-server src/utils/errorHandler.ts, two of its wordings.
        "You've hit Exa's free MCP rate limit. To continue using without limits, create your"
        " own Exa API key.\n\nFix: Create API key at https://dashboard.exa.ai/api-keys",
        "You've hit Exa's free MCP rate limit. To continue using without limits, create your"
        " own Exa API key.\n\nTo continue within this session, use the get_otp tool with your"
        " email to get a session access token.",
    ],
)
def test_mcp_keyless_rate_limit_tool_error_is_a_rate_limit(text: str) -> None:
    # Exa's MCP server answers the keyless tier's limit in a 200 reply, as a tool error.
    body = sse(rpc_result({"content": [{"type": "text", "text": text}], "isError": True}))
    with pytest.raises(SearchProviderError) as caught:
        parse_mcp_body(body)
    assert type(caught.value) is RateLimitedError
    assert caught.value.status == 429
    assert caught.value.message == text  # the spec's text for a tool error: its first text


@pytest.mark.parametrize(
    "text", ["web_search_exa error (502): boom", "Search error (400): free tier", "rate limit"]
)
def test_mcp_other_tool_errors_stay_plain_errors(text: str) -> None:
    body = sse(rpc_result({"content": [{"type": "text", "text": text}], "isError": True}))
    with pytest.raises(SearchProviderError) as caught:
        parse_mcp_body(body)
    assert type(caught.value) is SearchProviderError
    assert caught.value.message == text


@pytest.mark.parametrize("body", ["", "<html>oops</html>", '{"jsonrpc": "2.0", "resu', "[1, 2]"])
def test_mcp_unparseable_body(body: str) -> None:
    with pytest.raises(ResponseParseError) as caught:
        parse_mcp_body(body)
    assert caught.value.message == "Failed to parse MCP response"


@pytest.mark.parametrize(
    "message",
    [{"jsonrpc": "2.0", "id": "1"}, rpc_result({"content": []}), rpc_result({"content": "x"})],
)
def test_mcp_unexpected_shape(message: Any) -> None:
    with pytest.raises(ResponseParseError) as caught:
        parse_mcp_body(sse(message))
    assert caught.value.message == "Exa MCP search returned unexpected response shape."


# --- search(): which path runs ----------------------------------------------------------------


def scripted_transport(*responses: HttpResponse) -> ScriptedTransport:
    """The shared scripted transport, checking every request is sent as Exa's."""
    return ScriptedTransport(*responses, provider=("exa", "Exa"))


async def test_search_with_a_key_uses_the_api() -> None:
    transport = scripted_transport(ok({"requestId": "r", "results": []}))
    response = await ExaProvider().search(SearchParams(query="x"), context(transport=transport))
    (request,) = transport.sent
    assert request.url == EXA_API_ENDPOINT
    assert request.headers["x-api-key"] == "exa-test-key"
    assert response.auth_mode == "api_key"


async def test_search_without_a_key_uses_the_mcp_tool() -> None:
    def replying(request: HttpRequest) -> HttpResponse:
        # The reply answers the request's own id: one to another id is skipped.
        reply = rpc_result({"content": [{"type": "text", "text": PLAIN_LISTING}]})
        body = sse({**reply, "id": request.json["id"]})
        return HttpResponse(status=200, body=body.encode())

    transport = MockTransport(replying)
    response = await ExaProvider().search(
        SearchParams(query="x", limit=1), context(key=None, transport=transport)
    )
    (request,) = transport.requests
    assert request.url == EXA_MCP_ENDPOINT
    assert "x-api-key" not in request.headers
    assert request.json["params"]["arguments"] == {"query": "x", "numResults": 1}
    rpc_id = request.json["id"]
    assert (
        isinstance(rpc_id, str)
        and rpc_id
        and set(rpc_id) <= set("0123456789abcdefghijklmnopqrstuvwxyz")
    )
    assert response.auth_mode == "keyless"
    assert [s.title for s in response.sources] == ["First result"]


async def test_search_raises_an_mcp_error_status_with_the_keyless_texts() -> None:
    limited = HttpResponse(status=429, body=b"Too Many Requests", headers={"Retry-After": "2"})
    with pytest.raises(RateLimitedError) as caught:
        await ExaProvider().search(
            SearchParams(query="x"), context(key=None, transport=scripted_transport(limited))
        )
    assert (caught.value.message, caught.value.retry_after) == (MCP_RATE_LIMIT_MESSAGE, 2.0)
    down = scripted_transport(status(502, "bad gateway"))
    with pytest.raises(ProviderUnavailableError) as failed:
        await ExaProvider().search(SearchParams(query="x"), context(key=None, transport=down))
    assert failed.value.message == "Exa MCP request failed (502): bad gateway"


async def test_search_raises_an_api_error_status_with_the_api_texts() -> None:
    transport = scripted_transport(status(502, "bad gateway"))
    with pytest.raises(ProviderUnavailableError) as caught:
        await ExaProvider().search(SearchParams(query="x"), context(transport=transport))
    assert caught.value.message == "Exa API error (502): bad gateway"
    assert len(transport.sent) == 1


def test_plain_text_listing_reads_a_bare_published_label_as_the_date() -> None:
    """A guard: ``Published:`` is the listing's other spelling of ``Published Date:``.

    The listing in these tests spells it in full, so dropping the alias passed every Exa
    test (stop 50's wire mutations); a section saying ``Published:`` keeps its date.
    """
    listing = PLAIN_LISTING.replace("Published Date:", "Published:")
    first, _ = parse_plain_text(listing, now=NOW)
    assert first.published_date == "2024-11-15T01:36:32.000Z"
    assert first.age_seconds == 86400
