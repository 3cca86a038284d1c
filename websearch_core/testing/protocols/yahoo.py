"""Yahoo's HTML results page for the simulator: ``GET /search?p=…&n=…[&btf=…]``.

The answer has the markup of the real ``search.yahoo.com/search`` page: the search box,
the ``oath:guce:consent-host`` meta tag every Yahoo page carries, one sponsored block in
``ol.searchCenterTopAds`` (a ``cbclk`` tracker to ``bing.com/aclick``, which the provider
must never read), then ``ol.reg.searchCenterMiddle`` with one ``div.dd.algo`` per result:
``div.compTitle > a > h3.title > span`` for the title and ``div.compText > p`` for the
snippet, opened by ``<span class="fc-smoke">Jan 1, 2026 · </span>`` when the result has a
date. Every result link is Yahoo's tracker
``https://r.search.yahoo.com/_ylt=…;_ylu=…/RV=2/RE=…/RO=10/RU=<percent-encoded URL>/RK=2/RS=…``
(lower-case escapes, as Yahoo writes them), and the footer links to ``guce.yahoo.com``
through the same tracker. ``n`` (default 10, at most 100) decides how many results are
served; with none the page is Yahoo's ``div.dd.zrp`` "We did not find results for" block.

The query travels in ``p``, which the simulator's generic query finder does not read, so
:meth:`YahooProtocol.answer` reads it itself and derives the default results from it;
results set on the simulated provider are served as they are.

:meth:`YahooProtocol.challenge` is the EU consent interstitial (a ``consent-form`` posting
to ``consent.yahoo.com/v2/collectConsent``), written for the simulator and served with
HTTP 200; :meth:`YahooProtocol.malformed` is a 200 page with Yahoo's chrome but neither
results, nor a zero-results block, nor the consent form.
"""

import hashlib
import html
import re
from urllib.parse import quote

from aiohttp import web

from ..simulator import RecordedRequest, SimResult, default_results
from ._common import clamped_count, parse_timestamp
from ._operators import Operators
from ._windows import DateWindow, past

__all__ = ["CONSENT_PAGE", "MALFORMED_PAGE", "YahooProtocol", "results_page", "tracker_href"]

_DEFAULT_COUNT = 10
_MAX_COUNT = 100
_ESCAPE = re.compile(r"%[0-9A-F]{2}")

_HEAD = """<!DOCTYPE html>
<html id="atomic" lang="en-US">
<head>
<meta content="text/html; charset=utf-8" http-equiv="content-type" />
<title>{title}</title>
<meta name="oath:guce:consent-host" content="guce.yahoo.com" />
</head>
<body class="sr-page">
<form id="sf" role="search" action="https://search.yahoo.com/search" method="get">
<input type="text" class="sbq" id="yschsp" name="p" value="{query}" autocomplete="off" />
<input type="hidden" name="fr" value="sfp" />
</form>
<div id="results"><div id="cols"><div id="left"><div id="main">
"""

CONSENT_PAGE = """<!DOCTYPE html>
<html lang="en-GB">
<head>
<meta charset="utf-8" />
<title>Yahoo is part of the Yahoo family of brands</title>
</head>
<body>
<div class="con-wizard">
<h1>Yahoo is part of the Yahoo family of brands</h1>
<p>We and our partners use cookies to store and access personal data on your device.
Select 'Accept all' to agree or 'Reject all' to decline.</p>
<form method="post" class="consent-form" \
action="https://consent.yahoo.com/v2/collectConsent?sessionId=3_cc-session_sim">
<input type="hidden" name="csrfToken" value="sim-csrf-token" />
<input type="hidden" name="sessionId" value="3_cc-session_sim" />
<input type="hidden" name="originalDoneUrl" \
value="https://search.yahoo.com/search?p=rust+async+runtime" />
<button type="submit" class="btn secondary reject-all" name="reject" value="reject">\
Reject all</button>
<button type="submit" class="btn primary accept-all" name="agree" value="agree">\
Accept all</button>
</form>
</div>
</body>
</html>
"""
"""The EU consent interstitial (written for the simulator)."""

_TAIL = """</div></div></div></div>
<ul class="footer-links">
<li class="sdk first"><a href="{terms}">Terms</a></li>
<li class="sdk"><a href="{privacy}">Privacy</a></li>
</ul>
</body>
</html>
"""


def tracker_href(url: str) -> str:
    """Yahoo's ``r.search.yahoo.com`` tracker URL for ``url`` (unescaped)."""
    digest = hashlib.sha256(url.encode("utf-8")).hexdigest()
    target = _ESCAPE.sub(lambda match: match.group(0).lower(), quote(url, safe=""))
    return (
        f"https://r.search.yahoo.com/_ylt=A0{digest[:20]};_ylu=Y29{digest[20:40]}"
        f"/RV=2/RE=1791872416/RO=10/RU={target}/RK=2/RS={digest[40:64]}-"
    )


def _tail() -> str:
    return _TAIL.format(
        terms=html.escape(tracker_href("https://guce.yahoo.com/terms?locale=en-US")),
        privacy=html.escape(tracker_href("https://guce.yahoo.com/privacy-policy?locale=en-US")),
    )


MALFORMED_PAGE = (
    _HEAD.format(title="Yahoo Search - Web Search", query="")
    + '<div class="dd err"><p>Something went wrong. Please try again later.</p></div>\n'
    + _tail()
)
"""A 200 page that is neither results, nor zero results, nor the consent wall."""

_AD_LIST = """<ol class="searchCenterTopAds"><li><div class="dd algo algo-sr Sr" \
data-a70="sim-ad"><div class="compTitle"><a href="{href}"><h3 class="title">\
<span>Sponsored: Buy Now</span></h3></a></div><div class="compText"><p>An advertisement.\
</p></div></div></li></ol>
"""


def _display_date(published: str) -> str:
    when = parse_timestamp(published)
    if when is None:
        return published
    return f"{when:%b} {when.day}, {when.year}"


def _result_block(result: SimResult) -> str:
    href = html.escape(tracker_href(result.url))
    display = html.escape(result.url.split("://", 1)[-1].rstrip("/").replace("/", " › "))
    date = ""
    if result.published:
        date = f'<span class="fc-smoke">{html.escape(_display_date(result.published))} · </span>'
    return (
        '<li><div class="dd algo algo-sr relsrch Sr"><div class="compTitle options-toggle">'
        f'<a class="d-ib va-top" data-matarget="algo" target="_blank" href="{href}">'
        f'<div class="d-ib p-abs"><span class="d-ib va-mid">{display}</span></div>'
        '<h3 style="display: block" class="title">'
        f'<span class="d-b fz-20">{html.escape(result.title)}</span></h3></a></div>'
        f'<div class="compText aAbs"><p class="fc-dustygray">{date}'
        f"{html.escape(result.snippet)}</p></div></div></li>\n"
    )


def _count(value: str | None) -> int:
    return clamped_count(value, _DEFAULT_COUNT, _MAX_COUNT)


def results_page(query: str, results: list[SimResult], count: int = _DEFAULT_COUNT) -> str:
    """The results page for ``query``: one ad, then at most ``count`` of ``results``."""
    served = results[:count]
    if served:
        ad_href = tracker_href("https://www.bing.com/aclick?ld=e8sim&u=ads.example")
        body = _AD_LIST.format(href=html.escape(ad_href.replace("/_ylt=", "/cbclk2/_ylt=")))
        body += '<ol class="reg searchCenterMiddle">\n'
        body += "".join(_result_block(result) for result in served) + "</ol>\n"
    else:
        body = (
            '<div class="dd zrp"><div class="compText mb-15"><p>We did not find results for: '
            f'<strong>{html.escape(query)}</strong>. </p></div><div class="compText mb-8">'
            "<p>Check spelling or type a new query. </p></div></div>\n"
        )
    head = _HEAD.format(
        title=f"{html.escape(query)} - Yahoo Search Results", query=html.escape(query)
    )
    return head + body + _tail()


class YahooProtocol:
    """Answers like ``search.yahoo.com/search``."""

    operators = Operators(site=True, filetype=True, field="p")
    """Yahoo serves Bing's index, which reads ``site:`` and ``filetype:``, in ``p``."""

    def query_of(self, request: RecordedRequest) -> str:
        """The query, Yahoo's ``p``.

        The shared handler derives the results from it before ``--site`` or a date
        window filters them; read from where it does not look, a filtered answer was
        for an empty query (``result 1``, ``https://site1.example.org/q``).
        """
        return request.query_dict().get("p", "")

    def answer(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        """The results page for ``p``, holding ``n`` results."""
        if request.path != "/search":
            return web.Response(status=404, text="Not Found")
        query = request.query_dict()
        text = query.get("p", "")
        if results == default_results(""):
            # The simulator derived these from an empty query: derive them from ``p``.
            results = default_results(text)
        page = results_page(text, results, _count(query.get("n")))
        return web.Response(text=page, content_type="text/html")

    def date_window(self, request: RecordedRequest) -> DateWindow:
        """The span ``btf`` asks for (``d``/``w``/``m``; Yahoo has no year)."""
        return past(request.query_dict().get("btf", ""))

    def challenge(self) -> web.Response:
        """The EU consent interstitial, with HTTP 200."""
        return web.Response(text=CONSENT_PAGE, content_type="text/html")

    def malformed(self) -> web.Response:
        """A 200 page with Yahoo's chrome and none of the markup the provider knows."""
        return web.Response(text=MALFORMED_PAGE, content_type="text/html")
