"""Jina Search (``s.jina.ai``): web results as JSON, without the page contents.

* **Endpoint:** ``GET https://s.jina.ai/<query>?count=<N>``; the query is the path,
  percent-encoded as JavaScript's ``encodeURIComponent`` does (``/``, ``?``, ``#``, ``+``,
  spaces and non-ASCII are escaped; ``!*'()`` are not).
* **Headers:** ``Accept: application/json``, ``Authorization: Bearer <key>``,
  ``X-Respond-With: no-content`` (titles, URLs and descriptions only, which is faster and
  cheaper than fetching every page), ``X-Retain-Images: none`` and, when
  ``include_domains`` names exactly one domain, ``X-Site: <domain>``. More than one domain
  cannot be expressed in that header and is not sent; ``exclude_domains`` is not supported.
* **Auth:** the key comes from ``JINA_API_KEY`` (or code, the config file, the credential
  store); it is required.
* **Limits:** ``N`` is ``num_search_results`` or ``limit``, default 5, at most 20 (the
  reference's ``clampNumResults(value, 5, 20)``, so a request for 3 sends ``count=3``).
  The spec says sources are cut to ``num_search_results`` or ``limit`` when one is given and
  otherwise every item is returned; both are done: ``count`` is sent, and the sources are
  cut to ``N`` only when a count was asked for. ``recency``, ``max_tokens`` and
  ``temperature`` are ignored.
* **Results:** the body is either an array of items or ``{"code", "status", "data": [...]}``.
  Items need an ``http(s)`` ``url``; the title is ``title`` (else the URL); the snippet is
  the trimmed ``description``, else the trimmed ``content``; ``content`` (the page as
  Markdown, when Jina sends it) is also the source's page ``content``. A ``date`` or
  ``publishedTime`` field, when an item has one, becomes ``published_date``.
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

Docs: https://jina.ai/reader/
"""

from collections.abc import Mapping
from datetime import datetime
from typing import Any
from urllib.parse import quote

from ..content.models import provided_page
from ..errors import ResponseParseError, SearchProviderError
from ..filters import FilterSupport
from ..models import SearchParams, SearchResponse, SearchSource
from ..transport import HttpRequest, HttpResponse, raise_for_status
from ._common import age_seconds_from_date, is_http_url
from .base import ProtocolProvider, ProviderContext, ProviderInfo, clamp_count

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

JINA_ENDPOINT = "https://s.jina.ai/"
DEFAULT_RESULTS = 5
MAX_RESULTS = 20
_URI_COMPONENT_SAFE = "!*'()"
"""What ``encodeURIComponent`` leaves alone besides letters, digits and ``-_.~``."""

INFO = ProviderInfo(
    id="jina",
    label="Jina",
    kind="api",
    description="Requires JINA_API_KEY",
    docs_url="https://jina.ai/reader/",
    env_vars=("JINA_API_KEY",),
    honours=frozenset({"query", "limit", "num_search_results", "include_domains"}),
    default_results=DEFAULT_RESULTS,
    max_results=MAX_RESULTS,
    index="jina",
    filters=FilterSupport(native=frozenset({"include_domains"})),
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
    """The request headers for ``params``; ``X-Site`` only for exactly one domain."""
    headers = {
        "Accept": "application/json",
        "Authorization": f"Bearer {key}",
        "X-Respond-With": "no-content",
        "X-Retain-Images": "none",
    }
    if len(params.include_domains) == 1:
        headers["X-Site"] = params.include_domains[0]
    return headers


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _source(item: Any, now: datetime | None) -> SearchSource | None:
    if not isinstance(item, Mapping):
        return None
    url = _text(item.get("url"))
    if not is_http_url(url):
        return None
    published = _text(item.get("date")) or _text(item.get("publishedTime")) or None
    title = _text(item.get("title")) or url
    return SearchSource(
        title=title,
        url=url,
        snippet=_text(item.get("description")) or _text(item.get("content")) or None,
        published_date=published,
        age_seconds=age_seconds_from_date(published, now=now),
        content=provided_page(url, title, item.get("content")),
    )


def _failure(code: Any, response: HttpResponse) -> SearchProviderError:
    message = f"Jina API response reported failure ({code})"
    if isinstance(code, int) and not isinstance(code, bool) and 400 <= code < 600:
        try:
            raise_for_status(
                INFO.id,
                HttpResponse(status=code, body=response.body, headers=response.headers),
                message,
            )
        except SearchProviderError as error:
            return error
    return SearchProviderError(INFO.id, message, 502)


def parse_items(data: Any) -> list[Any]:
    """The result items of a decoded body (an array, or ``data`` of an object).

    Raises:
        ResponseParseError: Neither an object nor an array, or ``data`` is not an array.
    """
    if isinstance(data, list):
        return data
    if not isinstance(data, Mapping):
        raise ResponseParseError(
            INFO.id, "Jina API returned invalid response: expected an object or array", 502
        )
    items = data.get("data")
    if not isinstance(items, list):
        raise ResponseParseError(
            INFO.id, "Jina API returned invalid response: expected data array", 502
        )
    return items


def parse_sources(
    data: Any, *, limit: int | None = None, now: datetime | None = None
) -> tuple[SearchSource, ...]:
    """The usable items of a decoded body as sources, in Jina's order, cut to ``limit``."""
    found = (_source(item, now) for item in parse_items(data))
    sources = [source for source in found if source is not None]
    return tuple(sources[:limit] if limit is not None else sources)


class JinaProvider(ProtocolProvider):
    """The Jina ``s.jina.ai`` search provider (see the module docstring for the wire details)."""

    info = INFO

    def build_request(self, params: SearchParams, context: ProviderContext) -> HttpRequest:
        """``GET https://s.jina.ai/<query>?count=N`` with bearer auth."""
        key = self.require_api_key(context)
        return HttpRequest(
            method="GET",
            url=request_url(params.query),
            params=(("count", str(result_count(params))),),
            headers=request_headers(params, key),
        )

    def parse_response(self, response: HttpResponse, params: SearchParams) -> SearchResponse:
        """The sources of a 2xx body; a ``code`` other than 200 is a failure."""
        data = response.json(self.info.id, self.info.label)
        if isinstance(data, Mapping):
            code = data.get("code")
            if code is not None and code != 200:
                raise _failure(code, response)
        limit = result_count(params) if params.result_count is not None else None
        return SearchResponse(
            provider=self.info.id,
            sources=parse_sources(data, limit=limit),
            auth_mode="api_key",
        )
