"""Mojeek: request building, robot-page detection and parsing, pure, on the real captures."""

import base64
import hashlib
import json
from datetime import date
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest

from tests.conftest import read_capture
from websearch_core.errors import (
    ChallengeError,
    ResponseParseError,
)
from websearch_core.html import parse_document
from websearch_core.models import SearchParams
from websearch_core.providers import get_provider
from websearch_core.providers.mojeek import (
    INFO,
    MOJEEK_HOME_URL,
    MOJEEK_SEARCH_URL,
    RESULTS_SELECTOR,
    ROBOT_MESSAGE,
    UNRECOGNISED_MESSAGE,
    MojeekProvider,
    build_request,
    check_page,
    is_robot_page,
    parse_page,
    search_params,
)
from websearch_core.testing.protocols.mojeek import (
    MALFORMED_PAGE,
    PASS_COOKIE,
    MojeekProtocol,
    challenge_page,
    no_results_page,
    results_page,
)
from websearch_core.testing.simulator import RecordedRequest, SimResult, default_results
from websearch_core.transport import HttpResponse

SERP = "mojeek/serp_javascript_tutorial_2026.html"
ALTCHA = "mojeek/captcha_altcha_challenge_raw_2026.html"
FORBIDDEN = "mojeek/403_forbidden_automated_queries_2026-09.html"


def _capture(name: str) -> str:
    return read_capture(name).decode("utf-8")


def _page(body: str, status: int = 200) -> HttpResponse:
    return HttpResponse(status=status, body=body.encode("utf-8"), url=MOJEEK_SEARCH_URL)


def test_info_is_data() -> None:
    assert INFO.id == "mojeek"
    assert INFO.label == "Mojeek"
    assert INFO.kind == "scraper"
    assert INFO.env_vars == ()
    assert INFO.index == "mojeek"
    assert (INFO.default_results, INFO.max_results) == (10, 20)
    assert INFO.honours == {"query", "recency", "limit", "num_search_results"}
    assert INFO.docs_url.startswith("https://www.mojeek.com/")
    assert isinstance(get_provider("mojeek"), MojeekProvider)


def test_request_is_the_reference_get() -> None:
    request = build_request(SearchParams(query="javascript tutorial"))
    parts = urlsplit(request.url)
    assert (request.method, f"{parts.scheme}://{parts.netloc}{parts.path}") == (
        "GET",
        MOJEEK_SEARCH_URL,
    )
    assert parse_qsl(parts.query) == [
        ("q", "javascript tutorial"),
        ("t", "10"),
        ("arc", "none"),
        ("lang", "en"),
        ("lb", "en"),
        ("theme", "dark"),
    ]
    assert request.headers["Referer"] == MOJEEK_HOME_URL
    assert request.headers["Sec-Fetch-Site"] == "same-origin"


def test_request_goes_to_the_reference_host_and_path() -> None:
    """Guard: the GET goes to ``https://www.mojeek.de/search``, the reference's literal URL.

    The test above compares with ``MOJEEK_SEARCH_URL`` itself and the simulator routes by
    path, so ``www.mojeek.com`` passed every Mojeek test (wire audit, stop 49).
    """
    parts = urlsplit(build_request(SearchParams(query="javascript tutorial")).url)
    assert (parts.scheme, parts.netloc, parts.path) == ("https", "www.mojeek.de", "/search")


@pytest.mark.parametrize("recency", ["day", "month", "year"])
def test_recency_mojeek_names_is_since_verbatim(recency: str) -> None:
    fields = dict(search_params(SearchParams(query="x", recency=recency)))
    assert fields["since"] == recency


@pytest.mark.parametrize(
    ("today", "expected"),
    [
        (date(2026, 12, 3), "20261126"),
        (date(2026, 3, 2), "20260223"),
        (date(2025, 1, 5), "20241229"),
    ],
)
def test_week_is_since_the_date_a_week_back(today: date, expected: str) -> None:
    # Mojeek documents since as 'day'|'month'|'year'|YYYYMMDD: there is no 'week'.
    fields = dict(search_params(SearchParams(query="x", recency="week"), today))
    assert fields["since"] == expected


@pytest.mark.parametrize(
    ("limit", "num_search_results", "expected"),
    [(None, None, "10"), (4, None, "4"), (99, None, "20"), (2, 12, "12")],
)
def test_count_is_t(limit: int | None, num_search_results: int | None, expected: str) -> None:
    params = SearchParams(query="x", limit=limit, num_search_results=num_search_results)
    assert dict(search_params(params))["t"] == expected


# --- robot pages -------------------------------------------------------------------------------


def test_altcha_capture_is_the_robot_wall_never_an_empty_result() -> None:
    page = _capture(ALTCHA)
    assert is_robot_page(page)
    with pytest.raises(ChallengeError) as caught:
        check_page(_page(page, 200))
    assert (caught.value.message, caught.value.status) == (ROBOT_MESSAGE, 429)


def test_403_automated_queries_capture_is_the_robot_wall_not_an_auth_error() -> None:
    page = _capture(FORBIDDEN)
    assert is_robot_page(page)
    with pytest.raises(ChallengeError) as caught:
        check_page(_page(page, 403))
    assert caught.value.message == ROBOT_MESSAGE


def test_a_results_page_mentioning_captchas_is_not_a_wall() -> None:
    results = [SimResult(title="altcha-widget docs", url="https://altcha.org/", snippet="...")]
    page = results_page("altcha-widget captcha-wrap sending automated queries", results)
    assert not is_robot_page(page)
    assert is_robot_page(challenge_page("x"))


# --- parsing -----------------------------------------------------------------------------------


def test_real_serp_parses_exactly() -> None:
    sources = parse_page(_capture(SERP))
    assert [(s.title, s.url) for s in sources] == [
        ("The Modern JavaScript Tutorial", "https://javascript.info/"),
        ("w3schools.com/js", "https://www.w3schools.com/js/"),
        ("W3Schools Online Web Tutorials", "https://www.w3schools.com/"),  # li.clu-result
        ("JavaScript Kit Advanced JavaScript Tutorials", "http://javascriptkit.com/javatutors/"),
        (
            "JavaScript Tutorial - GeeksforGeeks",
            "https://www.geeksforgeeks.org/javascript/javascript-tutorial/",
        ),
        ("JavaScript Tutorial", "https://www.javascripttutorial.net/"),
        ("JavaScript Tutorial", "https://www.tutorialspoint.com/javascript/index.htm"),
        (
            "JavaScript Tutorial | Learn JavaScript - Scaler Topics",
            "https://www.scaler.com/topics/javascript/",
        ),
        (
            "How to do Java Script - tutorial in javascript",
            "https://trans4mind.com/personal_development/JavaScript/index.html",
        ),
        ("Javascript/DHTML Tutorials", "https://smartwebby.com/DHTML/"),
    ]
    assert sources[0].snippet == (
        "The Modern JavaScript Tutorial ... Main course contains 2 parts which cover JavaScript "
        "as a programming language and working with a browser."
    )
    assert sources[1].snippet is None  # the row has no p.s
    assert sources[9].snippet == (
        "Web Design Tutorials > Dreamweaver | Fireworks | Flash | Javascript & DHTML | "
        "PHP & MySQL | SEO & Promotion"
    )
    assert all(s.published_date is None and s.age_seconds is None for s in sources)
    assert len(parse_page(_capture(SERP), 2)) == 2


def test_mojeek_links_relative_links_and_duplicates_are_dropped() -> None:
    page = (
        '<div class="serp-results"><ul class="results-standard">'
        '<li><h2><a class="title" href="/search?q=site:x">Internal</a></h2></li>'
        '<li><h2><a class="title" href="https://blog.mojeek.com/post">Blog</a></h2></li>'
        '<li><h2><a class="title" href="https://www.mojeek.co.uk/about">About</a></h2></li>'
        '<li><a class="title" href="https://kept.example/a">No h2</a><p class="s">S</p></li>'
        '<li><h2><a class="title" href="https://kept.example/a">Duplicate</a></h2></li>'
        '<li><h2><a class="title" href="mailto:x@y.example">Mail</a></h2></li>'
        "</ul></div>"
    )
    (source,) = parse_page(page)
    assert (source.title, source.url, source.snippet) == ("No h2", "https://kept.example/a", "S")


def test_the_link_in_the_heading_wins_and_the_snippet_is_p_s() -> None:
    page = (
        '<ul class="results-standard"><li>'
        '<a class="url title" href="https://site.example/">site.example</a>'
        '<h2><span><a class="title" href="https://site.example/page">Page</a></span></h2>'
        '<p class="sx">not it</p><p class="s x">Snippet <b>bold</b></p><p class="s">later</p>'
        "</li></ul>"
    )
    (source,) = parse_page(page)
    assert (source.title, source.url, source.snippet) == (
        "Page",
        "https://site.example/page",
        "Snippet bold",
    )


def test_simulated_pages() -> None:
    sources = parse_page(results_page("q", default_results("q", 4)))
    assert [s.url for s in sources] == [r.url for r in default_results("q", 4)]
    assert sources[0].snippet == "Snippet 1 about q."
    assert parse_page(no_results_page("zzqx")) == []
    with pytest.raises(ResponseParseError) as caught:
        parse_page(MALFORMED_PAGE)
    assert caught.value.message == UNRECOGNISED_MESSAGE


# --- the simulator's proof-of-work wall, server side -------------------------------------------


def _request(
    path: str, method: str = "GET", body: bytes = b"", cookie: str = ""
) -> RecordedRequest:
    headers = {"Cookie": cookie} if cookie else {}
    return RecordedRequest(method=method, path=path, query=(), headers=headers, body=body)


def _solve(challenge: dict[str, object]) -> str:
    salt, target = str(challenge["salt"]), str(challenge["challenge"])
    number = next(
        n
        for n in range(int(str(challenge["maxnumber"])) + 1)
        if hashlib.sha256(f"{salt}{n}".encode()).hexdigest() == target
    )
    solution = {**challenge, "number": number}
    return base64.b64encode(json.dumps(solution).encode()).decode()


def test_altcha_wall_accepts_a_valid_proof_once_and_refuses_forgeries() -> None:
    protocol = MojeekProtocol(altcha=True)
    walled = protocol.answer(_request("/search"), default_results("q"))
    assert walled.text is not None and "captcha-wrap" in walled.text
    challenge = json.loads(protocol.answer(_request("/altcha/challenge"), []).text or "{}")
    payload = _solve(challenge)
    forged = {**challenge, "number": -1}
    bad = base64.b64encode(json.dumps(forged).encode()).decode()
    refused = protocol.answer(
        _request("/altcha/verify", "POST", urlencode({"altcha": bad}).encode()), []
    )
    assert refused.status == 403
    body = urlencode({"altcha": payload, "continue": "/search?q=q"}).encode()
    accepted = protocol.answer(_request("/altcha/verify", "POST", body), [])
    assert accepted.status == 303
    assert accepted.headers["Location"] == "/search?q=q"
    cookie = accepted.headers["Set-Cookie"].split(";")[0]
    assert cookie.startswith(f"{PASS_COOKIE}=")
    replayed = protocol.answer(_request("/altcha/verify", "POST", body), [])
    assert replayed.status == 403  # a salt is good for one pass
    assert (protocol.solved, protocol.rejected) == (1, 2)
    served = protocol.answer(_request("/search", cookie=cookie), default_results("q"))
    assert served.text is not None and "results-standard" in served.text


# --- each selector fact held by a real capture (stop 50's mutation audit) -----------------


def test_only_the_results_lists_rows_are_read() -> None:
    """A guard: ``ul.results-standard > li`` is the row, not any list item.

    The real page's other lists hold no ``a.title``, so ``ul > li`` passed every test; a
    list outside the results (a sidebar of titled links) must not add sources.
    """
    page = (
        '<ul class="results-standard"><li><h2><a class="title" href="https://kept.example/">'
        'Kept</a></h2></li></ul><ul class="sidebar"><li><a class="title" '
        'href="https://elsewhere.example/">Other</a></li></ul>'
    )
    assert [s.url for s in parse_page(page)] == ["https://kept.example/"]


@pytest.mark.parametrize(
    ("page", "marker"),
    [
        ("<p>No pages found matching: zzqx</p>", "No pages found"),
        ('<div class="serp-results"></div>', "serp-results"),
    ],
)
def test_each_results_page_marker_alone_makes_an_empty_page_a_results_page(
    page: str, marker: str
) -> None:
    """A guard: "No pages found" and ``serp-results`` each make a page with no rows "none".

    The real page carries ``serp-results`` and ``results-standard`` together and has
    results, so removing either marker passed every test. Each alone must keep an empty
    page from being unrecognised (a 502 that fails the chain over).
    """
    assert marker in page
    assert parse_page(page) == []


def test_the_browsers_ready_selector_finds_the_captures_rows() -> None:
    """A guard: the browser's ``RESULTS_SELECTOR`` matches the real page's result rows.

    Only the headless escalation reads it, so ``ul.results li`` passed every test.
    """
    rows = parse_document(_capture(SERP)).cssselect(RESULTS_SELECTOR)
    assert len(rows) == len(parse_page(_capture(SERP))) > 0
