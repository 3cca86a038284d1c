"""Google: the web results page, fetched plainly first and in headless Chromium when blocked.

* **Service:** Google Search's HTML results page (the "Web" tab, ``udm=14``), no key needed.
  Google answers most scripted requests with a JavaScript-required shell or an
  "unusual traffic" reCAPTCHA wall, so this engine escalates to a real browser
  (:mod:`websearch_core.browser`) and still often ends in a challenge error.
* **Endpoint:** ``GET https://www.google.com/search?q=<query>&hl=<hl>&gl=<gl>&udm=14
  &pws=0[&tbs=qdr:d|w|m|y | tbs=cdr:1,cd_min:M/D/YYYY,cd_max:M/D/YYYY]`` with a desktop
  Chrome navigation profile and ``Referer: https://www.google.com/``.
* **Browser fallback:** a transport failure, a non-2xx status or a block page (below) loads
  the same URL in headless Chromium: the home page ``https://www.google.com/`` first to seed
  cookies, then the results page, waiting up to 10 s for ``a h3`` (not after an error
  status: Google's block pages never turn into results by themselves).
* **Auth and env vars:** none. ``WEBSEARCH_GOOGLE_BASE_URL`` redirects both the plain fetch
  and the browser; ``WEBSEARCH_CHROMIUM_PATH`` and ``WEBSEARCH_BROWSER`` configure the
  browser.
* **Limits:** one results page: ``num_search_results or limit``, default 10, at most 10
  (cut here). Google has ignored ``num`` since September 2025 ("not something that we
  formally support", Google to Search Engine Land; SearXNG and ddgs no longer send it), so
  a page holds about ten results whatever is asked, and it is not sent.
* **Block pages** (checked before anything else, never parsed as "no results"):
  ``traffic`` is a 403/429 status, a final URL under ``/sorry/``, or (on a page with no
  ``<h3>``) ``unusual traffic``/``g-recaptcha`` markup: ``Google blocked the browser search
  with an automated-traffic challenge. Try another web search provider or retry later.``
  (429). ``javascript`` is a page linking ``/httpservice/retry/enablejs`` with no ``<h3>``:
  ``Google returned its JavaScript challenge instead of rendered search results.`` (429).
  The order is traffic, then other non-2xx (the shared classifier, else
  ``Google HTML error (<status>)``), then javascript. Fetch and browser failures are
  ``Google browser search failed: <detail>`` (503) or ``Google browser search timed out.``
  (504).
* **Parsing:** :mod:`._google_parse` (result headings, redirect unwrapping, snippets,
  dates, block pages).

Differences from the reference (§8.21) and deliberate choices:

* The reference sends ``num=<N>`` (at most 20); Google no longer reads it (above), so it
  is left out and the limit is one page.
* The reference fixes ``hl=en&gl=us``; here ``language`` and ``country`` set them (that
  default otherwise), ``include_domains``/``exclude_domains`` become ``site:`` operators and
  ``date_after``/``date_before`` a custom date range (``tbs=cdr:1,...``, in place of ``qdr``).
* The plain fetch uses the fixed desktop-Chrome profile of :mod:`websearch_core.html`
  rather than a randomised one.

Docs: https://developers.google.com/search/docs/monitor-debug/search-operators/all-search-site
"""

from collections.abc import Mapping
from types import MappingProxyType
from urllib.parse import urlencode

from ..browser import HeadlessOptions
from ..errors import ChallengeError
from ..filters import SCRAPER_OPERATORS, FilterSupport
from ..html import navigation_headers
from ..models import SearchParams
from ..transport import HttpRequest, HttpResponse
from ._engine_failures import FailureTexts
from ._escalation import Escalation
from ._google_parse import (
    GOOGLE_HOME_URL,
    PROVIDER_ID,
    UNRECOGNISED_MESSAGE,
    BlockReason,
    block_reason,
    parse_page,
    unwrap_url,
)
from ._html_engine import HtmlEngine, HtmlEngineProvider, single_page
from ._scraper import check_html_status
from .base import ProviderInfo

__all__ = [
    "GOOGLE_HOME_URL",
    "GOOGLE_SEARCH_URL",
    "INFO",
    "JAVASCRIPT_MESSAGE",
    "TRAFFIC_MESSAGE",
    "UNRECOGNISED_MESSAGE",
    "BlockReason",
    "GoogleProvider",
    "block_reason",
    "build_request",
    "check_page",
    "parse_page",
    "query_text",
    "search_params",
    "unwrap_url",
]

GOOGLE_SEARCH_URL = "https://www.google.com/search"
DEFAULT_RESULTS = 10
PAGE_RESULTS = 10
"""What one results page holds, and so the most this engine gives (``num`` is ignored)."""
READY_SELECTOR = "a h3"

TRAFFIC_MESSAGE = (
    "Google blocked the browser search with an automated-traffic challenge. Try another web "
    "search provider or retry later."
)
JAVASCRIPT_MESSAGE = "Google returned its JavaScript challenge instead of rendered search results."
FAILURE = FailureTexts(
    failed="Google browser search failed: {}",
    timed_out="Google browser search timed out.",
    names_browser=True,
)

INFO = ProviderInfo(
    id=PROVIDER_ID,
    label="Google",
    kind="scraper",
    description=(
        "No key needed: Google's results page, escalating to headless Chromium when the plain "
        "fetch is blocked; often answers scripted traffic with a challenge"
    ),
    docs_url=(
        "https://developers.google.com/search/docs/monitor-debug/search-operators/all-search-site"
    ),
    honours=frozenset(
        {
            "query",
            "recency",
            "limit",
            "num_search_results",
            "language",
            "country",
            "date_after",
            "date_before",
            "include_domains",
            "exclude_domains",
        }
    ),
    default_results=DEFAULT_RESULTS,
    max_results=PAGE_RESULTS,
    index="google",
    filters=FilterSupport(
        native=frozenset({"date_after", "date_before", "recency", "language", "country"}),
        query=SCRAPER_OPERATORS,
        demoted=frozenset({"in_url"}),
    ),
)


_RECENCY: Mapping[str, str] = MappingProxyType(
    {"day": "qdr:d", "week": "qdr:w", "month": "qdr:m", "year": "qdr:y"}
)


def query_text(params: SearchParams) -> str:
    """The query with ``site:`` operators for the domain filters (unchanged without them).

    Example:
        >>> query_text(SearchParams(query="asyncio", include_domains=("python.org", "docs.rs")))
        'asyncio (site:python.org OR site:docs.rs)'
    """
    parts = [params.query]
    sites = [f"site:{domain}" for domain in params.include_domains]
    if len(sites) == 1:
        parts.append(sites[0])
    elif sites:
        parts.append(f"({' OR '.join(sites)})")
    parts.extend(f"-site:{domain}" for domain in params.exclude_domains)
    return " ".join(parts)


def _locale(params: SearchParams) -> tuple[str, str]:
    language = params.language or "en"
    region = next(
        (part for part in language.split("-")[1:] if len(part) == 2 and part.isalpha()), None
    )
    country = (params.country or region or "us").lower()
    return language, country


def _date_range(params: SearchParams) -> str | None:
    if params.date_after is None and params.date_before is None:
        return None
    parts = ["cdr:1"]
    if params.date_after is not None:
        day = params.date_after
        parts.append(f"cd_min:{day.month}/{day.day}/{day.year}")
    if params.date_before is not None:
        day = params.date_before
        parts.append(f"cd_max:{day.month}/{day.day}/{day.year}")
    return ",".join(parts)


def search_params(params: SearchParams) -> list[tuple[str, str]]:
    """The query-string fields, in the reference's order.

    Example:
        >>> search_params(SearchParams(query="rust", recency="week", limit=5))
        [('q', 'rust'), ('hl', 'en'), ('gl', 'us'), ('udm', '14'), ('pws', '0'), ('tbs', 'qdr:w')]
    """
    language, country = _locale(params)
    fields = [
        ("q", query_text(params)),
        ("hl", language),
        ("gl", country),
        ("udm", "14"),
        ("pws", "0"),
    ]
    tbs = _date_range(params) or (_RECENCY[params.recency] if params.recency else None)
    if tbs:
        fields.append(("tbs", tbs))
    return fields


def build_request(params: SearchParams) -> HttpRequest:
    """The plain GET (the query string is in the URL so the browser loads the same URL)."""
    url = f"{GOOGLE_SEARCH_URL}?{urlencode(search_params(params))}"
    return HttpRequest(method="GET", url=url, headers=navigation_headers(referer=GOOGLE_HOME_URL))


def check_page(response: HttpResponse) -> None:
    """Raise for a block page or an error status, in the reference's order."""
    reason = block_reason(response.body, response.status, response.url)
    if reason == "traffic":
        raise ChallengeError(INFO.id, TRAFFIC_MESSAGE)
    check_html_status(INFO, response)
    if reason == "javascript":
        raise ChallengeError(INFO.id, JAVASCRIPT_MESSAGE)


# The snippet and date are found by walking the result container's elements (30-60 of
# them) with the class tests memoised: Google's class-based CSS selectors normalise every
# element's class attribute in XPath, ~20 us per selector per container.


def _is_block_page(response: HttpResponse) -> bool:
    return block_reason(response.body, response.status, response.url) is not None


class GoogleProvider(HtmlEngineProvider):
    """Google's results page: always available, escalates to headless Chromium."""

    info = INFO
    engine = HtmlEngine(
        request=build_request,
        check=check_page,
        read=single_page(parse_page),
        escalation=Escalation(
            is_block_page=_is_block_page,
            headless=HeadlessOptions(
                home_url=GOOGLE_HOME_URL,
                ready_selector=READY_SELECTOR,
                ready_timeout_seconds=10.0,
                ready_after_error_status=False,
            ),
            failure=FAILURE,
        ),
    )
