"""DuckDuckGo's HTML frontend for the simulator: ``POST /html/`` with a form body.

The answer has the markup of the real ``html.duckduckgo.com`` page: one
``div.result.results_links.results_links_deep.web-result`` per result with an
``a.result__a`` title, a ``.result__extras__url`` line (with the date span when the
result has one) and an ``a.result__snippet``; every link is DDG's click redirect
``//duckduckgo.com/l/?uddg=<encoded URL>&rut=<hash>``. Pages hold ten results; when more
remain, a ``div.nav-link`` form carries ``s`` (the next offset) and ``vqd``, and posting
that form serves the page at offset ``s``. An offset past the end gets DDG's
"No more results." page.

:meth:`DuckDuckGoProtocol.challenge` is an anomaly-modal bot check served with HTTP 202;
:meth:`DuckDuckGoProtocol.malformed` is a 200 page with no results, no "no results"
marker and no challenge, which the provider must refuse to read as empty.
"""

import hashlib
import html
from urllib.parse import quote

from aiohttp import web

from ..simulator import RecordedRequest, SimResult
from ._operators import Operators
from ._windows import DateWindow, past

__all__ = [
    "CHALLENGE_PAGE",
    "MALFORMED_PAGE",
    "PAGE_SIZE",
    "SIM_VQD",
    "DuckDuckGoProtocol",
    "results_page",
]

PAGE_SIZE = 10
"""Results per page, as on the real HTML frontend."""

SIM_VQD = "4-123456789012345678901234567890123456789"
"""The query token the simulator hands out in its next-page forms."""

_HEAD = """<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" \
"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml">
<head>
  <meta http-equiv="content-type" content="text/html; charset=UTF-8" />
  <meta name="robots" content="noindex, nofollow" />
  <title>{title}</title>
</head>
"""

CHALLENGE_PAGE = (
    _HEAD.format(title="DuckDuckGo")
    + """<body class="body--html">
  <div class="anomaly-modal__mask">
    <form id="challenge-form" action="//duckduckgo.com/anomaly.js?sv=html&amp;cc=sim" method="POST">
      <div class="anomaly-modal__modal" data-testid="anomaly-modal">
        <div class="anomaly-modal__title">Please confirm you are a person.</div>
        <div class="anomaly-modal__description">Our systems noticed unusual activity from
          your network. Pick every tile that shows a lighthouse to continue.</div>
        <div class="anomaly-modal__puzzle">
          <label><input type="checkbox" class="anomaly-modal__check" name="tile-0" /></label>
          <label><input type="checkbox" class="anomaly-modal__check" name="tile-1" /></label>
          <label><input type="checkbox" class="anomaly-modal__check" name="tile-2" /></label>
        </div>
        <button type="submit" class="anomaly-modal__submit">Submit</button>
      </div>
    </form>
  </div>
</body>
</html>
"""
)
"""A bot check in the shape of DDG's anomaly modal (written for the simulator)."""

MALFORMED_PAGE = (
    _HEAD.format(title="DuckDuckGo")
    + """<body class="body--html">
  <div class="serp__results">
    <div id="links" class="results">
      <p class="error-message">Something went wrong while loading this page.</p>
    </div>
  </div>
</body>
</html>
"""
)
"""A 200 page that is neither results, nor "no results", nor a challenge."""

_NO_RESULTS_BLOCK = """
  <div class="result results_links results_links_deep web-result result--no-result">
    <div class="links_main links_deep result__body">
      <h2 class="result__title"></h2>
      <div class="no-results">No more results.</div>
      <div class="clear"></div>
    </div>
  </div>
"""


def _redirect(url: str) -> str:
    rut = hashlib.sha256(url.encode("utf-8")).hexdigest()
    return f"//duckduckgo.com/l/?uddg={quote(url, safe='')}&amp;rut={rut}"


def _display_url(url: str) -> str:
    return url.split("://", 1)[-1].rstrip("/")


def _result_block(result: SimResult) -> str:
    href = _redirect(result.url)
    date = (
        f"\n          <span>&nbsp; &nbsp; {html.escape(result.published)}</span>"
        if result.published
        else ""
    )
    return f"""
  <div class="result results_links results_links_deep web-result ">
    <div class="links_main links_deep result__body">
      <h2 class="result__title">
        <a rel="nofollow" class="result__a" href="{href}">{html.escape(result.title)}</a>
      </h2>
      <div class="result__extras">
        <div class="result__extras__url">
          <span class="result__icon">
            <a rel="nofollow" href="{href}"><img class="result__icon__img" width="16" \
height="16" alt="" src="//external-content.duckduckgo.com/ip3/sim.ico" /></a>
          </span>
          <a class="result__url" href="{href}">{html.escape(_display_url(result.url))}</a>\
{date}
        </div>
      </div>
      <a class="result__snippet" href="{href}">{html.escape(result.snippet)}</a>
      <div class="clear"></div>
    </div>
  </div>
"""


def _hidden(name: str, value: str) -> str:
    return f'    <input type="hidden" name="{html.escape(name)}" value="{html.escape(value)}" />\n'


def _next_form(form: dict[str, str], offset: int) -> str:
    fields = [
        ("q", form.get("q", "")),
        ("s", str(offset)),
        ("nextParams", ""),
        ("v", "l"),
        ("o", "json"),
        ("dc", str(offset + 1)),
        ("api", "d.js"),
        ("vqd", SIM_VQD),
        ("kl", form.get("kl") or "wt-wt"),
    ]
    if form.get("df"):
        fields.append(("df", form["df"]))
    inputs = "".join(_hidden(name, value) for name, value in fields)
    return (
        '\n  <div class="nav-link">\n  <form action="/html/" method="post">\n'
        '    <input type="submit" class=\'btn btn--alt\' value="Next" />\n'
        f"{inputs}  </form>\n  </div>\n"
    )


def _offset(form: dict[str, str]) -> int:
    try:
        return max(0, int(form.get("s", "0") or "0"))
    except ValueError:
        return 0


def results_page(form: dict[str, str], results: list[SimResult]) -> str:
    """The HTML results page answering ``form`` (the posted fields) from ``results``."""
    query = form.get("q", "")
    offset = _offset(form)
    page = results[offset : offset + PAGE_SIZE]
    blocks = "".join(_result_block(result) for result in page) if page else _NO_RESULTS_BLOCK
    has_more = bool(page) and offset + PAGE_SIZE < len(results)
    nav = _next_form(form, offset + PAGE_SIZE) if has_more else ""
    search_box = (
        '<form name="x" class="header__form" action="/html/" method="post">\n'
        '  <input name="q" class="search__input" type="text" '
        f'value="{html.escape(query)}" />\n'
        '  <input name="b" class="search__button" value="" type="submit" />\n'
        "</form>\n"
    )
    return (
        _HEAD.format(title=f"{html.escape(query)} at DuckDuckGo")
        + '<body class="body--html">\n'
        + search_box
        + '<div class="serp__results">\n<div id="links" class="results">\n'
        + blocks
        + nav
        + "</div>\n</div>\n</body>\n</html>\n"
    )


class DuckDuckGoProtocol:
    """Answers like ``html.duckduckgo.com/html/``, pagination included."""

    operators = Operators(site=True, filetype=True)
    """DuckDuckGo reads ``site:`` and ``filetype:`` (Bing's index) in ``q``."""

    def answer(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        """The results page for the posted form, at the posted ``s`` offset."""
        form = dict(request.form()) if request.body else request.query_dict()
        return web.Response(text=results_page(form, results), content_type="text/html")

    def date_window(self, request: RecordedRequest) -> DateWindow:
        """The span the form's ``df`` asks for (``d``/``w``/``m``/``y``)."""
        form = dict(request.form()) if request.body else request.query_dict()
        return past(form.get("df", ""))

    def challenge(self) -> web.Response:
        """DDG's anomaly-modal bot check, with HTTP 202 as DDG sends it to throttled IPs."""
        return web.Response(status=202, text=CHALLENGE_PAGE, content_type="text/html")

    def malformed(self) -> web.Response:
        """A 200 page with none of the markup the provider knows."""
        return web.Response(text=MALFORMED_PAGE, content_type="text/html")
