"""Startpage: Google's index through Startpage's HTML search, with its homepage form token.

* **Flow:** ``GET https://www.startpage.com/`` (navigation headers, no referer), then read
  the first ``form`` whose action is ``/sp/search`` and that carries a hidden ``sc`` token,
  and ``POST https://www.startpage.com/sp/search`` with its hidden inputs (every
  ``input[type=hidden]`` with a name, the value defaulting to empty, in document order),
  then ``query=<query>`` and, when ``recency`` is set, ``with_date=d|w|m|y``; hidden
  ``query``/``with_date`` inputs are replaced by ours. The POST carries
  ``Content-Type: application/x-www-form-urlencoded``, ``Origin`` and
  ``Referer: https://www.startpage.com/`` (so ``Sec-Fetch-Site: same-origin``).
* **Fallback:** when the homepage step fails in any way (transport error or timeout,
  non-2xx, a CAPTCHA, no ``sc`` token) the search is the tokenless
  ``GET https://www.startpage.com/sp/search?query=<query>[&with_date=…]`` with the same
  referer. A failure of the search request itself is not retried.
* **Time:** one budget (the per-provider timeout) covers both requests; the homepage may
  use at most half of it, so a hanging homepage still leaves time for the fallback. A
  timeout of the search request reports the whole budget.
* **Count and pages:** no count is sent; Startpage serves about ten results per page, so
  while fewer than ``N = num_search_results or limit`` (default 10, at most 20) distinct
  results were found, the pager's form for the next page is posted (its hidden inputs as
  they are: ``sc``, ``segment``, ``page=<n+1>``, the query and its ``with_date``), with
  ``Referer: https://www.startpage.com/sp/search``. Paging stops at ``N``, on a page that
  adds nothing new, on the last page, when the time is up, or on a later page's CAPTCHA
  or failure (the results so far are kept). The list is cut to ``N``.
* **Results and errors:** :mod:`._startpage_parse` (result blocks, the CAPTCHA before the
  status, the "no results" page); other non-2xx statuses go through the shared classifier,
  else ``Startpage HTML error (<status>)``.

Docs: https://support.startpage.com/
"""

import logging
from collections.abc import Mapping, Sequence
from types import MappingProxyType

from ..filters import SCRAPER_OPERATORS, FilterSupport
from ..html import Element, navigation_headers, parse_body
from ..models import SearchParams, SearchSource
from ..transport import HttpRequest, HttpResponse
from ._html_engine import HtmlEngine, HtmlEngineProvider
from ._scraper import ResultPage
from ._startpage_parse import (
    STARTPAGE_HOME_URL,
    hidden_search_fields,
    is_challenge_page,
    is_challenge_url,
    is_no_results_page,
    next_page_fields,
    parse_block,
    result_url,
    search_form_fields,
)
from .base import ProviderInfo

__all__ = [
    "CHALLENGE_MESSAGE",
    "INFO",
    "PAGE",
    "STARTPAGE_HOME_URL",
    "STARTPAGE_SEARCH_URL",
    "UNRECOGNISED_MESSAGE",
    "StartpageProvider",
    "build_fallback_request",
    "build_form",
    "build_home_request",
    "build_next_page_request",
    "build_post_request",
    "hidden_search_fields",
    "is_challenge_page",
    "is_challenge_url",
    "parse_page",
    "result_url",
    "search_request",
]

logger = logging.getLogger("websearch_core.providers.startpage")

STARTPAGE_ORIGIN = "https://www.startpage.com"
STARTPAGE_SEARCH_URL = "https://www.startpage.com/sp/search"
DEFAULT_RESULTS = 10
MAX_RESULTS = 20
HOME_BUDGET_SHARE = 0.5
"""The largest part of the time budget the homepage step may use."""

CHALLENGE_MESSAGE = (
    "Startpage blocked the request with a CAPTCHA challenge. Startpage rate-limits automated "
    "searches from datacenter/shared-egress IPs; try another provider such as DuckDuckGo or "
    "Mojeek, or retry later."
)
"""The spec's text for Startpage's CAPTCHA."""

UNRECOGNISED_MESSAGE = "Startpage returned an unrecognised page"

INFO = ProviderInfo(
    id="startpage",
    label="Startpage",
    kind="scraper",
    description=(
        "No key needed: Startpage's HTML search (Google-backed), posted with its homepage "
        "form token; may answer shared or datacenter IPs with a CAPTCHA"
    ),
    docs_url="https://support.startpage.com/",
    honours=frozenset({"query", "recency", "limit", "num_search_results"}),
    default_results=DEFAULT_RESULTS,
    max_results=MAX_RESULTS,
    index="google",
    filters=FilterSupport(
        native=frozenset({"recency"}), query=SCRAPER_OPERATORS, demoted=frozenset({"in_url"})
    ),
)

_RECENCY: Mapping[str, str] = MappingProxyType({"day": "d", "week": "w", "month": "m", "year": "y"})
_OWN_FIELDS = frozenset({"query", "with_date"})


def build_home_request() -> HttpRequest:
    """The homepage GET that hands out the ``sc`` token (pure)."""
    return HttpRequest(method="GET", url=STARTPAGE_HOME_URL, headers=navigation_headers())


def build_form(params: SearchParams, hidden: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """The POST body: the hidden inputs, then ``query`` and, with a recency, ``with_date``.

    Example:
        >>> build_form(SearchParams(query="rust", recency="year"), [("sc", "T0"), ("query", "")])
        [('sc', 'T0'), ('query', 'rust'), ('with_date', 'y')]
    """
    fields = [(name, value) for name, value in hidden if name not in _OWN_FIELDS]
    fields.append(("query", params.query))
    if params.recency is not None:
        fields.append(("with_date", _RECENCY[params.recency]))
    return fields


def build_post_request(
    form: Sequence[tuple[str, str]], *, referer: str = STARTPAGE_HOME_URL
) -> HttpRequest:
    """The form POST to ``/sp/search``, same-origin from the homepage (pure)."""
    headers = navigation_headers(
        referer=referer,
        extra={
            "Content-Type": "application/x-www-form-urlencoded",
            "Origin": STARTPAGE_ORIGIN,
        },
    )
    return HttpRequest(method="POST", url=STARTPAGE_SEARCH_URL, headers=headers, form=tuple(form))


def build_fallback_request(params: SearchParams) -> HttpRequest:
    """The tokenless ``GET /sp/search?query=…[&with_date=…]`` (pure)."""
    query = [("query", params.query)]
    if params.recency is not None:
        query.append(("with_date", _RECENCY[params.recency]))
    return HttpRequest(
        method="GET",
        url=STARTPAGE_SEARCH_URL,
        params=tuple(query),
        headers=navigation_headers(referer=STARTPAGE_HOME_URL),
    )


def build_next_page_request(document: Element) -> HttpRequest | None:
    """The pager's POST for the page after this results page, or ``None`` on the last."""
    fields = next_page_fields(document)
    if fields is None:
        return None
    return build_post_request(fields, referer=STARTPAGE_SEARCH_URL)


PAGE = ResultPage(
    info=INFO,
    block_selector="div.result",
    parse_block=parse_block,
    is_challenge_url=is_challenge_url,
    is_challenge_page=is_challenge_page,
    is_no_results_page=is_no_results_page,
    challenge_message=CHALLENGE_MESSAGE,
    unrecognised_message=UNRECOGNISED_MESSAGE,
    next_page=build_next_page_request,
)
"""Startpage's results page for the shared scraper flow; a CAPTCHA counts before the status."""


def parse_page(
    page: str, final_url: str = "", *, source: bytes | None = None
) -> list[SearchSource]:
    """Parse one Startpage results page (pure), by the shared flow of :meth:`ResultPage.parse`.

    Ads and Startpage links are dropped; a "no results" page gives ``[]``, the CAPTCHA a
    ``ChallengeError``, anything else without results a ``ResponseParseError``.
    """
    return PAGE.parse(page, final_url, source=source)


def search_request(params: SearchParams, home: HttpResponse) -> HttpRequest:
    """The search after the homepage step: the form POST with its token, else the GET.

    A homepage that is not a 2xx page, is the CAPTCHA, or carries no ``sc`` token leads to
    the tokenless GET (no I/O; the reason is logged).
    """
    if not 200 <= home.status < 300 or is_challenge_url(home.url):
        logger.info("startpage homepage unusable (%d %s)", home.status, home.url)
        return build_fallback_request(params)
    hidden = search_form_fields(parse_body(home.body))
    if hidden is None:
        logger.info("startpage homepage carried no sc token")
        return build_fallback_request(params)
    return build_post_request(build_form(params, hidden))


class StartpageProvider(HtmlEngineProvider):
    """Startpage: homepage token, then the form POST (or the tokenless GET)."""

    info = INFO
    engine = HtmlEngine(
        setup=lambda params: build_home_request(),
        setup_share=HOME_BUDGET_SHARE,
        after_setup=search_request,
        request=build_fallback_request,
        check=PAGE.check,
        read=PAGE.read,
    )
