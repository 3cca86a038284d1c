"""Firecrawl: request building and response parsing, pure (no server), plus the real capture."""

import json
from datetime import date
from typing import Any

import pytest

from tests.conftest import read_capture
from tests.providers._helpers import key_context, ok
from websearch_core.errors import (
    AuthorizationError,
    ConfigurationError,
    QuotaExhaustedError,
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.models import SearchParams
from websearch_core.providers import SEARCH_PROVIDER_ORDER, get_provider
from websearch_core.providers.base import ProviderContext
from websearch_core.providers.firecrawl import (
    FIRECRAWL_ENDPOINT,
    INFO,
    FirecrawlProvider,
    configured_base_url,
    parse_results,
    request_body,
    search_endpoint,
    time_filter,
)
from websearch_core.transport import HttpResponse

CAPTURE = "firecrawl/v2_search_firecrawl_with_markdown.json"


def context(
    key: str | None = "fc-test-key", environ: dict[str, str] | None = None
) -> ProviderContext:
    return key_context("firecrawl", key, environ=environ)


# --- facts ------------------------------------------------------------------------------------


def test_registry_returns_the_firecrawl_provider_with_its_facts() -> None:
    provider = get_provider("firecrawl")
    assert isinstance(provider, FirecrawlProvider)
    assert provider.info is INFO
    assert (INFO.id, INFO.label, INFO.kind) == ("firecrawl", "Firecrawl", "api")
    assert INFO.env_vars == ("FIRECRAWL_API_KEY",)
    assert (INFO.default_results, INFO.max_results) == (10, 100)
    assert INFO.honours == {
        "query",
        "recency",
        "limit",
        "num_search_results",
        "date_after",
        "date_before",
        "country",
        "include_domains",
        "exclude_domains",
    }
    assert INFO.docs_url == "https://docs.firecrawl.dev/api-reference/endpoint/search"


def test_auto_order_puts_firecrawl_between_tavily_and_brave() -> None:
    order = list(SEARCH_PROVIDER_ORDER)
    assert order.index("tavily") < order.index("firecrawl") < order.index("brave")


# --- availability -----------------------------------------------------------------------------


def test_availability_with_a_key() -> None:
    provider = FirecrawlProvider()
    assert provider.is_available(context())
    assert provider.is_explicitly_available(context())


def test_without_key_it_is_explicit_only() -> None:
    provider = FirecrawlProvider()
    assert not provider.is_available(context(key=None))
    assert provider.is_explicitly_available(context(key=None))


def test_key_from_the_environment_variable() -> None:
    ctx = context(key=None, environ={"FIRECRAWL_API_KEY": " fc-env "})
    assert FirecrawlProvider().is_available(ctx)
    request = FirecrawlProvider().build_request(SearchParams(query="x"), ctx)
    assert request.headers["Authorization"] == "Bearer fc-env"


@pytest.mark.parametrize("name", ["FIRECRAWL_BASE_URL", "FIRECRAWL_API_URL"])
def test_a_self_hosted_base_makes_it_available_without_key(name: str) -> None:
    environ = {name: "http://127.0.0.1:3002"}
    assert FirecrawlProvider().is_available(context(key=None, environ=environ))


def test_a_blank_base_variable_counts_as_unset() -> None:
    environ = {"FIRECRAWL_BASE_URL": "   "}
    assert not FirecrawlProvider().is_available(context(key=None, environ=environ))
    assert configured_base_url(environ) is None


def test_the_base_is_read_through_the_credentials_not_the_process_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("FIRECRAWL_BASE_URL", "http://127.0.0.1:3002")
    assert not FirecrawlProvider().is_available(context(key=None, environ={}))


def test_base_url_wins_over_api_url() -> None:
    env = {"FIRECRAWL_BASE_URL": "https://a.example", "FIRECRAWL_API_URL": "https://b.example"}
    assert configured_base_url(env) == "https://a.example"
    assert configured_base_url({"FIRECRAWL_API_URL": "https://b.example"}) == "https://b.example"


# --- request ----------------------------------------------------------------------------------


def test_default_request_shape_with_a_key() -> None:
    request = FirecrawlProvider().build_request(SearchParams(query="firecrawl"), context())
    assert request.method == "POST"
    assert request.url == FIRECRAWL_ENDPOINT == "https://api.firecrawl.dev/v2/search"
    assert dict(request.headers) == {
        "Content-Type": "application/json",
        "Authorization": "Bearer fc-test-key",
    }
    assert request.json == {"query": "firecrawl", "limit": 10, "sources": [{"type": "web"}]}
    assert list(request.params) == [] and request.form is None
    assert "fc-test-key" not in repr(request)


def test_keyless_request_has_no_authorization_header() -> None:
    request = FirecrawlProvider().build_request(SearchParams(query="x"), context(key=None))
    assert dict(request.headers) == {"Content-Type": "application/json"}


@pytest.mark.parametrize(
    ("fields", "limit"),
    [
        ({}, 10),
        ({"limit": 1}, 1),
        ({"limit": 5}, 5),
        ({"limit": 100}, 100),
        ({"num_search_results": 40, "limit": 3}, 40),
        ({"num_search_results": 2}, 2),
    ],
)
def test_limit_is_num_search_results_before_limit(fields: dict[str, int], limit: int) -> None:
    assert request_body(SearchParams(query="x", **fields))["limit"] == limit


@pytest.mark.parametrize(
    ("recency", "tbs"),
    [("day", "qdr:d"), ("week", "qdr:w"), ("month", "qdr:m"), ("year", "qdr:y")],
)
def test_recency_maps_to_tbs(recency: str, tbs: str) -> None:
    params = SearchParams(query="x", recency=recency)
    assert request_body(params)["tbs"] == tbs


def test_no_time_filter_sends_no_tbs() -> None:
    assert "tbs" not in request_body(SearchParams(query="x"))


@pytest.mark.parametrize(("country", "sent"), [("de", "DE"), ("US", "US"), ("jp", "JP")])
def test_country_is_sent_upper_case(country: str, sent: str) -> None:
    # firecrawl/firecrawl-docs agent-source-of-truth/curl.mdx (v2 /search): country, an
    # ISO 3166-1 alpha-2 code, default "US".
    body = request_body(SearchParams(query="x", country=country))
    assert body == {"query": "x", "limit": 10, "sources": [{"type": "web"}], "country": sent}


def test_no_country_sends_no_country_key() -> None:
    # Guard (passes before and after): Firecrawl's own default ("US") applies unasked.
    assert "country" not in request_body(SearchParams(query="x", language="de"))


# Firecrawl's v2 search schema (firecrawl/firecrawl apps/api/src/controllers/v2/types.ts)
# and its Python SDK take the domains as includeDomains / excludeDomains, never both.


@pytest.mark.parametrize(
    ("fields", "key", "sent"),
    [
        ({"include_domains": ("docs.rs", "crates.io")}, "includeDomains", ["docs.rs", "crates.io"]),
        ({"exclude_domains": ("reddit.com",)}, "excludeDomains", ["reddit.com"]),
    ],
)
def test_one_domain_list_goes_as_its_body_field(
    fields: dict[str, tuple[str, ...]], key: str, sent: list[str]
) -> None:
    body = request_body(SearchParams(query="rust", **fields))
    assert body[key] == sent
    assert body["query"] == "rust"


def test_with_both_lists_only_the_included_one_goes_as_a_field() -> None:
    both = SearchParams(query="rust", include_domains=("docs.rs",), exclude_domains=("a.com",))
    body = request_body(both)
    assert body["includeDomains"] == ["docs.rs"]
    assert "excludeDomains" not in body  # the filter plan writes it into the query instead


def test_a_v1_base_gets_the_lists_as_site_operators_in_the_query() -> None:
    include = request_body(SearchParams(query="rust", include_domains=("a.com", "b.org")), v1=True)
    exclude = request_body(SearchParams(query="rust", exclude_domains=("c.net",)), v1=True)
    assert include["query"] == "rust (site:a.com OR site:b.org)"  # reference 6.3's group
    assert exclude["query"] == "rust -site:c.net"
    assert not {"includeDomains", "excludeDomains"} & (include.keys() | exclude.keys())


@pytest.mark.parametrize(
    ("fields", "tbs"),
    [
        (
            {"date_after": date(2025, 3, 1), "date_before": date(2025, 11, 30)},
            "cdr:1,cd_min:03/01/2025,cd_max:11/30/2025",
        ),
        ({"date_after": date(2024, 1, 5)}, "cdr:1,cd_min:01/05/2024"),
        ({"date_before": date(2020, 12, 9)}, "cdr:1,cd_max:12/09/2020"),
        (
            {"date_after": date(2025, 3, 1), "recency": "day"},
            "cdr:1,cd_min:03/01/2025",
        ),
    ],
)
def test_explicit_dates_give_a_zero_padded_range_and_win_over_recency(
    fields: dict[str, Any], tbs: str
) -> None:
    assert time_filter(SearchParams(query="x", **fields)) == tbs


# --- custom base URL --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("base", "endpoint"),
    [
        (None, "https://api.firecrawl.dev/v2/search"),
        ("http://127.0.0.1:3002", "http://127.0.0.1:3002/v2/search"),
        ("http://127.0.0.1:3002/", "http://127.0.0.1:3002/v2/search"),
        ("https://fc.example.org/api//", "https://fc.example.org/api/v2/search"),
        ("https://fc.example.org/v1", "https://fc.example.org/v1/search"),
        ("https://fc.example.org/v2/", "https://fc.example.org/v2/search"),
        ("https://fc.example.org/v3", "https://fc.example.org/v3/v2/search"),
        ("HTTPS://FC.example.org/p?token=x#frag", "https://FC.example.org/p/v2/search"),
        ("  https://fc.example.org  ", "https://fc.example.org/v2/search"),
    ],
)
def test_search_endpoint_for_a_custom_base(base: str | None, endpoint: str) -> None:
    assert search_endpoint(base) == endpoint


@pytest.mark.parametrize(
    "base", ["ftp://fc.example.org", "fc.example.org", "/v2", "https://", "javascript:alert(1)"]
)
def test_a_base_that_is_not_http_is_a_configuration_error(base: str) -> None:
    with pytest.raises(ConfigurationError) as caught:
        search_endpoint(base)
    assert str(caught.value) == "Invalid Firecrawl base URL: expected an HTTP or HTTPS URL"


@pytest.mark.parametrize(
    "base", ["https://user:pw@fc.example.org", "http://token@127.0.0.1:3002/v2"]
)
def test_a_base_with_credentials_is_a_configuration_error(base: str) -> None:
    with pytest.raises(ConfigurationError) as caught:
        search_endpoint(base)
    assert str(caught.value) == "Invalid Firecrawl base URL: URL credentials are not allowed"


def test_build_request_reads_the_base_from_the_environment() -> None:
    environ = {"FIRECRAWL_API_URL": "http://10.0.0.5:3002/v1/"}
    request = FirecrawlProvider().build_request(
        SearchParams(query="x"), context(key=None, environ=environ)
    )
    assert request.url == "http://10.0.0.5:3002/v1/search"
    environ["FIRECRAWL_BASE_URL"] = "ftp://nope"
    with pytest.raises(ConfigurationError):
        FirecrawlProvider().build_request(SearchParams(query="x"), context(environ=environ))


# --- the real capture -------------------------------------------------------------------------


@pytest.mark.conformance
def test_parse_real_capture_v2_with_markdown() -> None:
    response = FirecrawlProvider().parse_response(
        HttpResponse(status=200, body=read_capture(CAPTURE)), SearchParams(query="firecrawl")
    )
    assert response.provider == "firecrawl"
    assert response.answer is None
    assert response.request_id is None  # the capture has no "id"
    sources = response.sources
    assert [s.url for s in sources] == [
        "https://www.firecrawl.dev/",
        "https://github.com/firecrawl/firecrawl",
        "https://x.com/firecrawl_dev?lang=en",
        "https://github.com/firecrawl",
        "https://www.linkedin.com/company/firecrawl",
    ]
    first = sources[0]
    assert first.title == "Firecrawl - The Web Data API for AI"
    # description wins over the scraped markdown
    assert first.snippet == (
        "The web crawling, scraping, and search API for AI. Built for scale. Firecrawl "
        "delivers the entire internet to AI agents and builders."
    )
    github = sources[1]
    assert github.title == "firecrawl/firecrawl: The Web Data API for AI - Turn entire ... - GitHub"
    assert github.snippet == (
        "Firecrawl is an API service that takes a URL, crawls it, and converts it into clean "
        "markdown or structured data. We crawl all accessible subpages and give you ..."
    )
    x = sources[2]
    assert x.title == "Firecrawl (@firecrawl_dev) / Posts / X"
    assert x.snippet is not None and x.snippet.startswith("Firecrawl (@firecrawl_dev) - Posts")
    linkedin = sources[4]
    assert linkedin.title == "Firecrawl | LinkedIn"
    assert linkedin.snippet == (
        "Our Dify integration now uses Firecrawl /v2 endpoints Scraping is 10x faster thanks "
        "to intelligent caching, plus we've added semantic ..."
    )
    assert all(s.published_date is None and s.age_seconds is None for s in sources)


@pytest.mark.conformance
def test_capture_markdown_is_the_snippet_when_description_is_missing() -> None:
    data = json.loads(read_capture(CAPTURE))
    item = data["data"]["web"][0]
    del item["description"]
    (first, *_) = parse_results(data)
    assert first.snippet is not None
    assert first.snippet.startswith("We just raised our Series A and shipped Firecrawl /v2")


# --- parsing rules ----------------------------------------------------------------------------


def test_v1_data_array_and_request_id() -> None:
    body = {
        "success": True,
        "id": "search-123",
        "data": [
            {"url": "https://a.example/x", "title": "  A \n title ", "description": "d"},
            {"url": "https://b.example/", "title": "", "snippet": "from snippet"},
        ],
    }
    response = FirecrawlProvider().parse_response(ok(body), SearchParams(query="x"))
    assert response.request_id == "search-123"
    assert [(s.title, s.url, s.snippet) for s in response.sources] == [
        ("A title", "https://a.example/x", "d"),
        ("https://b.example/", "https://b.example/", "from snippet"),
    ]


def test_results_array_shape() -> None:
    sources = parse_results(
        {"results": [{"url": "https://c.example/", "title": "C", "markdown": " # md "}]}
    )
    assert [(s.title, s.snippet) for s in sources] == [("C", "# md")]


def test_blank_description_falls_through_and_no_text_gives_no_snippet() -> None:
    sources = parse_results(
        {
            "data": {
                "web": [
                    {"url": "https://a.example/", "title": "A", "description": " ", "snippet": "s"},
                    {"url": "https://b.example/", "title": "B"},
                ]
            }
        }
    )
    assert [s.snippet for s in sources] == ["s", None]


@pytest.mark.parametrize(
    "url", [None, "", "ftp://files.example.org/x", "/relative", "mailto:a@b.example", 42]
)
def test_results_without_an_http_url_are_dropped(url: Any) -> None:
    assert parse_results({"data": {"web": [{"url": url, "title": "t"}, "junk"]}}) == ()


@pytest.mark.parametrize(
    "data", [{"success": True, "data": {}}, {"success": True, "data": {"web": None}}]
)
def test_no_web_results_is_empty(data: Any) -> None:
    assert parse_results(data) == ()


@pytest.mark.parametrize(
    "data",
    [
        [],
        "data",
        {"success": True},
        {"success": True, "data": "x"},
        {"success": True, "data": {"web": {"a": 1}}},
        {"results": {"a": 1}},
    ],
)
def test_a_body_of_the_wrong_shape_is_a_parse_error(data: Any) -> None:
    with pytest.raises(ResponseParseError) as caught:
        parse_results(data)
    assert caught.value.message.startswith("Firecrawl API returned an unexpected response shape")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"success": False, "error": "Search timed out"}, "Search timed out"),
        ({"success": False}, "Firecrawl request failed"),
        ({"success": False, "error": "  "}, "Firecrawl request failed"),
    ],
)
def test_success_false_is_a_provider_error(body: dict[str, Any], message: str) -> None:
    with pytest.raises(SearchProviderError) as caught:
        FirecrawlProvider().parse_response(ok(body), SearchParams(query="x"))
    assert type(caught.value) is SearchProviderError
    assert (caught.value.provider, caught.value.message) == ("firecrawl", message)


def test_invalid_json_is_a_parse_error() -> None:
    with pytest.raises(ResponseParseError) as caught:
        FirecrawlProvider().parse_response(
            HttpResponse(status=200, body=b"<html>"), SearchParams(query="x")
        )
    assert caught.value.message == "Firecrawl API returned invalid JSON"


# --- status handling --------------------------------------------------------------------------


def _status(status: int, body: str, headers: dict[str, str] | None = None) -> HttpResponse:
    return HttpResponse(status=status, body=body.encode(), headers=headers or {})


def test_401_is_an_authorization_error() -> None:
    with pytest.raises(AuthorizationError) as caught:
        FirecrawlProvider().check_response(
            _status(401, '{"success":false,"error":"Unauthorized: Invalid token"}')
        )
    assert (caught.value.status, caught.value.message) == (401, "firecrawl: 401 unauthorized")


def test_402_insufficient_credits_is_quota() -> None:
    body = '{"success":false,"error":"Insufficient credits to perform this request."}'
    with pytest.raises(QuotaExhaustedError) as caught:
        FirecrawlProvider().check_response(_status(402, body))
    assert caught.value.message == "firecrawl: credits exhausted"


def test_2xx_passes() -> None:
    FirecrawlProvider().check_response(_status(200, "{}"))


def test_snippet_is_description_then_snippet_then_markdown() -> None:
    """A guard: the reference's ``description ?? snippet ?? markdown``, between siblings.

    No test item held both a description and a snippet, so the first two swapped passed
    every Firecrawl test (stop 50's wire mutations).
    """
    item = {"url": "https://a.example/", "title": "t", "markdown": "# md"}
    both = {**item, "snippet": "the snippet", "description": "the description"}
    (first, second, third) = parse_results(
        {"data": {"web": [both, {**item, "url": "https://b.example/", "snippet": "s"}, item]}}
    )
    assert (first.snippet, second.snippet, third.snippet) == ("the description", "s", "# md")
