"""Ecosia's results page for the simulator: ``GET /search``, the home page at ``/``.

Results carry the markup of the real page: a ``data-test-id="mainline"`` column of
``article[data-test-id="organic-result"]`` blocks, each with a
``a[data-test-id="result-link"] > h2[data-test-id="result-title"]`` title and a
``p[data-test-id="web-result-description"]`` snippet that starts with the date
(``13 Mar 2026 ...``) when the result has one, plus one ``ad-google`` block a parser must
skip. Like the real page, it holds :data:`PAGE_SIZE` results from the 0-based page ``p``
on (``p * 10``) and, when more follow, a footer with the "Next" link
``a[data-test-id="next-button"]`` to ``/search?q=<query>&p=<p + 1>``.

:meth:`EcosiaProtocol.challenge` is a Cloudflare managed challenge (HTTP 403,
``cf-mitigated: challenge``, ``window._cf_chl_opt`` and a script under
``/cdn-cgi/challenge-platform/``). With ``cloudflare=True`` every ``/search`` without the
clearance cookie gets that challenge; the challenge script, which only a browser runs, sets
the cookie and reloads, so only a real browser gets through. :meth:`EcosiaProtocol.malformed`
is a 200 page that is neither results nor a block.
"""

import html
from urllib.parse import urlencode

from aiohttp import web

from ..simulator import RecordedRequest, SimResult
from ._common import parse_timestamp
from ._operators import Operators

__all__ = [
    "AD_URL",
    "CHALLENGE_SCRIPT_PATH",
    "CLEARANCE_COOKIE",
    "CLEARANCE_TOKEN",
    "HOME_PAGE",
    "MALFORMED_PAGE",
    "PAGE_SIZE",
    "EcosiaProtocol",
    "challenge_page",
    "results_page",
]

AD_URL = "https://ads.example.net/ecosia-landing"
PAGE_SIZE = 10
"""Results on one page, as on the real site."""
CLEARANCE_COOKIE = "cf_clearance"
CLEARANCE_TOKEN = "sim-cleared-4f1c"
CHALLENGE_SCRIPT_PATH = "/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1"

HOME_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Ecosia - the
search engine that plants trees</title></head><body><form action="/search" method="get">
<input name="q" data-test-id="search-form-input"></form></body></html>
"""

MALFORMED_PAGE = """<!doctype html><html lang="en"><head><title>Ecosia</title></head><body>
<div class="layout"><p>Something went wrong. Please try again.</p></div></body></html>
"""

_CHALLENGE_JS = f"""
document.cookie = "{CLEARANCE_COOKIE}={CLEARANCE_TOKEN}; path=/";
setTimeout(function () {{ location.reload(); }}, 100);
"""


def challenge_page() -> str:
    """A Cloudflare "Just a moment..." page (written for the simulator)."""
    return (
        '<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title>'
        '<meta http-equiv="refresh" content="390"></head><body><div class="main-wrapper">'
        '<h1 class="zone-name-title h1">www.ecosia.org</h1><h2 class="h2">Verify you are '
        "human by completing the action below.</h2><noscript>Enable JavaScript and cookies to "
        "continue</noscript></div><script>window._cf_chl_opt={cvId: '3',cZone: "
        "'www.ecosia.org',cType: 'managed',cRay: 'simray'};</script>"
        f'<script src="{CHALLENGE_SCRIPT_PATH}?ray=simray"></script></body></html>'
    )


def _display_date(published: str | None) -> str | None:
    if not published:
        return None
    when = parse_timestamp(published)
    if when is None:
        return None
    return f"{when.day} {when:%b} {when.year}"


def _article(result: SimResult) -> str:
    date = _display_date(result.published)
    description = f"{date} ... {result.snippet}" if date else result.snippet
    return f"""
<div data-test-id="mainline-result-web" class="mainline__result-wrapper">
  <article data-test-id="organic-result" class="result web-result mainline__result">
    <div class="result__header"><div class="result__info">
      <a data-test-id="result-source" href="{html.escape(result.url)}" class="result__source">
        <span data-test-id="result-source-name">{html.escape(result.url)}</span></a></div></div>
    <div class="result__title"><a data-test-id="result-link" href="{html.escape(result.url)}"
      class="result__link"><h2 data-test-id="result-title" class="result-title__heading">
        {html.escape(result.title)}</h2></a></div>
    <div class="result__columns"><div data-test-id="result-description"
      class="result__description"><p data-test-id="web-result-description"
      class="web-result__description">{html.escape(description)}</p></div></div>
  </article>
</div>"""


def _next_button(query: str, page: int) -> str:
    href = html.escape(f"/search?{urlencode([('q', query), ('p', str(page + 1))])}")
    return (
        '<div class="mainline__footer"><div data-test-id="simplified-pagination" '
        f'class="simplified-pagination"><a data-test-id="next-button" href="{href}" '
        'class="button"><span class="button__content"><span data-test-id="button-text" '
        'class="button__text">Next</span></span></a></div></div>'
    )


def results_page(query: str, results: list[SimResult], *, page: int = 0) -> str:
    """Results page ``page`` (0-based) for ``query``: an ad, then :data:`PAGE_SIZE` results."""
    ad = (
        '<div data-test-id="mainline-result-ad"><div data-test-id="ad-google" '
        f'class="mainline__result"><a href="{AD_URL}"><h2 data-test-id="result-title">'
        "Sponsored result</h2></a><p>An advert.</p></div></div>"
    )
    served = results[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]
    articles = "".join(_article(result) for result in served)
    empty = "" if served else '<p class="no-results">No results found.</p>'
    more = len(results) > (page + 1) * PAGE_SIZE
    footer = _next_button(query, page) if served and more else ""
    title = html.escape(query)
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title} - Ecosia '
        f'- Web</title></head><body><div data-test-id="layout-content"><section '
        f'data-test-id="mainline" class="mainline">{ad}{articles}{empty}{footer}</section></div>'
        "</body></html>"
    )


class EcosiaProtocol:
    """Answers like ``www.ecosia.org``: ``/``, ``/search`` and the challenge script.

    Args:
        cloudflare: Challenge every ``/search`` that lacks the clearance cookie.
    """

    operators = Operators(site=True, filetype=True)
    """Ecosia passes ``site:`` and ``filetype:`` in ``q`` on to the index it serves."""

    def __init__(self, *, cloudflare: bool = False) -> None:
        self.cloudflare = cloudflare

    def answer(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        """The home page, the results page, the challenge script, or 404."""
        if request.path == "/":
            return web.Response(text=HOME_PAGE, content_type="text/html")
        if request.path == CHALLENGE_SCRIPT_PATH:
            return web.Response(text=_CHALLENGE_JS, content_type="application/javascript")
        if request.path != "/search":
            return web.Response(status=404, text="Not Found")
        if self.cloudflare and not _cleared(request):
            return self.challenge()
        fields = request.query_dict()
        number = fields.get("p", "0")
        page = int(number) if number.isdecimal() else 0
        text = results_page(fields.get("q", ""), results, page=page)
        return web.Response(text=text, content_type="text/html")

    def challenge(self) -> web.Response:
        """Cloudflare's managed challenge, HTTP 403."""
        return web.Response(
            status=403,
            text=challenge_page(),
            content_type="text/html",
            headers={"cf-mitigated": "challenge"},
        )

    def malformed(self) -> web.Response:
        """A 200 page that is neither results nor a block page."""
        return web.Response(text=MALFORMED_PAGE, content_type="text/html")


def _cleared(request: RecordedRequest) -> bool:
    cookies = request.header("Cookie") or ""
    pairs = (part.strip().partition("=") for part in cookies.split(";"))
    return any(name == CLEARANCE_COOKIE and value == CLEARANCE_TOKEN for name, _, value in pairs)
