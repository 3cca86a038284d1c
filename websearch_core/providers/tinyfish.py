"""TinyFish Search API: ranked web results (title, URL, snippet, site name), as JSON.

* **Endpoint:** ``GET https://api.search.tinyfish.ai`` with ``query`` and, when asked,
  ``recency_minutes`` (or ``after_date`` / ``before_date``), ``location`` and
  ``language``; then ``num_results=<page size>`` and ``page=<n>``.
* **Domains:** written into ``query`` as ``site:`` (several joined with ``OR``) and
  ``-site:``, the way TinyFish's reference tells callers to scope a search, and also sent
  as ``include_domains`` / ``exclude_domains``, the behaviour reference's parameters (not
  in TinyFish's docs); the results are checked here either way. Phrases, ``-term`` and
  ``filetype:`` are not among the operators it lists, so they are checked on the results
  here.
* **Auth:** header ``X-API-Key: <key>`` (``TINYFISH_API_KEY``), plus ``Accept:
  application/json``.
* **Limits and pagination:** the wanted count ``N`` is ``num_search_results`` or ``limit``,
  default 10, clamped to 1..20. A page holds at most 10 results, so the page size is
  ``min(N, 10)``: page 0 is fetched, then page 1 only while fewer than ``N`` distinct URLs
  have been collected and page 0 was full (a short page means there is no more); URLs are
  de-duplicated across pages and the result is cut to ``N``.
* **Time filters:** ``recency`` maps to ``recency_minutes`` (day 1440, week 10080, month
  43200, year 525600). TinyFish documents ``after_date`` / ``before_date`` (``YYYY-MM-DD``)
  and forbids combining them with ``recency_minutes``, so explicit dates win over
  ``recency``.
* **Locale:** ``location`` is ``country`` upper-cased, else the region subtag of
  ``language`` (``pt-BR`` gives ``BR``; a script subtag such as ``zh-Hans`` never does);
  ``language`` is the two-letter primary subtag.
* **Results:** ``results[]`` of ``{position, site_name, title, snippet, url}``, read as
  :mod:`._tinyfish_parse` tells; only ``http(s)`` URLs are kept.
* **Errors:** ``TinyFish API error (<status>): <body>`` after the shared classifier, which
  reads the reference's table as TinyFish means it: 401 a bad key, 402 "payment required"
  a spent quota, 403 "Search API access is not enabled" an authorization failure, 429 a
  rate limit, 500 / 503 transient.
* **Modules:** the query string is built in ``_tinyfish_request``, pages are read in
  ``_tinyfish_parse`` and the paging decided in ``_tinyfish_steps``.

Capture vs reference: the captures (``fixtures/tinyfish/*.json``) are examples from
TinyFish's OpenAPI description. The success example has ``position`` and ``total_results``
but no ``page`` (the reference lists ``page``; it is not used here). The error example is one
placeholder envelope ``{"error": {"code", "message", "details"}}`` reused for every status,
so errors are typed by status only and the raw body is quoted. TinyFish's public reference
does not list ``num_results``, ``include_domains`` or ``exclude_domains``. ``num_results``
is sent as the behaviour reference describes, and so are its domain parameters; the
domains also go in the query, where TinyFish documents them
(docs.tinyfish.ai/search-api/reference: ``python tutorial site:docs.python.org``,
``recipe ideas -site:facebook.com -site:youtube.com``). Neither form was tried live, so
both are sent and nothing is trusted without the local check.

Docs: https://docs.tinyfish.ai/search-api/reference
"""

from typing import Final

from ..filters import FIELD_FILTERS, TERM_OPERATORS, FilterSupport
from ..models import FilterName, SearchParams, SearchResponse
from ..transport import HttpRequest, HttpResponse
from ._json_api import honours
from ._tinyfish_parse import TinyFishPage, merge_pages, parse_page
from ._tinyfish_request import (
    DEFAULT_RESULTS,
    MAX_RESULTS,
    locale,
    page_size,
    query_params,
)
from ._tinyfish_steps import flow_pages, next_page, pages_response
from .base import ErrorMap, Flow, ProtocolProvider, ProviderContext, ProviderInfo

__all__ = [
    "INFO",
    "TINYFISH_ENDPOINT",
    "TinyFishPage",
    "TinyFishProvider",
    "locale",
    "merge_pages",
    "page_size",
    "parse_page",
    "query_params",
]

TINYFISH_ENDPOINT: Final = "https://api.search.tinyfish.ai"

_DOMAINS: Final[frozenset[FilterName]] = frozenset({"include_domains", "exclude_domains"})
_UNPROMISED: Final[frozenset[FilterName]] = TERM_OPERATORS | {"filetype", "exclude_filetype"}
_FILTERS: Final = FilterSupport(
    native=FIELD_FILTERS - _DOMAINS,
    query=_DOMAINS | _UNPROMISED,
    unpromised=_UNPROMISED,
    reads_or=False,
    two_letter_language=True,  # ``language``: the tag's two-letter language only
)
"""``site:`` / ``-site:`` in ``query``, as TinyFish's reference tells callers; quotes,
``-term`` and ``filetype:`` stay there too (the behaviour reference's
``{phrases,negation,filetype}``), checked on the results since its docs do not list them."""
INFO = ProviderInfo(
    id="tinyfish",
    label="TinyFish",
    kind="api",
    description="Requires TINYFISH_API_KEY",
    docs_url="https://docs.tinyfish.ai/search-api/reference",
    env_vars=("TINYFISH_API_KEY",),
    honours=honours(_FILTERS),
    default_results=DEFAULT_RESULTS,
    max_results=MAX_RESULTS,
    index="tinyfish",
    filters=_FILTERS,
)


class TinyFishProvider(ProtocolProvider):
    """Page 0 is the first request; :meth:`follow_up` pages on; :meth:`parse` merges."""

    info = INFO
    errors = ErrorMap(prefix="TinyFish API error")

    def request_for_page(
        self, params: SearchParams, context: ProviderContext, page: int
    ) -> HttpRequest:
        """The GET request for one ``page`` of ``params``."""
        key = self.require_api_key(context)
        return HttpRequest(
            method="GET",
            url=TINYFISH_ENDPOINT,
            params=query_params(params, page),
            headers={"Accept": "application/json", "X-API-Key": key},
        )

    def build_request(self, params: SearchParams, context: ProviderContext) -> HttpRequest:
        """The request for the first page (page 0)."""
        return self.request_for_page(params, context, 0)

    def follow_up(self, flow: Flow) -> HttpRequest | None:
        """The next page while a full page left fewer than ``N`` distinct URLs, else done."""
        page = next_page(flow, self.info)
        return None if page is None else self.request_for_page(flow.params, flow.context, page)

    def parse(self, flow: Flow) -> SearchResponse:
        """The pages' sources, de-duplicated by URL across pages and cut to ``N``."""
        return pages_response(flow_pages(flow, self.info), flow.params)

    def parse_response(self, response: HttpResponse, params: SearchParams) -> SearchResponse:
        """One page's sources, de-duplicated and cut to ``N``."""
        page = parse_page(response.json(self.info.id, self.info.label))
        return pages_response([page], params)
