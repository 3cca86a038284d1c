"""Parallel: request building and response parsing, pure (no server), plus the captures."""

import json
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest

from tests.conftest import read_capture
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
from websearch_core.filters import apply_plan, plan_filters
from websearch_core.models import MAX_QUERY_LENGTH, SearchParams, SearchResponse
from websearch_core.providers import get_provider
from websearch_core.providers._parallel_request import (
    MAX_OBJECTIVE_CHARS,
    after_date,
    keyword_query,
)
from websearch_core.providers.base import ProviderContext
from websearch_core.providers.parallel import (
    INFO,
    PARALLEL_ENDPOINT,
    ParallelProvider,
    error_detail,
    parse_body,
    request_body,
    source_policy,
)
from websearch_core.settings import Settings
from websearch_core.transport import HttpResponse

TODAY = date(2026, 3, 1)
EXCERPTS = {"max_chars_per_result": 10000}


def body_for(query: str, count: int = 10, **policy: Any) -> dict[str, Any]:
    """The ``/v1/search`` body we expect for a query whose keyword form is itself."""
    settings: dict[str, Any] = {"max_results": count, "excerpt_settings": EXCERPTS}
    if policy:
        settings["source_policy"] = policy
    return {
        "search_queries": [query],
        "objective": query,
        "mode": "turbo",
        "advanced_settings": settings,
    }


def context(key: str | None = "par-test-key") -> ProviderContext:
    return key_context("parallel", key)


# --- facts ------------------------------------------------------------------------------------


def test_registry_returns_the_parallel_provider_with_its_facts() -> None:
    provider = get_provider("parallel")
    assert isinstance(provider, ParallelProvider)
    assert provider.info is INFO
    assert (INFO.id, INFO.label, INFO.kind) == ("parallel", "Parallel", "api")
    assert INFO.env_vars == ("PARALLEL_API_KEY",)
    assert INFO.description == "Requires PARALLEL_API_KEY"
    assert (INFO.default_results, INFO.max_results) == (10, 40)
    assert INFO.honours == {
        "query",
        "recency",
        "limit",
        "num_search_results",
        "date_after",
        "include_domains",
        "exclude_domains",
        "country",
    }
    assert INFO.docs_url.startswith("https://docs.parallel.ai/")


# --- request ----------------------------------------------------------------------------------


def test_default_request_shape() -> None:
    # https://docs.parallel.ai/api-reference/search/search: POST /v1/search, x-api-key, no
    # beta header; search_queries required, the settings under advanced_settings.
    request = ParallelProvider().build_request(
        SearchParams(query="solid state batteries"), context()
    )
    assert request.method == "POST"
    assert request.url == PARALLEL_ENDPOINT == "https://api.parallel.ai/v1/search"
    assert dict(request.headers) == {
        "Accept": "application/json",
        "Content-Type": "application/json",
        "x-api-key": "par-test-key",
    }
    assert request.json == {
        "search_queries": ["solid state batteries"],
        "objective": "solid state batteries",
        "mode": "turbo",
        "advanced_settings": {
            "max_results": 10,
            "excerpt_settings": {"max_chars_per_result": 10000},
        },
    }
    assert "par-test-key" not in repr(request)


@pytest.mark.parametrize(
    ("fields", "count"),
    [({}, 10), ({"limit": 3}, 3), ({"limit": 90}, 40),
     ({"num_search_results": 12, "limit": 2}, 12)],
)  # fmt: skip
def test_the_clamped_count_is_sent_as_max_results(fields: dict[str, int], count: int) -> None:
    assert request_body(SearchParams(query="x", **fields), TODAY) == body_for("x", count)


@pytest.mark.parametrize(
    ("query", "language", "mode"),
    [
        ("solid state batteries", None, "turbo"),
        ("rust \u2014 \u201casync\u201d runtimes \U0001f980", None, "turbo"),  # no foreign letters
        ("\u6771\u4eac\u306e\u5929\u6c17", None, "turbo"),  # 東京の天気: kana, so Japanese
        ("\u30ab\u30ec\u30fc", None, "turbo"),  # カレー
        ("\uff21\uff29\u898f\u5236\u306e\u30cb\u30e5\u30fc\u30b9", None, "turbo"),
        ("\u4eba\u3005\u306e\u58f0", None, "turbo"),  # 人々の声: the iteration mark
        ("\u5317\u4eac\u5929\u6c14", None, "basic"),  # 北京天气: ideographs, no kana
        ("\u00e9lections municipales", None, "basic"),
        ("\u0432\u044b\u0431\u043e\u0440\u044b", None, "basic"),  # выборы
        ("\u6771\u4eac \u0432\u044b\u0431\u043e\u0440\u044b \u306e", None, "basic"),
        ("\ud55c\uad6d \ub274\uc2a4", None, "basic"),  # 한국 뉴스
        ("kommunalwahl", "de", "basic"),
        ("kommunalwahl", "pt-BR", "basic"),
        ("\u00e9lections", "en-GB", "turbo"),  # the caller's language decides
        ("\u6771\u4eac", "ja", "turbo"),
        ("rust", "EN", "turbo"),
    ],
)
def test_turbo_only_for_english_and_japanese_queries(
    query: str, language: str | None, mode: str
) -> None:
    # Parallel's migration notes: "Turbo currently supports only queries in English and
    # Japanese. Use Basic or Advanced for broader multilingual coverage."
    body = request_body(SearchParams(query=query, language=language), TODAY)
    assert body["mode"] == mode


def test_a_long_query_is_cut_between_words_for_search_queries_only() -> None:
    # search_queries entries take at most 200 characters; the objective takes 5,000.
    words = " ".join(f"word{i:03d}" for i in range(40))  # 40 words of 7 characters: 319
    body = request_body(SearchParams(query=words), TODAY)
    (keywords,) = body["search_queries"]
    assert keywords == " ".join(f"word{i:03d}" for i in range(25))  # 199 characters
    assert body["objective"] == words


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("a" * 200, "a" * 200),
        ("a" * 199 + " b", "a" * 199),
        ("a" * 200 + " b", "a" * 200),
        ("a" * 201, "a" * 200),
        ("  " + "a " * 150, ("a " * 100).strip()),
        ("  spaced  out  " + "z" * 200, "spaced out"),
        ("  short  ", "  short  "),
    ],
)
def test_keyword_query_edges(query: str, expected: str) -> None:
    cut = keyword_query(query)
    assert cut == expected
    assert 0 < len(cut) <= 200


def test_every_accepted_query_fits_the_objective() -> None:
    assert MAX_QUERY_LENGTH <= MAX_OBJECTIVE_CHARS


@pytest.mark.parametrize(
    ("recency", "after"),
    [
        ("day", "2026-02-28"),
        ("week", "2026-02-22"),
        ("month", "2026-01-30"),
        ("year", "2025-03-01"),
    ],
)
def test_recency_gives_after_date(recency: str, after: str) -> None:
    params = SearchParams(query="x", recency=recency)
    assert request_body(params, TODAY) == body_for("x", after_date=after)


@pytest.mark.parametrize(
    ("date_after", "recency", "after"),
    [
        (date(2025, 5, 5), "day", "2026-02-28"),  # the recency window starts later
        (date(2026, 2, 28), "year", "2026-02-28"),  # date_after starts later
        (date(2025, 5, 5), None, "2025-05-05"),
    ],
)
def test_after_date_is_the_later_start_so_both_filters_apply(
    date_after: date, recency: str | None, after: str
) -> None:
    params = SearchParams(query="x", recency=recency, date_after=date_after)
    assert source_policy(params, TODAY) == {"after_date": after}
    assert after_date(SearchParams(query="x"), TODAY) is None


def test_include_domains_win_over_exclude_domains() -> None:
    params = SearchParams(
        query="x", include_domains=("www.docs.rs", "rust-lang.org"), exclude_domains=("a.com",)
    )
    assert source_policy(params, TODAY) == {"include_domains": ["docs.rs", "rust-lang.org"]}


def test_exclude_domains_only_without_includes_with_after_date() -> None:
    params = SearchParams(query="x", exclude_domains=("reddit.com",), recency="week")
    assert request_body(params, TODAY)["advanced_settings"]["source_policy"] == {
        "exclude_domains": ["reddit.com"],
        "after_date": "2026-02-22",
    }


MANY = tuple(f"site{i}.example.org" for i in range(201))


def test_a_list_over_200_domains_is_not_sent_the_other_list_may_be() -> None:
    # https://docs.parallel.ai/search/source-policy: "The combined number of domains in
    # include_domains and exclude_domains cannot exceed 200"; only one list is ever sent.
    assert source_policy(SearchParams(query="x", include_domains=MANY), TODAY) is None
    both = SearchParams(query="x", include_domains=MANY, exclude_domains=("a.com",))
    assert source_policy(both, TODAY) == {"exclude_domains": ["a.com"]}
    most = SearchParams(query="x", exclude_domains=MANY[:200])
    assert source_policy(most, TODAY) == {"exclude_domains": list(MANY[:200])}


def test_the_record_says_post_for_a_domain_list_not_sent() -> None:
    both = SearchParams(query="x", include_domains=("docs.rs",), exclude_domains=("a.com",))
    plan = plan_filters(both, INFO)
    records = {
        f.name: f.applied for f in apply_plan(plan, SearchResponse(provider="parallel")).filters
    }
    assert records == {"include_domains": ("native", "post"), "exclude_domains": ("post",)}
    many = plan_filters(SearchParams(query="x", include_domains=MANY), INFO)
    applied = {f.applied for f in apply_plan(many, SearchResponse(provider="parallel")).filters}
    assert applied == {("post",)}


@pytest.mark.parametrize("country", ["de", "DE"])
def test_country_goes_as_advanced_settings_location(country: str) -> None:
    # parallel-web/parallel-sdk-python src/parallel/types/advanced_search_settings_param.py:
    # location, "ISO 3166-1 alpha-2 country code for geo-targeted search results".
    body = request_body(SearchParams(query="x", country=country), TODAY)
    assert body["advanced_settings"] == {
        "max_results": 10,
        "excerpt_settings": EXCERPTS,
        "location": "de",
    }
    plan = plan_filters(SearchParams(query="x", country=country), INFO)
    (record,) = apply_plan(plan, SearchResponse(provider="parallel")).filters
    assert (record.name, record.applied) == ("country", ("native",))


def test_no_policy_without_filters() -> None:
    assert source_policy(SearchParams(query="x"), TODAY) is None
    assert request_body(SearchParams(query="x"), TODAY) == body_for("x")


def test_build_request_uses_today_in_utc() -> None:
    request = ParallelProvider().build_request(SearchParams(query="x", recency="day"), context())
    expected = (datetime.now(UTC).date() - timedelta(days=1)).isoformat()
    assert request.json["advanced_settings"]["source_policy"] == {"after_date": expected}


def test_missing_key_gives_the_spec_message() -> None:
    with pytest.raises(ProviderNotConfiguredError) as caught:
        ParallelProvider().build_request(SearchParams(query="x"), context(key=None))
    assert caught.value.message == (
        "Parallel credentials not found. Set PARALLEL_API_KEY or configure an API key "
        'for provider "parallel".'
    )


def test_key_from_the_environment_variable() -> None:
    ctx = ProviderContext(
        transport=context().transport,
        settings=Settings(),
        credentials=Credentials(environ={"PARALLEL_API_KEY": "from-env"}),
    )
    assert ParallelProvider().is_available(ctx)
    assert ParallelProvider().build_request(SearchParams(query="x"), ctx).headers["x-api-key"] == (
        "from-env"
    )


# --- the captures -----------------------------------------------------------------------------


@pytest.mark.conformance
@pytest.mark.parametrize(
    "capture", ["v1beta_search_doc_example.json", "v1_search_doc_example.json"]
)
def test_parse_search_captures(capture: str) -> None:
    body = read_capture(f"parallel/{capture}")
    response = ParallelProvider().parse_response(
        HttpResponse(status=200, body=body), SearchParams(query="parallel web systems")
    )
    assert response.provider == "parallel"
    assert response.request_id == "search_fcb2b4f3c75e418687bccaa1a8381331"
    assert response.auth_mode == "api_key"
    assert response.answer is None
    (source,) = response.sources
    assert source.title == "Sample webpage title"
    assert source.url == "https://www.example.com"
    assert source.snippet == "Sample excerpt 1\n\nSample excerpt 2"
    assert source.published_date == "2024-01-15"
    assert source.age_seconds is not None


@pytest.mark.conformance
def test_capture_age_is_measured_from_publish_date() -> None:
    data = json.loads(read_capture("parallel/v1beta_search_doc_example.json"))
    response = parse_body(data, now=datetime(2024, 1, 16, 12, 0, tzinfo=UTC))
    assert response.sources[0].age_seconds == 36 * 3600


@pytest.mark.conformance
def test_error_capture_message() -> None:
    body = read_capture("parallel/v1_search_error_doc_example.json").decode()
    assert error_detail(400, body) == "Request validation error"
    with pytest.raises(SearchProviderError) as caught:
        ParallelProvider().check(status(422, body))
    assert type(caught.value) is SearchProviderError
    assert caught.value.status == 422
    assert caught.value.message == "Parallel API error (422): Request validation error"
    with pytest.raises(AuthorizationError) as auth:
        ParallelProvider().check(status(401, body))
    assert auth.value.message == "parallel: 401 unauthorized"


# --- parsing rules ----------------------------------------------------------------------------


def test_sources_rules_and_local_cut() -> None:
    body = {
        "search_id": "search_1",
        "results": [
            {"url": "https://a.example/1", "title": " One\n title ", "excerpts": ["a", " ", None]},
            {"url": "https://a.example/2", "excerpts": [], "publish_date": "not a date"},
            {"url": "javascript:alert(1)", "title": "dropped"},
            {"title": "no url"},
            "not an object",
            {"url": "https://a.example/3", "title": "Three", "publish_date": None},
        ],
    }
    response = parse_body(body, 40)
    assert [(s.title, s.url, s.snippet) for s in response.sources] == [
        ("One title", "https://a.example/1", "a"),
        ("https://a.example/2", "https://a.example/2", None),
        ("Three", "https://a.example/3", None),
    ]
    assert response.sources[1].published_date == "not a date"
    assert response.sources[1].age_seconds is None
    assert len(parse_body(body, 2).sources) == 2


@pytest.mark.parametrize(
    ("fields", "count"),
    [({}, 10), ({"limit": 3}, 3), ({"limit": 40}, 40), ({"limit": 90}, 40),
     ({"num_search_results": 12, "limit": 2}, 12)],
)  # fmt: skip
def test_sources_are_cut_to_the_clamped_count(fields: dict[str, int], count: int) -> None:
    body = {"results": [{"url": f"https://a.example/{i}"} for i in range(50)]}
    response = ParallelProvider().parse_response(ok(body), SearchParams(query="x", **fields))
    assert len(response.sources) == count
    assert response.request_id is None


def test_invalid_json() -> None:
    with pytest.raises(ResponseParseError) as caught:
        ParallelProvider().parse_response(status(200, '{"results": ['), SearchParams(query="x"))
    assert caught.value.message.startswith("Parallel search returned invalid JSON: ")
    assert len(caught.value.message) > len("Parallel search returned invalid JSON: ")


@pytest.mark.parametrize("body", [[], "x", {}, {"results": None}, {"results": {"a": 1}}])
def test_invalid_payload(body: Any) -> None:
    with pytest.raises(ResponseParseError) as caught:
        ParallelProvider().parse_response(ok(body), SearchParams(query="x"))
    assert caught.value.message == "Parallel search returned an invalid response payload."


# --- warnings ---------------------------------------------------------------------------------

LOCATION_WARNING = {
    "type": "warning",
    "message": "Location 'zz' is not supported; searching without it.",
    "detail": {"location": "zz"},
}


@pytest.mark.conformance
def test_warnings_become_notes_and_every_result_is_kept() -> None:
    """The capture with Parallel's ``warnings`` added: its one result stays, the warning is said.

    Before, the warnings were read by nothing: the notes were empty.
    """
    data = json.loads(read_capture("parallel/v1_search_doc_example.json"))
    plain = parse_body(data)
    warned = parse_body({**data, "warnings": [LOCATION_WARNING]})
    assert warned.notes == (
        "Parallel warning: Location 'zz' is not supported; searching without it.",
    )
    assert warned.sources == plain.sources and len(warned.sources) == 1
    assert plain.notes == ()


def test_warning_messages_are_one_clean_line_each_a_few_at_most() -> None:
    messages = [f"Warning number {i}." for i in range(12)]
    warnings: list[Any] = [
        {"type": "spec_validation_warning", "message": "Two\n  lines\x1b[2J here.\x07"},
        {"type": "warning", "message": "Two lines here."},  # the same once cleaned: once
        {"type": "warning", "message": "  "},
        {"type": "warning"},
        "not an object",
        {"type": "input_validation_warning", "message": "x" * 600},
        *({"type": "warning", "message": message} for message in messages),
    ]
    notes = parse_body({"results": [], "warnings": warnings}).notes
    assert notes == (
        "Parallel warning: Two lines here.",
        "Parallel warning: " + "x" * 499 + "\u2026",
        "Parallel warning: Warning number 0.",
        "Parallel warning: Warning number 1.",
        "Parallel warning: Warning number 2.",
    )


@pytest.mark.parametrize("warnings", [None, "a warning", {"message": "m"}, [], [None]])
def test_warnings_not_a_list_of_warnings_read_as_none(warnings: Any) -> None:
    """A guard (passes before and after): no note is made up from what is not a warning."""
    assert parse_body({"results": [], "warnings": warnings}).notes == ()


# --- errors -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        ('{"message": "m", "detail": "d"}', "m"),
        ('{"detail": "d", "error": "e"}', "d"),
        ('{"error": "plain error"}', "plain error"),
        ('{"error": {"message": "nested message", "detail": "x"}}', "nested message"),
        ('{"error": {"detail": "nested detail"}}', "nested detail"),
        ('{"other": true}', '{"other": true}'),
        ("[1, 2]", "[1, 2]"),
        ("upstream timeout", "upstream timeout"),
        ("", ""),
    ],
)
def test_error_detail(body: str, detail: str) -> None:
    assert error_detail(400, body) == detail


def test_error_statuses() -> None:
    with pytest.raises(SearchProviderError) as empty:
        ParallelProvider().check(status(404))
    assert empty.value.message == "Parallel API error (404)"
    with pytest.raises(QuotaExhaustedError):
        ParallelProvider().check(status(402, '{"error": {"message": "pay"}}'))
    with pytest.raises(QuotaExhaustedError) as quota:
        ParallelProvider().check(status(429, '{"error": {"message": "Quota reached"}}'))
    assert quota.value.message == "parallel: credits exhausted"
    with pytest.raises(RateLimitedError) as limited:
        ParallelProvider().check(status(429, "slow down", {"Retry-After": "4"}))
    assert limited.value.retry_after == 4.0
    assert limited.value.message == "Parallel API error (429): slow down"
    with pytest.raises(ProviderUnavailableError) as down:
        ParallelProvider().check(status(500, '{"type": "error", "error": {"message": "boom"}}'))
    assert down.value.message == "Parallel API error (500): boom"
    with pytest.raises(AuthorizationError):
        ParallelProvider().check(status(403, "forbidden"))
    ParallelProvider().check(status(200, "{}"))
