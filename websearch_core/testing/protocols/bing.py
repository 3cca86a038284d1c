"""Bing's HTML results page for the simulator: ``GET /search?q=…&count=…``.

The answer has the markup of the real ``www.bing.com/search`` page: an ``ol#b_results``
list with one sponsored ``li.b_ad`` block (pointing at ``bing.com/aclick``, which the
provider must never read), then one ``li.b_algo`` per result with the favicon/attribution
link, an ``h2 a`` title and a ``div.b_caption p.b_lineclamp2`` snippet, then the
``li.b_pag`` pager. Every result link is Bing's click tracker
``https://www.bing.com/ck/a?!&&p=…&ptn=3&ver=2&hsh=4&fclid=…&u=a1<base64url(URL)>&ntb=1``.
A result with a date opens its snippet with ``<span class="news_dt">Jan 1, 2026</span>
&nbsp;&#0183;&#32;`` as Bing does for dated pages. ``count`` (default 10, at most 50)
decides how many results are served; with none the page is Bing's "There are no results
for …" ``li.b_no`` block.

:meth:`BingProtocol.challenge` is a "One last step" page written for the simulator after
the real capture: the SERP chrome (title, header, search box) with a Cloudflare Turnstile
widget and no results, served with HTTP 200. :meth:`BingProtocol.malformed` is a 200 SERP
whose result list holds neither results, nor a "no results" block, nor a challenge.
"""

import base64
import hashlib
import html
from datetime import date, timedelta

from aiohttp import web

from ..simulator import RecordedRequest, SimResult
from ._common import clamped_count, parse_timestamp
from ._operators import Operators
from ._windows import ANY_DATE, DateWindow, between_days, past

__all__ = ["CHALLENGE_PAGE", "MALFORMED_PAGE", "BingProtocol", "results_page", "tracker_href"]

_DEFAULT_COUNT = 10
_MAX_COUNT = 50
_SPAN_CODES = {"ez1": "d", "ez2": "w", "ez3": "m"}
"""Bing's ``filters`` codes of a past day, week and month, as one-letter spans."""

_HEAD = """<!DOCTYPE html><html dir="ltr" lang="en" xml:lang="en" \
xmlns="http://www.w3.org/1999/xhtml"><head><meta content="text/html; charset=utf-8" \
http-equiv="content-type" /><title>{title}</title><style type="text/css">\
.captcha{{padding:80px 0 80px 160px}}.captcha_header{{font-size:30px}}</style></head>\
<body class="b_respl"><header id="b_header" role="banner"><form action="/search" \
id="sb_form" class="sb_form"><input class="b_searchbox" id="sb_form_q" name="q" \
type="search" value="{query}" maxlength="2000" /><input type="hidden" name="form" \
value="QBRE" /></form></header>"""

_TAIL = "</body></html>\n"

CHALLENGE_PAGE = (
    _HEAD.format(title="rust async runtime - Search", query="rust async runtime")
    + """<main aria-label="Search Results"><div class="captcha"><div class="captcha_header">\
One last step</div><div class="captcha_text">Please solve the challenge below to continue\
</div><div class="checkbox"><div id="turnstile-widget"></div></div></div></main>\
<script src="https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit" \
async defer></script>"""
    + _TAIL
)
"""A Turnstile "One last step" page in SERP chrome (written for the simulator)."""

MALFORMED_PAGE = (
    _HEAD.format(title="Bing", query="")
    + """<main aria-label="Search Results"><ol id="b_results" class="">\
<li class="b_msg"><p>Something went wrong. Please try again later.</p></li></ol></main>"""
    + _TAIL
)
"""A 200 page that is neither results, nor "no results", nor a challenge."""

_AD_BLOCK = """<li class="b_ad b_adTop"><ul><li class="b_adLastChild"><div class="sb_add \
sb_adTA"><h2><a href="https://www.bing.com/aclick?ld=e8sim&amp;u=aHR0cHM6Ly9hZHMuZXhhbXBsZS8" \
h="ID=SERP,5001.1">Sponsored: Buy Now</a></h2><div class="b_caption"><p>An advertisement.\
</p></div></div></li></ul></li>"""


def tracker_href(url: str) -> str:
    """Bing's ``/ck/a`` click-tracker URL for ``url`` (unescaped)."""
    digest = hashlib.sha256(url.encode("utf-8")).hexdigest()
    token = base64.urlsafe_b64encode(url.encode("utf-8")).decode("ascii").rstrip("=")
    fclid = f"{digest[:8]}-{digest[8:12]}-{digest[12:16]}-{digest[16:20]}-{digest[20:32]}"
    return (
        f"https://www.bing.com/ck/a?!&&p={digest}JmltdHM9MTc5MDg5OTIwMA&ptn=3&ver=2&hsh=4"
        f"&fclid={fclid}&u=a1{token}&ntb=1"
    )


def _display_date(published: str) -> str:
    when = parse_timestamp(published)
    if when is None:
        return published
    return f"{when:%b} {when.day}, {when.year}"


def _result_block(result: SimResult, index: int) -> str:
    href = html.escape(tracker_href(result.url))
    host = html.escape(result.url.split("://", 1)[-1].split("/", 1)[0])
    snippet = html.escape(result.snippet)
    if result.published:
        date = html.escape(_display_date(result.published))
        snippet = f'<span class="news_dt">{date}</span>&nbsp;&#0183;&#32;{snippet}'
    return (
        f'<li class="b_algo" data-id iid=SERP.{5300 + index}><div class="b_tpcn">'
        f'<a class="tilk" aria-label="{host}" tabindex="-1" target="_blank" href="{href}" '
        f'h="ID=SERP,{5100 + index}.1"><div class="tptxt"><div class="tptt">{host}</div>'
        f'<div class="tpmeta"><div class="b_attribution" tabindex="-1"><cite>'
        f"{html.escape(result.url)}</cite></div></div></div></a></div>"
        f'<h2 class=""><a target="_blank" href="{href}" h="ID=SERP,{5100 + index}.2">'
        f"{html.escape(result.title)}</a></h2>"
        f'<div class="b_caption"><p class="b_lineclamp2">{snippet}</p></div></li>'
    )


def _count(value: str | None) -> int:
    return clamped_count(value, _DEFAULT_COUNT, _MAX_COUNT)


def results_page(query: str, results: list[SimResult], count: int = _DEFAULT_COUNT) -> str:
    """The results page for ``query``: at most ``count`` of ``results``, after one ad."""
    served = results[:count]
    if served:
        items = _AD_BLOCK + "".join(
            _result_block(result, index) for index, result in enumerate(served)
        )
        items += '<li class="b_pag"><nav role="navigation" aria-label="More results"></nav></li>'
    else:
        items = (
            f'<li class="b_no"><h1>There are no results for <strong>{html.escape(query)}'
            "</strong></h1><ul><li><span>Check your spelling or try different keywords"
            "</span></li></ul></li>"
        )
    head = _HEAD.format(title=f"{html.escape(query)} - Search", query=html.escape(query))
    return (
        head
        + f'<main aria-label="Search Results"><ol id="b_results" class="">{items}</ol></main>'
        + _TAIL
    )


class BingProtocol:
    """Answers like ``www.bing.com/search``."""

    operators = Operators(site=True, filetype=True)
    """Bing reads ``site:`` and ``filetype:`` in ``q``."""

    def answer(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        """The results page for ``q``, holding ``count`` results."""
        if request.path != "/search":
            return web.Response(status=404, text="Not Found")
        query = request.query_dict()
        page = results_page(query.get("q", ""), results, _count(query.get("count")))
        return web.Response(text=page, content_type="text/html")

    def date_window(self, request: RecordedRequest) -> DateWindow:
        """The dates ``filters`` asks for, as Bing's own filter would serve them.

        ``ex1:"ez1"``/``"ez2"``/``"ez3"`` are the past day, week and month;
        ``ex1:"ez5_<first>_<last>"`` a range of days counted from 1970-01-01.
        """
        code = request.query_dict().get("filters", "").removeprefix('ex1:"').removesuffix('"')
        if code in _SPAN_CODES:
            return past(_SPAN_CODES[code])
        first, _, last = code.removeprefix("ez5_").partition("_")
        if code.startswith("ez5_") and first.isdecimal() and last.isdecimal():
            epoch = date(1970, 1, 1)
            return between_days(
                epoch + timedelta(days=int(first)), epoch + timedelta(days=int(last))
            )
        return ANY_DATE

    def challenge(self) -> web.Response:
        """The Turnstile "One last step" page, with HTTP 200 as Bing serves it."""
        return web.Response(text=CHALLENGE_PAGE, content_type="text/html")

    def malformed(self) -> web.Response:
        """A 200 SERP with none of the markup the provider knows."""
        return web.Response(text=MALFORMED_PAGE, content_type="text/html")
