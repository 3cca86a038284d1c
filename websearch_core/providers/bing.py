"""Bing: the public HTML results page (www.bing.com/search), no key needed.

* **Endpoint:** ``GET https://www.bing.com/search?q=<query>&count=<N>&mkt=en-US&setlang=en``
  plus ``filters=…`` when ``recency`` is set. The query is sent unchanged.
* **Headers:** the desktop-Chrome navigation profile (:mod:`websearch_core.html`) with
  ``Referer: https://www.bing.com/`` and ``Sec-Fetch-Site: same-origin``. No key, no cookies.
* **Recency:** ``day``/``week``/``month`` become ``filters=ex1:"ez1"``/``"ez2"``/``"ez3"``;
  ``year`` becomes the custom range ``ex1:"ez5_<d-365>_<d>"`` where ``d`` is today's UTC
  day number since 1970-01-01.
* **Count:** ``N = num_search_results or limit``, default 10, at most 20; sent as ``count``
  and applied again to the parsed list.
* **Results and errors:** :mod:`._bing_parse` (result blocks, click-tracker unwrapping,
  challenge and "no results" markers); a challenge counts before the status, other non-2xx
  statuses go through the shared classifier, else ``Bing HTML error (<status>)``.

Docs (the HTML endpoint shares ``count``/``mkt``/``setlang`` with Bing's retired Web Search
API): https://learn.microsoft.com/bing/search-apis/bing-web-search/reference/query-parameters

What is known of ``count`` on the HTML page (looked up 2026-12; no Microsoft page documents
the HTML endpoint's parameters):

* Many public scrapers send it to ``www.bing.com/search`` (``count=8``, ``10``, ``20``,
  ``25``, ``50``); none of those found checks that the page honours it.
* SearXNG's Bing engine (``searx/engines/bing.py``) sends no ``count``: it pages with
  ``first=(page - 1) * 10 + 1`` and ``FORM=PERE…``, taking ten results a page.
* The capture ``bing/serp_javascript_tutorial_http_2026.html`` (fetched without ``count``)
  links its next pages as ``first=11`` and ``first=21``: ten a page.

So ``count`` is unverified on the HTML page; the count is applied again to the parsed list.
"""

from collections.abc import Mapping
from datetime import UTC, datetime
from types import MappingProxyType

from ..filters import QUERY_OPERATORS, FilterSupport
from ..html import navigation_headers
from ..models import SearchParams, SearchSource
from ..transport import HttpRequest
from ._bing_parse import (
    BING_BASE_URL,
    is_challenge_page,
    is_challenge_url,
    is_no_results_page,
    parse_block,
    unwrap_url,
)
from ._html_engine import HtmlEngine, HtmlEngineProvider
from ._scraper import ResultPage
from .base import ProviderInfo, clamp_count

__all__ = [
    "BING_BASE_URL",
    "BING_SEARCH_URL",
    "CHALLENGE_MESSAGE",
    "INFO",
    "PAGE",
    "UNRECOGNISED_MESSAGE",
    "BingProvider",
    "build_params",
    "build_request",
    "is_challenge_page",
    "is_challenge_url",
    "parse_page",
    "recency_filter",
    "unwrap_url",
]

BING_SEARCH_URL = "https://www.bing.com/search"
DEFAULT_RESULTS = 10
MAX_RESULTS = 20
MARKET = "en-US"
UI_LANGUAGE = "en"

CHALLENGE_MESSAGE = (
    "Bing blocked the request with a CAPTCHA challenge. Bing throttles automated searches "
    "from datacenter/shared-egress IPs; try the duckduckgo or mojeek provider, or configure a "
    "credentialed provider such as Brave, Tavily, Exa, or Kagi."
)
"""The spec's text for any Bing bot check (CAPTCHA page or Turnstile "One last step")."""

UNRECOGNISED_MESSAGE = "Bing returned an unrecognised page"

INFO = ProviderInfo(
    id="bing",
    label="Bing",
    kind="scraper",
    description=(
        "No key needed: Bing's public HTML results page; may answer shared or datacenter "
        "IPs with a CAPTCHA or Turnstile challenge"
    ),
    docs_url="https://learn.microsoft.com/bing/search-apis/bing-web-search/reference/query-parameters",
    honours=frozenset({"query", "recency", "limit", "num_search_results"}),
    default_results=DEFAULT_RESULTS,
    max_results=MAX_RESULTS,
    index="bing",
    filters=FilterSupport(
        native=frozenset({"recency"}),
        query=QUERY_OPERATORS,
        # Bing's operator list has intitle: and inbody:, not inurl:.
        unpromised=frozenset({"in_url", "exclude_in_url"}),
    ),
)

_RECENCY_CODES: Mapping[str, str] = MappingProxyType({"day": "ez1", "week": "ez2", "month": "ez3"})
_SECONDS_PER_DAY = 86_400


def recency_filter(recency: str | None, *, now: datetime | None = None) -> str | None:
    """Bing's ``filters`` value for a recency, or ``None`` when there is none.

    Args:
        recency: ``day``, ``week``, ``month`` or ``year`` (anything else: no filter).
        now: The current instant (default: now, UTC); only ``year`` reads it.

    Example:
        >>> recency_filter("week")
        'ex1:"ez2"'
        >>> recency_filter("year", now=datetime(2026, 1, 1, tzinfo=UTC))
        'ex1:"ez5_20089_20454"'
    """
    code = _RECENCY_CODES.get(recency or "")
    if code is not None:
        return f'ex1:"{code}"'
    if recency == "year":
        instant = now or datetime.now(UTC)
        day = int(instant.timestamp()) // _SECONDS_PER_DAY
        return f'ex1:"ez5_{day - 365}_{day}"'
    return None


def build_params(params: SearchParams, *, now: datetime | None = None) -> list[tuple[str, str]]:
    """The query string, in Bing's order: ``q``, ``count``, ``mkt``, ``setlang``, ``filters``.

    Example:
        >>> build_params(SearchParams(query="rust async", limit=30))
        [('q', 'rust async'), ('count', '20'), ('mkt', 'en-US'), ('setlang', 'en')]
    """
    count = clamp_count(params.result_count, DEFAULT_RESULTS, MAX_RESULTS)
    query = [
        ("q", params.query),
        ("count", str(count)),
        ("mkt", MARKET),
        ("setlang", UI_LANGUAGE),
    ]
    filters = recency_filter(params.recency, now=now)
    if filters is not None:
        query.append(("filters", filters))
    return query


def build_request(params: SearchParams, *, now: datetime | None = None) -> HttpRequest:
    """The GET of the results page with browser navigation headers (pure)."""
    return HttpRequest(
        method="GET",
        url=BING_SEARCH_URL,
        params=tuple(build_params(params, now=now)),
        headers=navigation_headers(referer=BING_BASE_URL),
    )


PAGE = ResultPage(
    info=INFO,
    block_selector="li.b_algo",
    parse_block=parse_block,
    is_challenge_url=is_challenge_url,
    is_challenge_page=is_challenge_page,
    is_no_results_page=is_no_results_page,
    challenge_message=CHALLENGE_MESSAGE,
    unrecognised_message=UNRECOGNISED_MESSAGE,
)
"""Bing's results page for the shared scraper flow; a challenge counts before the status."""


def parse_page(
    page: str, final_url: str = "", *, source: bytes | None = None
) -> list[SearchSource]:
    """Parse one Bing results page (pure), by the shared flow of :meth:`ResultPage.parse`.

    Ads and unusable links are dropped; Bing's genuine "no results" page gives ``[]``, a
    CAPTCHA or Turnstile page a ``ChallengeError``, anything else without results a
    ``ResponseParseError``.
    """
    return PAGE.parse(page, final_url, source=source)


class BingProvider(HtmlEngineProvider):
    """Bing's HTML results page: always available, one GET per search."""

    info = INFO
    engine = HtmlEngine(request=build_request, check=PAGE.check, read=PAGE.read)
