"""Startpage provider: the token flow, request building, CAPTCHA detection, real captures.

Parsing is pure, so the capture in ``../shared/fixtures/startpage`` is parsed here with no
server; the two-step flow (homepage, then POST or fallback GET) runs against a scripted
transport.
"""

import re
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from tests.conftest import read_capture
from websearch_core.credentials import Credentials
from websearch_core.deadline import remaining_budget
from websearch_core.errors import (
    AuthorizationError,
    ChallengeError,
    ProviderConnectionError,
    ProviderTimeoutError,
    ProviderUnavailableError,
    ResponseParseError,
    ResponseTooLargeError,
)
from websearch_core.html import BROWSER_HEADERS, parse_document
from websearch_core.models import SearchParams
from websearch_core.providers import get_provider
from websearch_core.providers.base import ProviderContext
from websearch_core.providers.startpage import (
    CHALLENGE_MESSAGE,
    INFO,
    PAGE,
    STARTPAGE_HOME_URL,
    STARTPAGE_SEARCH_URL,
    UNRECOGNISED_MESSAGE,
    StartpageProvider,
    build_fallback_request,
    build_form,
    build_home_request,
    build_post_request,
    hidden_search_fields,
    is_challenge_page,
    is_challenge_url,
    parse_page,
    result_url,
)
from websearch_core.settings import Settings
from websearch_core.testing.protocols.startpage import (
    CAPTCHA_PAGE,
    MALFORMED_PAGE,
    SIM_SC,
    homepage,
    results_page,
)
from websearch_core.testing.simulator import SimResult, default_results
from websearch_core.transport import HttpRequest, HttpResponse, Transport

CAPTURE_SC = "wnEHetqY4mdm00"


def _capture() -> str:
    return read_capture("startpage/serp_javascript_tutorial_http_2026.html").decode("utf-8")


# --- facts -------------------------------------------------------------------------------------


def test_info_is_data() -> None:
    assert INFO.id == "startpage"
    assert INFO.label == "Startpage"
    assert INFO.kind == "scraper"
    assert INFO.env_vars == ()
    assert INFO.honours == {"query", "recency", "limit", "num_search_results"}
    assert (INFO.default_results, INFO.max_results) == (10, 20)
    assert INFO.index == "google"
    assert INFO.docs_url == "https://support.startpage.com/"
    assert isinstance(get_provider("startpage"), StartpageProvider)


def test_always_available_without_any_key() -> None:
    provider = StartpageProvider()
    context = _context(_ScriptedTransport([]))
    assert provider.is_available(context)
    assert provider.is_explicitly_available(context)


# --- requests ----------------------------------------------------------------------------------


def test_home_request_is_a_plain_navigation() -> None:
    request = build_home_request()
    assert (request.method, request.url) == ("GET", STARTPAGE_HOME_URL)
    headers = dict(request.headers)
    assert headers["Sec-Fetch-Site"] == "none"
    assert "Referer" not in headers
    assert headers["User-Agent"] == BROWSER_HEADERS["User-Agent"]


def test_hidden_fields_of_the_simulated_homepage() -> None:
    assert hidden_search_fields(homepage()) == [
        ("lui", "english"),
        ("language", "english"),
        ("sc", SIM_SC),
        ("cat", "web"),
        ("t", "device"),
        ("abd", "0"),
        ("abe", "0"),
        ("with_date", ""),
    ]  # the /do/settings form before it has an sc too, but is not the search form


@pytest.mark.conformance
def test_hidden_fields_of_the_real_page_use_the_first_search_form() -> None:
    assert hidden_search_fields(_capture()) == [
        ("t", "device"),
        ("lui", "english"),
        ("sc", CAPTURE_SC),
        ("cat", "web"),
        ("abd", "0"),
        ("abe", "0"),
        ("qsr", "all"),
        ("qadf", "moderate"),
        ("with_date", ""),
    ]


@pytest.mark.conformance
def test_the_real_pager_gives_the_next_page_post() -> None:
    # The capture's pager: "current page 1", "go to page 2".."5", and "Next" (page 2).
    response = HttpResponse(status=200, body=_capture().encode(), url=STARTPAGE_SEARCH_URL)
    page = PAGE.read(response)
    assert page.sources == parse_page(_capture())  # the results are read as before
    request = page.next_request
    assert request is not None
    assert (request.method, request.url) == ("POST", STARTPAGE_SEARCH_URL)
    assert request.form == (
        ("lui", "english"),
        ("language", "english"),
        ("query", "javascript tutorial"),
        ("cat", "web"),
        ("sc", CAPTURE_SC),
        ("pl", ""),
        ("t", "device"),
        ("segment", "startpage.udog"),
        ("page", "2"),
        ("abd", "0"),
        ("abe", "0"),
        ("qsr", "all"),
        ("qadf", "moderate"),
        ("with_date", ""),
    )
    assert request.headers["Referer"] == STARTPAGE_SEARCH_URL


def _without_english_labels(page: str) -> str:
    """``page`` with its pager's English wording replaced, as another language would.

    No non-English Startpage capture exists (fixtures/SOURCES.md); the German words are
    made up for the test, only the ``aria-label`` texts and the "Next" button change.
    """
    page = re.sub(r'aria-label="current page (\d+)"', r'aria-label="aktuelle Seite \1"', page)
    page = re.sub(r'aria-label="go to page (\w+)"', r'aria-label="zu Seite \1"', page)
    return re.sub(r">(\s*)Next(\s*)</button>", r">\1Weiter\2</button>", page)


def _next_page(page: str) -> str | None:
    response = HttpResponse(status=200, body=page.encode(), url=STARTPAGE_SEARCH_URL)
    request = PAGE.read(response).next_request
    return None if request is None else dict(request.form)["page"]


_CAPTURE_NEXT_FORM = re.compile(r"<form[^>]*css-1wsfl7j.*?</form>", re.DOTALL)


@pytest.mark.conformance
@pytest.mark.parametrize(
    "edit",
    [
        lambda page: page,  # as captured (English)
        _without_english_labels,  # every signal but the English label
        # only the current page's own class: no label, no "Next" form
        lambda page: _CAPTURE_NEXT_FORM.sub("", _without_english_labels(page)),
        # only the trailing "Next" form: no label, one class for every pager form
        lambda page: re.sub(
            r"css-(?:1y4ij50|eaucvd|1wsfl7j)", "css-same", _without_english_labels(page)
        ),
        # only the English label: one class for every form, no "Next" form (a guard, stop
        # 50: a broken label pattern passed every test while the other signals answered)
        lambda page: re.sub(
            r"css-(?:1y4ij50|eaucvd)", "css-same", _CAPTURE_NEXT_FORM.sub("", page)
        ),
    ],
    ids=["english", "other-language", "class-only", "next-button-only", "label-only"],
)
def test_the_real_pagers_current_page_is_found_in_any_language(
    edit: Callable[[str], str],
) -> None:
    # Every Startpage capture (there is one): the page after "current page 1" is 2.
    assert _next_page(edit(_capture())) == "2"


@pytest.mark.conformance
def test_a_real_pager_with_no_signal_left_ends_the_paging() -> None:
    page = re.sub(r"css-(?:1y4ij50|eaucvd)", "css-same", _without_english_labels(_capture()))
    assert _next_page(_CAPTURE_NEXT_FORM.sub("", page)) is None


@pytest.mark.parametrize(
    ("page", "pages", "expected"),
    [(1, 2, "2"), (2, 2, None), (1, 3, "2"), (2, 3, "3"), (3, 3, None), (4, 6, "5")],
)
def test_a_translated_pager_pages_like_the_english_one(
    page: int, pages: int, expected: str | None
) -> None:
    served = results_page("q", default_results("q", pages * 10), page=page)
    assert _next_page(served) == expected
    assert _next_page(_without_english_labels(served)) == expected


@pytest.mark.parametrize(
    "pager",
    [
        "",  # no pager
        '<div class="pagination"><form action="/sp/search" aria-label="go to page 2">'
        '<input type="hidden" name="page" value="2"></form></div>',  # no current page
        '<div class="pagination"><form action="/sp/search" aria-label="current page 3">'
        '<input type="hidden" name="page" value="3"></form></div>',  # the last page
        '<form action="/sp/search" aria-label="current page 1"><input type="hidden" '
        'name="page" value="1"></form><form action="/sp/search"><input type="hidden" '
        'name="page" value="2"></form>',  # page forms outside a pager
    ],
)
def test_no_next_page_without_a_pager_that_has_one(pager: str) -> None:
    page = results_page("q", default_results("q", 3)).replace("</section>", pager + "</section>")
    response = HttpResponse(status=200, body=page.encode(), url=STARTPAGE_SEARCH_URL)
    assert PAGE.read(response).next_request is None


@pytest.mark.parametrize(
    "page",
    [
        "",
        CAPTCHA_PAGE,
        '<form action="/sp/search"><input type="hidden" name="lui" value="english"></form>',
        '<form action="/sp/search"><input type="hidden" name="sc" value=""></form>',
        '<form action="/sp/search"><input type="text" name="sc" value="visible"></form>',
        '<form action="/do/settings"><input type="hidden" name="sc" value="Tok"></form>',
        '<form action="https://evil.example/sp/search"><input type="hidden" name="sc" value="T">'
        "</form>",
    ],
)
def test_no_token_no_fields(page: str) -> None:
    assert hidden_search_fields(page) is None


def test_hidden_field_quirks() -> None:
    page = (
        '<form method="POST" action="https://www.startpage.com/sp/search/">'
        '<input type="HIDDEN" name="sc" value="T0k">'
        '<input type="hidden" name="pl">'
        '<input type="hidden" value="nameless">'
        '<input type="hidden" name="q&amp;a" value="&lt;x&gt;">'
        "</form>"
    )
    assert hidden_search_fields(page) == [("sc", "T0k"), ("pl", ""), ("q&a", "<x>")]


@pytest.mark.parametrize(
    ("recency", "with_date"), [("day", "d"), ("week", "w"), ("month", "m"), ("year", "y")]
)
def test_form_and_fallback_carry_with_date(recency: Any, with_date: str) -> None:
    params = SearchParams(query="rust async", recency=recency)
    assert build_form(params, [("sc", "T"), ("with_date", ""), ("query", "old")]) == [
        ("sc", "T"),
        ("query", "rust async"),
        ("with_date", with_date),
    ]
    assert build_fallback_request(params).params == (
        ("query", "rust async"),
        ("with_date", with_date),
    )


def test_form_without_recency_keeps_hidden_order() -> None:
    hidden = hidden_search_fields(homepage())
    assert hidden is not None
    assert build_form(SearchParams(query="q"), hidden) == [
        ("lui", "english"),
        ("language", "english"),
        ("sc", SIM_SC),
        ("cat", "web"),
        ("t", "device"),
        ("abd", "0"),
        ("abe", "0"),
        ("query", "q"),
    ]


def test_post_and_fallback_requests() -> None:
    post = build_post_request([("sc", "T"), ("query", "x")])
    assert (post.method, post.url) == ("POST", STARTPAGE_SEARCH_URL)
    assert post.form == (("sc", "T"), ("query", "x"))
    headers = dict(post.headers)
    assert headers["Content-Type"] == "application/x-www-form-urlencoded"
    assert headers["Referer"] == "https://www.startpage.com/"
    assert headers["Origin"] == "https://www.startpage.com"
    assert headers["Sec-Fetch-Site"] == "same-origin"
    fallback = build_fallback_request(SearchParams(query='C++ "exact" -x'))
    assert (fallback.method, fallback.url) == ("GET", STARTPAGE_SEARCH_URL)
    assert fallback.params == (("query", 'C++ "exact" -x'),)
    assert fallback.form is None
    assert dict(fallback.headers)["Referer"] == "https://www.startpage.com/"


# --- results -----------------------------------------------------------------------------------


@pytest.mark.conformance
def test_javascript_tutorial_capture() -> None:
    sources = parse_page(_capture())
    assert [(s.title, s.url) for s in sources] == [
        ("JavaScript Tutorial - W3Schools", "https://www.w3schools.com/js/"),
        ("The Modern JavaScript Tutorial", "https://javascript.info/"),
        ("JavaScript Tutorial", "https://www.javascripttutorial.net/"),
        ("JavaScript tutorial for beginners - YouTube", "https://www.youtube.com/watch?v=Ihy0QziLDf0"),
        ("JavaScript Tutorial - TutorialsPoint", "https://www.tutorialspoint.com/javascript/index.htm"),
        ("Belajar Pemrograman Javascript untuk Pemula - Petani Kode", "https://www.petanikode.com/tutorial/javascript/"),
        ("JavaScript Tutorials - YouTube", "https://www.youtube.com/playlist?list=PL0eyrZgxdwhxNGMWROnaY35NLyEjTqcgB"),
        ("Tutorial JavaScript Modern", "https://id.javascript.info/"),
        ("JavaScript Tutorial Full Course - Beginner to Pro - YouTube", "https://www.youtube.com/watch?v=EerdGm-ehJQ"),
        ("JavaScript Tutorial - GeeksforGeeks", "https://www.geeksforgeeks.org/javascript/javascript-tutorial/"),
    ]  # fmt: skip
    first = sources[0]
    assert first.snippet == (
        "Well organized and easy to understand Web building tutorials with lots of examples "
        "of how to use HTML, CSS, JavaScript, SQL, Python, PHP, Bootstrap, Java, ..."
    )
    assert (first.published_date, first.age_seconds) == (None, None)
    video = sources[3]
    assert video.published_date == "14 Oct 2023"
    assert video.age_seconds is not None and video.age_seconds > 0
    assert video.snippet == (
        "JavaScript #tutorial #course 00:00:00 introduction 00:01:12 VS Code 00:01:30 website "
        "folder 00:02:55 HTML setup 00:04:09 Live Server ..."
    )
    assert sources[9].published_date == "13 Mar 2026"
    assert sources[9].snippet is not None
    assert sources[9].snippet.startswith("JavaScript is a programming language used to create")
    assert sources[6].snippet is not None
    assert sources[6].snippet.startswith("JavaScript Tutorials · 1: How to Get Started")


@pytest.mark.conformance
def test_capture_is_not_a_challenge_and_has_the_honeypot() -> None:
    page = _capture()
    document = parse_document(page)
    assert len(document.cssselect("div.a-bg-result")) == 1  # never read as a result
    assert not is_challenge_page(document, page)


def _result(href: str, title: str = "T", description: str = "S", cls: str = "result") -> str:
    return (
        f'<div class="{cls}"><a class="result-title result-link" href="{href}">'
        f'<h2 class="wgl-title">{title}</h2></a><p class="description">{description}</p></div>'
    )


def _page(body: str) -> str:
    return f"<html><body><section class='w-gl'>{body}</section></body></html>"


def test_class_token_must_be_exactly_result() -> None:
    page = _page(
        _result("https://honeypot.example/", "Honeypot", cls="a-bg-result")
        + _result("https://results.example/", "Results", cls="results")
        + _result("https://real.example/", "Real", cls="css-1 result css-2")
    )
    assert [s.title for s in parse_page(page)] == ["Real"]


def test_startpage_links_duplicates_and_bad_links_are_dropped() -> None:
    page = _page(
        _result("https://us2-browse.startpage.com/av/proxy?ep=1", "Proxy")
        + _result("/sp/search?query=more", "Internal")
        + _result("https://a.example/", "A")
        + _result("javascript:void(0)", "JS")
        + _result("https://a.example/", "A again")
        + '<div class="result"><a class="result-link">no href</a></div>'
        + '<div class="result"><p class="description">no link</p></div>'
        + _result("//b.example/x", "B")
    )
    assert [(s.title, s.url) for s in parse_page(page)] == [
        ("A", "https://a.example/"),
        ("B", "https://b.example/x"),
    ]


def test_title_falls_back_to_link_text_then_url() -> None:
    page = _page(
        '<div class="result"><a class="result-link" href="https://a.example/">Plain '
        "<b>text</b></a></div>"
        '<div class="result"><a class="result-link" href="https://b.example/"></a></div>'
        '<div class="result"><a class="result-link" href="https://c.example/"><h3>Third</h3>'
        "</a></div>"
    )
    assert [s.title for s in parse_page(page)] == ["Plain text", "https://b.example/", "Third"]
    assert [s.snippet for s in parse_page(page)] == [None, None, None]


@pytest.mark.parametrize(
    ("description", "snippet", "date"),
    [
        ("14 Oct 2023 <b>...</b> Text", "Text", "14 Oct 2023"),
        ("Mar 5, 2024 ... Text", "Text", "Mar 5, 2024"),
        ("3 days ago ... Fresh", "Fresh", "3 days ago"),
        ("Plain text ... with dots", "Plain text ... with dots", None),
        ("2023 was a year ... ok", "2023 was a year ... ok", None),
    ],
)
def test_leading_dates(description: str, snippet: str, date: str | None) -> None:
    (source,) = parse_page(_page(_result("https://a.example/", description=description)))
    assert (source.snippet, source.published_date) == (snippet, date)
    assert (source.age_seconds is None) == (date is None or date.endswith("ago"))


@pytest.mark.parametrize(
    "href",
    ["https://www.startpage.com/do/settings", "https://startpage.com/", "mailto:a@b.c", ""],
)
def test_result_url_rejects(href: str) -> None:
    assert result_url(href) is None


def test_no_results_page_is_empty() -> None:
    assert parse_page(results_page("zzqx", [])) == []
    assert parse_page(_page("<h2>No results found for <b>zzqx</b></h2>")) == []
    assert parse_page(_page("<div class='noresults'>Nothing</div>")) == []


@pytest.mark.parametrize(
    "page",
    [
        CAPTCHA_PAGE,
        "<html><body><form action='/sp/captcha' method='post'></form></body></html>",
        "<html><head><script src='/component---src-pages-captcha-js-1.js'></script></head></html>",
        "<html><body><a href='https://www.startpage.com/sp/captcha-block?bc=XX'>go</a></body>"
        "</html>",
        "<html><body><div id='gatsby' data-page='component---src-pages-captcha'></div></body>"
        "</html>",
        # a structural marker wins over a no-results marker
        "<html><body><div class='no-results'></div><form action='/sp/captcha'></form></body>"
        "</html>",
    ],
)
def test_captcha_pages(page: str) -> None:
    with pytest.raises(ChallengeError) as caught:
        parse_page(page)
    assert caught.value.message == CHALLENGE_MESSAGE
    assert caught.value.status == 429


def test_no_results_page_echoing_a_marker_query_is_not_a_challenge() -> None:
    page = _page("<h2>Your search for <b>/sp/captcha</b> did not match any documents.</h2>")
    assert parse_page(page) == []


@pytest.mark.parametrize(
    ("url", "challenge"),
    [
        ("https://www.startpage.com/sp/captcha?bc=1", True),
        ("https://www.startpage.com/sp/captcha-block?bc=XX", True),
        ("https://www.startpage.com/en/captcha/", True),
        ("https://www.startpage.com/errors/403", True),
        ("https://www.startpage.com/sp/search", False),
        ("https://www.startpage.com/sp/search?query=%2Fsp%2Fcaptcha", False),
        ("", False),
    ],
)
def test_challenge_urls(url: str, challenge: bool) -> None:
    assert is_challenge_url(url) is challenge


def test_final_url_on_the_captcha_is_a_challenge_even_with_results() -> None:
    page = _page(_result("https://a.example/"))
    with pytest.raises(ChallengeError):
        parse_page(page, "https://www.startpage.com/sp/captcha?bc=1")


@pytest.mark.parametrize("page", [MALFORMED_PAGE, "", "<html><body>hi</body></html>", "[]"])
def test_unrecognised_pages(page: str) -> None:
    with pytest.raises(ResponseParseError) as caught:
        parse_page(page)
    assert caught.value.message == UNRECOGNISED_MESSAGE == "Startpage returned an unrecognised page"


def test_homepage_is_not_a_results_page() -> None:
    with pytest.raises(ResponseParseError):
        parse_page(homepage())


def test_simulator_page_round_trips() -> None:
    results = [
        *default_results("q", 2),
        SimResult(title="A & <B>", url="https://x.example/?a=1&b=2", snippet="x < y"),
    ]
    sources = parse_page(results_page("q", results))
    assert [(s.title, s.url, s.snippet, s.published_date) for s in sources] == [
        ("q result 1", "https://site1.example.org/q", "Snippet 1 about q.", "1 Jan 2026"),
        ("q result 2", "https://site2.example.org/q", "Snippet 2 about q.", "2 Jan 2026"),
        ("A & <B>", "https://x.example/?a=1&b=2", "x < y", None),
    ]


# --- the two-step flow against a scripted transport --------------------------------------------


class _ScriptedTransport(Transport):
    """Answers each send with the next scripted response (or raises it)."""

    def __init__(self, script: Sequence[HttpResponse | Exception], timeout: float = 5) -> None:
        super().__init__(None, timeout_seconds=timeout, max_response_bytes=1 << 20)  # type: ignore[arg-type]
        self.script = list(script)
        self.timeout = timeout
        self.sent: list[tuple[HttpRequest, float | None]] = []

    async def send(
        self,
        provider: str,
        label: str,
        request: HttpRequest,
        *,
        timeout_seconds: float | None = None,
        max_response_bytes: int | None = None,
        response_name: str | None = None,
    ) -> HttpResponse:
        # The time the real transport gives this request: the attempt's budget applies.
        self.sent.append((request, remaining_budget(timeout_seconds or self.timeout)))
        item = self.script.pop(0)
        if isinstance(item, Exception):
            raise item
        return item


def _context(transport: Transport) -> ProviderContext:
    return ProviderContext(
        transport=transport,
        settings=Settings.model_construct(),
        credentials=Credentials(environ={}),
    )


def _ok(page: str, url: str = STARTPAGE_SEARCH_URL, status: int = 200) -> HttpResponse:
    return HttpResponse(status=status, body=page.encode(), url=url)


async def _search(
    transport: _ScriptedTransport, **fields: Any
) -> list[tuple[str, str, tuple[tuple[str, str], ...] | None]]:
    provider = StartpageProvider()
    response = await provider.search(SearchParams(query="q", **fields), _context(transport))
    assert response.provider == "startpage"
    return [
        (r.method, r.url, tuple(r.form) if r.form is not None else None) for r, _ in transport.sent
    ]


async def test_token_flow_posts_the_hidden_fields() -> None:
    transport = _ScriptedTransport(
        [_ok(homepage(), STARTPAGE_HOME_URL), _ok(results_page("q", default_results("q", 12)))]
    )
    sent = await _search(transport, recency="month")
    assert [(method, url) for method, url, _ in sent] == [
        ("GET", STARTPAGE_HOME_URL),
        ("POST", STARTPAGE_SEARCH_URL),
    ]
    form = dict(sent[1][2] or ())
    assert (form["sc"], form["query"], form["with_date"]) == (SIM_SC, "q", "m")
    (_, home_timeout), (_, search_timeout) = transport.sent
    assert home_timeout is not None and 2.4 < home_timeout <= 2.5  # half of the 5 s budget
    assert search_timeout is not None and 4.5 < search_timeout <= 5


@pytest.mark.parametrize(
    "home",
    [
        ProviderConnectionError("startpage", "Startpage connection failed (x): Reset"),
        ProviderTimeoutError("startpage", "Startpage search timed out after 2.5s"),
        ResponseTooLargeError("startpage", "too large", 500),
        _ok("<html>down</html>", STARTPAGE_HOME_URL, status=503),
        _ok(homepage(), STARTPAGE_HOME_URL, status=403),
        _ok(homepage(), "https://www.startpage.com/sp/captcha?bc=1"),
        _ok(CAPTCHA_PAGE, STARTPAGE_HOME_URL),
        _ok("<html><body>new design without the form</body></html>", STARTPAGE_HOME_URL),
    ],
)
async def test_any_homepage_failure_falls_back_to_the_tokenless_get(
    home: HttpResponse | Exception,
) -> None:
    transport = _ScriptedTransport([home, _ok(results_page("q", default_results("q")))])
    sent = await _search(transport, recency="day")
    assert sent[1][:2] == ("GET", STARTPAGE_SEARCH_URL)
    assert transport.sent[1][0].params == (("query", "q"), ("with_date", "d"))


async def test_search_failures_are_not_retried() -> None:
    transport = _ScriptedTransport(
        [
            _ok(homepage(), STARTPAGE_HOME_URL),
            _ok(CAPTCHA_PAGE, "https://www.startpage.com/sp/search"),
        ]
    )
    with pytest.raises(ChallengeError):
        await _search(transport)
    assert len(transport.sent) == 2


async def test_search_status_errors() -> None:
    for status, error in ((403, AuthorizationError), (502, ProviderUnavailableError)):
        transport = _ScriptedTransport(
            [_ok(homepage(), STARTPAGE_HOME_URL), _ok("x", status=status)]
        )
        with pytest.raises(error):
            await _search(transport)
    transport = _ScriptedTransport(
        [_ok(homepage(), STARTPAGE_HOME_URL), _ok(CAPTCHA_PAGE, status=429)]
    )
    with pytest.raises(ChallengeError):  # the CAPTCHA is seen before the status
        await _search(transport)


async def test_search_timeout_reports_the_whole_budget() -> None:
    transport = _ScriptedTransport(
        [
            _ok(homepage(), STARTPAGE_HOME_URL),
            ProviderTimeoutError("startpage", "Startpage search timed out after 4.99s"),
        ]
    )
    with pytest.raises(ProviderTimeoutError) as caught:
        await _search(transport)
    assert caught.value.message == "Startpage search timed out after 5s"


async def test_results_are_cut_to_the_requested_count() -> None:
    results = default_results("q", 15)
    for fields, count, requests in (({}, 10, 2), ({"limit": 3}, 3, 2), ({"limit": 20}, 15, 3)):
        transport = _ScriptedTransport(
            [
                _ok(homepage(), STARTPAGE_HOME_URL),
                _ok(results_page("q", results)),
                _ok(results_page("q", results, page=2)),
            ]
        )
        provider = StartpageProvider()
        response = await provider.search(SearchParams(query="q", **fields), _context(transport))
        assert [s.url for s in response.sources] == [r.url for r in results[:count]]
        assert len(transport.sent) == requests  # a second page only when more are wanted


def test_the_title_is_the_links_heading_not_all_its_text() -> None:
    """A guard: a result link's ``h2``/``h3`` is its title; the rest of the link is not.

    In the real page the link holds its heading alone, so a reader that took the link's
    whole text passed every test; a link that also shows its address must not put it in
    the title.
    """
    page = _page(
        '<div class="result"><a class="result-link" href="https://a.example/">'
        "<h2>The title</h2><span>a.example</span></a></div>"
    )
    assert [s.title for s in parse_page(page)] == ["The title"]


def test_a_singular_no_result_class_is_an_empty_page() -> None:
    """A guard: ``no-result`` (singular, hyphened) marks a page without results too.

    The real page has results, and the other tests use ``noresults``; the pattern's
    optional ``s`` was unguarded.
    """
    assert parse_page(_page("<div class='no-result'>Nichts gefunden</div>")) == []
