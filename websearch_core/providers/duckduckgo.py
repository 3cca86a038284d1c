"""DuckDuckGo: the no-JavaScript HTML frontend (Bing-backed results), no key needed.

* **Endpoint:** ``POST https://html.duckduckgo.com/html/`` with a form body whose fields
  are, in order, ``q`` (the query, unchanged), ``kl`` (region), ``df`` (``d|w|m|y``, only
  when ``recency`` is set) and an empty ``b``.
* **Headers:** a desktop-Chrome navigation profile (:mod:`websearch_core.html`) with
  ``Referer: https://html.duckduckgo.com/``, ``Sec-Fetch-Site: same-origin`` and the form
  ``Content-Type``.
* **Region:** ``language``/``country`` become DDG's ``kl`` code
  (:mod:`._duckduckgo_regions`).
* **Count:** ``N = num_search_results or limit``, default 10, at most 20. A page holds
  about ten results, so while fewer than ``N`` are collected and the page has a next-page
  form (inputs ``s`` and ``vqd``), that form's fields are posted for the next page; URLs
  are de-duplicated exactly and the loop stops when a page adds nothing. All pages share
  one time budget (the per-provider timeout). A failure on a later page keeps the results
  already collected.
* **Results and errors:** read by :mod:`._duckduckgo_parse` (result blocks, redirect
  unwrapping, the anomaly challenge, the homepage soft block, the "no results" page);
  non-2xx goes through the shared classifier, else ``DuckDuckGo HTML error (<status>)``.

Docs: https://duckduckgo.com/duckduckgo-help-pages/
"""

from collections.abc import Sequence
from types import MappingProxyType

from ..filters import SCRAPER_OPERATORS, FilterSupport
from ..html import navigation_headers
from ..models import SearchParams
from ..transport import HttpRequest, HttpResponse
from ._duckduckgo_parse import (
    CHALLENGE_MESSAGE,
    HOMEPAGE_MESSAGE,
    PROVIDER_ID,
    UNRECOGNISED_MESSAGE,
    ParsedPage,
    parse_body,
    parse_page,
    unwrap_url,
)
from ._duckduckgo_regions import (
    DEFAULT_REGION,
    REGION_ALIASES,
    REGIONS,
    carries_country,
    carries_language,
    locale_to_kl,
    region_for,
)
from ._html_engine import HtmlEngine, HtmlEngineProvider
from ._scraper import PageResults, check_html_status
from .base import ProviderInfo

__all__ = [
    "CHALLENGE_MESSAGE",
    "DDG_HTML_URL",
    "DEFAULT_REGION",
    "HOMEPAGE_MESSAGE",
    "INFO",
    "REGIONS",
    "REGION_ALIASES",
    "UNRECOGNISED_MESSAGE",
    "DuckDuckGoProvider",
    "ParsedPage",
    "build_form",
    "build_request",
    "locale_to_kl",
    "parse_page",
    "region_for",
    "unwrap_url",
]

DDG_HTML_URL = "https://html.duckduckgo.com/html/"
REFERER = "https://html.duckduckgo.com/"
DEFAULT_RESULTS = 10
MAX_RESULTS = 20

_RECENCY = MappingProxyType({"day": "d", "week": "w", "month": "m", "year": "y"})

INFO = ProviderInfo(
    id=PROVIDER_ID,
    label="DuckDuckGo",
    kind="scraper",
    description=(
        "No key needed: DuckDuckGo's no-JavaScript HTML search (Bing-backed); may answer "
        "shared or datacenter IPs with a bot challenge"
    ),
    docs_url="https://duckduckgo.com/duckduckgo-help-pages/",
    honours=frozenset({"query", "recency", "limit", "num_search_results", "language", "country"}),
    default_results=DEFAULT_RESULTS,
    max_results=MAX_RESULTS,
    index="bing",
    filters=FilterSupport(
        native=frozenset({"recency", "language", "country"}),
        query=SCRAPER_OPERATORS,
        demoted=frozenset({"in_url"}),
        two_letter_language=True,  # ``kl`` pairs regions with two-letter languages
        carries_language=carries_language,  # and falls back to us-en: what it lacks
        carries_country=carries_country,  # is recorded unapplied, not native
    ),
)


def build_form(params: SearchParams) -> list[tuple[str, str]]:
    """The first page's form fields, in DDG's order: ``q``, ``kl``, ``df`` (if any), ``b``.

    Example:
        >>> build_form(SearchParams(query="rust async", recency="week"))
        [('q', 'rust async'), ('kl', 'us-en'), ('df', 'w'), ('b', '')]
    """
    fields = [("q", params.query), ("kl", region_for(params.language, params.country))]
    if params.recency is not None:
        fields.append(("df", _RECENCY[params.recency]))
    fields.append(("b", ""))
    return fields


def build_request(form: Sequence[tuple[str, str]]) -> HttpRequest:
    """The POST of one page: ``form`` to the HTML endpoint with browser headers."""
    headers = navigation_headers(
        referer=REFERER, extra={"Content-Type": "application/x-www-form-urlencoded"}
    )
    return HttpRequest(method="POST", url=DDG_HTML_URL, headers=headers, form=tuple(form))


def _check(response: HttpResponse) -> None:
    check_html_status(INFO, response)


def _read(response: HttpResponse) -> PageResults:
    """A page's sources and, when it has a next-page form, the POST of that form.

    The form is read only if the engine wants another page (see :class:`ParsedPage`).
    """
    page = parse_body(response.body)

    def next_request() -> HttpRequest | None:
        form = page.next_form
        return build_request(form.fields) if form is not None else None

    return PageResults(page.sources, next_from_page=next_request)


class DuckDuckGoProvider(HtmlEngineProvider):
    """DuckDuckGo's HTML frontend: always available, paginates up to the requested count."""

    info = INFO
    engine = HtmlEngine(
        request=lambda params: build_request(build_form(params)), check=_check, read=_read
    )
