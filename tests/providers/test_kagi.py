"""Kagi: request building and response parsing (v1 envelope and the v0 captures), pure."""

import json
from datetime import UTC, date, datetime
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
from websearch_core.models import SearchParams
from websearch_core.providers import get_provider
from websearch_core.providers.base import ProviderContext
from websearch_core.providers.kagi import (
    INFO,
    KAGI_ENDPOINT,
    KagiProvider,
    after_date,
    error_detail,
    parse_body,
    request_body,
)
from websearch_core.settings import Settings
from websearch_core.transport import HttpResponse

TODAY = date(2026, 3, 31)
NOW = datetime(2024, 10, 1, 0, 0, tzinfo=UTC)


def context(key: str | None = "kagi-test-key") -> ProviderContext:
    return key_context("kagi", key)


def parse(body: Any, **fields: Any) -> Any:
    return KagiProvider().parse_response(ok(body), SearchParams(query="q", **fields))


# --- facts ------------------------------------------------------------------------------------


def test_registry_returns_the_kagi_provider_with_its_facts() -> None:
    provider = get_provider("kagi")
    assert isinstance(provider, KagiProvider)
    assert provider.info is INFO
    assert (INFO.id, INFO.label, INFO.kind) == ("kagi", "Kagi", "api")
    assert INFO.env_vars == ("KAGI_API_KEY",)
    assert (INFO.default_results, INFO.max_results) == (10, 40)
    assert INFO.honours == {
        "query",
        "recency",
        "limit",
        "num_search_results",
        "date_after",
        "date_before",
        "country",
    }
    assert INFO.docs_url.startswith("https://help.kagi.com/")


# --- request ----------------------------------------------------------------------------------


def test_default_request_shape() -> None:
    request = KagiProvider().build_request(SearchParams(query="steve jobs"), context())
    assert request.method == "POST"
    assert request.url == KAGI_ENDPOINT == "https://kagi.com/api/v1/search"
    assert dict(request.headers) == {
        "Authorization": "Bearer kagi-test-key",
        "Content-Type": "application/json",
        "Accept": "application/json",
    }
    assert request.json == {"query": "steve jobs", "workflow": "search", "limit": 10}
    assert list(request.params) == [] and request.form is None
    assert "kagi-test-key" not in repr(request)


@pytest.mark.parametrize(
    ("fields", "limit"),
    [
        ({}, 10),
        ({"limit": 1}, 1),
        ({"limit": 25}, 25),
        ({"limit": 40}, 40),
        ({"limit": 41}, 40),
        ({"limit": 100}, 40),
        ({"num_search_results": 30, "limit": 3}, 30),
    ],
)
def test_limit_is_num_search_results_before_limit_clamped_to_40(
    fields: dict[str, int], limit: int
) -> None:
    assert request_body(SearchParams(query="x", **fields), TODAY)["limit"] == limit


@pytest.mark.parametrize(
    ("today", "recency", "after"),
    [
        (date(2026, 3, 31), "day", date(2026, 3, 30)),
        (date(2026, 3, 1), "day", date(2026, 2, 28)),
        (date(2026, 3, 31), "week", date(2026, 3, 24)),
        (date(2026, 3, 31), "month", date(2026, 2, 28)),
        (date(2024, 3, 31), "month", date(2024, 2, 29)),
        (date(2026, 1, 15), "month", date(2025, 12, 15)),
        (date(2026, 3, 31), "year", date(2025, 3, 31)),
        (date(2024, 2, 29), "year", date(2023, 2, 28)),
    ],
)
def test_recency_gives_filters_after_in_calendar_steps(
    today: date, recency: str, after: date
) -> None:
    params = SearchParams(query="x", recency=recency)
    assert after_date(params, today) == after
    assert request_body(params, today)["filters"] == {"after": after.isoformat()}


def test_no_time_filter_sends_no_filters() -> None:
    assert "filters" not in request_body(SearchParams(query="x"), TODAY)


def test_date_after_wins_over_recency() -> None:
    params = SearchParams(query="x", recency="day", date_after=date(2025, 6, 1))
    assert request_body(params, TODAY)["filters"] == {"after": "2025-06-01"}


def test_date_before_and_country_go_in_filters_as_kagis_openapi_names_them() -> None:
    # kagisearch/kagi-api-golang api/openapi.yaml, search_request_filters: region, after,
    # before (dates as YYYY-MM-DD, region an ISO 3166-1 alpha-2 code).
    params = SearchParams(
        query="x", date_after=date(2025, 1, 2), date_before=date(2025, 3, 4), country="de"
    )
    assert request_body(params, TODAY)["filters"] == {
        "after": "2025-01-02",
        "before": "2025-03-04",
        "region": "DE",
    }


@pytest.mark.parametrize(
    ("fields", "filters"),
    [
        ({"date_before": date(2025, 3, 4)}, {"before": "2025-03-04"}),
        ({"country": "jp"}, {"region": "JP"}),
        ({"recency": "week", "country": "gb"}, {"after": "2026-03-24", "region": "GB"}),
    ],
)
def test_each_filter_key_is_sent_only_when_asked(
    fields: dict[str, Any], filters: dict[str, str]
) -> None:
    assert request_body(SearchParams(query="x", **fields), TODAY)["filters"] == filters


def test_language_has_no_kagi_parameter_and_is_not_sent() -> None:
    # Guard (passes before and after the fix): Kagi's v1 description has no language field.
    body = request_body(SearchParams(query="x", language="de"), TODAY)
    assert body == {"query": "x", "workflow": "search", "limit": 10}


def test_build_request_uses_today_in_utc() -> None:
    request = KagiProvider().build_request(SearchParams(query="x", recency="day"), context())
    expected = after_date(SearchParams(query="x", recency="day"), datetime.now(UTC).date())
    assert expected is not None
    assert request.json["filters"] == {"after": expected.isoformat()}


def test_missing_key_gives_the_spec_message() -> None:
    with pytest.raises(ProviderNotConfiguredError) as caught:
        KagiProvider().build_request(SearchParams(query="x"), context(key=None))
    assert caught.value.message == (
        'Kagi credentials not found. Set KAGI_API_KEY or configure an API key for provider "kagi".'
    )


def test_key_from_the_environment_variable() -> None:
    ctx = ProviderContext(
        transport=context().transport,
        settings=Settings(),
        credentials=Credentials(environ={"KAGI_API_KEY": "from-env"}),
    )
    assert KagiProvider().is_available(ctx)
    request = KagiProvider().build_request(SearchParams(query="x"), ctx)
    assert request.headers["Authorization"] == "Bearer from-env"


# --- the real captures (v0 shape) -------------------------------------------------------------


@pytest.mark.conformance
def test_parse_v0_capture_2024() -> None:
    body = read_capture("kagi/v0_search_doc_example_steve_jobs_2024.json")
    response = KagiProvider().parse_response(
        HttpResponse(status=200, body=body), SearchParams(query="steve jobs", limit=40)
    )
    assert response.provider == "kagi"
    assert response.request_id == "69c3f5c4168f66b860e951c585550f1c"
    assert response.auth_mode == "api_key"
    assert response.answer is None
    sources = response.sources
    assert len(sources) == 20

    first = sources[0]
    assert first.title == "Steve Jobs - Wikipedia"
    assert first.url == "https://en.wikipedia.org/wiki/Steve_Jobs"
    assert first.snippet == (
        "Steven Paul Jobs (February 24, 1955 – October 5, 2011) was an American businessman, "
        "inventor, and investor best known for co-founding the technology company ..."
    )
    assert first.published_date is None and first.age_seconds is None

    britannica = sources[4]
    assert (
        britannica.title == "Steve Jobs | Biography, Education, Apple, & Facts | Britannica Money"
    )
    assert britannica.url == "https://www.britannica.com/money/Steve-Jobs"
    assert britannica.published_date == "2024-09-30T00:00:00Z"
    assert britannica.age_seconds is not None

    amazon = sources[5]
    assert amazon.url == "https://www.amazon.com/Steve-Jobs-Walter-Isaacson/dp/1451648537"
    assert amazon.snippet is not None
    assert amazon.snippet.startswith("Walter Isaacson's “enthralling” (The New Yorker)")

    last = sources[-1]
    assert last.title == "Steve Jobs: From Garage to World’s Most Valuable Company"
    assert last.url == "https://www.computerhistory.org/blog/steve-jobs/"

    assert response.related_questions == (
        "Steve Jobs",
        "steve jobs death",
        "steve jobs net worth",
        "steve jobs quotes",
        "steve jobs movie",
        "steve jobs wife",
        "steve jobs daughter",
        "steve jobs biography",
        "steve jobs last words",
        "steve jobs age",
    )


@pytest.mark.conformance
def test_v0_capture_dates_become_ages() -> None:
    data = json.loads(read_capture("kagi/v0_search_doc_example_steve_jobs_2024.json"))
    sources = parse_body(data, 40, now=NOW)
    assert sources.sources[4].age_seconds == 86400  # 2024-09-30 to 2024-10-01
    hbr = sources.sources[6]
    assert hbr.url == "https://hbr.org/2012/04/the-real-leadership-lessons-of-steve-jobs"
    assert hbr.published_date == "2012-04-01T00:00:00Z"
    assert hbr.age_seconds == int((NOW - datetime(2012, 4, 1, tzinfo=UTC)).total_seconds())


@pytest.mark.conformance
def test_v0_capture_is_cut_to_the_requested_count() -> None:
    body = read_capture("kagi/v0_search_doc_example_steve_jobs_2024.json")
    response = KagiProvider().parse_response(
        HttpResponse(status=200, body=body), SearchParams(query="steve jobs")
    )
    assert len(response.sources) == 10
    assert response.sources[-1].url == "https://allaboutstevejobs.com/"
    assert len(response.related_questions) == 10


@pytest.mark.conformance
def test_parse_v0_capture_2023_with_html_and_rank() -> None:
    body = read_capture("kagi/v0_search_doc_example_steve_jobs_2023_with_rank.json")
    response = KagiProvider().parse_response(
        HttpResponse(status=200, body=body), SearchParams(query="steve jobs")
    )
    assert response.request_id == "f82bee15-ae0b-4b32-9a9e-05490fe3a8e4"
    sources = response.sources
    assert [s.url for s in sources[:3]] == [
        "https://en.wikipedia.org/wiki/Steve_Jobs",
        "https://www.britannica.com/biography/Steve-Jobs",
        "https://www.britannica.com/summary/Steve-Jobs",
    ]
    assert len(sources) == 10
    # Tags stripped, entities (&amp; &nbsp; &#39; &quot;) decoded, whitespace collapsed.
    assert sources[0].snippet == (
        "Steven Paul Jobs (February 24, 1955 – October 5, 2011) was an American business "
        "magnate, industrial designer, media proprietor, and investor."
    )
    assert sources[1].title == "Steve Jobs | Biography, Education, Apple, & Facts | Britannica"
    assert sources[1].snippet == (
        "Steve Jobs, in full Steven Paul Jobs, (born February 24, 1955, San Francisco, "
        "California, U.S.—died October 5, 2011, Palo Alto, California), ..."
    )
    assert sources[1].published_date == "2023-02-20T00:00:00Z"
    assert sources[3].snippet is not None
    assert sources[3].snippet.startswith("For every good post you'll get a desktop")
    assert 'Samsung 850 EVO-Series 500GB 2.5" Solid State Drive' in sources[3].snippet
    assert sources[4].title == "Steve Jobs - Movie, Daughter & Death - Biography"
    assert all("<" not in (s.snippet or "") and "&amp;" not in s.title for s in sources)
    assert all(
        "&nbsp;" not in (s.snippet or "") and "&#39;" not in (s.snippet or "") for s in sources
    )
    assert response.related_questions[:3] == ("Steve Jobs", "steve jobs movie", "steve jobs death")
    assert len(response.related_questions) == 9


# --- the v1 envelope --------------------------------------------------------------------------


V1_BODY: dict[str, Any] = {
    "meta": {"trace": "trace-abc", "id": "id-123", "ms": 120},
    "data": {
        "search": [
            {
                "url": "https://a.example/1",
                "title": "A one",
                "snippet": "first",
                "time": "2024-09-29",
            },
            {"href": "https://a.example/2", "name": "A two", "description": "second"},
            {"link": "https://a.example/3", "summary": "third"},
            {"url": "", "href": "https://a.example/4", "title": "A four"},
            {"url": "ftp://a.example/x", "title": "dropped"},
            "not an object",
        ],
        "video": [{"url": "https://v.example/1", "title": "Clip", "snippet": "video"}],
        "news": [{"url": "https://n.example/1", "title": "Headline", "time": "not a date"}],
        "infobox": [{"url": "https://i.example/1", "title": "Box"}],
        "adjacent_question": [
            {"props": {"question": "What is A?"}},
            {"props": {"query": "a query"}},
            {"title": "A title"},
            {"props": {}},
        ],
        "related_search": [{"props": {"query": "related one"}}, {"title": "related two"}],
        "direct_answer": [{"title": "A", "snippet": "  The answer.  "}],
    },
}


def test_v1_sources_in_section_order_with_tags() -> None:
    response = parse(V1_BODY, limit=40)
    assert [(s.title, s.url, s.snippet) for s in response.sources] == [
        ("A one", "https://a.example/1", "first"),
        ("A two", "https://a.example/2", "second"),
        ("https://a.example/3", "https://a.example/3", "third"),
        ("A four", "https://a.example/4", None),
        ("[Video] Clip", "https://v.example/1", "video"),
        ("[News] Headline", "https://n.example/1", None),
        ("[Info] Box", "https://i.example/1", None),
    ]
    assert response.sources[0].published_date == "2024-09-29"
    assert response.sources[0].age_seconds is not None
    assert response.sources[5].published_date == "not a date"
    assert response.sources[5].age_seconds is None


def test_v1_related_answer_and_request_id() -> None:
    response = parse(V1_BODY)
    assert response.related_questions == (
        "What is A?",
        "a query",
        "A title",
        "related one",
        "related two",
    )
    assert response.answer == "The answer."
    assert response.request_id == "trace-abc"


def test_v1_answer_falls_back_to_title_and_request_id_to_meta_id() -> None:
    body = {"meta": {"id": "id-9"}, "data": {"direct_answer": [{"title": "Only title"}]}}
    response = parse(body)
    assert response.answer == "Only title"
    assert response.request_id == "id-9"
    assert response.sources == ()


def test_v1_sources_are_cut_to_the_count() -> None:
    assert len(parse(V1_BODY, limit=2).sources) == 2
    assert [s.url for s in parse(V1_BODY, num_search_results=5, limit=1).sources][-1] == (
        "https://v.example/1"
    )


@pytest.mark.parametrize(("fields", "count"), [({}, 10), ({"num_search_results": 90}, 40)])
def test_v1_sources_are_cut_to_ten_by_default_and_forty_at_most(
    fields: dict[str, int], count: int
) -> None:
    """Guard (spec, Limits & Caps): Kagi's result count is default ``10``, max ``40``.

    The request's count had tests; the parser's own cut of a longer answer had none: the
    Kagi tests passed with ``MAX_RESULTS + 1`` in that cut (through the chain, the source
    cap at the provider's maximum would hide it; a caller of the provider alone sees it).
    """
    body = {"data": {"search": [{"url": f"https://a.example/{i}"} for i in range(50)]}}
    assert len(parse(body, **fields).sources) == count


def test_v1_empty_data_is_an_empty_response() -> None:
    response = parse({"meta": {}, "data": {}})
    assert response.sources == () and response.answer is None
    assert response.related_questions == () and response.request_id is None


# --- parse failures ---------------------------------------------------------------------------


def test_invalid_json() -> None:
    with pytest.raises(ResponseParseError) as caught:
        KagiProvider().parse_response(status(200, "<html>"), SearchParams(query="q"))
    assert caught.value.message == "Kagi API returned an invalid response: invalid JSON"


@pytest.mark.parametrize("body", [[], "x", 3, None])
def test_not_an_object(body: Any) -> None:
    with pytest.raises(ResponseParseError) as caught:
        parse(body)
    assert caught.value.message == (
        "Kagi API returned an invalid response: expected an object envelope"
    )


@pytest.mark.parametrize("data", [None, "x", 1])
def test_data_neither_object_nor_list(data: Any) -> None:
    with pytest.raises(ResponseParseError) as caught:
        parse({"meta": {}, "data": data})
    assert caught.value.message == (
        "Kagi API returned an invalid response: expected data to be an object"
    )


# --- errors -----------------------------------------------------------------------------------


def test_2xx_body_with_error_list() -> None:
    body: dict[str, Any] = {
        "meta": {},
        "data": None,
        "error": [{"code": 7, "msg": "Search is down"}],
    }
    with pytest.raises(SearchProviderError) as caught:
        parse(body)
    assert type(caught.value) is SearchProviderError
    assert caught.value.message == "Kagi API error (7): Search is down"
    assert caught.value.status == 200


def test_2xx_body_with_quota_error_is_quota_exhausted() -> None:
    body = {"data": None, "error": [{"code": 1, "msg": "Insufficient credit to perform this"}]}
    with pytest.raises(QuotaExhaustedError) as caught:
        parse(body)
    assert caught.value.message == "kagi: credits exhausted"


def test_2xx_body_with_an_http_code_is_typed_like_that_status() -> None:
    body = {"data": None, "errors": [{"code": 401, "message": "Bad key"}]}
    with pytest.raises(AuthorizationError) as caught:
        parse(body)
    assert caught.value.status == 401


def test_2xx_body_with_a_string_error_uses_the_status() -> None:
    with pytest.raises(SearchProviderError) as caught:
        parse({"data": {}, "error": "maintenance"})
    assert caught.value.message == "Kagi API error (200): maintenance"


def test_2xx_with_null_error_parses() -> None:
    assert parse({"data": {"search": []}, "error": None, "errors": []}).sources == ()


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        ('{"message": "Bad request"}', "Bad request"),
        ('{"detail": "Not allowed"}', "Not allowed"),
        ('{"error": "plain"}', "plain"),
        ('{"errors": [{"msg": "from msg"}]}', "from msg"),
        ('{"error": [{"message": "from message", "code": 3}]}', "from message"),
        ('{"error": [{"code": "RATE"}]}', "RATE"),
        ('{"other": 1}', '{"other": 1}'),
        ("gateway says no", "gateway says no"),
        ("  ", ""),
    ],
)
def test_error_detail(body: str, detail: str) -> None:
    assert error_detail(400, body) == detail


def test_non_2xx_message_and_empty_body() -> None:
    with pytest.raises(SearchProviderError) as caught:
        KagiProvider().check(status(400, '{"error": [{"code": 400, "msg": "No q"}]}'))
    assert caught.value.message == "Kagi API error (400): No q"
    with pytest.raises(SearchProviderError) as caught:
        KagiProvider().check(status(404))
    assert caught.value.message == "Kagi API error (404)"


def test_classified_statuses() -> None:
    with pytest.raises(AuthorizationError) as auth:
        KagiProvider().check(status(401, "nope"))
    assert auth.value.message == "kagi: 401 unauthorized"
    with pytest.raises(QuotaExhaustedError):
        KagiProvider().check(status(402))
    with pytest.raises(RateLimitedError) as limited:
        KagiProvider().check(status(429, "slow", {"Retry-After": "3"}))
    assert limited.value.retry_after == 3.0
    assert limited.value.message == "Kagi API error (429): slow"
    with pytest.raises(ProviderUnavailableError) as down:
        KagiProvider().check(status(503, '{"message": "maintenance"}'))
    assert down.value.message == "Kagi API error (503): maintenance"
    KagiProvider().check(status(200, "{}"))
