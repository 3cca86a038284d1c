"""TinyFish: request building, page parsing and merging, pure (no server)."""

import json
from datetime import date
from typing import Any

import pytest

from tests.conftest import read_capture
from tests.providers._helpers import key_context, ok, status
from websearch_core.credentials import Credentials
from websearch_core.errors import (
    AuthorizationError,
    ProviderNotConfiguredError,
    QuotaExhaustedError,
    RateLimitedError,
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.filters import plan_filters
from websearch_core.models import SearchParams
from websearch_core.providers import get_provider
from websearch_core.providers.base import ProviderContext
from websearch_core.providers.tinyfish import (
    INFO,
    TINYFISH_ENDPOINT,
    TinyFishPage,
    TinyFishProvider,
    locale,
    merge_pages,
    page_size,
    parse_page,
    query_params,
)
from websearch_core.settings import Settings
from websearch_core.transport import HttpResponse


def context(key: str | None = "tf-test-key") -> ProviderContext:
    return key_context("tinyfish", key)


# --- facts ------------------------------------------------------------------------------------


def test_registry_returns_the_tinyfish_provider_with_its_facts() -> None:
    provider = get_provider("tinyfish")
    assert isinstance(provider, TinyFishProvider)
    assert provider.info is INFO
    assert (INFO.id, INFO.label, INFO.kind) == ("tinyfish", "TinyFish", "api")
    assert INFO.env_vars == ("TINYFISH_API_KEY",)
    assert INFO.description == "Requires TINYFISH_API_KEY"
    assert (INFO.default_results, INFO.max_results) == (10, 20)
    assert INFO.honours == {
        "query",
        "recency",
        "limit",
        "num_search_results",
        "country",
        "language",
        "date_after",
        "date_before",
    }
    assert INFO.docs_url.startswith("https://docs.tinyfish.ai/")


# --- request ----------------------------------------------------------------------------------


def test_default_request_shape() -> None:
    request = TinyFishProvider().build_request(SearchParams(query="web automation"), context())
    assert request.method == "GET"
    assert request.url == TINYFISH_ENDPOINT == "https://api.search.tinyfish.ai"
    assert list(request.params) == [
        ("query", "web automation"),
        ("num_results", "10"),
        ("page", "0"),
    ]
    assert dict(request.headers) == {"Accept": "application/json", "X-API-Key": "tf-test-key"}
    assert request.json is None and request.form is None
    assert "tf-test-key" not in repr(request)


def test_page_request() -> None:
    request = TinyFishProvider().request_for_page(SearchParams(query="x", limit=15), context(), 1)
    assert list(request.params)[-2:] == [("num_results", "10"), ("page", "1")]


@pytest.mark.parametrize(
    ("fields", "size"),
    [
        ({}, 10),
        ({"limit": 1}, 1),
        ({"limit": 5}, 5),
        ({"limit": 10}, 10),
        ({"limit": 15}, 10),
        ({"limit": 100}, 10),
        ({"num_search_results": 3, "limit": 15}, 3),
    ],
)
def test_page_size_is_min_of_n_and_ten(fields: dict[str, int], size: int) -> None:
    params = SearchParams(query="x", **fields)
    assert page_size(params) == size
    assert dict(query_params(params, 0))["num_results"] == str(size)


@pytest.mark.parametrize(
    ("recency", "minutes"),
    [("day", "1440"), ("week", "10080"), ("month", "43200"), ("year", "525600")],
)
def test_recency_maps_to_minutes(recency: str, minutes: str) -> None:
    params = SearchParams(query="x", recency=recency)
    assert dict(query_params(params, 0))["recency_minutes"] == minutes


def test_explicit_dates_replace_recency_minutes() -> None:
    params = SearchParams(
        query="x", recency="day", date_after=date(2026, 1, 1), date_before=date(2026, 2, 1)
    )
    query = dict(query_params(params, 0))
    assert query["after_date"] == "2026-01-01"
    assert query["before_date"] == "2026-02-01"
    assert "recency_minutes" not in query


def test_full_query_order() -> None:
    # The domains as the filter plan hands them over: written into the query with site:
    # and -site:, the way TinyFish's reference scopes a search, and sent as the parameters
    # the behaviour reference's client uses as well.
    params = SearchParams(
        query="rust async",
        recency="week",
        include_domains=("docs.rs", "www.rust-lang.org"),
        exclude_domains=("reddit.com",),
        country="gb",
        language="en-US",
        limit=4,
    )
    assert query_params(plan_filters(params, INFO).params, 0) == [
        ("query", "rust async site:docs.rs OR site:rust-lang.org -site:reddit.com"),
        ("recency_minutes", "10080"),
        ("include_domains", "docs.rs,rust-lang.org"),
        ("exclude_domains", "reddit.com"),
        ("location", "GB"),
        ("language", "en"),
        ("num_results", "4"),
        ("page", "0"),
    ]


@pytest.mark.parametrize(
    ("country", "language", "expected"),
    [
        (None, None, (None, None)),
        ("us", None, ("US", None)),
        (None, "fr", (None, "fr")),
        (None, "pt-BR", ("BR", "pt")),
        ("de", "pt-BR", ("DE", "pt")),
        (None, "zh-Hans", (None, "zh")),
        (None, "zh-Hans-CN", (None, "zh")),
        (None, "fil", (None, None)),
    ],
)
def test_locale(
    country: str | None, language: str | None, expected: tuple[str | None, str | None]
) -> None:
    assert locale(SearchParams(query="x", country=country, language=language)) == expected


def test_missing_key_gives_the_spec_message() -> None:
    with pytest.raises(ProviderNotConfiguredError) as caught:
        TinyFishProvider().build_request(SearchParams(query="x"), context(key=None))
    assert caught.value.message == (
        "TinyFish credentials not found. Set TINYFISH_API_KEY or configure an API key "
        'for provider "tinyfish".'
    )


def test_key_from_the_environment_variable() -> None:
    ctx = ProviderContext(
        transport=context().transport,
        settings=Settings(),
        credentials=Credentials(environ={"TINYFISH_API_KEY": "from-env"}),
    )
    assert TinyFishProvider().is_available(ctx)
    request = TinyFishProvider().build_request(SearchParams(query="x"), ctx)
    assert request.headers["X-API-Key"] == "from-env"


# --- the captures -----------------------------------------------------------------------------


@pytest.mark.conformance
def test_parse_search_capture() -> None:
    body = read_capture("tinyfish/search_doc_example.json")
    response = TinyFishProvider().parse_response(
        HttpResponse(status=200, body=body), SearchParams(query="web automation tools")
    )
    assert response.provider == "tinyfish"
    assert response.auth_mode == "api_key"
    assert response.answer is None and response.request_id is None
    (source,) = response.sources
    assert source.title == "Best Web Automation Tools"
    assert source.url == "https://example.com/web-automation-tools"
    assert source.snippet == "Top web automation tools for 2026..."
    assert source.author == "example.com"
    assert source.published_date is None and source.age_seconds is None


@pytest.mark.conformance
def test_capture_page_counts_its_raw_results() -> None:
    page = parse_page(json.loads(read_capture("tinyfish/search_doc_example.json")))
    assert page.raw_count == 1
    assert [s.url for s in page.sources] == ["https://example.com/web-automation-tools"]


@pytest.mark.conformance
@pytest.mark.parametrize("code", [400, 401, 402, 403, 404, 429])
def test_error_capture_is_typed_by_status(code: int) -> None:
    body = read_capture("tinyfish/error_doc_example_generic.json").decode()
    response = HttpResponse(status=code, body=body.encode(), headers={"Retry-After": "2"})
    with pytest.raises(SearchProviderError) as caught:
        TinyFishProvider().check_response(response)
    error = caught.value
    assert error.status == code
    expected_type = {
        401: AuthorizationError,
        402: QuotaExhaustedError,
        403: AuthorizationError,
        429: RateLimitedError,
    }.get(code, SearchProviderError)
    assert type(error) is expected_type
    if expected_type is SearchProviderError or expected_type is RateLimitedError:
        assert error.message == f"TinyFish API error ({code}): {body.strip()}"
        assert 'Field \\"url\\" is required' in error.message


# --- parsing rules ----------------------------------------------------------------------------


def test_title_falls_back_to_site_name_then_url_and_whitespace_collapses() -> None:
    page = parse_page(
        {
            "results": [
                {"url": " https://a.example/1 ", "title": "", "site_name": "a.example"},
                {"url": "https://a.example/2", "snippet": "  two\n\tlines  "},
                {"url": "https://a.example/3", "title": " Three\n title ", "snippet": " "},
                {"url": "mailto:x@a.example", "title": "dropped"},
                {"title": "no url"},
                "not an object",
            ]
        }
    )
    assert page.raw_count == 6
    assert [(s.title, s.url, s.snippet, s.author) for s in page.sources] == [
        ("a.example", "https://a.example/1", None, "a.example"),
        ("https://a.example/2", "https://a.example/2", "two lines", None),
        ("Three title", "https://a.example/3", None, None),
    ]


@pytest.mark.parametrize("body", [{}, {"results": None}, {"results": {}}, [], "x"])
def test_results_not_a_list_is_an_unexpected_shape(body: Any) -> None:
    with pytest.raises(ResponseParseError) as caught:
        TinyFishProvider().parse_response(ok(body), SearchParams(query="x"))
    assert caught.value.message == "TinyFish Search API returned an unexpected response shape"


def test_invalid_json() -> None:
    with pytest.raises(ResponseParseError) as caught:
        TinyFishProvider().parse_response(status(200, "<html>"), SearchParams(query="x"))
    assert caught.value.message == "TinyFish API returned invalid JSON"


def test_merge_dedupes_across_pages_and_cuts() -> None:
    first = parse_page(
        {"results": [{"url": "https://a.example/1"}, {"url": "https://a.example/2"}]}
    )
    second = parse_page(
        {"results": [{"url": " https://a.example/2 "}, {"url": "https://a.example/3"}]}
    )
    merged = merge_pages([first, second], 10)
    assert [s.url for s in merged] == [
        "https://a.example/1",
        "https://a.example/2",
        "https://a.example/3",
    ]
    assert [s.url for s in merge_pages([first, second], 2)] == [
        "https://a.example/1",
        "https://a.example/2",
    ]
    assert "raw_count=2" in repr(first)
    assert isinstance(first, TinyFishPage)


def test_parse_response_cuts_one_page_to_n() -> None:
    body = {"results": [{"url": f"https://a.example/{i}"} for i in range(10)]}
    response = TinyFishProvider().parse_response(ok(body), SearchParams(query="x", limit=3))
    assert len(response.sources) == 3


@pytest.mark.parametrize("code", [402, 403])
def test_insufficient_credits_is_a_spent_quota_at_either_status(code: int) -> None:
    # TinyFish's error table: INSUFFICIENT_CREDITS is a 403 on its other APIs, a 402 on
    # Search; at either status it is no refused key.
    body = json.dumps(
        {"error": {"code": "INSUFFICIENT_CREDITS", "message": "Not enough credits", "details": {}}}
    )
    with pytest.raises(SearchProviderError) as caught:
        TinyFishProvider().check_response(HttpResponse(status=code, body=body.encode()))
    assert type(caught.value) is QuotaExhaustedError
    assert caught.value.status == code
