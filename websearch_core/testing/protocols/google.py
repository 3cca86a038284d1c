"""Google's results page for the simulator: ``GET /search``, plus the home page at ``/``.

Two renderings of the same results:

* ``"html"`` (the default): the results are in the HTML, in the markup of the real page
  (``div.MjjYud > div.tF2Cxc > div.yuRUbf > a > h3``, ``div.VwiC3b`` with the date in
  ``span.LEwnzc``), links wrapped in Google's ``/url?q=<target>&sa=U`` redirect, one
  ad in ``#tads`` and, after the first result, a "People also ask" box whose expanded
  answer quotes a page in a result's markup (as in the real pt-BR capture); a parser must
  drop both.

Like Google since September 2025, a page holds at most :data:`PAGE_SIZE` results from the
``start`` offset on, and ``num`` is ignored.
* ``"javascript"``: the page a plain fetch gets when Google insists on JavaScript, the
  ``/httpservice/retry/enablejs`` shell with no ``<h3>`` in its source; a script inserts the
  results shortly after the document loads, so only a real browser sees them.

:meth:`GoogleProtocol.challenge` is the "unusual traffic" reCAPTCHA wall with HTTP 429;
:meth:`GoogleProtocol.malformed` is a 200 page that is neither results nor a block.
Any other path answers 404.
"""

import html
import json
from datetime import date
from typing import Literal
from urllib.parse import quote

from aiohttp import web

from ..simulator import RecordedRequest, SimResult
from ._common import parse_timestamp
from ._operators import Operators
from ._windows import DateWindow, between_days, past

__all__ = [
    "AD_URL",
    "HOME_PAGE",
    "MALFORMED_PAGE",
    "PAGE_SIZE",
    "QUESTION_URL",
    "SORRY_PAGE",
    "GoogleProtocol",
    "Rendering",
    "display_date",
    "javascript_page",
    "results_page",
]

Rendering = Literal["html", "javascript"]
AD_URL = "https://ads.example.net/landing"
"""The target of the simulated ad, which must never appear among the results."""
QUESTION_URL = "https://answers.example.net/quoted"
"""The page a "People also ask" answer quotes, which must never appear among the results."""
PAGE_SIZE = 10
"""Results on one page, whatever ``num`` asks for."""

HOME_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Google</title>
</head><body><form action="/search" role="search"><textarea name="q"></textarea>
<input type="submit" value="Google Search"></form></body></html>
"""

SORRY_PAGE = """<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">
<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8">
<title>https://www.google.com/search?q=sim</title></head>
<body><div style="max-width:400px;"><form id="captcha-form" action="index" method="post">
<div id="recaptcha" class="g-recaptcha" data-sitekey="sim-site-key"></div>
<input type="hidden" name="continue" value="https://www.google.com/search?q=sim"></form>
<div style="font-size:13px;"><b>About this page</b><br><br>Our systems have detected unusual
traffic from your computer network. This page checks to see if it's really you sending the
requests, and not a robot.</div></div></body></html>
"""
"""A reCAPTCHA wall in the shape of ``google.com/sorry/index`` (written for the simulator)."""

MALFORMED_PAGE = """<!doctype html><html><head><title>Google</title></head><body>
<div id="main"><p class="error">Something went wrong. Try again later.</p></div></body></html>
"""


def display_date(published: str | None) -> str | None:
    """``2026-01-05T00:00:00Z`` as Google shows it (``Jan 5, 2026``); ``None`` if unreadable."""
    if not published:
        return None
    when = parse_timestamp(published)
    if when is None:
        return None
    return f"{when:%b} {when.day}, {when.year}"


def _snippet_html(result: SimResult) -> str:
    date = display_date(result.published)
    prefix = (
        f'<span class="LEwnzc Sqrs4e"><span>{html.escape(date)}</span> &#8212; </span>'
        if date
        else ""
    )
    return f'<div class="VwiC3b yXK7lf">{prefix}<span>{html.escape(result.snippet)}</span></div>'


def _result_html(result: SimResult) -> str:
    href = f"/url?q={quote(result.url, safe='')}&amp;sa=U&amp;ved=2ahUKEwisim"
    return f"""
<div class="MjjYud"><div class="g"><div class="tF2Cxc">
  <div class="yuRUbf"><div><span><a href="{href}"><h3 class="LC20lb MBeuO DKV0Md">\
{html.escape(result.title)}</h3><div class="notranslate"><cite>{html.escape(result.url)}</cite>\
</div></a></span></div></div>
  <div class="kb0PBd" data-sncf="1">{_snippet_html(result)}</div>
</div></div></div>"""


_QUESTION_BOX = f"""
<div class="MjjYud"><div class="cUnQKe" data-initq="{{query}}"><div class="Wt5Tfe">
<div class="wQiwMc related-question-pair" data-q="What is {{query}}?">
  <div role="button"><span>What is {{query}}?</span></div>
  <div class="bCOlv"><div class="Y6JuXb"><div class="tF2Cxc"><div class="yuRUbf"><div><span>\
<a href="{QUESTION_URL}"><h3 class="LC20lb MBeuO DKV0Md">An answer quoted for {{query}}</h3>\
</a></span></div></div></div></div></div>
</div></div></div></div>"""


def _us_day(text: str | None) -> date | None:
    """A ``cd_min``/``cd_max`` day (``M/D/YYYY``); ``None`` when absent or unreadable."""
    month, day, year = (text or "").split("/") if (text or "").count("/") == 2 else ("", "", "")
    try:
        return date(int(year), int(month), int(day))
    except ValueError:
        return None


def results_page(query: str, results: list[SimResult]) -> str:
    """The server-rendered results page for ``query``."""
    ad = (
        '<div id="tads"><div data-text-ad="1"><a href="'
        + AD_URL
        + '"><h3>Sponsored: buy now</h3></a><div class="VwiC3b">An advert.</div></div></div>'
    )
    title = html.escape(query)
    blocks = [_result_html(result) for result in results]
    if blocks:
        blocks.insert(1, _QUESTION_BOX.format(query=title))
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title} - Google '
        f'Search</title></head><body><div id="main"><div id="center_col">{ad}'
        f'<div id="search"><div id="rso">{"".join(blocks)}</div></div>'
        f"{'' if results else _NO_RESULTS.format(query=title)}</div></div></body></html>"
    )


_NO_RESULTS = (
    '<div id="topstuff"><div class="card-section"><p>Your search - <b>{query}</b> - did not '
    "match any documents.</p></div></div>"
)

_RENDER_SCRIPT = """
(function () {
  function render() {
    var data = JSON.parse(document.getElementById('sim-data').textContent);
    var search = document.createElement('div'); search.id = 'search';
    var rso = document.createElement('div'); rso.id = 'rso'; search.appendChild(rso);
    data.forEach(function (item) {
      var block = document.createElement('div'); block.className = 'MjjYud';
      var inner = document.createElement('div'); inner.className = 'tF2Cxc';
      var head = document.createElement('div'); head.className = 'yuRUbf';
      var link = document.createElement('a'); link.href = item.url;
      var title = document.createElement('h3'); title.className = 'LC20lb';
      title.textContent = item.title;
      link.appendChild(title); head.appendChild(link); inner.appendChild(head);
      var snippet = document.createElement('div'); snippet.className = 'VwiC3b';
      snippet.textContent = item.snippet; inner.appendChild(snippet);
      block.appendChild(inner); rso.appendChild(block);
    });
    document.getElementById('main').appendChild(search);
  }
  document.addEventListener('DOMContentLoaded', function () { setTimeout(render, 150); });
})();
"""


def javascript_page(results: list[SimResult]) -> str:
    """The JavaScript-required shell whose results only a browser renders."""
    data = json.dumps(
        [{"title": r.title, "url": r.url, "snippet": r.snippet} for r in results]
    ).replace("<", "\\u003c")
    return (
        '<!DOCTYPE html><html lang="en"><head><title>Google Search</title></head><body>'
        '<noscript><meta content="0;url=/httpservice/retry/enablejs?sei=sim" '
        'http-equiv="refresh"/><div>Please click <a href="/httpservice/retry/enablejs?sei=sim">'
        "here</a> if you are not redirected within a few seconds.</div></noscript>"
        f'<div id="main"></div><script id="sim-data" type="application/json">{data}</script>'
        f"<script>{_RENDER_SCRIPT}</script></body></html>"
    )


class GoogleProtocol:
    """Answers like ``www.google.com``: ``/`` and ``/search``.

    Args:
        rendering: ``"html"`` serves results in the HTML; ``"javascript"`` serves the
            JavaScript-required shell that renders them in a browser.
    """

    operators = Operators(site=True, filetype=True)
    """Google reads ``site:`` and ``filetype:`` in ``q``."""

    def __init__(self, rendering: Rendering = "html") -> None:
        self.rendering: Rendering = rendering

    def answer(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        """The home page, the results page, or 404."""
        if request.path == "/":
            return web.Response(
                text=HOME_PAGE, content_type="text/html", headers={"Set-Cookie": "NID=sim; Path=/"}
            )
        if request.path != "/search":
            return web.Response(status=404, text="Not Found")
        fields = request.query_dict()
        query = fields.get("q", "")
        start = fields.get("start", "0")
        offset = int(start) if start.isdecimal() else 0
        page = results[offset : offset + PAGE_SIZE]
        if self.rendering == "javascript":
            return web.Response(text=javascript_page(page), content_type="text/html")
        return web.Response(text=results_page(query, page), content_type="text/html")

    def date_window(self, request: RecordedRequest) -> DateWindow:
        """The dates ``tbs`` asks for: ``qdr:<d|w|m|y>`` or ``cdr:1,cd_min:M/D/YYYY,cd_max:...``."""
        tbs = request.query_dict().get("tbs", "")
        if tbs.startswith("qdr:"):
            return past(tbs.removeprefix("qdr:"))
        parts = dict(part.partition(":")[::2] for part in tbs.split(","))
        return between_days(_us_day(parts.get("cd_min")), _us_day(parts.get("cd_max")))

    def challenge(self) -> web.Response:
        """The "unusual traffic" reCAPTCHA wall, HTTP 429."""
        return web.Response(status=429, text=SORRY_PAGE, content_type="text/html")

    def malformed(self) -> web.Response:
        """A 200 page that is neither results nor a block page."""
        return web.Response(text=MALFORMED_PAGE, content_type="text/html")
