"""Yahoo: the public HTML results page (search.yahoo.com, Bing-backed), no key needed.

* **Endpoint:** ``GET https://search.yahoo.com/search?p=<query>&n=<N>`` plus ``btf=d|w|m``
  for ``recency`` day/week/month. Yahoo has no one-year filter, so ``year`` is dropped
  silently. The query is sent unchanged.
* **Headers:** the desktop-Chrome navigation profile (:mod:`websearch_core.html`) with
  ``Referer: https://search.yahoo.com/`` and ``Sec-Fetch-Site: same-origin``. No key.
* **Count:** ``N = num_search_results or limit``, default 10, at most 20; sent as ``n`` and
  applied again to the parsed list.
* **Results and errors:** :mod:`._yahoo_parse` (result blocks outside the ad lists, redirect
  unwrapping, the consent interstitial, the zero-results page); non-2xx statuses are
  checked first.

Docs: https://help.yahoo.com/kb/search-for-desktop

What is known of ``n`` (looked up 2026-12; no Yahoo page documents the parameters):

* Older public code sends it as results per page (``search.yahoo.com/search?n=100&p=…``,
  ``n=20``, ``n=40`` on regional hosts); none of it shows what today's page does with it.
* The capture ``yahoo/serp_javascript_tutorial_2026.html`` (fetched as ``?p=<query>``
  alone) served 7 results and links its next pages as ``b=8&pz=7``, ``b=15&pz=7``, …: the
  page's own pager sizes pages with ``pz`` and offsets them with ``b``.
* SearXNG's Yahoo engine (``searx/engines/yahoo.py``) pages the same way (``b``,
  ``pz=7``) and sends no ``n``; it sets ``pn=10`` in its ``sB`` preferences cookie.

So ``n`` is unverified; the count is applied again to the parsed list.
"""

from collections.abc import Mapping
from types import MappingProxyType

from ..filters import QUERY_OPERATORS, FilterSupport
from ..html import navigation_headers
from ..models import SearchParams, SearchSource
from ..transport import HttpRequest
from ._html_engine import HtmlEngine, HtmlEngineProvider
from ._scraper import ResultPage
from ._yahoo_parse import (
    YAHOO_BASE_URL,
    is_consent_page,
    is_consent_url,
    is_zero_results_page,
    parse_block,
    unwrap_url,
)
from .base import ProviderInfo, clamp_count

__all__ = [
    "CONSENT_MESSAGE",
    "INFO",
    "PAGE",
    "UNRECOGNISED_MESSAGE",
    "YAHOO_BASE_URL",
    "YAHOO_SEARCH_URL",
    "YahooProvider",
    "build_params",
    "build_request",
    "is_consent_page",
    "is_consent_url",
    "parse_page",
    "unwrap_url",
]

YAHOO_SEARCH_URL = "https://search.yahoo.com/search"
DEFAULT_RESULTS = 10
MAX_RESULTS = 20

CONSENT_MESSAGE = (
    "Yahoo served its GDPR consent interstitial instead of search results. This typically "
    "affects EU egress IPs; use another web search provider such as DuckDuckGo, Brave, or "
    "Mojeek."
)
"""The spec's text for the consent wall."""

UNRECOGNISED_MESSAGE = "Yahoo returned an unrecognised page"

INFO = ProviderInfo(
    id="yahoo",
    label="Yahoo",
    kind="scraper",
    description=(
        "No key needed: Yahoo's public HTML results page (Bing-backed); EU egress IPs may "
        "get a consent wall instead of results"
    ),
    docs_url="https://help.yahoo.com/kb/search-for-desktop",
    honours=frozenset({"query", "recency", "limit", "num_search_results"}),
    default_results=DEFAULT_RESULTS,
    max_results=MAX_RESULTS,
    index="bing",
    filters=FilterSupport(
        native=frozenset({"recency"}),
        query=QUERY_OPERATORS,
        recency=frozenset({"day", "week", "month"}),
        # Bing's index and operators, so inurl: is not promised either.
        unpromised=frozenset({"in_url", "exclude_in_url"}),
    ),
)

_RECENCY: Mapping[str, str] = MappingProxyType({"day": "d", "week": "w", "month": "m"})


def build_params(params: SearchParams) -> list[tuple[str, str]]:
    """The query string: ``p``, ``n`` and, for day/week/month recency, ``btf``.

    Example:
        >>> build_params(SearchParams(query="rust async", recency="week"))
        [('p', 'rust async'), ('n', '10'), ('btf', 'w')]
        >>> build_params(SearchParams(query="x", recency="year", limit=50))
        [('p', 'x'), ('n', '20')]
    """
    count = clamp_count(params.result_count, DEFAULT_RESULTS, MAX_RESULTS)
    query = [("p", params.query), ("n", str(count))]
    btf = _RECENCY.get(params.recency or "")
    if btf is not None:
        query.append(("btf", btf))
    return query


def build_request(params: SearchParams) -> HttpRequest:
    """The GET of the results page with browser navigation headers (pure)."""
    return HttpRequest(
        method="GET",
        url=YAHOO_SEARCH_URL,
        params=tuple(build_params(params)),
        headers=navigation_headers(referer=YAHOO_BASE_URL),
    )


PAGE = ResultPage(
    info=INFO,
    block_selector="div.algo",
    parse_block=parse_block,
    is_challenge_url=is_consent_url,
    is_challenge_page=is_consent_page,
    is_no_results_page=is_zero_results_page,
    challenge_message=CONSENT_MESSAGE,
    unrecognised_message=UNRECOGNISED_MESSAGE,
    challenge_before_status=False,
)
"""Yahoo's results page for the shared scraper flow; the status is checked before consent."""


def parse_page(
    page: str, final_url: str = "", *, source: bytes | None = None
) -> list[SearchSource]:
    """Parse one Yahoo results page (pure), by the shared flow of :meth:`ResultPage.parse`.

    Ads and unusable links are dropped; Yahoo's genuine zero-results page gives ``[]``, the
    consent interstitial a ``ChallengeError``, anything else without results a
    ``ResponseParseError``.
    """
    return PAGE.parse(page, final_url, source=source)


class YahooProvider(HtmlEngineProvider):
    """Yahoo's HTML results page: always available, one GET per search."""

    info = INFO
    engine = HtmlEngine(request=build_request, check=PAGE.check, read=PAGE.read)
