"""Ecosia: its results page (Google-backed), fetched plainly first, in headless Chromium if blocked.

* **Service:** Ecosia's HTML search (organic results come from Google's index), no key
  needed. Ecosia sits behind Cloudflare, whose bot challenge needs a real browser, hence
  the escalation to headless Chromium (:mod:`websearch_core.browser`).
* **Endpoint:** ``GET https://www.ecosia.org/search?q=<query>`` with a desktop Chrome
  navigation profile and ``Referer: https://www.ecosia.org/``. No count parameter exists.
* **No time filter:** Ecosia's results page offers no time range (the 2026 capture's filter
  bar holds only "Search region"; the reference sends none), and no parameter for one
  could be verified (one third-party port sends ``freshness=``, against markup the
  capture no longer has), so none is sent: ``recency`` is not in ``honours`` and not
  native in ``filters``, which makes the planner check it on the results' dates and
  report it (``Filters not applied: recency=week (some results unchecked)`` when a
  result has no date) rather than drop it silently.
* **Browser fallback:** a transport failure, a non-2xx status or a block page (below) loads
  the same URL in headless Chromium: ``https://www.ecosia.org/`` first to seed cookies, then
  the results page, waiting up to 10 s for ``article[data-test-id="organic-result"]``.
* **Auth and env vars:** none. ``WEBSEARCH_ECOSIA_BASE_URL`` redirects both the plain fetch
  and the browser; ``WEBSEARCH_CHROMIUM_PATH`` and ``WEBSEARCH_BROWSER`` configure the
  browser.
* **Limits and pages:** ``N = num_search_results or limit``, default 10, at most 20. Ecosia
  serves about ten results per page, so while fewer than ``N`` distinct results were
  found, the page's "Next" link (``a[data-test-id="next-button"]``,
  ``/search?q=<query>&p=<n>`` with a 0-based ``p``) is fetched the same way (only links to
  ``/search`` on ``www.ecosia.org`` are followed). Paging stops at ``N``, on a page that
  adds nothing new, on the last page, when the time is up, or on a later page's block or
  failure (the results so far are kept); a page rendered by the browser is read alone.
* **Blocked** (checked before the status): a 403 or 429 status, or, on a page without organic
  results, ``Ecosia Firewall``, ``_cf_chl_opt``, ``/cdn-cgi/challenge-platform/`` or "confirm
  you're not a robot": ``Ecosia blocked the request with a Cloudflare bot challenge. Ecosia's
  firewall throttles automated searches from datacenter/shared-egress IPs; try another web
  search provider such as DuckDuckGo, Brave, or Tavily.`` (429). Other non-2xx: the shared
  classifier, else ``Ecosia HTML error (<status>)``. Fetch and browser failures:
  ``Ecosia search failed: <detail>`` (503) or ``Ecosia search timed out.`` (504).
* **Parsing:** each ``article[data-test-id="organic-result"]``; the title is
  ``[data-test-id="result-title"]`` and the link its closest ``<a>``; the snippet is
  ``[data-test-id="web-result-description"]``, else ``[data-test-id="result-description"]``.
  Links must be ``http(s)`` and not on ``ecosia.org``; ads (``data-test-id="ad-google"``) are
  separate blocks and never match. URLs are de-duplicated. A results page
  (``data-test-id="mainline"``) with no result is a genuine empty answer; any other page is a
  :class:`~websearch_core.errors.ResponseParseError`.

Differences from the reference (§8.20) and deliberate choices:

* The capture (2026) starts some descriptions with Google's date (``13 Mar 2026 ...``); that
  date becomes ``published_date`` (with its age). The snippet keeps it, as in the reference.
* The reference looks for the challenge markers anywhere in the page; a results page whose
  query or results mention them would read as blocked, so here the text markers only count
  on a page with no organic result (the 403/429 rule is unchanged).
* ``include_domains``/``exclude_domains`` are sent as ``site:``/``-site:`` operators (Google
  syntax, which Ecosia's index understands); otherwise the query is sent unchanged.
* The plain fetch uses the fixed desktop-Chrome profile of :mod:`websearch_core.html`
  rather than a randomised one.

Docs: https://support.ecosia.org/
"""

import itertools
import re
from collections.abc import Iterable
from urllib.parse import urlencode

import lxml.etree

from ..browser import HeadlessOptions
from ..errors import ChallengeError, ResponseParseError
from ..filters import SCRAPER_OPERATORS, FilterSupport
from ..html import (
    Element,
    body_page,
    css,
    navigation_headers,
    parse_page_text,
    resolve_link,
    select,
    select_first,
    text_of,
)
from ..js_trim import trim
from ..models import SearchParams, SearchSource
from ..transport import HttpRequest, HttpResponse
from ._engine_failures import engine_failure_texts
from ._escalation import Escalation
from ._html_engine import HtmlEngine, HtmlEngineProvider
from ._page_markers import Markers, found
from ._scraper import PageResults, check_html_status, collect_unique, scraped_source
from .base import ProviderInfo
from .google import query_text

__all__ = [
    "BLOCKED_MESSAGE",
    "ECOSIA_HOME_URL",
    "ECOSIA_SEARCH_URL",
    "INFO",
    "UNRECOGNISED_MESSAGE",
    "EcosiaProvider",
    "build_request",
    "check_page",
    "is_blocked",
    "next_page_request",
    "parse_page",
    "read_page",
]

ECOSIA_SEARCH_URL = "https://www.ecosia.org/search"
ECOSIA_HOME_URL = "https://www.ecosia.org/"
DEFAULT_RESULTS = 10
MAX_RESULTS = 20
RESULT_SELECTOR = 'article[data-test-id="organic-result"]'

BLOCKED_MESSAGE = (
    "Ecosia blocked the request with a Cloudflare bot challenge. Ecosia's firewall throttles "
    "automated searches from datacenter/shared-egress IPs; try another web search provider "
    "such as DuckDuckGo, Brave, or Tavily."
)
UNRECOGNISED_MESSAGE = "Ecosia returned an unrecognised page"
FAILURE = engine_failure_texts("Ecosia")

INFO = ProviderInfo(
    id="ecosia",
    label="Ecosia",
    kind="scraper",
    description=(
        "No key needed: Ecosia's Google-backed results page, escalating to headless Chromium "
        "past Cloudflare; has no time filter (recency is checked on result dates)"
    ),
    docs_url="https://support.ecosia.org/",
    honours=frozenset(
        {"query", "limit", "num_search_results", "include_domains", "exclude_domains"}
    ),
    default_results=DEFAULT_RESULTS,
    max_results=MAX_RESULTS,
    index="google",
    filters=FilterSupport(
        query=SCRAPER_OPERATORS,
        demoted=frozenset({"in_url"}),
        # Bing's index and operators: -inurl: is not promised.
        unpromised=frozenset({"exclude_in_url"}),
    ),
)

_BLOCK_MARKERS = Markers(
    exact=("Ecosia Firewall", "_cf_chl_opt", "/cdn-cgi/challenge-platform/"),
    patterns=(re.compile(r"confirm you.{0,3}re not a robot", re.IGNORECASE),),
    span=28,
)
"""The firewall's and Cloudflare's walls (the longest robot sentence is 28 characters)."""
_RESULT_MARKER = Markers(exact=('data-test-id="organic-result"',))
_SERP_MARKER = Markers(exact=('data-test-id="mainline"',))
_ECOSIA_HOSTS = frozenset({"ecosia.org", "www.ecosia.org"})
_LEADING_DATE = re.compile(r"^(\d{1,2} [A-Z][a-z]{2,8}\.? \d{4})\s*(?:\.\.\.|…)")
_RESULTS = css(RESULT_SELECTOR)
_NEXT_BUTTON = css('a[data-test-id="next-button"]')


def build_request(params: SearchParams) -> HttpRequest:
    """The plain GET; the query string is in the URL so the browser loads the same URL."""
    url = f"{ECOSIA_SEARCH_URL}?{urlencode([('q', query_text(params))])}"
    return HttpRequest(method="GET", url=url, headers=navigation_headers(referer=ECOSIA_HOME_URL))


def is_blocked(page: str | bytes, status: int) -> bool:
    """Whether the page is Ecosia's firewall or a Cloudflare challenge (the reference's rule).

    Args:
        page: The page's text, or the response body it came as (read without decoding
            it whole: see :func:`~websearch_core.providers._page_markers.found`).
        status: The response's status.

    Example:
        >>> is_blocked("<script>window._cf_chl_opt={}</script>", 200)
        True
    """
    if status in (403, 429):
        return True
    if found(page, _RESULT_MARKER):
        return False
    return found(page, _BLOCK_MARKERS)


def check_page(response: HttpResponse) -> None:
    """Raise for a block page, then for any other non-2xx status."""
    if is_blocked(response.body, response.status):
        raise ChallengeError(INFO.id, BLOCKED_MESSAGE)
    check_html_status(INFO, response)


def _url(title: Element) -> str | None:
    anchor = title if title.tag == "a" else next(title.iterancestors("a"), None)
    if anchor is None:
        return None
    found = resolve_link(anchor.get("href") or "", ECOSIA_HOME_URL)
    if found is None:
        return None
    url, parts = found
    if (parts.hostname or "").lower() in _ECOSIA_HOSTS:
        return None
    return url


_TITLE_ID = "result-title"
_SNIPPET_IDS = ("web-result-description", "result-description")
"""The snippet's ``data-test-id`` values, in order of preference."""


def _parts(article: Element) -> tuple[Element | None, list[Element], list[Element]]:
    """The first title element and the two snippet groups, in one walk over the article.

    The article has ~60 elements; one walk reading ``data-test-id`` costs less than the
    three compiled attribute selectors it replaces, and keeps their document order.
    """
    title = None
    preferred: list[Element] = []
    fallback: list[Element] = []
    for element in article.iter(lxml.etree.Element):
        test_id = element.get("data-test-id")
        if test_id is None:
            continue
        if test_id == _TITLE_ID and title is None:
            title = element
        elif test_id == _SNIPPET_IDS[0]:
            preferred.append(element)
        elif test_id == _SNIPPET_IDS[1]:
            fallback.append(element)
    return title, preferred, fallback


def _snippet(candidates: Iterable[Element]) -> str:
    for element in candidates:
        text = text_of(element)
        if text:
            return text
    return ""


def _source(article: Element) -> SearchSource | None:
    title, preferred, fallback = _parts(article)
    if title is None:
        return None
    url = _url(title)
    if url is None:
        return None
    snippet = _snippet(itertools.chain(preferred, fallback))
    match = _LEADING_DATE.match(snippet)
    published = None
    if match is not None:  # the date is the result's age; the snippet need not say it twice
        published, snippet = match.group(1), trim(snippet[match.end() :])
    return scraped_source(title=text_of(title), url=url, snippet=snippet, date=published)


def _results(root: Element, page: str | bytes, limit: int) -> list[SearchSource]:
    """The organic results of a parsed page; a page that is no results page raises."""
    sources = collect_unique(select(_RESULTS, root), _source, limit)
    if not sources and not found(page, _SERP_MARKER):
        raise ResponseParseError(INFO.id, UNRECOGNISED_MESSAGE, 502)
    return sources


def parse_page(
    page: str | bytes, limit: int = MAX_RESULTS, *, source: bytes | None = None
) -> list[SearchSource]:
    """The organic results of an Ecosia results page, de-duplicated, at most ``limit``.

    Args:
        page: The decoded body, or the body :func:`~websearch_core.html.utf8_source` handed
            on (read from its bytes, its text never built whole).
        limit: How many to keep.
        source: The body ``page`` came from, as :func:`~websearch_core.html.decoded_page` gives it.

    Raises:
        ResponseParseError: No result and nothing that looks like a results page.
    """
    return _results(parse_page_text(page, source=source), page, limit)


def next_page_request(root: Element) -> HttpRequest | None:
    """The GET of the page's "Next" link, or ``None`` on the last page.

    Only a link to ``/search`` on Ecosia's own host is followed.

    Example:
        >>> page = '<a data-test-id="next-button" href="/search?q=rust&amp;p=1">Next</a>'
        >>> next_page_request(parse_page_text(page)).url
        'https://www.ecosia.org/search?q=rust&p=1'
    """
    link = select_first(_NEXT_BUTTON, root)
    if link is None:
        return None
    found = resolve_link(link.get("href") or "", ECOSIA_HOME_URL)
    if found is None:
        return None
    url, parts = found
    if (parts.hostname or "").lower() not in _ECOSIA_HOSTS or parts.path != "/search":
        return None
    return HttpRequest(method="GET", url=url, headers=navigation_headers(referer=ECOSIA_HOME_URL))


def read_page(response: HttpResponse) -> PageResults:
    """A checked page's results and, when it had some, the request for the next page."""
    page = body_page(response.body)
    root = parse_page_text(page)
    sources = _results(root, page, MAX_RESULTS)
    return PageResults(sources, next_page_request(root) if sources else None)


def _is_block_page(response: HttpResponse) -> bool:
    return is_blocked(response.body, response.status)


class EcosiaProvider(HtmlEngineProvider):
    """Ecosia's results page: always available, escalates to headless Chromium."""

    info = INFO
    engine = HtmlEngine(
        request=build_request,
        check=check_page,
        read=read_page,
        escalation=Escalation(
            is_block_page=_is_block_page,
            headless=HeadlessOptions(
                home_url=ECOSIA_HOME_URL, ready_selector=RESULT_SELECTOR, ready_timeout_seconds=10.0
            ),
            failure=FAILURE,
        ),
    )
