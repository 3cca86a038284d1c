"""Synthetic: request building and response parsing, pure (no server).

There is no real capture of a Synthetic response; the fixtures below follow the documented
shape ``{"results": [{"url", "title", "text", "published"}]}``.
"""

from datetime import UTC, datetime
from typing import Any

import pytest

from tests.providers._helpers import key_context, ok, status
from websearch_core.credentials import Credentials
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
from websearch_core.providers.synthetic import (
    INFO,
    SYNTHETIC_ENDPOINT,
    SyntheticProvider,
    parse_results,
)
from websearch_core.settings import Settings

DOCUMENTED_BODY = {
    "results": [
        {
            "url": "https://requests.readthedocs.io/en/latest/",
            "title": "Requests: HTTP for Humans™ — Requests 2.32.3 documentation",
            "text": "Requests is an elegant and simple HTTP library for Python, built for "
            "human beings.",
            "published": "2025-11-05T00:00:00.000Z",
        },
        {
            "url": "https://pypi.org/project/requests/",
            "title": "requests · PyPI",
            "text": "  Python HTTP for Humans.\n",
            "published": None,
        },
        {
            "url": "https://realpython.com/python-requests/",
            "title": "Python's Requests Library (Guide) – Real Python",
            "text": "In this tutorial, you'll learn how to use the Requests library.",
            "published": "2024-06-30T12:00:00.000Z",
        },
    ]
}
NOW = datetime(2025, 11, 6, tzinfo=UTC)


def context(key: str | None = "syn-test-key") -> ProviderContext:
    return key_context("synthetic", key, transport=None)


# --- facts ------------------------------------------------------------------------------------


def test_registry_returns_the_synthetic_provider_with_its_facts() -> None:
    provider = get_provider("synthetic")
    assert isinstance(provider, SyntheticProvider)
    assert (INFO.id, INFO.label, INFO.kind) == ("synthetic", "Synthetic", "api")
    assert INFO.env_vars == ("SYNTHETIC_API_KEY",)
    assert INFO.description == "Requires SYNTHETIC_API_KEY"
    assert INFO.honours == {"query", "limit", "num_search_results"}
    assert (INFO.default_results, INFO.max_results) == (None, None)


def test_available_only_with_a_key() -> None:
    assert SyntheticProvider().is_available(context())
    assert not SyntheticProvider().is_available(context(key=None))
    env = ProviderContext(
        transport=None,  # type: ignore[arg-type]
        settings=Settings(),
        credentials=Credentials(environ={"SYNTHETIC_API_KEY": "from-env"}),
    )
    assert SyntheticProvider().api_key(env) == "from-env"


def test_missing_key_gives_the_spec_message() -> None:
    with pytest.raises(ProviderNotConfiguredError) as caught:
        SyntheticProvider().build_request(SearchParams(query="x"), context(key=None))
    assert caught.value.message == (
        "Synthetic credentials not found. Set SYNTHETIC_API_KEY or configure an API key "
        'for provider "synthetic".'
    )


# --- request ----------------------------------------------------------------------------------


def test_request_shape_sends_only_the_query() -> None:
    params = SearchParams(
        query="python requests",
        recency="week",
        limit=2,
        num_search_results=3,
        country="de",
        language="de",
        max_tokens=100,
        temperature=0.3,
        include_domains=("python.org",),
    )
    request = SyntheticProvider().build_request(params, context())
    assert request.method == "POST"
    assert request.url == SYNTHETIC_ENDPOINT == "https://api.synthetic.new/v2/search"
    assert dict(request.headers) == {
        "Content-Type": "application/json",
        "Authorization": "Bearer syn-test-key",
    }
    assert request.json == {"query": "python requests"}
    assert list(request.params) == []
    assert "syn-test-key" not in repr(request)


# --- parsing ----------------------------------------------------------------------------------


def test_parse_documented_body() -> None:
    first, second, third = parse_results(DOCUMENTED_BODY, now=NOW)
    assert first.title == "Requests: HTTP for Humans™ — Requests 2.32.3 documentation"
    assert first.url == "https://requests.readthedocs.io/en/latest/"
    assert first.snippet == (
        "Requests is an elegant and simple HTTP library for Python, built for human beings."
    )
    assert first.published_date == "2025-11-05T00:00:00.000Z"
    assert first.age_seconds == 86400
    assert (second.title, second.url, second.snippet) == (
        "requests · PyPI",
        "https://pypi.org/project/requests/",
        "Python HTTP for Humans.",
    )
    assert second.published_date is None and second.age_seconds is None
    assert third.title == "Python's Requests Library (Guide) – Real Python"
    assert third.age_seconds is not None and third.age_seconds > 86400 * 365


def test_parse_response_keeps_all_without_a_count_and_slices_with_one() -> None:
    provider = SyntheticProvider()
    response = provider.parse_response(ok(DOCUMENTED_BODY), SearchParams(query="x"))
    assert response.provider == "synthetic"
    assert response.auth_mode == "api_key"
    assert response.answer is None and response.request_id is None
    assert len(response.sources) == 3
    limited = provider.parse_response(ok(DOCUMENTED_BODY), SearchParams(query="x", limit=2))
    assert [s.url for s in limited.sources] == [
        "https://requests.readthedocs.io/en/latest/",
        "https://pypi.org/project/requests/",
    ]
    breadth = provider.parse_response(
        ok(DOCUMENTED_BODY), SearchParams(query="x", limit=1, num_search_results=50)
    )
    assert len(breadth.sources) == 3


def test_unusable_items_are_skipped_and_titles_fall_back() -> None:
    data = {
        "results": [
            {"title": "No URL", "text": "dropped"},
            {"title": "Relative", "url": "/path"},
            7,
            {"url": "https://a.example/", "title": None, "text": None, "published": "soon"},
        ]
    }
    (source,) = parse_results(data)
    assert (source.title, source.url, source.snippet) == (
        "https://a.example/",
        "https://a.example/",
        None,
    )
    assert (source.published_date, source.age_seconds) == ("soon", None)


def test_missing_or_null_results_are_empty() -> None:
    assert parse_results({}) == ()
    assert parse_results({"results": None}) == ()


@pytest.mark.parametrize("data", [[], "x", {"results": {"a": 1}}, {"results": "none"}])
def test_wrong_shape_is_a_parse_error(data: Any) -> None:
    with pytest.raises(ResponseParseError) as caught:
        parse_results(data)
    assert caught.value.message == "Synthetic API returned an unexpected response shape"


def test_invalid_json_is_a_parse_error() -> None:
    with pytest.raises(ResponseParseError) as caught:
        SyntheticProvider().parse_response(status(200, "<html>"), SearchParams(query="x"))
    assert caught.value.message == "Synthetic API returned invalid JSON"


# --- errors -----------------------------------------------------------------------------------


def test_http_errors_go_through_the_shared_classifier() -> None:
    provider = SyntheticProvider()
    with pytest.raises(AuthorizationError) as auth:
        provider.check(status(401, '{"error": "Invalid API key"}'))
    assert (auth.value.status, auth.value.message) == (401, "synthetic: 401 unauthorized")
    with pytest.raises(QuotaExhaustedError) as quota:
        provider.check(status(429, '{"error": "Search quota exceeded"}'))
    assert quota.value.message == "synthetic: credits exhausted"
    with pytest.raises(RateLimitedError) as limited:
        provider.check(status(429, "Too many requests", {"Retry-After": "9"}))
    assert limited.value.retry_after == 9.0
    assert limited.value.message == "Synthetic API error (429): Too many requests"
    with pytest.raises(ProviderUnavailableError) as unavailable:
        provider.check(status(502, ""))
    assert unavailable.value.message == "Synthetic API error (502)"
    with pytest.raises(SearchProviderError) as bad:
        provider.check(status(400, '{"error": "query is required"}'))
    assert type(bad.value) is SearchProviderError
    assert bad.value.message == 'Synthetic API error (400): {"error": "query is required"}'
    provider.check(status(200, "{}"))
