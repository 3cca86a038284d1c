"""TinyFish Search API: ranked web results (title, URL, snippet, site name), as JSON.

* **Endpoint:** ``GET https://api.search.tinyfish.ai`` with ``query`` and, when asked,
  ``recency_minutes`` (or ``after_date`` / ``before_date``), ``include_domains`` /
  ``exclude_domains`` (comma-joined), ``location`` and ``language``; then
  ``num_results=<page size>`` and ``page=<n>``.
* **Auth:** header ``X-API-Key: <key>`` (plus ``Accept: application/json``). The key comes
  from ``TINYFISH_API_KEY`` (or code, the config file, the credential store).
* **Limits and pagination:** the wanted count ``N`` is ``num_search_results`` or ``limit``,
  default 10, clamped to 1..20. A page holds at most 10 results, so the page size is
  ``min(N, 10)``: page 0 is fetched, then page 1 only while fewer than ``N`` distinct URLs
  have been collected and page 0 was full (a short page means there is no more). URLs are
  trimmed and de-duplicated across pages, and the result is cut to ``N``.
* **Time filters:** ``recency`` maps to ``recency_minutes`` (day 1440, week 10080, month
  43200, year 525600). TinyFish documents ``after_date`` / ``before_date`` (``YYYY-MM-DD``)
  and forbids combining them with ``recency_minutes``, so explicit dates win over
  ``recency``.
* **Locale:** ``location`` is ``country`` upper-cased, else the region subtag of
  ``language`` (``pt-BR`` gives ``BR``; a script subtag such as ``zh-Hans`` never does);
  ``language`` is the two-letter primary subtag.
* **Results:** ``results[]`` of ``{position, site_name, title, snippet, url}``. Title is
  ``title``, else ``site_name``, else the URL; the snippet has its whitespace collapsed;
  ``author`` is ``site_name``. Only ``http(s)`` URLs are kept. A body whose ``results`` is
  not a list raises ``TinyFish Search API returned an unexpected response shape``.
* **Errors:** ``TinyFish API error (<status>): <body>`` after the shared classifier (so a
  401 reads ``TinyFish authorization failed (401) ...``, a 402 is out of credits and a 429
  carries ``Retry-After``).

Capture vs reference: the captures (``fixtures/tinyfish/*.json``) are examples from
TinyFish's OpenAPI description. The success example has ``position`` and ``total_results``
but no ``page`` (the reference lists ``page``; it is not used here). The error example is one
placeholder envelope ``{"error": {"code", "message", "details"}}`` reused for every status,
so errors are typed by status only and the raw body is quoted. TinyFish's public reference
does not list ``num_results``, ``include_domains`` or ``exclude_domains`` (it suggests
``site:`` operators in the query); they are sent as the behaviour reference describes.

Docs: https://docs.tinyfish.ai/search-api/reference
"""

import re
from collections.abc import Mapping
from typing import Final

from ..errors import ResponseParseError
from ..filters import FilterSupport
from ..models import Recency, SearchParams, SearchResponse
from ..transport import HttpRequest, HttpResponse
from ._tinyfish_parse import TinyFishPage, merge_pages, parse_page
from .base import ErrorMap, Flow, ProtocolProvider, ProviderContext, ProviderInfo, clamp_count

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
DEFAULT_RESULTS: Final = 10
MAX_RESULTS: Final = 20
PAGE_SIZE: Final = 10
"""TinyFish returns at most ten results per page."""
MAX_PAGE: Final = 1
"""Pages 0 and 1 cover the maximum of 20 results."""

_RECENCY_MINUTES: Final[Mapping[Recency, int]] = {
    "day": 1440,
    "week": 10080,
    "month": 43200,
    "year": 525600,
}
_LANGUAGE_TAG: Final = re.compile(r"^([a-z]{2})(?:[-_]([a-z]{2}))?(?:[-_]|$)")

INFO = ProviderInfo(
    id="tinyfish",
    label="TinyFish",
    kind="api",
    description="Requires TINYFISH_API_KEY",
    docs_url="https://docs.tinyfish.ai/search-api/reference",
    env_vars=("TINYFISH_API_KEY",),
    honours=frozenset(
        {
            "query",
            "recency",
            "limit",
            "num_search_results",
            "country",
            "language",
            "date_after",
            "date_before",
            "include_domains",
            "exclude_domains",
        }
    ),
    default_results=DEFAULT_RESULTS,
    max_results=MAX_RESULTS,
    index="tinyfish",
    filters=FilterSupport(
        native=frozenset(
            {
                "include_domains",
                "exclude_domains",
                "date_after",
                "date_before",
                "recency",
                "language",
                "country",
            }
        )
    ),
)


def wanted_count(params: SearchParams) -> int:
    """``N``: ``num_search_results`` or ``limit``, default 10, clamped to 1..20."""
    return clamp_count(params.result_count, DEFAULT_RESULTS, MAX_RESULTS)


def page_size(params: SearchParams) -> int:
    """The ``num_results`` sent with every page: ``min(N, 10)``."""
    return min(wanted_count(params), PAGE_SIZE)


def locale(params: SearchParams) -> tuple[str | None, str | None]:
    """``(location, language)`` for ``params``.

    Example:
        >>> locale(SearchParams(query="x", language="pt-BR"))
        ('BR', 'pt')
        >>> locale(SearchParams(query="x", country="de", language="zh-Hans"))
        ('DE', 'zh')
    """
    location = params.country.upper() if params.country else None
    language: str | None = None
    if params.language:
        match = _LANGUAGE_TAG.match(params.language.lower())
        if match:
            language = match.group(1)
            if location is None and match.group(2):
                location = match.group(2).upper()
    return location, language


def query_params(params: SearchParams, page: int) -> list[tuple[str, str]]:
    """The query string TinyFish receives for ``params`` and ``page`` (pure).

    Example:
        >>> query_params(SearchParams(query="x", recency="day", limit=3), 0)
        [('query', 'x'), ('recency_minutes', '1440'), ('num_results', '3'), ('page', '0')]
    """
    query: list[tuple[str, str]] = [("query", params.query)]
    if params.date_after is not None or params.date_before is not None:
        if params.date_after is not None:
            query.append(("after_date", params.date_after.isoformat()))
        if params.date_before is not None:
            query.append(("before_date", params.date_before.isoformat()))
    elif params.recency is not None:
        query.append(("recency_minutes", str(_RECENCY_MINUTES[params.recency])))
    if params.include_domains:
        query.append(("include_domains", ",".join(params.include_domains)))
    if params.exclude_domains:
        query.append(("exclude_domains", ",".join(params.exclude_domains)))
    location, language = locale(params)
    if location is not None:
        query.append(("location", location))
    if language is not None:
        query.append(("language", language))
    query.append(("num_results", str(page_size(params))))
    query.append(("page", str(page)))
    return query


def _needs_more(pages: list[TinyFishPage], params: SearchParams) -> bool:
    if len(pages) > MAX_PAGE or pages[-1].raw_count < page_size(params):
        return False
    return len(merge_pages(pages, MAX_RESULTS)) < wanted_count(params)


def _pages(flow: Flow) -> list[TinyFishPage]:
    """Every page the flow fetched, parsed in order (each page is one exchange)."""
    return [
        parse_page(response.json(INFO.id, INFO.label))
        for response in flow.responses
        if isinstance(response, HttpResponse)
    ]


class TinyFishProvider(ProtocolProvider):
    """The TinyFish Search API provider (see the module docstring for the wire details).

    The core's loop sends page 0 (:meth:`build_request`); :meth:`follow_up` asks for page 1
    only when more results are needed, and :meth:`parse` merges the pages.
    """

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
        """The next page while a full page left fewer than ``N`` distinct URLs, else done.

        An error status or an unreadable page ends the flow here; the loop's status check
        and :meth:`parse` then raise for it.
        """
        if not 200 <= flow.last.response.status < 300:
            return None
        try:
            pages = _pages(flow)
        except ResponseParseError:
            return None
        if not _needs_more(pages, flow.params):
            return None
        return self.request_for_page(flow.params, flow.context, len(pages))

    def parse(self, flow: Flow) -> SearchResponse:
        """The pages' sources, de-duplicated by URL across pages and cut to ``N``."""
        return SearchResponse(
            provider=self.info.id,
            sources=merge_pages(_pages(flow), wanted_count(flow.params)),
            auth_mode="api_key",
        )

    def parse_response(self, response: HttpResponse, params: SearchParams) -> SearchResponse:
        """One page's sources, de-duplicated and cut to ``N``."""
        page = parse_page(response.json(self.info.id, self.info.label))
        return SearchResponse(
            provider=self.info.id,
            sources=merge_pages([page], wanted_count(params)),
            auth_mode="api_key",
        )
