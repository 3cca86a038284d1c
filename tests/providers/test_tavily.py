"""Tavily: request building, response parsing and the retry rule, pure (no server)."""

import json
from collections.abc import Mapping
from datetime import UTC, date, datetime
from typing import Any

import pytest

from tests.conftest import read_capture
from tests.providers._helpers import OFFLINE, ScriptedTransport, key_context, ok, status
from websearch_core.errors import (
    AuthorizationError,
    ProviderNotConfiguredError,
    ProviderUnavailableError,
    QuotaExhaustedError,
    RateLimitedError,
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.models import SearchParams
from websearch_core.providers import get_provider
from websearch_core.providers._tavily_countries import tavily_country
from websearch_core.providers.base import ProviderContext
from websearch_core.providers.tavily import (
    INFO,
    TAVILY_ENDPOINT,
    TavilyProvider,
    error_message,
    parse_answer,
    parse_results,
    request_body,
    without_time_filter,
)
from websearch_core.transport import HttpResponse

BASE_BODY = {
    "query": "x",
    "search_depth": "basic",
    "max_results": 5,
    "include_answer": "advanced",
    "include_raw_content": False,
}


def context(key: str | None = "tvly-test-key", transport: Any = None) -> ProviderContext:
    return key_context("tavily", key, transport=OFFLINE if transport is None else transport)


# --- facts ------------------------------------------------------------------------------------


def test_registry_returns_the_tavily_provider_with_its_facts() -> None:
    provider = get_provider("tavily")
    assert isinstance(provider, TavilyProvider)
    assert (INFO.id, INFO.label, INFO.kind) == ("tavily", "Tavily", "api")
    assert INFO.env_vars == ("TAVILY_API_KEY",)
    assert (INFO.default_results, INFO.max_results) == (5, 20)
    assert INFO.description == "Requires TAVILY_API_KEY"
    assert INFO.honours == {
        "query",
        "recency",
        "limit",
        "num_search_results",
        "date_after",
        "date_before",
        "include_domains",
        "exclude_domains",
        "country",
    }


# --- request ----------------------------------------------------------------------------------


def test_default_request_shape() -> None:
    request = TavilyProvider().build_request(SearchParams(query="x"), context())
    assert request.method == "POST"
    assert request.url == TAVILY_ENDPOINT == "https://api.tavily.com/search"
    assert dict(request.headers) == {
        "Accept": "application/json",
        "Content-Type": "application/json",
        "Authorization": "Bearer tvly-test-key",
    }
    assert request.json == BASE_BODY
    assert list(request.params) == []
    assert "tvly-test-key" not in repr(request)


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({}, 5),
        ({"limit": 8}, 8),
        ({"limit": 20}, 20),
        ({"limit": 50}, 20),
        ({"num_search_results": 12, "limit": 3}, 12),
        # spec/web_search.md: "clamped to 5..20 with default 5".
        ({"limit": 3}, 5),
        ({"limit": 1}, 5),
    ],
)
def test_max_results_is_num_search_results_before_limit_clamped_5_to_20(
    fields: dict[str, int], expected: int
) -> None:
    assert request_body(SearchParams(query="x", **fields))["max_results"] == expected


@pytest.mark.parametrize("recency", ["day", "week", "month", "year"])
def test_recency_is_time_range_and_topic_is_never_sent(recency: str) -> None:
    body = request_body(SearchParams(query="x", recency=recency))  # type: ignore[arg-type]
    assert body == {**BASE_BODY, "time_range": recency}
    assert "topic" not in body


def test_dates_win_over_recency() -> None:
    body = request_body(
        SearchParams(
            query="x", recency="day", date_after=date(2025, 1, 2), date_before=date(2025, 3, 4)
        )
    )
    assert body == {**BASE_BODY, "start_date": "2025-01-02", "end_date": "2025-03-04"}


def test_one_date_alone_also_suppresses_time_range() -> None:
    body = request_body(SearchParams(query="x", recency="week", date_before=date(2024, 12, 31)))
    assert body == {**BASE_BODY, "end_date": "2024-12-31"}


def test_domains_are_sent_as_lists() -> None:
    body = request_body(
        SearchParams(
            query="x",
            include_domains=("www.python.org", "docs.python.org"),
            exclude_domains=("pinterest.com",),
        )
    )
    assert body["include_domains"] == ["python.org", "docs.python.org"]
    assert body["exclude_domains"] == ["pinterest.com"]


def test_unhonoured_fields_are_not_sent() -> None:
    body = request_body(SearchParams(query="x", language="en", max_tokens=10, temperature=0.5))
    assert body == BASE_BODY


@pytest.mark.parametrize(
    ("code", "name"),
    [("us", "united states"), ("DE", "germany"), ("gb", "united kingdom"), ("kr", "south korea")],
)
def test_country_is_sent_as_tavilys_lower_case_name(code: str, name: str) -> None:
    # docs.tavily.com/documentation/api-reference/endpoint/search, body field country: an
    # enum of lower-case English names, "afghanistan" to "zimbabwe".
    assert request_body(SearchParams(query="x", country=code)) == {**BASE_BODY, "country": name}


def test_a_country_off_tavilys_list_is_not_sent() -> None:
    # Guard (passes before and after): only a name on Tavily's list may go.
    assert request_body(SearchParams(query="x", country="hk")) == BASE_BODY
    assert (tavily_country("hk"), tavily_country("xk"), tavily_country("pr")) == (None, None, None)


def test_the_retry_without_a_time_filter_keeps_the_country() -> None:
    body = request_body(SearchParams(query="x", recency="day", country="fr"))
    assert without_time_filter(body) == {**BASE_BODY, "country": "france"}


def test_without_time_filter() -> None:
    assert without_time_filter(BASE_BODY) is None
    filtered = {**BASE_BODY, "time_range": "day", "start_date": "2025-01-01", "end_date": "x"}
    assert without_time_filter(filtered) == BASE_BODY


def test_missing_key_gives_the_spec_message() -> None:
    with pytest.raises(ProviderNotConfiguredError) as caught:
        TavilyProvider().build_request(SearchParams(query="x"), context(key=None))
    assert caught.value.message == (
        "Tavily credentials not found. Set TAVILY_API_KEY or configure an API key "
        'for provider "tavily".'
    )


# --- the real captures ------------------------------------------------------------------------


@pytest.mark.conformance
def test_parse_real_capture_pydantic_ai() -> None:
    body = read_capture("tavily/search_basic_pydantic_ai.json")
    response = TavilyProvider().parse_response(
        HttpResponse(status=200, body=body), SearchParams(query="What is Pydantic AI?")
    )
    assert response.provider == "tavily"
    assert response.answer is None
    assert response.request_id == "3b2f7385-b01d-479e-9825-1ce0f8c59b93"
    assert response.auth_mode == "api_key"
    assert [s.url for s in response.sources] == [
        "https://medium.com/ai-agent-insider/pydantic-ai-agent-framework-02b138e8db71",
        "https://ai.pydantic.dev/",
        "https://www.youtube.com/watch?v=-WB0T0XmDrY",
        "https://medium.com/@tahirbalarabe2/what-is-pydantic-ai-15cc81dea3c3",
        "https://www.reddit.com/r/LLMDevs/comments/1iih8az/pydantic_ai/",
    ]
    first, second, third, _, fifth = response.sources
    assert first.title == "Pydantic AI: Agent Framework"
    assert first.snippet is not None
    assert first.snippet.startswith("## AI Agent Insider. # Pydantic AI: Agent Framework.")
    assert first.snippet.endswith("## Published in AI Agent Insider.")
    assert second.title == "Pydantic AI - Pydantic AI"
    assert second.snippet == (
        "Pydantic AI is a Python agent framework designed to help you quickly, confidently, "
        "and painlessly build production grade applications and workflows with"
    )
    assert third.snippet == (
        "Pydantic AI lets you integrate large language models like GPT-5 "
        "**directly into your Python applications**."
    )
    assert fifth.title == "Pydantic AI : r/LLMDevs"
    assert all(s.published_date is None and s.age_seconds is None for s in response.sources)


@pytest.mark.conformance
def test_parse_real_capture_attention() -> None:
    data = json.loads(read_capture("tavily/search_bound_params_attention.json"))
    sources = parse_results(data)
    assert len(sources) == 2
    assert sources[0].title == "[2601.03329] Attention mechanisms in neural networks"
    assert sources[0].url == "https://arxiv.org/abs/2601.03329"
    assert sources[0].snippet == (
        "by H Hays · 2026 · Cited by 1 -- Attention mechanisms represent a fundamental "
        "paradigm shift in neural network architectures, enabling models to selectively "
        "focus on relevant"
    )
    assert sources[1].title == "A General Survey on Attention Mechanisms in Deep ..."
    assert sources[1].url == "https://arxiv.org/abs/2203.14263"
    assert parse_answer(data) is None
    assert data["request_id"] == "139680ef-e03d-48c8-a3bc-950081750288"


# --- parsing rules ----------------------------------------------------------------------------


def test_answer_is_trimmed_and_blank_or_null_is_none() -> None:
    assert parse_answer({"answer": "  Paris is the capital.\n"}) == "Paris is the capital."
    assert parse_answer({"answer": "   "}) is None
    assert parse_answer({"answer": None}) is None
    assert parse_answer({"answer": 3}) is None
    assert parse_answer({}) is None


def test_result_fields_and_published_date() -> None:
    data = {
        "results": [
            {
                "title": "",
                "url": "https://news.example.org/a",
                "content": "  Body text.  ",
                "published_date": "Tue, 02 Jan 2024 10:00:00 GMT",
            },
            {"title": "No URL", "content": "dropped"},
            {"title": "Bad URL", "url": "ftp://x.example/a"},
            "not an object",
            {"title": " Spaced\n title ", "url": "https://b.example/", "content": ""},
        ]
    }
    sources = parse_results(data, now=datetime(2024, 1, 3, 10, 0, tzinfo=UTC))
    assert len(sources) == 2
    assert sources[0].title == "https://news.example.org/a"
    assert sources[0].snippet == "Body text."
    assert sources[0].published_date == "Tue, 02 Jan 2024 10:00:00 GMT"
    assert sources[0].age_seconds == 86400
    assert sources[1].title == "Spaced title"
    assert sources[1].snippet is None
    assert sources[1].published_date is None


def test_missing_or_null_results_are_empty() -> None:
    assert parse_results({"answer": "a"}) == ()
    assert parse_results({"results": None}) == ()


@pytest.mark.parametrize("data", [[], "x", {"results": {"a": 1}}, {"results": "none"}])
def test_wrong_shape_is_a_parse_error(data: Any) -> None:
    with pytest.raises(ResponseParseError) as caught:
        parse_results(data)
    assert caught.value.message.startswith("Tavily API returned an unexpected response shape")


def test_invalid_json_is_a_parse_error() -> None:
    with pytest.raises(ResponseParseError) as caught:
        TavilyProvider().parse_response(status(200, "<html>"), SearchParams(query="x"))
    assert caught.value.message == "Tavily API returned invalid JSON"


def test_parse_response_with_an_answer() -> None:
    response = TavilyProvider().parse_response(
        ok(
            {
                "answer": " Use asyncio.TaskGroup. ",
                "request_id": "r-1",
                "results": [{"title": "T", "url": "https://a.example/", "content": "C"}],
            }
        ),
        SearchParams(query="x"),
    )
    assert response.answer == "Use asyncio.TaskGroup."
    assert response.request_id == "r-1"
    assert [(s.title, s.url, s.snippet) for s in response.sources] == [
        ("T", "https://a.example/", "C")
    ]


# --- errors -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            '{"detail": {"error": "Unauthorized: missing or invalid API key."}}',
            "Unauthorized: missing or invalid API key.",
        ),
        ('{"detail": "Too many requests"}', "Too many requests"),
        ('{"message": "bad"}', "bad"),
        ('{"error": {"message": "nested"}}', "nested"),
        ('{"errors": [{"info": {"detail": "deep"}}]}', "deep"),
        ('[{"error": "in a list"}]', "in a list"),
        (
            '{"detail": [{"loc": ["body"], "msg": "field required"}]}',
            '{"detail": [{"loc": ["body"], "msg": "field required"}]}',
        ),
        ("plain text failure", "plain text failure"),
        ("", "Bad Gateway"),
    ],
)
def test_error_message(body: str, message: str) -> None:
    assert error_message(502, body) == message


def test_error_message_for_an_unknown_status_and_empty_body() -> None:
    assert error_message(499, "  ") == "Unknown error"


def test_2xx_passes() -> None:
    TavilyProvider().check_response(status(200, "{}"))


@pytest.mark.parametrize("code", [432, 433])
def test_plan_and_pay_as_you_go_limits_are_quota_exhausted(code: int) -> None:
    body = '{"detail": {"error": "This request exceeds your plan\'s set usage limit."}}'
    with pytest.raises(QuotaExhaustedError) as caught:
        TavilyProvider().check_response(status(code, body))
    assert caught.value.status == code
    assert caught.value.message == (
        f"Tavily API error ({code}): This request exceeds your plan's set usage limit."
    )


def test_401_goes_through_the_shared_classifier() -> None:
    with pytest.raises(AuthorizationError) as caught:
        TavilyProvider().check_response(
            status(401, '{"detail": {"error": "Unauthorized: missing or invalid API key."}}')
        )
    assert (caught.value.status, caught.value.message) == (401, "tavily: 401 unauthorized")


def test_429_is_rate_limited_with_the_tavily_message() -> None:
    response = HttpResponse(
        status=429,
        body=b'{"detail": {"error": "Rate limit exceeded"}}',
        headers={"Retry-After": "2"},
    )
    with pytest.raises(RateLimitedError) as caught:
        TavilyProvider().check_response(response)
    assert caught.value.retry_after == 2.0
    assert caught.value.message == "Tavily API error (429): Rate limit exceeded"


def test_5xx_is_unavailable_and_400_a_plain_error() -> None:
    with pytest.raises(ProviderUnavailableError) as unavailable:
        TavilyProvider().check_response(status(500, ""))
    assert unavailable.value.message == "Tavily API error (500): Internal Server Error"
    with pytest.raises(SearchProviderError) as bad:
        TavilyProvider().check_response(status(400, '{"detail": {"error": "Query is missing."}}'))
    assert type(bad.value) is SearchProviderError
    assert bad.value.message == "Tavily API error (400): Query is missing."


# --- the retry rule, with a scripted transport -------------------------------------------------


def scripted_transport(*responses: HttpResponse) -> ScriptedTransport:
    """The shared scripted transport, checking every request is sent as Tavily's."""
    return ScriptedTransport(*responses, provider=("tavily", "Tavily"))


EMPTY = {"answer": None, "results": [], "request_id": "empty"}
FOUND = {
    "answer": None,
    "request_id": "found",
    "results": [{"title": "T", "url": "https://a.example/", "content": "C"}],
}


def _bodies(transport: ScriptedTransport) -> list[Mapping[str, Any]]:
    return [request.json for request in transport.sent]


async def test_empty_filtered_answer_is_retried_once_without_the_filter() -> None:
    transport = scripted_transport(ok(EMPTY), ok(FOUND))
    response = await TavilyProvider().search(
        SearchParams(query="x", recency="day"), context(transport=transport)
    )
    assert response.request_id == "found"
    assert [s.url for s in response.sources] == ["https://a.example/"]
    assert _bodies(transport) == [{**BASE_BODY, "time_range": "day"}, BASE_BODY]
    assert transport.sent[1].headers["Authorization"] == "Bearer tvly-test-key"


async def test_retry_drops_explicit_dates_too() -> None:
    transport = scripted_transport(ok(EMPTY), ok(EMPTY))
    response = await TavilyProvider().search(
        SearchParams(query="x", date_after=date(2030, 1, 1)), context(transport=transport)
    )
    assert response.sources == () and response.answer is None
    assert _bodies(transport) == [{**BASE_BODY, "start_date": "2030-01-01"}, BASE_BODY]


async def test_no_retry_without_a_time_filter() -> None:
    transport = scripted_transport(ok(EMPTY))
    response = await TavilyProvider().search(SearchParams(query="x"), context(transport=transport))
    assert response.request_id == "empty"
    assert len(transport.sent) == 1


async def test_no_retry_when_the_filtered_search_found_something() -> None:
    transport = scripted_transport(ok(FOUND))
    await TavilyProvider().search(
        SearchParams(query="x", recency="week"), context(transport=transport)
    )
    assert len(transport.sent) == 1


async def test_an_answer_alone_is_enough_not_to_retry() -> None:
    transport = scripted_transport(ok({"answer": "Yes.", "results": []}))
    response = await TavilyProvider().search(
        SearchParams(query="x", recency="week"), context(transport=transport)
    )
    assert response.answer == "Yes."
    assert len(transport.sent) == 1


async def test_an_error_on_the_first_call_is_not_retried() -> None:
    transport = scripted_transport(status(500, "boom"))
    with pytest.raises(ProviderUnavailableError):
        await TavilyProvider().search(
            SearchParams(query="x", recency="week"), context(transport=transport)
        )
    assert len(transport.sent) == 1


def test_error_message_prefers_detail_then_error_then_message() -> None:
    """A guard: the reference's order, ``detail|error|message``, decides between siblings.

    Every error body in the tests held one of the three, so the order reversed passed every
    Tavily test (stop 50's wire mutations).
    """
    body = '{"message": "third", "error": "second", "detail": "first"}'
    assert error_message(400, body) == "first"
    assert error_message(400, '{"message": "third", "error": "second"}') == "second"
