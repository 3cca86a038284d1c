"""Jina (s.jina.ai): request building and response parsing, pure (no server)."""

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from tests.conftest import read_capture
from tests.providers._helpers import key_context, ok, status
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
from websearch_core.providers.base import ProviderContext
from websearch_core.providers.jina import (
    INFO,
    JINA_ENDPOINT,
    JinaProvider,
    parse_items,
    parse_sources,
    request_url,
    result_count,
)
from websearch_core.transport import HttpResponse

BASE_HEADERS = {
    "Accept": "application/json",
    "Authorization": "Bearer jina-test-key",
    "X-Respond-With": "no-content",
    "X-Retain-Images": "none",
}


def context(key: str | None = "jina-test-key") -> ProviderContext:
    return key_context("jina", key, transport=None)


def parse(body: Any, **fields: Any) -> Any:
    return JinaProvider().parse_response(ok(body), SearchParams(query="x", **fields))


# --- facts ------------------------------------------------------------------------------------


def test_registry_returns_the_jina_provider_with_its_facts() -> None:
    provider = get_provider("jina")
    assert isinstance(provider, JinaProvider)
    assert (INFO.id, INFO.label, INFO.kind) == ("jina", "Jina", "api")
    assert INFO.env_vars == ("JINA_API_KEY",)
    assert INFO.description == "Requires JINA_API_KEY"
    assert (INFO.default_results, INFO.max_results) == (5, 20)
    assert INFO.honours == {"query", "limit", "num_search_results", "include_domains"}


def test_available_only_with_a_key() -> None:
    assert JinaProvider().is_available(context())
    assert not JinaProvider().is_available(context(key=None))
    assert not JinaProvider().is_explicitly_available(context(key=None))


def test_missing_key_gives_the_spec_message() -> None:
    with pytest.raises(ProviderNotConfiguredError) as caught:
        JinaProvider().build_request(SearchParams(query="x"), context(key=None))
    assert caught.value.message == (
        'Jina credentials not found. Set JINA_API_KEY or configure an API key for provider "jina".'
    )


# --- request ----------------------------------------------------------------------------------


def test_default_request_shape() -> None:
    request = JinaProvider().build_request(SearchParams(query="jina ai"), context())
    assert request.method == "GET"
    assert request.url == "https://s.jina.ai/jina%20ai"
    assert JINA_ENDPOINT == "https://s.jina.ai/"
    assert list(request.params) == [("count", "5")]
    assert dict(request.headers) == BASE_HEADERS
    assert request.json is None and request.form is None
    assert "jina-test-key" not in repr(request)


@pytest.mark.parametrize(
    ("query", "path"),
    [
        ("C++ vs Rust?", "C%2B%2B%20vs%20Rust%3F"),
        ("a/b#c&d=e", "a%2Fb%23c%26d%3De"),
        ("it's (fun)!*", "it's%20(fun)!*"),
        ("100% ~safe_-.", "100%25%20~safe_-."),
        ("café 東京", "caf%C3%A9%20%E6%9D%B1%E4%BA%AC"),
    ],
)
def test_query_is_encoded_like_encode_uri_component(query: str, path: str) -> None:
    assert request_url(query) == JINA_ENDPOINT + path


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({}, 5),
        ({"limit": 3}, 3),
        ({"limit": 1}, 1),
        ({"limit": 20}, 20),
        ({"limit": 50}, 20),
        ({"num_search_results": 12, "limit": 3}, 12),
    ],
)
def test_count_is_num_search_results_before_limit_default_5_max_20(
    fields: dict[str, int], expected: int
) -> None:
    params = SearchParams(query="x", **fields)
    assert result_count(params) == expected
    assert list(JinaProvider().build_request(params, context()).params) == [
        ("count", str(expected))
    ]


def test_x_site_lists_every_included_domain_joined_as_jina_splits_it() -> None:
    # jina-ai/reader src/services/serper-search.ts: the x-site header is split on ", " and
    # searched as site:a OR site:b.
    one = SearchParams(query="x", include_domains=("www.python.org",))
    assert JinaProvider().build_request(one, context()).headers["X-Site"] == "python.org"
    two = SearchParams(query="x", include_domains=("python.org", "pypi.org"))
    assert JinaProvider().build_request(two, context()).headers["X-Site"] == "python.org, pypi.org"
    excluded = SearchParams(query="x", exclude_domains=("pinterest.com",))
    assert dict(JinaProvider().build_request(excluded, context()).headers) == BASE_HEADERS


def test_unhonoured_fields_change_nothing() -> None:
    params = SearchParams(
        query="x", recency="day", country="us", language="en", max_tokens=5, temperature=1.0
    )
    request = JinaProvider().build_request(params, context())
    assert list(request.params) == [("count", "5")]
    assert dict(request.headers) == BASE_HEADERS


# --- the real capture -------------------------------------------------------------------------


@pytest.mark.conformance
def test_parse_real_capture_doc_example() -> None:
    body = read_capture("jina/s_jina_ai_search_doc_example.json")
    response = JinaProvider().parse_response(
        HttpResponse(status=200, body=body), SearchParams(query="Jina AI")
    )
    assert response.provider == "jina"
    assert response.auth_mode == "api_key"
    assert response.answer is None
    first, second = response.sources
    assert first.title == "Jina AI - Your Search Foundation, Supercharged."
    assert first.url == "https://jina.ai/"
    assert first.snippet == (
        "Our frontier models form the search foundation for high-quality enterprise search..."
    )
    assert second.title == (
        "Jina AI CEO, Founder, Key Executive Team, Board of Directors & Employees"
    )
    assert second.url == "https://www.cbinsights.com/company/jina-ai/people"
    assert second.snippet == (
        "An open-source vector search engine that supports structured filtering..."
    )
    assert all(s.published_date is None and s.age_seconds is None for s in response.sources)


@pytest.mark.conformance
def test_real_capture_content_is_the_fallback_snippet_and_limit_slices() -> None:
    data = json.loads(read_capture("jina/s_jina_ai_search_doc_example.json"))
    for item in data["data"]:
        item["description"] = "   "
    sources = parse_sources(data)
    assert [s.snippet for s in sources] == [
        "Jina AI - Your Search Foundation, Supercharged...",
        "Jina AI Management Team...",
    ]
    assert [s.url for s in parse_sources(data, limit=1)] == ["https://jina.ai/"]


# --- parsing rules ----------------------------------------------------------------------------


def test_a_bare_array_is_accepted() -> None:
    response = parse([{"title": "T", "url": "https://a.example/", "description": "D"}])
    assert [(s.title, s.url, s.snippet) for s in response.sources] == [
        ("T", "https://a.example/", "D")
    ]


def test_items_without_a_usable_url_are_skipped_and_titles_fall_back() -> None:
    response = parse(
        {
            "code": 200,
            "data": [
                {"title": "No URL"},
                {"title": "Bad", "url": "javascript:alert(1)"},
                None,
                {"title": " ", "url": " https://b.example/ ", "description": "", "content": ""},
            ],
        }
    )
    (source,) = response.sources
    assert (source.title, source.url, source.snippet) == (
        "https://b.example/",
        "https://b.example/",
        None,
    )


def test_dates_when_present() -> None:
    data = [
        {"url": "https://a.example/", "date": "Jan 2, 2024"},
        {"url": "https://b.example/", "publishedTime": "2024-01-02T00:00:00Z"},
        {"url": "https://c.example/", "date": "yesterday"},
    ]
    now = datetime(2024, 1, 3, tzinfo=UTC)
    a, b, c = parse_sources(data, now=now)
    assert (a.published_date, a.age_seconds) == ("Jan 2, 2024", 86400)
    assert (b.published_date, b.age_seconds) == ("2024-01-02T00:00:00Z", 86400)
    assert (c.published_date, c.age_seconds) == ("yesterday", None)


def test_all_items_without_a_count_and_sliced_with_one() -> None:
    data = {"code": 200, "data": [{"url": f"https://r{i}.example/"} for i in range(8)]}
    assert len(parse(data).sources) == 8
    assert len(parse(data, limit=3).sources) == 3
    assert len(parse(data, num_search_results=6, limit=2).sources) == 6


@pytest.mark.parametrize("data", ["x", 3, None, True])
def test_neither_object_nor_array_is_a_parse_error(data: Any) -> None:
    with pytest.raises(ResponseParseError) as caught:
        parse(data)
    assert caught.value.message == (
        "Jina API returned invalid response: expected an object or array"
    )


@pytest.mark.parametrize("data", [{"code": 200}, {"code": 200, "data": {"a": 1}}, {"data": "x"}])
def test_data_not_an_array_is_a_parse_error(data: Any) -> None:
    with pytest.raises(ResponseParseError) as caught:
        parse(data)
    assert caught.value.message == "Jina API returned invalid response: expected data array"


def test_invalid_json_is_a_parse_error() -> None:
    with pytest.raises(ResponseParseError) as caught:
        JinaProvider().parse_response(status(200, "[1] Title: x"), SearchParams(query="x"))
    assert caught.value.message == "Jina API returned invalid JSON"


@pytest.mark.parametrize(
    ("code", "error_type", "message"),
    [
        (401, AuthorizationError, "jina: 401 unauthorized"),
        (429, RateLimitedError, "Jina API response reported failure (429)"),
        (503, ProviderUnavailableError, "Jina API response reported failure (503)"),
        (422, SearchProviderError, "Jina API response reported failure (422)"),
        (20001, SearchProviderError, "Jina API response reported failure (20001)"),
        ("oops", SearchProviderError, "Jina API response reported failure (oops)"),
    ],
)
def test_a_failure_code_in_a_2xx_body(code: Any, error_type: type, message: str) -> None:
    with pytest.raises(SearchProviderError) as caught:
        parse({"code": code, "data": None, "message": "nope"})
    assert type(caught.value) is error_type
    assert caught.value.message == message


def test_a_failure_code_with_a_balance_message_is_quota() -> None:
    with pytest.raises(QuotaExhaustedError):
        parse({"code": 402, "name": "InsufficientBalanceError", "data": None})


# --- HTTP errors ------------------------------------------------------------------------------


def test_parse_items_returns_the_raw_items() -> None:
    items = [{"url": "https://a.example/"}, "junk"]
    assert parse_items(items) is items
    assert parse_items({"code": 200, "data": items}) is items


# --- no results: s.jina.ai's 422 --------------------------------------------------------------

NO_RESULTS_BODY = json.dumps(
    {
        "data": None,
        "code": 422,
        "name": "AssertionFailureError",
        "status": 42206,
        "message": "No search results available for query site:nowhere.example jina",
        "readableMessage": "AssertionFailureError: No search results available for query ...",
    }
)
"""s.jina.ai's answer to a search that found nothing, as live clients quote it (the envelope
of ``jina-ai/reader``'s errors; no capture of it is stored)."""


def test_the_no_results_422_is_zero_sources_not_a_failure() -> None:
    response = status(422, NO_RESULTS_BODY)
    JinaProvider().check(response)  # raises nothing
    JinaProvider().check_response(response)
    parsed = JinaProvider().parse_response(response, SearchParams(query="jina"))
    assert parsed.sources == () and parsed.answer is None
    assert parsed.provider == "jina" and parsed.auth_mode == "api_key"


@pytest.mark.parametrize(
    "body",
    [
        # Another 422 of Jina's: a parameter it refused.
        '{"data": null, "code": 422, "name": "ParamValidationError", "status": 42201,'
        ' "message": "No search results available for query x"}',
        # The right name with another message.
        '{"data": null, "code": 422, "name": "AssertionFailureError", "status": 42206,'
        ' "message": "No content available for query x"}',
        "No search results available for query x",
        "",
    ],
)
def test_any_other_422_is_still_an_error(body: str) -> None:
    with pytest.raises(SearchProviderError) as caught:
        JinaProvider().check(status(422, body))
    assert caught.value.message == f"Jina API error (422): {body}".rstrip(": ")
    assert caught.value.status == 422


def test_the_no_results_message_at_another_status_is_still_an_error() -> None:
    with pytest.raises(SearchProviderError) as caught:
        JinaProvider().check(status(400, NO_RESULTS_BODY))
    assert caught.value.status == 400
