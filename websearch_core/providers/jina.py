"""Jina Search (``s.jina.ai``): web results as JSON, without the page contents.

* **Endpoint:** ``GET https://s.jina.ai/<query>?count=<N>``; the query is the path,
  percent-encoded as JavaScript's ``encodeURIComponent`` does (``/``, ``?``, ``#``, ``+``,
  spaces and non-ASCII are escaped; ``!*'()`` are not).
* **Headers:** ``Accept: application/json``, ``Authorization: Bearer <key>``,
  ``X-Respond-With: no-content`` (titles, URLs and descriptions only, which is faster and
  cheaper than fetching every page), ``X-Retain-Images: none`` and, when
  ``include_domains`` is given, ``X-Site: <domain>[, <domain>...]``: Jina splits the header
  on ``", "`` and searches ``site:a OR site:b`` (jina-ai/reader
  ``src/services/serper-search.ts`` and ``src/services/brave-search.ts``, the explicit
  operators' ``from``). ``exclude_domains`` has no header and is not sent.
* **Auth:** the key (``JINA_API_KEY``) is required.
* **Limits:** ``N`` is ``num_search_results`` or ``limit``, default 5, at most 20 (the
  reference's ``clampNumResults(value, 5, 20)``, so a request for 3 sends ``count=3``).
  The spec says sources are cut to ``num_search_results`` or ``limit`` when one is given and
  otherwise every item is returned; both are done: ``count`` is sent, and the sources are
  cut to ``N`` only when a count was asked for. ``recency``, ``max_tokens`` and
  ``temperature`` are ignored.
* **Country and language are not sent** (recorded ``ignored``). s.jina.ai's server reads
  ``gl`` and ``hl`` (jina-ai/reader ``src/api/searcher-serper.ts``) but refuses any value
  outside its own lists: ``gl`` must be an upper-case key of ``WORLD_COUNTRIES``, while
  the Serper query it is forwarded in takes only their lower-cased forms
  (``src/3rd-party/serper-search.ts``), and ``hl`` one of ``WORLD_LANGUAGES``' codes
  (``en``, ``pt-br``, ``zh-cn``, ...), which a BCP 47 tag such as ``zh-Hans`` is not. No
  Jina page documents either for s.jina.ai (Jina's MCP server sends a lower-case ``gl``,
  "e.g., 'dz'", to another endpoint, ``svip.jina.ai``: jina-ai/MCP
  ``src/tools/jina-tools.ts``). A refused value fails a search that works without it.
* **Results:** the body is either an array of items or ``{"code", "status", "data": [...]}``.
  Items need an ``http(s)`` ``url``; the title is ``title`` (else the URL); the snippet is
  the trimmed ``description``, else the trimmed ``content``; ``content`` (the page as
  Markdown, when Jina sends it) is also the source's page ``content``. A ``date`` or
  ``publishedTime`` field, when an item has one, becomes ``published_date``.
* **No results:** s.jina.ai answers a search that found nothing with a 422
  ``AssertionFailureError`` whose message is ``No search results available for query
  ...`` (:func:`._jina_parse.reports_no_results`). That answer is read as zero sources,
  which the chain reports as an empty answer (204), as for an engine's "no results" page;
  any other 422 is an error.
* **Errors:** ``Jina API error (<status>): <body>`` after the shared classifier. A 2xx body
  whose ``code`` is not 200 is ``Jina API response reported failure (<code>)``; when that
  code is an HTTP error status it is classified like one (401 is an authorization failure,
  429 a rate limit, 402 spent credits). A body that is neither an object nor an array, or
  whose ``data`` is not an array, is a :class:`~websearch_core.errors.ResponseParseError`
  (``Jina API returned invalid response: expected an object or array`` /
  ``... expected data array``).

Quirks: the only capture (``fixtures/jina/s_jina_ai_search_doc_example.json``) is Jina's
documentation example of a full-content search: ``{"code": 200, "status": 20000, "data":
[{title, description, url, content, usage: {tokens}}]}`` with ``description`` and
``content`` abbreviated to ``...`` by Jina. It has no date field; the ``date`` /
``publishedTime`` support is an addition the reference does not describe. ``status`` and
``usage`` are not used.

Bodies are read in ``_jina_parse``.

Docs: https://jina.ai/reader/
"""

from collections.abc import Mapping
from typing import Final
from urllib.parse import quote

from ..filters import TERM_OPERATORS, URL_TITLE_OPERATORS, FilterSupport
from ..models import FilterName, SearchParams, SearchResponse
from ..transport import HttpRequest, HttpResponse, SseResponse
from ._jina_parse import parse_items, parse_sources, reported_failure, reports_no_results
from ._json_api import honours
from .base import (
    KEY_IN_AUTHORIZATION,
    ErrorMap,
    ProtocolProvider,
    ProviderContext,
    ProviderInfo,
    clamp_count,
)

__all__ = [
    "INFO",
    "JINA_ENDPOINT",
    "JinaProvider",
    "parse_items",
    "parse_sources",
    "request_headers",
    "request_url",
    "result_count",
]

JINA_ENDPOINT: Final = "https://s.jina.ai/"
DEFAULT_RESULTS: Final = 5
MAX_RESULTS: Final = 20
X_SITE_SEPARATOR: Final = ", "
"""What Jina splits ``X-Site`` on (``customValue.split(', ')`` in jina-ai/reader)."""
_URI_COMPONENT_SAFE: Final = "!*'()"
"""What ``encodeURIComponent`` leaves alone besides letters, digits and ``-_.~``."""

_UNPROMISED: Final[frozenset[FilterName]] = (
    TERM_OPERATORS | URL_TITLE_OPERATORS | {"exclude_domains", "filetype", "exclude_filetype"}
)
_FILTERS: Final = FilterSupport(
    native=frozenset({"include_domains"}),
    query=_UNPROMISED,
    unpromised=_UNPROMISED,
    reads_or=False,
)
"""Sites go as ``X-Site``, which names only sites to keep; quotes, ``-term``, ``-site:``,
``filetype:``, ``inurl:`` and ``intitle:`` (and their negations) stay in the query (the
behaviour reference's ``{phrases,negation,site,inTitle,inUrl,filetype}``), and the results
are still checked for each."""
PREPAID_STATUSES: Final = frozenset({402})
"""402 "Account balance not enough to run this query, please recharge": Jina sells token
packs a key spends down, topped up by its owner (maintainers in jina-ai/reader #1125 and
#1200). A 2xx body carrying ``code`` 402 is still read as a plain spent quota."""
INFO = ProviderInfo(
    id="jina",
    label="Jina",
    kind="api",
    description="Requires JINA_API_KEY",
    docs_url="https://jina.ai/reader/",
    env_vars=("JINA_API_KEY",),
    honours=honours(_FILTERS),
    default_results=DEFAULT_RESULTS,
    max_results=MAX_RESULTS,
    index="jina",
    filters=_FILTERS,
)


def result_count(params: SearchParams) -> int:
    """The ``count`` sent: ``num_search_results`` or ``limit``, default 5, at most 20."""
    return clamp_count(params.result_count, DEFAULT_RESULTS, MAX_RESULTS)


def request_url(query: str) -> str:
    """The search URL for ``query``: the endpoint plus the percent-encoded query.

    Example:
        >>> request_url("C++ vs Rust?")
        'https://s.jina.ai/C%2B%2B%20vs%20Rust%3F'
    """
    return JINA_ENDPOINT + quote(query, safe=_URI_COMPONENT_SAFE)


def request_headers(params: SearchParams, key: str) -> dict[str, str]:
    """The request headers for ``params``; ``X-Site`` lists every included domain.

    Example:
        >>> request_headers(SearchParams(query="x", include_domains=("a.org", "b.org")), "k")[
        ...     "X-Site"
        ... ]
        'a.org, b.org'
    """
    headers = {
        "Accept": "application/json",
        "Authorization": f"Bearer {key}",
        "X-Respond-With": "no-content",
        "X-Retain-Images": "none",
    }
    if params.include_domains:
        headers["X-Site"] = X_SITE_SEPARATOR.join(params.include_domains)
    return headers


class JinaProvider(ProtocolProvider):
    """The Jina ``s.jina.ai`` search provider (see the module docstring for the wire details)."""

    info = INFO
    credential_kinds = KEY_IN_AUTHORIZATION
    errors = ErrorMap(prepaid=PREPAID_STATUSES)

    def build_request(self, params: SearchParams, context: ProviderContext) -> HttpRequest:
        """``GET https://s.jina.ai/<query>?count=N`` with bearer auth."""
        key = self.require_api_key(context)
        return HttpRequest(
            method="GET",
            url=request_url(params.query),
            params=(("count", str(result_count(params))),),
            headers=request_headers(params, key),
        )

    def check(self, response: HttpResponse | SseResponse, errors: ErrorMap | None = None) -> None:
        """Raise for an error status, except Jina's 422 that says the search found nothing."""
        if isinstance(response, HttpResponse) and reports_no_results(response):
            return
        super().check(response, errors)

    def parse_response(self, response: HttpResponse, params: SearchParams) -> SearchResponse:
        """The sources of a 2xx body; a ``code`` other than 200 is a failure.

        Jina's no-results 422 (:func:`._jina_parse.reports_no_results`) is zero sources.
        """
        if reports_no_results(response):
            return SearchResponse(provider=self.info.id, sources=(), auth_mode="api_key")
        data = response.json(self.info.id, self.info.label)
        if isinstance(data, Mapping):
            code = data.get("code")
            if code is not None and code != 200:
                raise reported_failure(code, response)
        limit = result_count(params) if params.result_count is not None else None
        return SearchResponse(
            provider=self.info.id,
            sources=parse_sources(data, limit=limit),
            auth_mode="api_key",
        )
