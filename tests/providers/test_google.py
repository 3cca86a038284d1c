"""Google: request building, block detection and parsing, pure, on the real captures."""

from datetime import date
from urllib.parse import parse_qsl, urlsplit

import pytest

from tests.conftest import read_capture
from websearch_core.errors import (
    AuthorizationError,
    ChallengeError,
    ProviderUnavailableError,
    QuotaExhaustedError,
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.html import BROWSER_HEADERS, parse_document, text_of
from websearch_core.models import SearchParams
from websearch_core.providers import get_provider
from websearch_core.providers.google import (
    GOOGLE_HOME_URL,
    GOOGLE_SEARCH_URL,
    INFO,
    JAVASCRIPT_MESSAGE,
    READY_SELECTOR,
    TRAFFIC_MESSAGE,
    UNRECOGNISED_MESSAGE,
    GoogleProvider,
    block_reason,
    build_request,
    check_page,
    parse_page,
    query_text,
    search_params,
    unwrap_url,
)
from websearch_core.testing.protocols.google import (
    AD_URL,
    MALFORMED_PAGE,
    QUESTION_URL,
    SORRY_PAGE,
    javascript_page,
    results_page,
)
from websearch_core.testing.simulator import SimResult, default_results
from websearch_core.transport import HttpResponse

SERP = "google/serp_ai_tools_pt-BR_rendered_2025-03.html"
SORRY = "google/sorry_unusual_traffic_recaptcha_2026-07.html"
ENABLEJS = "google/enablejs_js_required_shell_2026-09.html"


def _capture(name: str) -> str:
    return read_capture(name).decode("utf-8")


def _page(body: str, status: int = 200, url: str = GOOGLE_SEARCH_URL) -> HttpResponse:
    return HttpResponse(status=status, body=body.encode("utf-8"), url=url)


# --- facts -------------------------------------------------------------------------------------


def test_info_is_data() -> None:
    assert INFO.id == "google"
    assert INFO.label == "Google"
    assert INFO.kind == "scraper"
    assert INFO.env_vars == ()
    assert INFO.index == "google"
    assert (INFO.default_results, INFO.max_results) == (10, 10)  # one page: Google ignores `num`
    assert INFO.docs_url.startswith("https://developers.google.com/")
    assert "query" in INFO.honours and "recency" in INFO.honours
    assert {"max_tokens", "temperature"}.isdisjoint(INFO.honours)
    assert isinstance(get_provider("google"), GoogleProvider)


# --- request -----------------------------------------------------------------------------------


def test_request_is_the_reference_get_with_browser_headers() -> None:
    request = build_request(SearchParams(query="rust async runtime"))
    assert request.method == "GET"
    assert request.params == ()
    parts = urlsplit(request.url)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == GOOGLE_SEARCH_URL
    assert parse_qsl(parts.query) == [
        ("q", "rust async runtime"),
        ("hl", "en"),
        ("gl", "us"),
        ("udm", "14"),
        ("pws", "0"),
    ]
    assert request.headers["Referer"] == GOOGLE_HOME_URL
    assert request.headers["Sec-Fetch-Site"] == "same-origin"
    assert request.headers["User-Agent"] == BROWSER_HEADERS["User-Agent"]


@pytest.mark.parametrize(
    ("recency", "tbs"), [("day", "qdr:d"), ("week", "qdr:w"), ("month", "qdr:m"), ("year", "qdr:y")]
)
def test_recency_is_qdr(recency: str, tbs: str) -> None:
    fields = dict(search_params(SearchParams(query="x", recency=recency)))
    assert fields["tbs"] == tbs


@pytest.mark.parametrize(("limit", "num_search_results"), [(50, None), (3, 15), (None, 1)])
def test_no_count_is_sent(limit: int | None, num_search_results: int | None) -> None:
    # Google ignores ``num`` (since September 2025): a page holds about ten whatever is asked.
    params = SearchParams(query="x", limit=limit, num_search_results=num_search_results)
    assert "num" not in dict(search_params(params))


def test_language_country_dates_and_domains() -> None:
    params = SearchParams(
        query="ferramentas de IA",
        language="pt-BR",
        recency="week",
        date_after=date(2025, 3, 1),
        date_before=date(2025, 12, 31),
        include_domains=("example.org",),
        exclude_domains=("spam.example", "junk.example"),
    )
    fields = dict(search_params(params))
    assert fields["q"] == "ferramentas de IA site:example.org -site:spam.example -site:junk.example"
    assert (fields["hl"], fields["gl"]) == ("pt-BR", "br")
    assert fields["tbs"] == "cdr:1,cd_min:3/1/2025,cd_max:12/31/2025"  # a range beats qdr
    assert dict(search_params(SearchParams(query="x", country="DE")))["gl"] == "de"


def test_query_is_unchanged_without_filters() -> None:
    assert query_text(SearchParams(query='"exact phrase" -minus')) == '"exact phrase" -minus'
    several = SearchParams(query="q", include_domains=("a.org", "b.org"))
    assert query_text(several) == "q (site:a.org OR site:b.org)"


# --- block pages -------------------------------------------------------------------------------


def test_sorry_capture_is_traffic_by_status_url_and_markup() -> None:
    page = _capture(SORRY)
    assert block_reason(page, 429, "https://www.google.com/sorry/index?continue=x") == "traffic"
    assert block_reason(page, 200, "https://www.google.com/search?q=weather") == "traffic"
    for status in (200, 429):
        with pytest.raises(ChallengeError) as caught:
            check_page(_page(page, status, "https://www.google.com/sorry/index"))
        assert caught.value.message == TRAFFIC_MESSAGE
        assert caught.value.status == 429


def test_enablejs_capture_is_the_javascript_challenge_not_an_empty_result() -> None:
    page = _capture(ENABLEJS)
    assert block_reason(page, 200, GOOGLE_SEARCH_URL) == "javascript"
    with pytest.raises(ChallengeError) as caught:
        check_page(_page(page))
    assert caught.value.message == JAVASCRIPT_MESSAGE
    assert caught.value.status == 429
    with pytest.raises(ResponseParseError):
        parse_page(page)  # and never an empty success, even if parsed directly


def test_traffic_wins_over_status_and_javascript_comes_after_it() -> None:
    with pytest.raises(ChallengeError, match="automated-traffic"):
        check_page(_page("<html>forbidden</html>", 403))
    with pytest.raises(ChallengeError, match="automated-traffic"):
        check_page(_page("<html>slow down</html>", 429))
    shell = _capture(ENABLEJS)
    with pytest.raises(ProviderUnavailableError) as caught:
        check_page(_page(shell, 503))
    assert caught.value.message == "Google HTML error (503)"


def test_other_statuses_use_the_shared_classifier() -> None:
    with pytest.raises(AuthorizationError, match="google: 401 unauthorized"):
        check_page(_page("nope", 401))
    with pytest.raises(QuotaExhaustedError, match="google: 402 credits exhausted"):
        check_page(_page("pay", 402))
    with pytest.raises(SearchProviderError) as caught:
        check_page(_page("bad", 400))
    assert (caught.value.message, caught.value.status) == ("Google HTML error (400)", 400)


def test_a_results_page_about_unusual_traffic_is_not_a_block() -> None:
    results = [
        SimResult(
            title="What is unusual traffic? g-recaptcha explained",
            url="https://example.org/unusual-traffic",
            snippet="Google shows unusual traffic pages when ...",
        )
    ]
    page = results_page("unusual traffic g-recaptcha", results)
    assert block_reason(page, 200, GOOGLE_SEARCH_URL) is None
    check_page(_page(page))
    assert [s.url for s in parse_page(page)] == ["https://example.org/unusual-traffic"]


def test_simulator_pages_classify_like_the_captures() -> None:
    assert block_reason(SORRY_PAGE, 200) == "traffic"
    assert block_reason(javascript_page(default_results("q")), 200) == "javascript"
    assert block_reason(MALFORMED_PAGE, 200) is None


# --- parsing -----------------------------------------------------------------------------------


def test_real_rendered_serp_parses_exactly() -> None:
    sources = parse_page(_capture(SERP))
    assert [s.url for s in sources] == [
        "https://www.synthesia.io/post/ai-tools",
        "https://aitoolsdirectory.com/",
        "https://zapier.com/blog/best-ai-productivity-tools/",
        "https://cloud.google.com/use-cases/free-ai-tools",
        "https://aitoptools.com/",
        "https://opentools.ai/",
        "https://www.futuretools.io/",
        "https://ai.google/",
    ]
    first = sources[0]
    assert first.title == "The 50 Best AI Tools in 2025 (Tried & Tested)"
    assert first.snippet == (
        "há 7 dias — Explore 50 top AI tools across 21 categories, with insights on use cases, "
        "features, and pricing."
    )
    assert first.published_date == "há 7 dias"
    assert first.age_seconds is None  # a relative date in Portuguese has no parseable age
    cloud = sources[3]
    assert cloud.title == "10+ AI Tools You Can Start Using For Free"
    assert cloud.snippet == (
        "Google Cloud offers free usage of many AI products up to monthly limits, including "
        "Translation, Speech-to-Text, Natural Language, and Video Intelligence."
    )
    assert sources[7].title == "Making AI helpful for everyone - Google AI - Google AI"


def test_people_also_ask_answers_in_the_capture_are_not_results() -> None:
    # The capture's two expanded "People also ask" entries ("O que é o Google AI?", "O que é
    # future tools?") quote a page each under an ``a > h3`` in a result's markup.
    urls = [s.url for s in parse_page(_capture(SERP), 20)]
    assert (
        "https://agenciaexplorer.com.br/blog/artigo/video-do-google-ia-studio-na-pratica/"
        not in urls
    )
    assert "https://webcatalog.io/pt/apps/future-tools" not in urls
    assert len(urls) == 8


def test_people_also_ask_answer_in_a_simulated_page_is_skipped() -> None:
    page = results_page("q", default_results("q", 3))
    assert QUESTION_URL in page  # the box is there, after the first result
    assert [s.url for s in parse_page(page)] == [r.url for r in default_results("q", 3)]


def test_limit_applies_after_de_duplication() -> None:
    assert len(parse_page(_capture(SERP), 4)) == 4
    duplicated = default_results("q", 3) + default_results("q", 3)
    page = results_page("q", duplicated)
    assert [s.url for s in parse_page(page)] == [r.url for r in default_results("q", 3)]


def test_simulated_page_unwraps_redirects_drops_the_ad_and_reads_dates() -> None:
    page = results_page("q", default_results("q", 2))
    sources = parse_page(page)
    assert AD_URL not in [s.url for s in sources]
    assert [s.url for s in sources] == [
        "https://site1.example.org/q",
        "https://site2.example.org/q",
    ]
    assert sources[0].title == "q result 1"
    assert sources[0].published_date == "Jan 1, 2026"
    assert sources[0].age_seconds is not None
    assert sources[0].snippet == "Jan 1, 2026 — Snippet 1 about q."


def test_genuine_no_results_page_is_empty_and_unknown_page_is_an_error() -> None:
    assert parse_page(results_page("zzqx", [])) == []
    with pytest.raises(ResponseParseError) as caught:
        parse_page(MALFORMED_PAGE)
    assert caught.value.message == UNRECOGNISED_MESSAGE


def test_read_more_is_stripped_and_basic_html_snippets_are_read() -> None:
    page = (
        '<div id="main"><div class="Gx5Zad"><div><a href="/url?q=https://a.example/x&amp;sa=U">'
        '<h3><div class="BNeawe">A title</div></h3></a></div>'
        '<div><div class="BNeawe s3v9rd AP7Wnd">A snippet. Read more</div></div></div></div>'
    )
    (source,) = parse_page(page)
    assert (source.title, source.url, source.snippet) == (
        "A title",
        "https://a.example/x",
        "A snippet.",
    )


def test_snippet_and_date_follow_the_selector_order() -> None:
    # .VwiC3b inside [data-sncf='1'] beats an earlier bare .VwiC3b, which beats .IsZvec;
    # the date is the first span with a digit under .LEwnzc or .YrbPuc, not elsewhere.
    page = (
        '<div id="search"><div class="MjjYud"><a href="https://a.example/"><h3>T</h3></a>'
        '<span>2020 outside</span><div class="IsZvec">is zvec</div>'
        '<div class="VwiC3b">bare</div>'
        '<div data-sncf="1"><div class="x VwiC3b">in sncf</div></div>'
        '<div class="YrbPuc"><span>no digit</span><span>3 Mar 2025 —</span></div>'
        "</div></div>"
    )
    (source,) = parse_page(page)
    assert (source.snippet, source.published_date) == ("in sncf", "3 Mar 2025")
    page = page.replace('data-sncf="1"', 'data-sncf="2"').replace("YrbPuc", "other")
    (source,) = parse_page(page)
    assert (source.snippet, source.published_date) == ("bare", None)


def test_a_heading_inside_an_ad_block_is_dropped() -> None:
    page = (
        '<div id="search"><div id="tads"><div><a href="https://ad.example/"><h3>Ad</h3></a>'
        '</div></div><div data-text-ad="1"><a href="https://ad2.example/"><h3>Ad2</h3></a></div>'
        '<div class="MjjYud"><a href="https://kept.example/"><h3>Kept</h3></a></div></div>'
    )
    assert [s.url for s in parse_page(page)] == ["https://kept.example/"]


@pytest.mark.parametrize(
    ("href", "expected"),
    [
        ("/url?q=https://example.org/a%3Fb%3D1&sa=U", "https://example.org/a?b=1"),
        ("https://www.google.com/url?url=https://example.org/u&rct=j", "https://example.org/u"),
        ("https://example.org/page#:~:text=hello", "https://example.org/page"),
        ("https://example.org/page#section", "https://example.org/page#section"),
        ("https://cloud.google.com/x", "https://cloud.google.com/x"),
        ("/search?q=related", None),
        ("https://www.google.com/preferences", None),
        ("/url?q=https://www.google.com/maps", None),
        ("/url?q=javascript:alert(1)", None),
        ("/aclk?sa=l&adurl=https://ad.example", None),
        ("javascript:void(0)", None),
        ("mailto:a@b.example", None),
    ],
)
def test_unwrap_url(href: str, expected: str | None) -> None:
    assert unwrap_url(href) == expected


# --- each selector fact held by a real capture (stop 50's mutation audit) -----------------


@pytest.mark.parametrize("renamed", ["tF2Cxc", "MjjYud"])
def test_each_result_container_class_alone_holds_the_captures_snippets(renamed: str) -> None:
    """A guard: either container class alone finds each result's snippet and date.

    The capture nests ``div.tF2Cxc`` in ``div.MjjYud``, so dropping either class from the
    list passed every test: the other one found the same box. With one class renamed in
    the page, the other must still give every result its snippet and date; a list missing
    it falls back to the heading's grandparent, which holds neither.
    """
    page = _capture(SERP)
    assert f'"{renamed}' in page or f" {renamed}" in page
    whole = parse_page(page)
    one_class = parse_page(page.replace(renamed, "Renamed0"))
    assert [(s.url, s.snippet, s.published_date) for s in one_class] == [
        (s.url, s.snippet, s.published_date) for s in whole
    ]
    assert whole[0].snippet is not None and whole[0].snippet.startswith("há 7 dias — Explore")


@pytest.mark.parametrize("renamed", ["related-question-pair", "data-initq"])
def test_each_people_also_ask_marker_alone_keeps_the_captures_quotes_out(renamed: str) -> None:
    """A guard: the entry class or the box's ``data-initq`` alone drops the quoted pages.

    The capture's "People also ask" box carries both markers, so dropping either passed
    every test. With one renamed in the page, the other must still keep the two quoted
    pages out of the eight organic results.
    """
    page = _capture(SERP)
    assert renamed in page
    urls = [s.url for s in parse_page(page.replace(renamed, "renamed-marker"), 20)]
    assert urls == [s.url for s in parse_page(page, 20)]
    assert "https://webcatalog.io/pt/apps/future-tools" not in urls
    assert len(urls) == 8


def test_a_heading_in_the_bottom_ads_is_dropped() -> None:
    """A guard: ``#bottomads`` is an ad block like ``#tads``.

    The capture's ``#tads`` and ``#bottomads`` hold no heading, so no capture can show it;
    the list's second id was unguarded (dropping it passed every test).
    """
    page = (
        '<div id="search"><div class="MjjYud"><a href="https://kept.example/"><h3>Kept</h3>'
        '</a></div><div id="bottomads"><div><a href="https://ad.example/"><h3>Ad</h3></a>'
        "</div></div></div>"
    )
    assert [s.url for s in parse_page(page)] == ["https://kept.example/"]


def test_is_zvec_comes_before_a_bare_sncf_box() -> None:
    """A guard: ``.IsZvec`` is the snippet before a bare ``[data-sncf='1']`` box.

    The capture's five ``IsZvec`` elements hold no snippet text (``VwiC3b`` and the sncf
    box do), so no capture shows the rule; a renamed class passed every test.
    """
    page = (
        '<div id="search"><div class="MjjYud"><a href="https://a.example/"><h3>T</h3></a>'
        '<div data-sncf="1">sncf box</div><div class="IsZvec">is zvec</div></div></div>'
    )
    (source,) = parse_page(page)
    assert source.snippet == "is zvec"


def test_the_capture_without_its_headings_is_an_empty_results_page() -> None:
    """A guard: ``#search``/``#rso`` alone make a page without results a results page.

    A capture with results never asks, so a broken XPath passed every test. The real page
    with its headings renamed holds no result and no "did not match" text: it must read as
    an empty results page (a 204 for the chain), not as an unrecognised one.
    """
    page = _capture(SERP)
    assert 'id="rso"' in page and "did not match any documents" not in page
    assert parse_page(page.replace("<h3", "<h4").replace("</h3", "</h4")) == []


def test_the_browsers_ready_selector_finds_the_captures_result_headings() -> None:
    """A guard: the headless browser waits for ``READY_SELECTOR``, which the real page holds.

    Only the browser reads it, so no offline test did: ``a h2`` passed every test. The
    rendered capture's linked headings are its eight results and the two quoted "People
    also ask" pages.
    """
    titles = [text_of(h3) for h3 in parse_document(_capture(SERP)).cssselect(READY_SELECTOR)]
    results = [s.title for s in parse_page(_capture(SERP))]
    assert len(titles) == 10 and titles[0] == results[0]
    assert [t for t in titles if t in results] == results


def test_a_heading_without_a_container_class_reads_its_grandparents_snippet() -> None:
    """A guard: with no container class, the heading's grandparent (past its link) is read.

    Every capture heading has a classed container, so the fallback passed every test when
    it took the link itself, which holds no snippet.
    """
    page = (
        '<div id="search"><div><a href="https://a.example/"><h3>T</h3></a>'
        '<div class="VwiC3b">the snippet</div></div></div>'
    )
    (source,) = parse_page(page)
    assert source.snippet == "the snippet"
