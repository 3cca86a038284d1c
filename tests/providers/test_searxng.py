"""SearXNG: request building, auth, and parsing of real and hand-written bodies (no I/O)."""

import base64
import json
from datetime import UTC, datetime
from typing import Any, cast

import pytest
from pydantic import ValidationError

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
from websearch_core.format import format_for_llm, format_provider_failure
from websearch_core.models import SearchCitation, SearchParams, SourceRank
from websearch_core.providers import get_provider
from websearch_core.providers._searxng_parse import (
    format_infobox,
    unanswered_line,
    unresponsive_engines,
)
from websearch_core.providers.base import ProviderContext
from websearch_core.providers.searxng import (
    BASIC_COLON,
    BASIC_CONTROL,
    BASIC_INCOMPLETE,
    ENDPOINT_MISSING,
    SearxngProvider,
    detect_challenge,
    external_bangs,
    format_answer,
    parse_search_body,
    search_url,
)
from websearch_core.settings import SearxngSettings, Settings
from websearch_core.transport import HttpRequest, HttpResponse, Transport

CAPTURE = "searxng/search_format_json_espresso_2026.json"
WIKIPEDIA_INFOBOX = {
    "infobox": "Espresso",
    "id": "https://en.wikipedia.org/wiki/Espresso",
    "content": "Espresso is a concentrated form of coffee produced by forcing hot water "
    "under high pressure through finely ground coffee beans.",
    "img_src": "https://upload.wikimedia.org/wikipedia/commons/a/a5/Tazzina_di_caff.jpg",
    "urls": [
        {"title": "Wikipedia", "url": "https://en.wikipedia.org/wiki/Espresso"},
        {"title": "Wikidata", "url": "http://www.wikidata.org/entity/Q180289"},
    ],
    "attributes": [
        {"label": "Country of origin", "value": "Italy"},
        {"label": "Introduced", "value": "1884"},
    ],
    "engine": "wikipedia",
    "engines": ["wikipedia", "wikidata"],
}
"""An infobox in the shape SearXNG's wikipedia/wikidata engines merge into."""
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


@pytest.mark.parametrize(
    "endpoint",
    ["searx.example.org", "ftp://searx.example.org", "https://", "user:hunter2@searx.example.org"],
)
def test_endpoint_must_be_http(endpoint: str) -> None:
    # Refused where the settings are read, located so the message names the variable.
    with pytest.raises(ValidationError) as caught:
        _context(endpoint=endpoint)
    (error,) = caught.value.errors()
    assert error["loc"] == ("searxng", "endpoint")
    assert "hunter2" not in str(caught.value)  # an endpoint may carry credentials
    # Settings built without validation still meet the provider's own check.
    unchecked = Settings.model_construct(searxng=SearxngSettings.model_construct(endpoint=endpoint))
    context = ProviderContext(
        transport=cast(Transport, None), settings=unchecked, credentials=Credentials(environ={})
    )
    with pytest.raises(ConfigurationError) as refused:
        provider.build_request(_params(), context)
    assert str(refused.value) == (
        "searxng.endpoint must be an http(s) URL such as https://searx.example.org"
    )


# --- request -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("endpoint", "url"),
    [
        ("https://searx.example.org", "https://searx.example.org/search"),
        ("https://searx.example.org/", "https://searx.example.org/search"),
        ("https://example.org/searxng//", "https://example.org/searxng/search"),
        ("  http://127.0.0.1:8888  ", "http://127.0.0.1:8888/search"),
        # The URL of the search page itself, as copied from a browser: no /search/search.
        ("https://searx.example.org/search", "https://searx.example.org/search"),
        ("https://searx.example.org/search/", "https://searx.example.org/search"),
        ("https://searx.example.org/search//", "https://searx.example.org/search"),
        ("https://example.org/searxng/search", "https://example.org/searxng/search"),
        ("https://example.org/researcher", "https://example.org/researcher/search"),
        ("https://example.org/search-engine", "https://example.org/search-engine/search"),
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
    # SearXNG accepts a week range (issue 12); the reference's week -> month is not kept.
    [("day", "day"), ("week", "week"), ("month", "month"), ("year", "year")],
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


def test_automatic_language_from_settings_is_sent() -> None:
    assert _query(searxng={"language": "auto"})["language"] == "auto"


def test_unhonoured_params_are_not_sent() -> None:
    query = _query(country="DE", max_tokens=100, temperature=0.5)
    assert set(query) == {"q", "format"}


@pytest.mark.parametrize(
    "text", ["espresso  grind\tsize", "!wp espresso", "!images !ddg latte art", "wow! espresso!!"]
)
def test_queries_without_external_bangs_are_sent_unchanged(text: str) -> None:
    assert _query(query=text)["q"] == text
    assert external_bangs(text) == []


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("!!g foo", '"!!g"'),
        ("!!g", '"!!g"'),
        ("espresso !!ddg grind", '"!!ddg"'),
        ("!! espresso", '"!!"'),
        ("!!w a !!g b !!w c", '"!!w", "!!g"'),
    ],
)
def test_external_bangs_are_refused_before_sending(text: str, tokens: str) -> None:
    with pytest.raises(SearchProviderError) as caught:
        provider.build_request(_params(query=text), _context(endpoint=ENDPOINT))
    error = caught.value
    assert type(error) is SearchProviderError
    assert (error.provider, error.status) == ("searxng", 400)
    assert error.message == (
        f"SearXNG redirects a query with an external bang ({tokens}) to another site instead "
        'of returning results; remove the "!!" token to search the SearXNG instance itself.'
    )


def test_search_url_is_pure() -> None:
    assert search_url("http://[::1]:8888/sx/") == "http://[::1]:8888/sx/search"


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
    # duckduckgo and startpage hit a CAPTCHA: what came back is only part of the answer.
    assert response.partial
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
def test_real_capture_keeps_each_results_engines() -> None:
    response = _parse(read_capture(CAPTURE), limit=20)
    engines = [tuple((rank.engine, rank.rank) for rank in s.engines) for s in response.sources]
    # engines ["brave", "google"], positions [3, 10, 3]: both engines, best position 3.
    assert engines[0] == (("brave", 3), ("google", 3))
    assert engines[1] == (("brave", 1),)
    assert engines[2] == (("brave", 4),)  # positions [4, 12]
    assert engines[3] == (("google", 4),)
    assert engines[10] == (("brave", 6), ("google", 6))  # positions [19, 6]
    assert all(source.engines for source in response.sources)
    assert {rank.engine for s in response.sources for rank in s.engines} == {"brave", "google"}


@pytest.mark.conformance
def test_real_capture_names_the_engines_that_did_not_answer() -> None:
    # The line is logged by the provider, masked (test_no_secret_leaks); built from these.
    response = _parse(read_capture(CAPTURE))
    assert response.partial and len(response.sources) == 10
    assert unanswered_line(response.notes) == (
        "SearXNG answered without these engines: duckduckgo: CAPTCHA; startpage: Suspended: CAPTCHA"
    )
    data = json.loads(read_capture(CAPTURE))
    assert unresponsive_engines(data["unresponsive_engines"]) == [
        "duckduckgo: CAPTCHA",
        "startpage: Suspended: CAPTCHA",
    ]
    data["unresponsive_engines"] = []
    assert not _parse(data).partial


@pytest.mark.conformance
def test_real_capture_with_an_infobox_and_a_correction() -> None:
    data = json.loads(read_capture(CAPTURE))
    data["corrections"] = ["espresso grind size extraction time"]
    data["infoboxes"] = [WIKIPEDIA_INFOBOX]
    response = _parse(data, limit=1)
    assert response.answer == (
        "Espresso\n"
        "Espresso is a concentrated form of coffee produced by forcing hot water under "
        "high pressure through finely ground coffee beans.\n"
        "Country of origin: Italy\n"
        "Introduced: 1884"
    )
    assert response.citations == (
        SearchCitation(url="https://en.wikipedia.org/wiki/Espresso", title="Espresso"),
    )
    assert response.related_questions[:2] == (
        "espresso grind size extraction time",
        "coffee grind size chart",
    )
    assert len(response.related_questions) == 16
    text = format_for_llm(response)
    assert text.startswith("Espresso\nEspresso is a concentrated form of coffee")
    assert "\n## Sources\n1 source\n[1] ground coffee - How does grind size" in text
    assert (
        "\n## Citations\n1 citation\n[1] Espresso\n    https://en.wikipedia.org/wiki/Espresso"
        in text
    )
    assert "\n## Related\n16 questions\n- espresso grind size extraction time\n" in text


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


def test_failed_engines_with_results_make_a_partial_response() -> None:
    body = {
        "results": [{"url": "https://a.example/", "title": "A"}],
        "unresponsive_engines": [["google", "timeout"]],
    }
    response = _parse(body)
    assert len(response.sources) == 1
    assert response.partial
    assert response.notes == ("SearXNG engine did not answer: google: timeout",)


def test_the_real_capture_names_its_captcha_engines_and_keeps_categories() -> None:
    response = _parse(read_capture(CAPTURE), limit=20)
    assert response.partial
    assert response.notes == (
        "SearXNG engine did not answer: duckduckgo: CAPTCHA",
        "SearXNG engine did not answer: startpage: Suspended: CAPTCHA",
    )
    assert {source.category for source in response.sources} == {"general"}


def test_failed_engines_with_only_an_answer_still_answer() -> None:
    body = {
        "results": [],
        "answers": [{"answer": "1 EUR = 1.08 USD"}],
        "unresponsive_engines": [["google", "timeout"]],
    }
    response = _parse(body)
    assert response.answer == "1 EUR = 1.08 USD"
    assert response.partial and response.sources == ()


def test_failed_engines_with_only_suggestions_are_an_error() -> None:
    body = {"results": [], "suggestions": ["x"], "unresponsive_engines": [["google", "timeout"]]}
    with pytest.raises(
        ProviderUnavailableError, match=r"upstream engines failed: google: timeout$"
    ):
        _parse(body)


def test_result_engines_fall_back_to_engine_and_list_position() -> None:
    body = {
        "results": [
            {"url": "https://a.example/", "engine": "bing"},
            {"url": "https://b.example/", "engines": ["qwant", "qwant", "", 3], "positions": []},
            {"url": "https://c.example/", "engines": ["mojeek"], "positions": [0, True, "2", 5]},
            {"url": "https://d.example/"},
        ]
    }
    sources = _parse(body).sources
    assert sources[0].engines == (SourceRank(engine="bing", rank=1),)
    assert sources[1].engines == (SourceRank(engine="qwant", rank=2),)
    assert sources[2].engines == (SourceRank(engine="mojeek", rank=5),)
    assert sources[3].engines == ()


def test_corrections_lead_the_related_questions_without_repeats() -> None:
    body = {
        "results": [{"url": "https://a.example/"}],
        "corrections": [" espresso  ", "", None, "latte"],
        "suggestions": ["latte", "cortado"],
    }
    assert _parse(body).related_questions == ("espresso", "latte", "cortado")


def test_answers_come_before_infoboxes_and_each_is_capped() -> None:
    second_box = {"infobox": "Coffee", "content": "A brewed drink.", "id": "urn:x"}
    third_box = {"infobox": "Tea", "content": "Another drink.", "id": "https://t.example/"}
    body = {
        "results": [{"url": "https://a.example/"}],
        "answers": ["one", "two", "three", "four"],
        "infoboxes": [WIKIPEDIA_INFOBOX, {"engine": "wikidata"}, second_box, third_box],
    }
    response = _parse(body)
    assert response.answer is not None
    assert response.answer.split("\n\n")[:3] == ["one", "two", "three"]
    assert response.answer.endswith("\n\nCoffee\nA brewed drink.")
    assert "Tea" not in response.answer
    # "urn:x" is no page to cite and the infobox has no other link.
    assert [c.url for c in response.citations] == ["https://en.wikipedia.org/wiki/Espresso"]


@pytest.mark.parametrize(
    ("item", "expected"),
    [
        ({"infobox": "  Espresso  "}, ("Espresso", None)),
        ({"content": "Only text"}, ("Only text", None)),
        (
            {
                "infobox": "Espresso",
                "id": "not a url",
                "urls": [{"title": "Site", "url": "javascript:x"}, {"url": "https://e.example/"}],
            },
            ("Espresso", SearchCitation(url="https://e.example/", title="Espresso")),
        ),
        (
            {"id": "https://e.example/", "attributes": [{"label": "A", "value": " 1 "}]},
            ("A: 1", SearchCitation(url="https://e.example/", title="https://e.example/")),
        ),
        ({"attributes": [{"label": "A"}, {"value": "1"}, "x"]}, None),
        ({}, None),
        ("Espresso", None),
    ],
)
def test_infobox_shapes(item: Any, expected: Any) -> None:
    assert format_infobox(item) == expected


def test_infobox_facts_are_capped_at_eight() -> None:
    facts = [{"label": f"L{i}", "value": f"v{i}"} for i in range(12)]
    result = format_infobox({"infobox": "X", "attributes": facts})
    assert result is not None
    assert result[0].splitlines() == ["X"] + [f"L{i}: v{i}" for i in range(8)]


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


class _Answering:
    """A transport that answers every request with one canned response, as the loop sends."""

    def __init__(self, response: HttpResponse) -> None:
        self.response = response
        self.sent: list[HttpRequest] = []

    async def send(self, provider: str, label: str, request: HttpRequest) -> HttpResponse:
        assert (provider, label) == ("searxng", "SearXNG")
        self.sent.append(request)
        return self.response


async def _search_failure(response: HttpResponse) -> SearchProviderError:
    """What a search through the request loop raises when the instance answers ``response``."""
    transport = _Answering(response)
    context = ProviderContext(
        transport=cast(Transport, transport),
        settings=Settings(searxng={"endpoint": ENDPOINT}),
        credentials=Credentials(environ={}),
    )
    with pytest.raises(SearchProviderError) as caught:
        await provider.search(_params(), context)
    assert len(transport.sent) == 1  # classified, never resent
    return caught.value


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
async def test_http_errors(status: int, body: str, kind: type[Exception], message: str) -> None:
    error = await _search_failure(HttpResponse(status=status, body=body.encode()))
    assert error.message == message
    assert error.status == status
    assert type(error) is kind


FLASK_403 = (
    "<!doctype html>\n<html lang=en>\n<title>403 Forbidden</title>\n<h1>Forbidden</h1>\n"
    "<p>You don't have the permission to access the requested resource. It is either "
    "read-protected or not readable by the server.</p>\n"
)
NGINX_502 = (
    "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
    "<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n"
    "</body>\r\n</html>\r\n"
)
JSON_FORMAT_OFF = (
    "SearXNG instance at searx.example.org does not serve the JSON format (403): "
    'enable "json" in search.formats of its settings.yml.'
)


async def _failure_of(status: int, body: str, **headers: str) -> SearchProviderError:
    url = "https://searx.example.org/search?q=espresso&format=json"
    response = HttpResponse(status=status, body=body.encode(), headers=headers, url=url)
    return await _search_failure(response)


async def test_403_html_page_is_the_json_format_being_disabled_not_a_key_problem() -> None:
    error = await _failure_of(403, FLASK_403, **{"Content-Type": "text/html; charset=utf-8"})
    assert type(error) is ProviderNotConfiguredError
    assert error.message == JSON_FORMAT_OFF
    assert error.status is None
    # What the model reads: the cause and the fix, no "Check API key".
    assert format_provider_failure(error, "SearXNG") == JSON_FORMAT_OFF
    assert "<" not in error.message


async def test_json_format_message_names_host_and_port_but_never_user_info() -> None:
    response = HttpResponse(
        status=403, body=FLASK_403.encode(), url="http://alice:pw@10.0.0.5:8888/search"
    )
    error = await _search_failure(response)
    assert type(error) is ProviderNotConfiguredError
    assert error.message.startswith("SearXNG instance at 10.0.0.5:8888 does not serve")
    assert "alice" not in error.message and "pw" not in error.message
    error = await _search_failure(HttpResponse(status=403, body=FLASK_403.encode()))
    assert type(error) is ProviderNotConfiguredError
    assert error.message.startswith("SearXNG instance does not serve the JSON format")


@pytest.mark.parametrize(
    ("status", "body", "headers"),
    [
        (401, FLASK_403.replace("403 Forbidden", "401 Unauthorized"), {}),
        (401, '{"error": "invalid token"}', {}),
        (401, "", {"WWW-Authenticate": 'Basic realm="searxng"'}),
        (403, '{"error": "forbidden"}', {}),
        (403, "Forbidden", {}),
        (403, "", {}),
        # A proxy that asks for credentials is about credentials, HTML page or not.
        (403, FLASK_403, {"WWW-Authenticate": "Bearer"}),
    ],
)
async def test_credential_refusals_stay_authorization_failures(
    status: int, body: str, headers: dict[str, str]
) -> None:
    error = await _failure_of(status, body, **headers)
    assert type(error) is AuthorizationError
    assert error.status == status
    assert format_provider_failure(error, "SearXNG") == (
        f"SearXNG authorization failed ({status}). Check API key or base URL."
    )


@pytest.mark.parametrize(
    ("status", "body", "kind", "message"),
    [
        (502, NGINX_502, ProviderUnavailableError, "SearXNG API error (502): 502 Bad Gateway"),
        (
            404,
            FLASK_403.replace("403 Forbidden", "404 Not Found"),
            SearchProviderError,
            "SearXNG API error (404): 404 Not Found",
        ),
        (500, "<!DOCTYPE html><html><body>boom</body></html>", ProviderUnavailableError, None),
        (400, "<html><title>\n  Bad\n request </title></html>", SearchProviderError, None),
    ],
)
async def test_html_error_pages_give_status_and_title_only(
    status: int, body: str, kind: type[Exception], message: str | None
) -> None:
    error = await _failure_of(status, body)
    assert type(error) is kind
    assert error.status == status
    expected = {500: "SearXNG API error (500)", 400: "SearXNG API error (400): Bad request"}
    assert error.message == (message or expected[status])
    assert "<" not in error.message


@pytest.mark.conformance
@pytest.mark.parametrize("status", [403, 503])
async def test_real_challenge_page_with_an_error_status_is_a_challenge(status: int) -> None:
    error = await _failure_of(status, read_capture(CHALLENGE).decode())
    assert type(error) is ChallengeError
    assert "searx.be | Verifying your request" in error.message
    assert "<" not in error.message


def test_success_status_passes_the_check() -> None:
    provider.check(_ok({"results": []}))


def test_parse_search_body_is_pure_and_reusable() -> None:
    body = {"results": [{"url": f"https://{i}.example/", "title": str(i)} for i in range(30)]}
    assert len(parse_search_body(body, None).sources) == 10
    assert len(parse_search_body(body, 0).sources) == 10
    assert len(parse_search_body(body, 25).sources) == 20
