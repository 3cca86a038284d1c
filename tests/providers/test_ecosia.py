"""Ecosia: request building, block detection and parsing, pure, on the real capture."""

from urllib.parse import parse_qsl, urlsplit

import pytest

from tests.conftest import read_capture
from websearch_core.errors import (
    AuthorizationError,
    ChallengeError,
    ProviderUnavailableError,
    RateLimitedError,
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.models import SearchParams
from websearch_core.providers import get_provider
from websearch_core.providers.ecosia import (
    BLOCKED_MESSAGE,
    ECOSIA_HOME_URL,
    ECOSIA_SEARCH_URL,
    INFO,
    UNRECOGNISED_MESSAGE,
    EcosiaProvider,
    build_request,
    check_page,
    is_blocked,
    parse_page,
    read_page,
)
from websearch_core.testing.protocols.ecosia import (
    AD_URL,
    MALFORMED_PAGE,
    challenge_page,
    results_page,
)
from websearch_core.testing.simulator import SimResult, default_results
from websearch_core.transport import HttpResponse

SERP = "ecosia/serp_javascript_tutorial_2026.html"


def _serp() -> str:
    return read_capture(SERP).decode("utf-8")


def _page(body: str, status: int = 200) -> HttpResponse:
    return HttpResponse(status=status, body=body.encode("utf-8"), url=ECOSIA_SEARCH_URL)


def test_info_is_data() -> None:
    assert INFO.id == "ecosia"
    assert INFO.label == "Ecosia"
    assert INFO.kind == "scraper"
    assert INFO.env_vars == ()
    assert INFO.index == "google"
    assert (INFO.default_results, INFO.max_results) == (10, 20)
    assert "recency" not in INFO.honours  # Ecosia ignores it
    assert {"query", "limit", "num_search_results"} <= INFO.honours
    assert INFO.docs_url.startswith("https://")
    assert isinstance(get_provider("ecosia"), EcosiaProvider)


def test_request_is_a_plain_get_with_only_the_query() -> None:
    request = build_request(SearchParams(query="javascript tutorial", recency="day", limit=5))
    parts = urlsplit(request.url)
    assert (request.method, f"{parts.scheme}://{parts.netloc}{parts.path}") == (
        "GET",
        ECOSIA_SEARCH_URL,
    )
    assert parse_qsl(parts.query) == [("q", "javascript tutorial")]
    assert request.headers["Referer"] == ECOSIA_HOME_URL
    assert request.headers["Sec-Fetch-Mode"] == "navigate"


def test_domain_filters_become_site_operators() -> None:
    params = SearchParams(query="js", include_domains=("mdn.dev",), exclude_domains=("w3.example",))
    query = dict(parse_qsl(urlsplit(build_request(params).url).query))["q"]
    assert query == "js site:mdn.dev -site:w3.example"


# --- block pages -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "page",
    [
        "<html><title>Ecosia Firewall</title><p>Access denied</p></html>",
        "<script>window._cf_chl_opt = {cType: 'managed'}</script>",
        '<script src="/cdn-cgi/challenge-platform/h/g/orchestrate/jsch/v1"></script>',
        "<p>Please confirm you're not a robot</p>",
        "<p>Please confirm you’re not a robot</p>",
        "<p>CONFIRM YOU'RE NOT A ROBOT</p>",
    ],
)
def test_block_markers(page: str) -> None:
    assert is_blocked(page, 200)
    with pytest.raises(ChallengeError) as caught:
        check_page(_page(page))
    assert (caught.value.message, caught.value.status) == (BLOCKED_MESSAGE, 429)


@pytest.mark.parametrize("status", [403, 429])
def test_403_and_429_are_the_cloudflare_block_whatever_the_body(status: int) -> None:
    with pytest.raises(ChallengeError, match="Cloudflare bot challenge"):
        check_page(_page("<html>nope</html>", status))
    assert is_blocked(challenge_page(), 403)


def test_other_statuses_use_the_shared_classifier() -> None:
    with pytest.raises(AuthorizationError, match="ecosia: 401 unauthorized"):
        check_page(_page("no", 401))
    with pytest.raises(ProviderUnavailableError, match=r"Ecosia HTML error \(502\)"):
        check_page(_page("bad gateway", 502))
    with pytest.raises(SearchProviderError) as caught:
        check_page(_page("gone", 410))
    assert (caught.value.message, caught.value.status) == ("Ecosia HTML error (410)", 410)
    assert not isinstance(caught.value, RateLimitedError)


def test_results_mentioning_the_markers_are_not_a_block() -> None:
    results = [
        SimResult(
            title="Bypass the Ecosia Firewall? confirm you're not a robot",
            url="https://example.org/cf",
            snippet="About _cf_chl_opt and /cdn-cgi/challenge-platform/ scripts.",
        )
    ]
    page = results_page("Ecosia Firewall _cf_chl_opt", results)
    assert not is_blocked(page, 200)
    assert [s.url for s in parse_page(page)] == ["https://example.org/cf"]


# --- parsing -----------------------------------------------------------------------------------


def test_real_serp_parses_exactly() -> None:
    sources = parse_page(_serp())
    assert [s.url for s in sources] == [
        "https://www.w3schools.com/js/",
        "https://javascript.info/",
        "https://www.javascripttutorial.net/",
        "https://id.javascript.info/",
        "https://www.petanikode.com/tutorial/javascript/",
        "https://www.malasngoding.com/tutorial/javascript/",
        "https://www.youtube.com/playlist?list=PL0eyrZgxdwhxNGMWROnaY35NLyEjTqcgB",
        "https://www.geeksforgeeks.org/javascript/javascript-tutorial/",
        "https://www.youtube.com/watch?v=lfmg-EJ8gm4",
        "https://www.tutorialspoint.com/javascript/index.htm",
    ]
    first = sources[0]
    assert first.title == "JavaScript Tutorial - W3Schools"
    assert first.snippet is not None
    assert first.snippet.startswith(
        "Well organized and easy to understand Web building tutorials with lots of examples"
    )
    assert first.published_date is None
    assert sources[4].title == "Belajar Pemrograman Javascript untuk Pemula - Petani Kode"
    geeks = sources[7]
    assert geeks.title == "JavaScript Tutorial - GeeksforGeeks"
    assert geeks.snippet == (
        "JavaScript is a programming language used to create dynamic content "
        "for websites. It is a lightweight, cross-platform, and single-threaded ..."
    )
    assert geeks.published_date == "13 Mar 2026"
    assert geeks.age_seconds is not None
    assert sources[8].published_date == "1 Jan 2024"
    assert sources[2].snippet == (
        "This JavaScript Tutorial helps you learn the JavaScript programming language from "
        "scratch quickly and effectively."
    )


@pytest.mark.conformance
def test_real_serp_links_its_next_page() -> None:
    page = read_page(_page(_serp()))
    again = parse_page(_serp())
    # The results are read as before; an age is counted from each reading of the clock,
    # so the two readings may be a second apart.
    assert [s.model_dump(exclude={"age_seconds"}) for s in page.sources] == [
        s.model_dump(exclude={"age_seconds"}) for s in again
    ]
    for read, reread in zip(page.sources, again, strict=True):
        assert (read.age_seconds is None) == (reread.age_seconds is None)
        assert abs((read.age_seconds or 0) - (reread.age_seconds or 0)) <= 5
    request = page.next_request
    assert request is not None
    assert (request.method, request.url) == (
        "GET",
        "https://www.ecosia.org/search?q=javascript%20tutorial&p=1",
    )
    assert request.headers["Referer"] == ECOSIA_HOME_URL


@pytest.mark.parametrize(
    "href",
    [
        "https://evil.example/search?q=x&p=1",  # another host
        "/settings?p=1",  # not the results page
        "javascript:alert(1)",  # not a web link
    ],
)
def test_only_a_next_link_to_ecosias_results_is_followed(href: str) -> None:
    page = results_page("q", default_results("q", 3)).replace(
        "</section>", f'<a data-test-id="next-button" href="{href}">Next</a></section>'
    )
    assert read_page(_page(page)).next_request is None


def test_the_last_page_has_no_next_request() -> None:
    assert read_page(_page(results_page("q", default_results("q", 3)))).next_request is None
    assert read_page(_page(results_page("q", default_results("q", 13)))).next_request is not None


def test_real_serp_is_not_blocked_and_ads_are_not_results() -> None:
    page = _serp()
    assert 'data-test-id="ad-google"' in page
    assert not is_blocked(page, 200)
    check_page(_page(page))
    assert all("ecosia.org" not in s.url for s in parse_page(page))
    assert len(parse_page(page, 3)) == 3


def test_simulated_page_drops_the_ad_and_duplicates() -> None:
    results = default_results("q", 3) + default_results("q", 2)
    sources = parse_page(results_page("q", results))
    assert AD_URL not in [s.url for s in sources]
    assert [s.url for s in sources] == [r.url for r in default_results("q", 3)]
    assert sources[0].title == "q result 1"
    assert sources[0].snippet == "Snippet 1 about q."  # the date is the published date
    assert sources[0].published_date == "1 Jan 2026"


def test_internal_and_non_web_links_are_dropped() -> None:
    page = (
        '<section data-test-id="mainline">'
        '<article data-test-id="organic-result"><a href="https://www.ecosia.org/settings">'
        '<h2 data-test-id="result-title">Settings</h2></a></article>'
        '<article data-test-id="organic-result"><a href="javascript:void(0)">'
        '<h2 data-test-id="result-title">Script</h2></a></article>'
        '<article data-test-id="organic-result"><a href="/relative/page">'
        '<h2 data-test-id="result-title">Relative, so on ecosia.org</h2></a></article>'
        '<article data-test-id="organic-result"><a href="https://kept.example/x">'
        '<h2 data-test-id="result-title">Kept</h2></a>'
        '<div data-test-id="result-description">Only the outer description</div></article>'
        "</section>"
    )
    (source,) = parse_page(page)
    assert (source.title, source.url) == ("Kept", "https://kept.example/x")
    assert source.snippet == "Only the outer description"


def test_snippet_prefers_the_web_description_and_skips_empty_ones() -> None:
    page = (
        '<div data-test-id="mainline"><article data-test-id="organic-result">'
        '<p data-test-id="result-description">fallback</p>'
        '<a href="https://a.example/"><h2 data-test-id="result-title">A</h2></a>'
        '<p data-test-id="web-result-description"> </p>'
        '<p data-test-id="web-result-description">13 Mar 2026 ... preferred</p>'
        "</article></div>"
    )
    (source,) = parse_page(page)
    assert (source.title, source.url) == ("A", "https://a.example/")
    # The leading date is the result's published date, not said again in the snippet.
    assert (source.snippet, source.published_date) == ("preferred", "13 Mar 2026")
    (source,) = parse_page(page.replace("web-result-description", "other"))
    assert (source.snippet, source.published_date) == ("fallback", None)


def test_genuine_no_results_page_is_empty_and_unknown_page_is_an_error() -> None:
    assert parse_page(results_page("zzqx", [])) == []
    with pytest.raises(ResponseParseError) as caught:
        parse_page(MALFORMED_PAGE)
    assert caught.value.message == UNRECOGNISED_MESSAGE


def test_only_organic_result_articles_are_read() -> None:
    """A guard: an article that is not ``data-test-id="organic-result"`` adds no source.

    Every article of the real page is an organic result (its two ad slots are empty
    ``div``s that scripts fill), so a bare ``article`` selector passed every test; a filled
    ad slot rendered as an article with a title must still be left out.
    """
    page = (
        '<main data-test-id="mainline"><article data-test-id="mainline-result-ad">'
        '<a href="https://ad.example/" data-test-id="result-title">Ad</a></article>'
        '<article data-test-id="organic-result"><a href="https://kept.example/" '
        'data-test-id="result-title">Kept</a></article></main>'
    )
    assert [s.url for s in parse_page(page)] == ["https://kept.example/"]
