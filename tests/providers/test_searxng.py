"""SearXNG: request building, auth, and parsing of real and hand-written bodies (no I/O)."""

import base64
import json
from datetime import UTC, datetime
from typing import Any, cast

import pytest

from tests.conftest import read_capture
from websearch_core.credentials import Credentials
from websearch_core.errors import (
    AuthorizationError,
    ChallengeError,
    ConfigurationError,
    ProviderNotConfiguredError,
    ProviderUnavailableError,
    RateLimitedError,
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.format import format_for_llm
from websearch_core.models import SearchParams
from websearch_core.providers import get_provider
from websearch_core.providers.base import ProviderContext
from websearch_core.providers.searxng import (
    BASIC_COLON,
    BASIC_CONTROL,
    BASIC_INCOMPLETE,
    ENDPOINT_MISSING,
    SearxngProvider,
    detect_challenge,
    format_answer,
    parse_search_body,
)
from websearch_core.settings import Settings
from websearch_core.transport import HttpResponse, Transport

CAPTURE = "searxng/search_format_json_espresso_2026.json"
CHALLENGE = "searxng/searx_be_verifying_request_challenge_2026.html"
ENDPOINT = "https://searx.example.org"

provider = SearxngProvider()


def _context(**searxng: Any) -> ProviderContext:
    return ProviderContext(
        transport=cast(Transport, None),
        settings=Settings(searxng=searxng),
        credentials=Credentials(environ={}),
    )


def _params(**values: Any) -> SearchParams:
    return SearchParams(query=values.pop("query", "espresso grind size"), **values)


def _query(**values: Any) -> dict[str, str]:
    searxng = values.pop("searxng", {})
    request = provider.build_request(_params(**values), _context(endpoint=ENDPOINT, **searxng))
    return dict(request.params)


def _auth(**searxng: Any) -> str | None:
    request = provider.build_request(_params(), _context(endpoint=ENDPOINT, **searxng))
    return request.headers.get("Authorization")


def _ok(body: bytes | str | dict[str, Any], content_type: str = "application/json") -> HttpResponse:
    if isinstance(body, dict):
        body = json.dumps(body)
    raw = body.encode() if isinstance(body, str) else body
    return HttpResponse(status=200, body=raw, headers={"Content-Type": content_type})


def _parse(body: bytes | str | dict[str, Any], **params: Any) -> Any:
    return provider.parse_response(_ok(body), _params(**params))


# --- facts and availability ----------------------------------------------------------------


def test_info_facts() -> None:
    info = SearxngProvider.info
    assert (info.id, info.label, info.kind) == ("searxng", "SearXNG", "api")
    assert info.env_vars == ()
    assert info.honours == {"query", "recency", "limit", "num_search_results", "language"}
    assert (info.default_results, info.max_results) == (10, 20)
    assert info.docs_url == "https://docs.searxng.org/dev/search_api.html"
    assert isinstance(get_provider("searxng"), SearxngProvider)


def test_available_only_with_an_endpoint() -> None:
    assert not provider.is_available(_context())
    assert not provider.is_available(_context(endpoint="   "))
    assert provider.is_available(_context(endpoint=ENDPOINT))
    assert provider.is_explicitly_available(_context(endpoint=ENDPOINT))


def test_endpoint_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEARXNG_ENDPOINT", "https://env.example.org/")
    context = ProviderContext(
        transport=cast(Transport, None), settings=Settings(), credentials=Credentials()
    )
    assert provider.is_available(context)
    assert provider.build_request(_params(), context).url == "https://env.example.org/search"


async def test_search_without_endpoint_is_not_configured() -> None:
    with pytest.raises(ProviderNotConfiguredError) as caught:
        await provider.search(_params(), _context())
    assert caught.value.message == ENDPOINT_MISSING
    assert str(caught.value) == (
        "SearXNG endpoint not configured. Set searxng.endpoint in settings or "
        "SEARXNG_ENDPOINT in environment."
    )
    assert caught.value.provider == "searxng"


def test_endpoint_must_be_http() -> None:
    with pytest.raises(ConfigurationError, match=r"searxng\.endpoint must be an http\(s\) URL"):
        provider.build_request(_params(), _context(endpoint="searx.example.org"))


# --- request -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("endpoint", "url"),
    [
        ("https://searx.example.org", "https://searx.example.org/search"),
        ("https://searx.example.org/", "https://searx.example.org/search"),
        ("https://example.org/searxng//", "https://example.org/searxng/search"),
        ("  http://127.0.0.1:8888  ", "http://127.0.0.1:8888/search"),
    ],
)
def test_url_is_endpoint_plus_search(endpoint: str, url: str) -> None:
    request = provider.build_request(_params(), _context(endpoint=endpoint))
    assert request.method == "GET"
    assert request.url == url


def test_minimal_request() -> None:
    request = provider.build_request(_params(), _context(endpoint=ENDPOINT))
    assert list(request.params) == [("q", "espresso grind size"), ("format", "json")]
    assert dict(request.headers) == {"Accept": "application/json"}
    assert request.form is None and request.json is None


@pytest.mark.parametrize("field", ["limit", "num_search_results"])
def test_pageno_only_when_a_count_is_given(field: str) -> None:
    query = _query(**{field: 7})
    assert query["pageno"] == "1"
    assert "7" not in query.values()


@pytest.mark.parametrize(
    ("recency", "time_range"),
    [("day", "day"), ("week", "month"), ("month", "month"), ("year", "year")],
)
def test_recency_maps_to_time_range(recency: str, time_range: str) -> None:
    assert _query(recency=recency)["time_range"] == time_range


def test_settings_filters_are_sent() -> None:
    query = _query(
        searxng={
            "categories": "general, news",
            "engines": " brave ,google,, ",
            "safesearch": 0,
            "language": "fr",
        }
    )
    assert query["categories"] == "general,news"
    assert query["engines"] == "brave,google"
    assert query["safesearch"] == "0"
    assert query["language"] == "fr"


def test_params_language_overrides_settings_language() -> None:
    assert _query(language="pt-BR", searxng={"language": "fr"})["language"] == "pt-BR"
    assert _query(language="de")["language"] == "de"
    assert "language" not in _query()


def test_unhonoured_params_are_not_sent() -> None:
    query = _query(country="DE", max_tokens=100, temperature=0.5)
    assert set(query) == {"q", "format"}


@pytest.mark.parametrize(
    ("text", "sent"),
    [
        ("espresso  grind\tsize", "espresso  grind\tsize"),
        ("!wp espresso", "!wp espresso"),
        ("!!g espresso grind", "espresso grind"),
        ("espresso !!ddg grind", "espresso grind"),
        ("!!g", "!!g"),
    ],
)
def test_external_bangs_are_removed(text: str, sent: str) -> None:
    assert _query(query=text)["q"] == sent


# --- auth ----------------------------------------------------------------------------------


def test_no_credentials_no_authorization_header() -> None:
    assert _auth() is None
    assert _auth(token="   ") is None


def test_bearer_token() -> None:
    assert _auth(token="tok-123") == "Bearer tok-123"


def test_basic_auth_is_utf8_base64() -> None:
    header = _auth(basic_username="alice", basic_password="pässwörd")
    assert header == "Basic " + base64.b64encode("alice:pässwörd".encode()).decode()


def test_basic_wins_over_bearer() -> None:
    assert _auth(basic_username="a", basic_password="b", token="t") == "Basic YTpi"


def test_empty_basic_strings_count_as_configured() -> None:
    assert _auth(basic_username="", basic_password="", token="t") == "Basic Og=="


@pytest.mark.parametrize(
    "searxng",
    [
        {"basic_username": "alice"},
        {"basic_password": "secret"},
        {"basic_username": "", "token": "t"},
    ],
)
def test_basic_needs_both_halves(searxng: dict[str, str]) -> None:
    with pytest.raises(ConfigurationError) as caught:
        _auth(**searxng)
    assert str(caught.value) == BASIC_INCOMPLETE
    assert str(caught.value) == (
        "SearXNG Basic auth requires both searxng.basic_username and searxng.basic_password, "
        "or SEARXNG_BASIC_USERNAME and SEARXNG_BASIC_PASSWORD."
    )


def test_basic_username_without_colon() -> None:
    with pytest.raises(ConfigurationError) as caught:
        _auth(basic_username="ali:ce", basic_password="secret")
    assert str(caught.value) == BASIC_COLON
    assert "RFC 7617 uses it as the separator" in str(caught.value)
    assert _auth(basic_username="alice", basic_password="se:cret") is not None


@pytest.mark.parametrize("char", ["\x00", "\t", "\n", "\x1f", "\x7f", "\x80", "\x85", "\x9f"])
@pytest.mark.parametrize("field", ["basic_username", "basic_password"])
def test_basic_rejects_control_characters(char: str, field: str) -> None:
    values = {"basic_username": "alice", "basic_password": "secret"}
    values[field] = f"x{char}y"
    with pytest.raises(ConfigurationError) as caught:
        _auth(**values)
    assert str(caught.value) == BASIC_CONTROL
    assert "secret" not in str(caught.value)


def test_basic_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEARXNG_ENDPOINT", ENDPOINT)
    monkeypatch.setenv("SEARXNG_BASIC_USERNAME", "bob")
    monkeypatch.setenv("SEARXNG_BASIC_PASSWORD", "pw")
    monkeypatch.setenv("SEARXNG_TOKEN", "ignored")
    context = ProviderContext(
        transport=cast(Transport, None), settings=Settings(), credentials=Credentials()
    )
    header = provider.build_request(_params(), context).headers["Authorization"]
    assert header == "Basic " + base64.b64encode(b"bob:pw").decode()


def test_request_repr_hides_credentials() -> None:
    request = provider.build_request(_params(), _context(endpoint=ENDPOINT, token="tok-secret"))
    assert "tok-secret" not in repr(request)


# --- the real capture ------------------------------------------------------------------------


@pytest.mark.conformance
def test_real_capture_parses() -> None:
    response = _parse(read_capture(CAPTURE))
    assert response.provider == "searxng"
    assert len(response.sources) == 10
    first = response.sources[0]
    assert first.title == (
        "ground coffee - How does grind size affect the extraction time and taste of "
        "espresso? - Coffee Stack Exchange"
    )
    assert first.url == (
        "https://coffee.stackexchange.com/questions/6402/"
        "how-does-grind-size-affect-the-extraction-time-and-taste-of-espresso"
    )
    assert first.snippet == (
        "Aug 19, 2024 \u00b7 An overly fine grind produces a slow expression, but those fine "
        "grounds extract faster than coarse grounds so too fine a grind (or over tamping) ..."
    )
    assert first.published_date is None and first.age_seconds is None
    second = response.sources[1]
    assert second.title == "How to find the best grind size for espresso"
    assert second.url == (
        "https://www.breville.com/us/en/blog/coffee-and-espresso/best-grind-for-espresso.html"
    )
    assert second.snippet == (
        "While tiny in size, fine grinds have a large effect on espresso flavor. The reason? "
        "The coffee grind size directly impacts the degree of extraction that takes place."
    )
    reddit = response.sources[6]
    assert reddit.url == (
        "https://www.reddit.com/r/espresso/comments/rgzj28/"
        "how_do_you_guys_figure_out_the_best_grind_size/"
    )
    assert reddit.snippet is None  # content "" is no snippet
    dated = response.sources[8]
    assert dated.title == "Coffee Grind Size Chart: Find the Answers Here!"
    assert dated.url == "https://www.coffeeness.de/en/coffee-grind-size-chart/"
    assert dated.snippet is not None
    assert dated.snippet.startswith("When I\u2019m dialing in my Coffeeness Signature Espresso")
    assert dated.published_date == "2026-02-17T00:00:00"
    expected_age = (datetime.now(UTC) - datetime(2026, 2, 17, tzinfo=UTC)).total_seconds()
    assert dated.age_seconds is not None and abs(dated.age_seconds - expected_age) < 60
    assert response.answer is None
    assert response.citations == ()
    assert len(response.related_questions) == 15
    assert response.related_questions[:3] == (
        "coffee grind size chart",
        "coffee grind size chart breville",
        "ninja espresso grind size",
    )
    assert response.related_questions[-1] == "single shot espresso extraction time"
    assert response.has_renderable_content()


@pytest.mark.conformance
@pytest.mark.parametrize(("count", "expected"), [(3, 3), (20, 20), (100, 20)])
def test_real_capture_is_sliced_to_the_clamped_count(count: int, expected: int) -> None:
    by_limit = _parse(read_capture(CAPTURE), limit=count)
    by_breadth = _parse(read_capture(CAPTURE), limit=1, num_search_results=count)
    assert len(by_limit.sources) == expected
    assert by_breadth.sources == by_limit.sources


@pytest.mark.conformance
def test_real_capture_later_results_and_dates() -> None:
    response = _parse(read_capture(CAPTURE), limit=20)
    by_index = {i: source for i, source in enumerate(response.sources)}
    assert by_index[15].title == (
        "How to Optimize Grind Size Settings Across Your Coffee Menu \u2014 Mahlk\u00f6nig USA"
    )
    assert by_index[15].url == "https://www.mahlkoenig.us/blogs/news/optimize-grind-size-settings"
    assert by_index[15].published_date == "2025-11-18T00:00:00"
    assert by_index[17].url == "https://www.cumbre.coffee/espresso-grind-size-chart/"
    assert by_index[17].published_date == "2026-03-05T00:00:00"
    assert by_index[19].title == "Coffee Grind Size Chart: Every Brew Method Explained (2026)"
    assert by_index[19].published_date == "2026-03-07T00:00:00"
    dated = [s.published_date for s in response.sources if s.published_date]
    assert dated == [
        "2026-02-17T00:00:00",
        "2025-01-13T00:00:00",
        "2023-07-20T00:00:00",
        "2025-08-20T00:00:00",
        "2025-11-18T00:00:00",
        "2026-03-05T00:00:00",
        "2026-03-07T00:00:00",
    ]


@pytest.mark.conformance
def test_real_capture_without_results_reports_failed_engines() -> None:
    data = json.loads(read_capture(CAPTURE))
    data["results"] = []
    with pytest.raises(ProviderUnavailableError) as caught:
        _parse(data)
    assert caught.value.status == 503
    assert caught.value.provider == "searxng"
    assert caught.value.message == (
        "SearXNG returned no usable results; upstream engines failed: "
        "duckduckgo: CAPTCHA; startpage: Suspended: CAPTCHA"
    )


@pytest.mark.conformance
def test_real_capture_formats_for_the_model() -> None:
    text = format_for_llm(_parse(read_capture(CAPTURE), limit=2))
    assert text.startswith(
        "[1] ground coffee - How does grind size affect the extraction time and taste of "
        "espresso? - Coffee Stack Exchange\n    https://coffee.stackexchange.com/"
    )
    assert "\n## Related\n15 questions\n- coffee grind size chart\n" in text


@pytest.mark.conformance
def test_real_challenge_page_is_a_challenge_not_an_empty_success() -> None:
    page = read_capture(CHALLENGE)
    with pytest.raises(ChallengeError) as caught:
        provider.parse_response(_ok(page, "text/html"), _params())
    assert caught.value.provider == "searxng"
    assert caught.value.status == 429
    assert "searx.be | Verifying your request" in caught.value.message
    assert detect_challenge(page.decode()) == "searx.be | Verifying your request"


# --- hand-written bodies -----------------------------------------------------------------


def test_html_that_is_not_a_challenge_is_a_parse_error() -> None:
    page = "<!DOCTYPE html><html><head><title>My blog</title></head><body>Hi</body></html>"
    with pytest.raises(ResponseParseError) as caught:
        _parse(page)
    assert not isinstance(caught.value, ChallengeError)
    assert caught.value.status == 502
    assert "SearXNG returned HTML instead of JSON" in caught.value.message


def test_searxng_html_results_page_naming_a_captcha_is_not_a_challenge() -> None:
    page = "<html><title>q - SearXNG</title><div>Engines cannot retrieve results: CAPTCHA</div>"
    with pytest.raises(ResponseParseError):
        _parse(page)
    assert detect_challenge(page) is None


@pytest.mark.parametrize("body", ["not json at all", '{"results": [', ""])
def test_garbage_is_invalid_json(body: str) -> None:
    with pytest.raises(ResponseParseError, match="SearXNG API returned invalid JSON"):
        _parse(body)


@pytest.mark.parametrize("body", ["[]", '"text"', "42", '{"results": {"url": "x"}}'])
def test_unexpected_json_shapes_are_parse_errors(body: str) -> None:
    with pytest.raises(ResponseParseError):
        _parse(body)


def test_result_fields_and_fallbacks() -> None:
    body = {
        "results": [
            {"title": "no url"},
            {"url": "", "title": "empty url"},
            {"url": "https://a.example/", "title": "  A \n title ", "content": "  body a  "},
            {"url": "https://b.example/", "title": "", "snippet": "from snippet"},
            {"url": "https://c.example/", "content": None, "snippet": "fallback"},
            {
                "url": "https://d.example/",
                "title": "D",
                "published_date": "2024-08-01",
                "publishedDate": None,
            },
            "not a dict",
            {"url": "https://e.example/", "title": "E", "publishedDate": "yesterday-ish"},
        ],
    }
    sources = _parse(body).sources
    assert [s.url for s in sources] == [
        "https://a.example/",
        "https://b.example/",
        "https://c.example/",
        "https://d.example/",
        "https://e.example/",
    ]
    assert sources[0].title == "A title"
    assert sources[0].snippet == "body a"
    assert sources[1].title == "https://b.example/"
    assert sources[1].snippet == "from snippet"
    assert sources[2].title == "https://c.example/"
    assert sources[2].snippet == "fallback"
    assert sources[3].published_date == "2024-08-01"
    assert sources[3].age_seconds is not None and sources[3].age_seconds > 0
    assert sources[4].published_date == "yesterday-ish"
    assert sources[4].age_seconds is None


def test_content_wins_over_snippet_even_when_empty() -> None:
    body = {"results": [{"url": "https://a.example/", "content": "", "snippet": "unused"}]}
    assert _parse(body).sources[0].snippet is None


def test_missing_results_with_only_suggestions_is_still_a_response() -> None:
    response = _parse({"suggestions": ["  first  ", "", 3, "second"]})
    assert response.sources == ()
    assert response.related_questions == ("first", "second")


def test_no_results_no_failed_engines_is_empty_not_an_error() -> None:
    response = _parse({"results": [], "unresponsive_engines": []})
    assert not response.has_renderable_content()


def test_failed_engines_are_ignored_when_results_exist() -> None:
    body = {
        "results": [{"url": "https://a.example/", "title": "A"}],
        "unresponsive_engines": [["google", "timeout"]],
    }
    assert len(_parse(body).sources) == 1


def test_failed_engines_without_reason() -> None:
    body = {"results": [{"title": "no url"}], "unresponsive_engines": [["bing", None], ["qwant"]]}
    with pytest.raises(ProviderUnavailableError, match=r"upstream engines failed: bing; qwant$"):
        _parse(body)


@pytest.mark.parametrize(
    ("item", "text"),
    [
        ("  42  ", "42"),
        ("   ", None),
        ({"answer": " The answer ", "url": "https://x.example"}, "The answer"),
        (
            {"translations": [{"text": "eins"}, {"text": "zwei"}, {"text": "drei"}, {"text": "4"}]},
            "eins\nzwei\ndrei",
        ),
        ({"translations": []}, None),
        ({"current": {"summary": "Berlin: 5 °C, Cloudy"}}, "Berlin: 5 °C, Cloudy"),
        (
            {
                "current": {
                    "location": {"name": "Oslo"},
                    "temperature": {"val": -3.5, "unit": "°C"},
                    "condition": "light snow",
                }
            },
            "Oslo: -3.5°C: light snow",
        ),
        ({"current": {"location": {"name": "Oslo"}}}, None),
        ({"infobox": "x"}, None),
        (7, None),
    ],
)
def test_answer_shapes(item: Any, text: str | None) -> None:
    assert format_answer(item) == text


def test_up_to_three_answers_joined_by_blank_lines() -> None:
    body = {
        "results": [{"url": "https://a.example/", "title": "A"}],
        "answers": ["one", {"answer": "two"}, {"unknown": 1}, {"answer": "three"}, "four"],
    }
    assert _parse(body).answer == "one\n\ntwo\n\nthree"


def test_answer_only_response_is_renderable() -> None:
    response = _parse({"results": [], "answers": [{"answer": "1 EUR = 1.08 USD"}]})
    assert response.answer == "1 EUR = 1.08 USD"
    assert response.has_renderable_content()


# --- HTTP errors -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "body", "kind", "message"),
    [
        (500, "boom", ProviderUnavailableError, "SearXNG API error (500): boom"),
        (502, "", ProviderUnavailableError, "SearXNG API error (502)"),
        (404, "Not Found", SearchProviderError, "SearXNG API error (404): Not Found"),
        (429, "Too Many Requests", RateLimitedError, "SearXNG API error (429): Too Many Requests"),
        (401, "nope", AuthorizationError, "searxng: 401 unauthorized"),
        (403, "Forbidden", AuthorizationError, "searxng: 403 forbidden"),
    ],
)
def test_http_errors(status: int, body: str, kind: type[Exception], message: str) -> None:
    response = HttpResponse(status=status, body=body.encode())
    with pytest.raises(kind) as caught:
        provider.check_response(response)
    error = caught.value
    assert isinstance(error, SearchProviderError)
    assert error.message == message
    assert error.status == status
    assert type(error) is kind


def test_success_status_passes_the_check() -> None:
    provider.check_response(_ok({"results": []}))


def test_parse_search_body_is_pure_and_reusable() -> None:
    body = {"results": [{"url": f"https://{i}.example/", "title": str(i)} for i in range(30)]}
    assert len(parse_search_body(body, None).sources) == 10
    assert len(parse_search_body(body, 0).sources) == 10
    assert len(parse_search_body(body, 25).sources) == 20
