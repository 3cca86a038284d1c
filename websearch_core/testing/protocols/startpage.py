"""Startpage for the simulator: the homepage with its form token, then ``/sp/search``.

* ``GET /`` is the homepage: a settings form (``/do/settings``) and the search form
  ``form#search[action="/sp/search"][method=post]`` with the text input ``query`` and the
  hidden inputs ``lui``, ``language``, ``sc`` (:data:`SIM_SC`), ``cat``, ``t``, ``abd``,
  ``abe`` and an empty ``with_date``.
* ``POST /sp/search`` answers with results only when the body's ``sc`` is :data:`SIM_SC`;
  without it (or with another) Startpage's CAPTCHA page is served, as the real site does
  for requests that skip the homepage token.
* ``GET /sp/search?query=…`` (the tokenless fallback) answers with results.
* ``GET /sp/captcha…`` is the CAPTCHA page, so a test can redirect there.

Result pages have the markup of the real ``www.startpage.com/sp/search`` page: the search
form again, an empty ``div.a-bg-result`` ad/honeypot block, then up to ten
``div.result`` blocks, each with favicon and site links, an
``a.result-title.result-link > h2.wgl-title`` title, a ``p.description`` snippet (opened by
``1 Jan 2026 <b>...</b>`` when the result has a date) and an anonymous-view proxy link on
``*.startpage.com``. Like the real page, a results page with more results after it ends in
a pager (``div.pagination``): one POST form per page carrying the search's hidden inputs,
``segment`` and its 1-based ``page``, the page served labelled ``current page N`` (and
given a class of its own, the others sharing one) and a "Next" form for page ``N + 1``; the
``page`` field (or query parameter) picks the page served, ten results from
``(page - 1) * 10``. With no results the page holds a
``no-results`` block saying the search "did not match any documents" (Startpage's real
wording for this case is not captured).

The query travels in the form field or query parameter ``query``; the simulator's generic
finder reads only the latter, so :meth:`StartpageProtocol.answer` reads the query itself
and derives the default results from it. Results set on the simulated provider are served
as they are.

:meth:`StartpageProtocol.challenge` is the CAPTCHA page (written for the simulator after
the markers the reference names: the ``component---src-pages-captcha`` bundle and a form
posting to ``/sp/captcha``), served with HTTP 200; :meth:`StartpageProtocol.malformed` is a
200 page with neither results, nor a "no results" block, nor a CAPTCHA.
"""

import hashlib
import html

from aiohttp import web

from ..simulator import RecordedRequest, SimResult, default_results
from ._common import parse_timestamp
from ._operators import Operators
from ._windows import DateWindow, past

__all__ = [
    "CAPTCHA_PAGE",
    "MALFORMED_PAGE",
    "PAGE_SIZE",
    "SIM_SC",
    "StartpageProtocol",
    "homepage",
    "results_page",
]

PAGE_SIZE = 10
"""Results per page, as on the real site."""

SIM_SC = "SimT0ken4sc00"
"""The anti-bot form token the simulated homepage hands out."""

_HEAD = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8" />
<title>{title}</title>
<link rel="preload" href="/app-sim.js" as="script" />
</head>
<body>
"""

_TAIL = "</body>\n</html>\n"

CAPTCHA_PAGE = (
    _HEAD.format(title="Startpage")
    + """<div id="___gatsby"><main class="captcha-page">
<h1>Are you a human?</h1>
<p>We've noticed unusual traffic from your network. Please confirm that you are not a
robot to continue searching.</p>
<form action="/sp/captcha" method="post">
<input type="hidden" name="token" value="sim-captcha-token" />
<div class="captcha-widget" data-sitekey="sim"></div>
<button type="submit">Continue</button>
</form>
</main></div>
<script src="/component---src-pages-captcha-js-sim.js" async></script>
"""
    + _TAIL
)
"""Startpage's CAPTCHA page (written for the simulator)."""

MALFORMED_PAGE = (
    _HEAD.format(title="Startpage Search Results")
    + """<div id="___gatsby"><main class="layout">
<section class="w-gl"><p class="error">Something went wrong. Please try again.</p></section>
</main></div>
"""
    + _TAIL
)
"""A 200 page that is neither results, nor "no results", nor a CAPTCHA."""


def _hidden(name: str, value: str) -> str:
    return f'<input type="hidden" name="{html.escape(name)}" value="{html.escape(value)}" />\n'


def _search_form(query: str) -> str:
    fields = [
        ("lui", "english"),
        ("language", "english"),
        ("sc", SIM_SC),
        ("cat", "web"),
        ("t", "device"),
        ("abd", "0"),
        ("abe", "0"),
        ("with_date", ""),
    ]
    return (
        '<form id="search" class="search-form" action="/sp/search" method="post" '
        'role="search">\n'
        f'<input type="text" name="query" value="{html.escape(query)}" '
        'aria-label="Search" autocomplete="off" />\n'
        + "".join(_hidden(name, value) for name, value in fields)
        + '<button type="submit" class="search-btn" aria-label="Startpage Search"></button>\n'
        "</form>\n"
    )


def homepage() -> str:
    """The homepage: a settings form, then the search form carrying :data:`SIM_SC`."""
    settings_form = (
        '<form action="/do/settings" method="post" class="settings-link">\n'
        + _hidden("sc", "SettingsT0ken")
        + _hidden("lui", "english")
        + "</form>\n"
    )
    return (
        _HEAD.format(title="Startpage - Private Search Engine. No Tracking. No Search History.")
        + '<div id="___gatsby"><main class="home">\n'
        + settings_form
        + _search_form("")
        + "</main></div>\n"
        + _TAIL
    )


def _display_date(published: str) -> str:
    when = parse_timestamp(published)
    if when is None:
        return published
    return f"{when.day} {when:%b} {when.year}"


def _result_block(result: SimResult) -> str:
    url = html.escape(result.url)
    site = html.escape(result.url.split("://", 1)[-1].split("/", 1)[0])
    proxy = hashlib.sha256(result.url.encode("utf-8")).hexdigest()
    description = html.escape(result.snippet)
    if result.published:
        description = f"{html.escape(_display_date(result.published))} <b>...</b> {description}"
    return f"""<div class="result css-o7i03b">
<div class="upper css-4wnopv">
<a href="{url}" rel="noopener nofollow" target="_blank" data-testid="result-favicon" \
class="favicon-link css-n7c8hp"><img src="" alt="favicon" /></a>
<div class="wgl-title-link-container">
<a href="{url}" rel="noopener nofollow" target="_blank" class="wgl-site-title">\
<span class="link-text">{site}</span></a>\
<a href="{url}" rel="noopener nofollow" target="_blank" class="wgl-display-url">\
<span class="link-text">{url}</span></a>
</div>
</div>
<a class="result-title result-link css-1bggj8v" href="{url}" target="_blank" \
rel="noopener nofollow noreferrer" data-testid="gl-title-link">\
<h2 class="wgl-title css-i3irj7">{html.escape(result.title)}</h2></a>
<p class="description css-1507v2l">{description}</p>
<div class="anonymous-view-link"><a href="https://us2-browse.startpage.com/av/proxy?ep={proxy}" \
target="_blank" rel="noopener">Anonymous View</a></div>
</div>
"""


_PAGER_CLASSES = {"current": "css-1y4ij50", "other": "css-eaucvd", "next": "css-1wsfl7j"}
"""The pager forms' classes on the real page: the current page's is its own."""


def _pager_form(query: str, with_date: str, number: int, label: str, text: str, kind: str) -> str:
    fields = [
        ("lui", "english"),
        ("language", "english"),
        ("query", query),
        ("cat", "web"),
        ("sc", SIM_SC),
    ]
    after = [
        ("t", "device"),
        ("segment", "startpage.udog"),
        ("page", str(number)),
        ("abd", "0"),
        ("abe", "0"),
        ("with_date", with_date),
    ]
    return (
        f'<form action="/sp/search" method="post" class="{_PAGER_CLASSES[kind]}" '
        f'aria-label="{label}">\n'
        + "".join(_hidden(name, value) for name, value in fields)
        + '<input type="hidden" name="pl" />\n'
        + "".join(_hidden(name, value) for name, value in after)
        + f'<button type="submit" data-testid="pagination-button">{text}</button></form>\n'
    )


def _pager(query: str, with_date: str, page: int, pages: int) -> str:
    """The real page's pager: a form per page, the served one labelled as current."""
    forms = [
        _pager_form(
            query,
            with_date,
            number,
            f"current page {number}" if number == page else f"go to page {number}",
            str(number),
            "current" if number == page else "other",
        )
        for number in range(1, pages + 1)
    ]
    if page < pages:
        forms.append(_pager_form(query, with_date, page + 1, "go to page Next", "Next", "next"))
    return (
        '<div class="pagination-container"><div class="pagination" role="navigation" '
        'aria-label="more search results">\n' + "".join(forms) + "</div></div>\n"
    )


def results_page(
    query: str, results: list[SimResult], *, page: int = 1, with_date: str = ""
) -> str:
    """Results page ``page`` (1-based) for ``query``: :data:`PAGE_SIZE` of ``results``."""
    start = (page - 1) * PAGE_SIZE
    served = results[start : start + PAGE_SIZE]
    if served:
        pages = -(-len(results) // PAGE_SIZE)
        body = (
            '<div class="a-bg-result ecommerce-ad css-i7d1s0"></div>\n'
            + "".join(_result_block(result) for result in served)
            + (_pager(query, with_date, page, pages) if pages > 1 else "")
        )
    else:
        body = (
            '<div class="no-results-container"><h2>Your search for '
            f"<b>{html.escape(query)}</b> did not match any documents.</h2></div>\n"
        )
    return (
        _HEAD.format(title="Startpage Search Results")
        + '<div id="___gatsby"><main class="layout">\n'
        + _search_form(query)
        + f'<section class="w-gl" data-testid="gl-main">\n{body}</section>\n'
        + "</main></div>\n"
        + _TAIL
    )


def _html(text: str) -> web.Response:
    return web.Response(text=text, content_type="text/html")


class StartpageProtocol:
    """Answers like ``www.startpage.com``: homepage, token-checked POST, tokenless GET."""

    operators = Operators(site=True, filetype=True, field="query")
    """Startpage passes ``site:`` and ``filetype:`` in ``query`` on to Google, which reads both."""

    def query_of(self, request: RecordedRequest) -> str:
        """The query, ``query`` of the POSTed form or of the URL.

        The shared handler derives the results from it before ``--site`` or a date
        window filters them; read from where it does not look, a filtered answer was
        for an empty query (``result 1``, ``https://site1.example.org/q``).
        """
        form = dict(request.form()) if request.method == "POST" else request.query_dict()
        return form.get("query", "")

    def answer(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        """The homepage, a results page, or the CAPTCHA for a POST without the token."""
        if request.method == "GET" and request.path == "/":
            return _html(homepage())
        if request.path.startswith("/sp/captcha"):
            return _html(CAPTCHA_PAGE)
        if request.path != "/sp/search":
            return web.Response(status=404, text="Not Found")
        if request.method == "POST":
            form = dict(request.form())
            if form.get("sc") != SIM_SC:
                return _html(CAPTCHA_PAGE)
        else:
            form = request.query_dict()
        query = form.get("query", "")
        if results == default_results(""):
            # The simulator derived these from an empty query: derive them from ``query``.
            results = default_results(query)
        number = form.get("page", "1")
        page = int(number) if number.isdecimal() and int(number) > 0 else 1
        return _html(results_page(query, results, page=page, with_date=form.get("with_date", "")))

    def date_window(self, request: RecordedRequest) -> DateWindow:
        """The span ``with_date`` asks for (``d``/``w``/``m``/``y``), posted or in the URL."""
        form = dict(request.form()) if request.method == "POST" else request.query_dict()
        return past(form.get("with_date", ""))

    def challenge(self) -> web.Response:
        """Startpage's CAPTCHA page, with HTTP 200."""
        return _html(CAPTCHA_PAGE)

    def malformed(self) -> web.Response:
        """A 200 page with none of the markup the provider knows."""
        return _html(MALFORMED_PAGE)
