"""Brave: request building and response parsing, pure (no server), plus the real capture."""

import json
from datetime import UTC, date, datetime
from typing import Any

import pytest

from tests.conftest import read_capture
from tests.providers._helpers import key_context, ok
from websearch_core.credentials import Credentials
from websearch_core.errors import (
    AuthorizationError,
    ProviderNotConfiguredError,
    QuotaExhaustedError,
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.format import format_for_llm
from websearch_core.models import SearchParams, SearchResponse, SearchSource
from websearch_core.providers import _brave_parse, get_provider
from websearch_core.providers._common import age_seconds_from_date, is_http_url, normalise_text
from websearch_core.providers.base import ProviderContext
from websearch_core.providers.brave import (
    BRAVE_ENDPOINT,
    INFO,
    BraveProvider,
    brave_search_lang,
    freshness,
    iso_published_date,
    parse_results,
    parse_source,
    query_params,
)
from websearch_core.settings import Settings
from websearch_core.transport import HttpResponse

NOW = datetime(2024, 3, 30, 12, 0, tzinfo=UTC)
TODAY = date(2026, 11, 30)


def context(key: str | None = "brave-test-key") -> ProviderContext:
    return key_context("brave", key)


# --- facts ------------------------------------------------------------------------------------


def test_registry_returns_the_brave_provider_with_its_facts() -> None:
    provider = get_provider("brave")
    assert isinstance(provider, BraveProvider)
    assert provider.info is INFO
    assert (INFO.id, INFO.label, INFO.kind) == ("brave", "Brave", "api")
    assert INFO.env_vars == ("BRAVE_API_KEY",)
    assert (INFO.default_results, INFO.max_results, INFO.index) == (10, 20, "brave")
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
    assert INFO.description == "Requires BRAVE_API_KEY"
    assert INFO.docs_url.startswith("https://api-dashboard.search.brave.com/")


# --- request ----------------------------------------------------------------------------------


def test_default_request_shape() -> None:
    request = BraveProvider().build_request(SearchParams(query="laravel queues"), context())
    assert request.method == "GET"
    assert request.url == BRAVE_ENDPOINT == "https://api.search.brave.com/res/v1/web/search"
    assert list(request.params) == [
        ("q", "laravel queues"),
        ("count", "10"),
        ("extra_snippets", "true"),
        ("text_decorations", "false"),
        ("safesearch", "moderate"),
    ]
    assert dict(request.headers) == {
        "Accept": "application/json",
        "X-Subscription-Token": "brave-test-key",
    }
    assert request.json is None and request.form is None


def test_the_key_never_shows_in_the_request_repr() -> None:
    request = BraveProvider().build_request(SearchParams(query="x"), context("secret-value-1"))
    assert "secret-value-1" not in repr(request)


@pytest.mark.parametrize(
    ("fields", "count"),
    [
        ({}, "10"),
        ({"limit": 3}, "3"),
        ({"limit": 1}, "1"),
        ({"limit": 20}, "20"),
        ({"limit": 21}, "20"),
        ({"limit": 100}, "20"),
        ({"num_search_results": 15, "limit": 3}, "15"),
        ({"num_search_results": 2}, "2"),
    ],
)
def test_count_is_num_search_results_before_limit_clamped_to_20(
    fields: dict[str, int], count: str
) -> None:
    params = dict(query_params(SearchParams(query="x", **fields), TODAY))
    assert params["count"] == count


@pytest.mark.parametrize(
    ("recency", "value"), [("day", "pd"), ("week", "pw"), ("month", "pm"), ("year", "py")]
)
def test_recency_maps_to_freshness(recency: str, value: str) -> None:
    params = SearchParams(query="x", recency=recency)
    assert dict(query_params(params, TODAY))["freshness"] == value


def test_no_time_filter_sends_no_freshness() -> None:
    assert "freshness" not in dict(query_params(SearchParams(query="x"), TODAY))


@pytest.mark.parametrize(
    ("fields", "value"),
    [
        (
            {"date_after": date(2025, 3, 1), "date_before": date(2025, 6, 30)},
            "2025-03-01to2025-06-30",
        ),
        ({"date_after": date(2025, 3, 1)}, "2025-03-01to2026-11-30"),
        ({"date_before": date(2020, 1, 31)}, "1970-01-01to2020-01-31"),
        ({"date_after": date(2025, 3, 1), "recency": "day"}, "2025-03-01to2026-11-30"),
    ],
)
def test_explicit_dates_give_a_range_and_win_over_recency(
    fields: dict[str, Any], value: str
) -> None:
    assert freshness(SearchParams(query="x", **fields), TODAY) == value


def test_build_request_uses_today_in_utc_for_an_open_range() -> None:
    request = BraveProvider().build_request(
        SearchParams(query="x", date_after=date(2025, 1, 1)), context()
    )
    today = datetime.now(UTC).date().isoformat()
    assert dict(request.params)["freshness"] == f"2025-01-01to{today}"


def test_country_and_language_are_sent_in_braves_codes() -> None:
    params = dict(query_params(SearchParams(query="x", country="de", language="pt-BR"), TODAY))
    assert params["country"] == "DE"
    assert params["search_lang"] == "pt-br"


@pytest.mark.parametrize(
    ("tag", "code"),
    [
        ("en", "en"),
        ("en-US", "en"),
        ("en-GB", "en-gb"),
        ("pt", "pt-pt"),
        ("pt-BR", "pt-br"),
        ("ja", "jp"),
        ("zh", "zh-hans"),
        ("zh-CN", "zh-hans"),
        ("zh-TW", "zh-hant"),
        ("zh-Hant-HK", "zh-hant"),
        ("nn", "nb"),
        ("de-AT", "de"),
        ("xx", None),
        ("tlh", None),
    ],
)
def test_brave_search_lang(tag: str, code: str | None) -> None:
    assert brave_search_lang(tag) == code


def test_a_language_brave_does_not_list_is_not_sent() -> None:
    assert "search_lang" not in dict(query_params(SearchParams(query="x", language="tlh"), TODAY))


@pytest.mark.parametrize(
    "query",
    [
        "a" * 400,
        "😀" * 200,
        "😀" * 150 + "a" * 100,
        "é" * 400,
        " ".join(["word"] * 50),
        " ".join(["w"] * 50) + " " * 300,
    ],
)
def test_query_of_400_utf16_units_and_50_words_is_sent(query: str) -> None:
    params = dict(query_params(SearchParams(query=query), TODAY))
    assert params["q"] == query


@pytest.mark.parametrize("query", ["a" * 401, "😀" * 201, "😀" * 150 + "a" * 101, "😀" * 400])
def test_query_over_400_utf16_units_is_refused_before_sending(query: str) -> None:
    # Brave's API reference: "Maximum of 400 characters and 50 words in the query".
    with pytest.raises(SearchProviderError) as caught:
        BraveProvider().build_request(SearchParams(query=query), context())
    error = caught.value
    assert type(error) is SearchProviderError
    assert (error.provider, error.status) == ("brave", 400)
    assert error.message == "Brave search queries cannot exceed 400 characters"


@pytest.mark.parametrize("separator", [" ", "\t", "\n", "  ", "\u3000"])
def test_query_over_50_words_is_refused_before_sending(separator: str) -> None:
    query = separator.join(["w"] * 51)
    with pytest.raises(SearchProviderError) as caught:
        BraveProvider().build_request(SearchParams(query=query), context())
    assert (caught.value.status, caught.value.message) == (
        400,
        "Brave search queries cannot exceed 50 words",
    )


def test_missing_key_gives_the_spec_message() -> None:
    with pytest.raises(ProviderNotConfiguredError) as caught:
        BraveProvider().build_request(SearchParams(query="x"), context(key=None))
    assert caught.value.message == (
        "Brave credentials not found. Set BRAVE_API_KEY or configure an API key "
        'for provider "brave".'
    )


def test_key_from_the_environment_variable() -> None:
    ctx = ProviderContext(
        transport=context().transport,
        settings=Settings(),
        credentials=Credentials(environ={"BRAVE_API_KEY": "from-env"}),
    )
    request = BraveProvider().build_request(SearchParams(query="x"), ctx)
    assert request.headers["X-Subscription-Token"] == "from-env"


# --- the real capture -------------------------------------------------------------------------


@pytest.mark.conformance
def test_parse_real_capture_laravel() -> None:
    body = read_capture("brave/web_search_laravel_2024.json")
    response = BraveProvider().parse_response(
        HttpResponse(status=200, body=body, headers={"X-Request-Id": "req-123"}),
        SearchParams(query="Laravel"),
    )
    assert response.provider == "brave"
    assert response.request_id == "req-123"
    assert response.auth_mode == "api_key"
    assert response.answer is None
    sources = response.sources
    assert len(sources) == 17

    first = sources[0]
    assert first.title == "Laravel - The PHP Framework For Web Artisans"
    assert first.url == "https://laravel.com/"
    assert first.snippet == (
        "Laravel is a PHP web application framework with expressive, elegant syntax. "
        "We’ve already laid the foundation — freeing you to create without sweating the "
        "small things."
    )
    # page_age (ISO, no time zone, so UTC said) rather than age "May 1, 2023": one date
    # format for all.
    assert first.published_date == "2023-05-01T20:10:05+00:00"

    wikipedia = sources[1]
    assert wikipedia.title == "Laravel - Wikipedia"
    assert wikipedia.url == "https://en.wikipedia.org/wiki/Laravel"
    assert wikipedia.snippet is not None
    assert wikipedia.snippet.startswith(
        "Laravel is a free and open-source PHP- based web framework"
    )
    assert "<strong>" not in wikipedia.snippet
    # age is "2 days ago"; page_age gives the absolute date, so the age keeps counting.
    assert wikipedia.published_date == "2024-03-27T15:31:02+00:00"
    assert wikipedia.age_seconds is not None

    # A bare host gains its trailing slash, as a WHATWG URL's href does.
    laracasts = next(s for s in sources if s.title == "Laracasts: Learn Laravel")
    assert laracasts.url == "https://laracasts.com/"
    assert laracasts.snippet == "We cannot provide a description for this page right now"
    assert laracasts.published_date == "2022-06-08T10:30:02+00:00"

    # Entities are decoded as well as tags stripped.
    twitter = next(s for s in sources if s.url == "https://twitter.com/search?q=laravel")
    assert twitter.title == "laravel on X"
    assert twitter.snippet == "Explore Twitter's latest discussions on laravel"
    assert twitter.published_date is None and twitter.age_seconds is None

    last = sources[-1]
    assert last.title == "What Is Laravel? (Definition, Uses, Features) | Built In"
    assert last.url == "https://builtin.com/software-engineering-perspectives/laravel"
    assert last.published_date == "2022-12-21T00:00:00+00:00"

    assert all("<" not in (s.snippet or "") for s in sources)
    assert [s.url for s in sources[:5]] == [
        "https://laravel.com/",
        "https://en.wikipedia.org/wiki/Laravel",
        "https://github.com/laravel/laravel",
        "https://laravel-news.com/generate-code-coverage-in-laravel-with-pcov",
        "https://github.com/laravel/framework",
    ]


@pytest.mark.conformance
def test_the_response_validated_in_one_step_holds_what_parse_results_gives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # parse_response validates the sources' fields with the response, parse_results one
    # SearchSource at a time: the same sources either way, at the same instant.
    class Frozen(datetime):
        @classmethod
        def now(cls, tz: Any = None) -> "Frozen":
            return cls.fromtimestamp(NOW.timestamp(), tz)

    monkeypatch.setattr(_brave_parse, "datetime", Frozen)
    body = read_capture("brave/web_search_laravel_2024.json")
    response = BraveProvider().parse_response(
        HttpResponse(status=200, body=body, headers={}), SearchParams(query="Laravel")
    )
    expected = parse_results(json.loads(body), now=NOW)
    assert response.sources == expected
    assert all(type(source) is SearchSource for source in response.sources)
    assert sum(s.age_seconds is not None for s in expected) == 13  # the instant mattered
    assert (
        SearchResponse.model_validate({"provider": "brave", "sources": []}).sources
        == BraveProvider()
        .parse_response(
            HttpResponse(status=200, body=b'{"type": "search"}', headers={}),
            SearchParams(query="zzzz"),
        )
        .sources
        == ()
    )


@pytest.mark.conformance
def test_the_html_serp_is_not_an_api_answer() -> None:
    # search.brave.com's HTML page (say, a base URL pointed at the website by mistake) must
    # fail as unparseable, not pass as an empty result list.
    body = read_capture("brave/html_serp_javascript_tutorial_2026.html")
    assert b"<title>javascript tutorial - Brave Search</title>" in body
    with pytest.raises(ResponseParseError) as caught:
        BraveProvider().parse_response(
            HttpResponse(status=200, body=body, headers={"Content-Type": "text/html"}),
            SearchParams(query="javascript tutorial"),
        )
    assert (caught.value.provider, caught.value.message) == (
        "brave",
        "Brave API returned invalid JSON",
    )


@pytest.mark.conformance
def test_capture_ages_are_measured_from_the_iso_date_shown() -> None:
    data = json.loads(read_capture("brave/web_search_laravel_2024.json"))
    sources = parse_results(data, now=NOW)
    # 2023-05-01T20:10:05 (UTC) to 2024-03-30T12:00:00 UTC.
    assert sources[0].age_seconds == (333 * 86400) + 15 * 3600 + 49 * 60 + 55
    # age says "1 day ago"; page_age 2024-03-28T19:35:02 says how long exactly.
    assert sources[3].published_date == "2024-03-28T19:35:02+00:00"
    assert sources[3].age_seconds == 86400 + 16 * 3600 + 24 * 60 + 58


@pytest.mark.conformance
def test_every_capture_result_with_a_date_has_an_iso_published_date() -> None:
    data = json.loads(read_capture("brave/web_search_laravel_2024.json"))
    raw = data["web"]["results"]
    sources = parse_results(data, now=NOW)
    assert len(raw) == len(sources) == 17
    dated = 0
    for item, source in zip(raw, sources, strict=True):
        if item.get("page_age") or item.get("age"):
            dated += 1
            assert source.published_date is not None
            assert datetime.fromisoformat(source.published_date).isoformat() == (
                source.published_date
            )
            assert source.age_seconds == age_seconds_from_date(source.published_date, now=NOW)
        else:
            assert source.published_date is None and source.age_seconds is None
    assert dated == 13


@pytest.mark.conformance
def test_capture_reads_to_the_model_with_ages_counted_from_the_iso_dates() -> None:
    data = json.loads(read_capture("brave/web_search_laravel_2024.json"))
    text = format_for_llm(SearchResponse(provider="brave", sources=parse_results(data, now=NOW)))
    lines = text.splitlines()
    # [n] <title> (<formatted age or published date>), the spec's layout.
    assert lines[0] == "[1] Laravel - The PHP Framework For Web Artisans (11mo ago)"
    assert lines[3] == "[2] Laravel - Wikipedia (2d ago)"
    assert "[4] Generate Code Coverage in Laravel With PCOV - Laravel News (1d ago)" in lines
    assert "[10] laravel on X" in lines  # no date at all: no parentheses


def test_a_date_with_no_measurable_age_shows_the_iso_date_itself() -> None:
    item = {"title": "T", "url": "https://a.example/", "page_age": "2024-03-30T12:00:00"}
    source = parse_source(item, now=NOW)
    assert source is not None and source.age_seconds == 0
    text = format_for_llm(SearchResponse(provider="brave", sources=(source,)))
    assert text.startswith("[1] T (2024-03-30T12:00:00+00:00)\n")


# --- parsing rules ----------------------------------------------------------------------------


def test_snippet_joins_unique_description_and_extra_snippets() -> None:
    item = {
        "title": "<b>Queues</b>  in\nLaravel",
        "url": "https://laravel.com/docs/queues",
        "description": "Laravel <strong>queues</strong> provide a unified API.",
        "extra_snippets": [
            "Laravel queues provide a unified API.",
            "Jobs are  stored in\tthe jobs table.",
            "",
            None,
            "Jobs are stored in the jobs table.",
        ],
        "age": "2024-02-01T10:00:00Z",
    }
    source = parse_source(item, now=datetime(2024, 2, 2, 10, 0, tzinfo=UTC))
    assert source is not None
    assert source.title == "Queues in Laravel"
    assert source.snippet == (
        "Laravel queues provide a unified API.\nJobs are stored in the jobs table."
    )
    assert source.published_date == "2024-02-01T10:00:00Z"
    assert source.age_seconds == 86400


@pytest.mark.parametrize(
    ("text", "iso"),
    [
        ("2023-05-01T20:10:05", "2023-05-01T20:10:05+00:00"),
        ("2024-02-01T10:00:00Z", "2024-02-01T10:00:00Z"),
        ("2024-02-01T10:00:00.250+02:00", "2024-02-01T10:00:00.250+02:00"),
        ("2024-02-01", "2024-02-01"),
        ("2024-13-45", None),
        ("2024-02-30T10:00:00", None),
        ("May 1, 2023", "2023-05-01"),
        ("December 21, 2022", "2022-12-21"),
        ("1 Jun 2021", "2021-06-01"),
        ("Mar 2020", "2020-03-01"),
        ("2023-05-01 20:10:05", "2023-05-01T20:10:05+00:00"),
        ("Fri, 29 Mar 2024 12:00:00 GMT", "2024-03-29T12:00:00+00:00"),
        ("2 days ago", None),
        ("1 day ago", None),
        ("5 hours ago", None),
        ("yesterday", None),
        ("last week", None),
        ("June 8", None),
        ("not a date 2023 at all", None),
        ("", None),
        (None, None),
    ],
)
def test_iso_published_date(text: str | None, iso: str | None) -> None:
    assert iso_published_date(text) == iso


def test_page_age_wins_over_a_relative_age() -> None:
    item = {
        "title": "t",
        "url": "https://a.example/",
        "age": "2 days ago",
        "page_age": "2024-03-28T12:00:00",
    }
    source = parse_source(item, now=NOW)
    assert source is not None
    assert source.published_date == "2024-03-28T12:00:00+00:00"
    assert source.age_seconds == 2 * 86400


def test_an_absolute_age_is_used_when_page_age_is_missing_or_unreadable() -> None:
    for page_age in (None, "", "recently"):
        item = {"title": "t", "url": "https://a.example/", "age": "March 29, 2024"}
        if page_age is not None:
            item["page_age"] = page_age
        source = parse_source(item, now=NOW)
        assert source is not None
        assert source.published_date == "2024-03-29"
        assert source.age_seconds == 86400 + 12 * 3600


def test_only_a_relative_age_stays_as_text_without_an_age() -> None:
    source = parse_source({"title": "t", "url": "https://a.example/", "age": " 3 days ago "})
    assert source is not None
    assert source.published_date == "3 days ago"
    assert source.age_seconds is None


def test_an_overlong_relative_age_is_cut_to_100() -> None:
    source = parse_source({"title": "t", "url": "https://a.example/", "age": "ago " * 40})
    assert source is not None and source.published_date is not None
    assert len(source.published_date) == 100
    assert source.published_date.endswith("…")


def test_a_date_whose_zone_no_instant_has_is_kept_as_text_not_raised() -> None:
    """dateutil reads ``+2400`` as a zone that ``isoformat`` refuses: no absolute date."""
    assert iso_published_date("May 1, 2023 10:00 +2400") is None
    source = parse_source(
        {"title": "t", "url": "https://a.example/", "age": "May 1, 2023 10:00 +2400"}, now=NOW
    )
    assert source is not None
    assert (source.published_date, source.age_seconds) == ("May 1, 2023 10:00 +2400", None)


def test_page_age_is_used_when_age_is_missing() -> None:
    source = parse_source(
        {"title": "t", "url": "https://a.example/", "page_age": "2024-03-26T00:00:00"},
        now=datetime(2024, 3, 27, tzinfo=UTC),
    )
    assert source is not None
    assert source.published_date == "2024-03-26T00:00:00+00:00"
    assert source.age_seconds == 86400


def test_title_falls_back_to_url_and_is_cut_to_300() -> None:
    empty = parse_source({"title": "  <b></b> ", "url": "https://a.example/x"})
    assert empty is not None and empty.title == "https://a.example/x"
    long = parse_source({"title": "t" * 400, "url": "https://a.example/x"})
    assert long is not None
    assert long.title == "t" * 299 + "…"
    assert len(long.title) == 300


def test_snippet_is_cut_to_8000() -> None:
    source = parse_source({"title": "t", "url": "https://a.example/", "description": "d" * 9000})
    assert source is not None and source.snippet is not None
    assert len(source.snippet) == 8000
    assert source.snippet.endswith("d…")


def test_no_description_gives_no_snippet() -> None:
    source = parse_source({"title": "t", "url": "https://a.example/", "description": " "})
    assert source is not None and source.snippet is None


@pytest.mark.parametrize(
    "url",
    [
        None,
        "",
        "ftp://files.example.org/x",
        "javascript:alert(1)",
        "/relative/path",
        "https://",
        "https://a.example/" + "p" * 2048,
    ],
)
def test_results_without_a_usable_url_are_dropped(url: str | None) -> None:
    assert parse_source({"title": "t", "url": url}) is None


def test_url_host_is_lowercased_and_a_2048_character_url_is_kept() -> None:
    source = parse_source({"title": "t", "url": "HTTPS://Docs.Example.ORG/Path?Q=1#Frag"})
    assert source is not None and source.url == "https://docs.example.org/Path?Q=1#Frag"
    url = "https://a.example/" + "p" * (2048 - len("https://a.example/"))
    kept = parse_source({"title": "t", "url": url})
    assert kept is not None and kept.url == url


def test_a_body_without_web_results_has_no_sources() -> None:
    assert parse_results({"type": "search", "query": {"original": "zzzz"}}) == ()


@pytest.mark.parametrize(
    "data", [[], "web", {"web": []}, {"web": {"results": {"a": 1}}}, {"web": {"type": "search"}}]
)
def test_a_body_of_the_wrong_shape_is_a_parse_error(data: Any) -> None:
    with pytest.raises(ResponseParseError) as caught:
        parse_results(data)
    assert caught.value.message.startswith("Brave API returned an unexpected response shape")


def test_invalid_json_is_a_parse_error() -> None:
    with pytest.raises(ResponseParseError) as caught:
        BraveProvider().parse_response(
            HttpResponse(status=200, body=b"<html>oops</html>"), SearchParams(query="x")
        )
    assert caught.value.message == "Brave API returned invalid JSON"


def test_request_id_falls_back_to_request_id_header() -> None:
    response = BraveProvider().parse_response(
        ok({"web": {"results": []}}, {"request-id": "abc"}), SearchParams(query="x")
    )
    assert response.request_id == "abc"
    assert response.sources == ()


# --- status handling --------------------------------------------------------------------------


def _status(status: int, body: str = "", headers: dict[str, str] | None = None) -> HttpResponse:
    return HttpResponse(status=status, body=body.encode(), headers=headers or {})


def test_2xx_passes() -> None:
    BraveProvider().check_response(_status(200, "{}"))


def test_quota_body_is_quota_exhausted() -> None:
    body = '{"type":"ErrorResponse","error":{"code":"QUOTA_LIMITED","status":429}}'
    with pytest.raises(QuotaExhaustedError) as caught:
        BraveProvider().check_response(_status(429, body))
    assert caught.value.message == "brave: credits exhausted"


def test_422_subscription_token_invalid_is_an_authorization_error() -> None:
    body = json.dumps(
        {
            "type": "ErrorResponse",
            "error": {
                "code": "SUBSCRIPTION_TOKEN_INVALID",
                "detail": "The provided subscription token is invalid.",
                "status": 422,
            },
        }
    )
    with pytest.raises(AuthorizationError) as caught:
        BraveProvider().check_response(_status(422, body))
    assert caught.value.status == 422
    assert caught.value.message == f"Brave API error (422): {body}"


def test_422_with_the_errors_list_form_is_recognised_too() -> None:
    body = json.dumps({"type": "ErrorResponse", "errors": [{"code": "SUBSCRIPTION_TOKEN_INVALID"}]})
    with pytest.raises(AuthorizationError):
        BraveProvider().check_response(_status(422, body))


def test_other_422_stays_a_plain_provider_error() -> None:
    body = '{"type":"ErrorResponse","error":{"code":"VALIDATION","status":422}}'
    with pytest.raises(SearchProviderError) as caught:
        BraveProvider().check_response(_status(422, body))
    assert type(caught.value) is SearchProviderError
    assert caught.value.message == f"Brave API error (422): {body}"


# --- shared helpers ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("2024-03-29T12:00:00Z", 86400),
        ("2024-03-30T12:00:00+02:00", 7200),
        ("March 29, 2024", 129600),
        ("Fri, 29 Mar 2024 12:00:00 GMT", 86400),
        ("2024", (89 * 86400) + 12 * 3600),
        ("2024-03-31T12:00:00Z", -86400),
        ("3 days ago", None),
        ("", None),
        (None, None),
        ("not a date", None),
    ],
)
def test_age_seconds_from_date(text: str | None, seconds: int | None) -> None:
    assert age_seconds_from_date(text, now=NOW) == seconds


def test_normalise_text_and_url_check() -> None:
    assert normalise_text(" a&amp;b <em>c</em>\n\td ") == "a&b c d"
    assert is_http_url("http://x.example") and is_http_url("HTTPS://x.example/p")
    assert not is_http_url("mailto:a@b.example") and not is_http_url("http:///nohost")
