"""Synthetic Search: web results from Synthetic's search API, as JSON.

* **Endpoint:** ``POST https://api.synthetic.new/v2/search`` with the JSON body
  ``{"query": <query>}`` and nothing else: the API takes no count, time, domain or
  language fields.
* **Auth:** ``Authorization: Bearer <key>`` (plus ``Content-Type: application/json``); the
  key comes from ``SYNTHETIC_API_KEY`` (or code, the config file, the credential store).
* **Limits:** the API decides how many results come back; when ``num_search_results`` or
  ``limit`` is given the sources are cut to that number locally, otherwise all are kept.
  ``recency``, ``max_tokens``, ``temperature`` and the filters are ignored.
* **Results:** ``results[]`` of ``{url, title, text, published}``: items need an
  ``http(s)`` ``url``; the title is ``title`` (else the URL), the snippet the trimmed
  ``text``, ``published_date`` the ``published`` ISO 8601 timestamp.
* **Errors:** ``Synthetic API error (<status>): <body>`` after the shared classifier (a 401
  reads ``Synthetic authorization failed (401) ...``, a 429 is a rate limit with its
  ``Retry-After``). A body that is not an object, or whose ``results`` is not a list, is a
  :class:`~websearch_core.errors.ResponseParseError`.

Differences from the reference: the reference keeps ``published`` but computes no age from
it; here ``age_seconds`` is computed like every other provider's, so the model sees
``(3d ago)``. There is no real capture of a Synthetic response; the shape above is the
documented one, and the tests use their own fixtures.

Docs: https://dev.synthetic.new/docs/synthetic/search
"""

from collections.abc import Mapping
from datetime import datetime
from typing import Any, Final

from ..errors import ResponseParseError
from ..filters import TERM_OPERATORS, FilterSupport
from ..js_trim import trim
from ..models import FilterName, SearchParams, SearchResponse, SearchSource
from ..transport import HttpRequest, HttpResponse
from ._common import age_seconds_from_date, bearer_json_headers, first_items, is_http_url
from .base import KEY_IN_AUTHORIZATION, ProtocolProvider, ProviderContext, ProviderInfo

__all__ = ["INFO", "SYNTHETIC_ENDPOINT", "SyntheticProvider", "parse_results"]

SYNTHETIC_ENDPOINT = "https://api.synthetic.new/v2/search"

_IN_QUERY: Final[frozenset[FilterName]] = TERM_OPERATORS | {"include_domains", "exclude_domains"}
_FILTERS: Final = FilterSupport.query_only(_IN_QUERY)
"""Only ``query`` is sent: quotes, ``-term``, ``site:`` and ``-site:`` stay in it (the
behaviour reference's ``{phrases,negation,site}``), and the results are still checked."""
INFO = ProviderInfo(
    id="synthetic",
    label="Synthetic",
    kind="api",
    description="Requires SYNTHETIC_API_KEY",
    docs_url="https://dev.synthetic.new/docs/synthetic/search",
    env_vars=("SYNTHETIC_API_KEY",),
    honours=frozenset({"query", "limit", "num_search_results"}),
    index="synthetic",
    filters=_FILTERS,
)


def _text(value: Any) -> str:
    return trim(value) if isinstance(value, str) else ""


def _source(item: Any, now: datetime | None) -> SearchSource | None:
    if not isinstance(item, Mapping):
        return None
    url = _text(item.get("url"))
    if not is_http_url(url):
        return None
    published = _text(item.get("published")) or None
    return SearchSource(
        title=_text(item.get("title")) or url,
        url=url,
        snippet=_text(item.get("text")) or None,
        published_date=published,
        age_seconds=age_seconds_from_date(published, now=now),
    )


def parse_results(
    data: Any, *, limit: int | None = None, now: datetime | None = None
) -> tuple[SearchSource, ...]:
    """The ``results[]`` of a decoded body as sources, in Synthetic's order.

    Args:
        data: The decoded JSON body.
        limit: Keep at most this many sources (``None``: all).
        now: Reference time for ``age_seconds`` (default: now).

    Raises:
        ResponseParseError: The body is not a Synthetic search response.
    """
    if not isinstance(data, Mapping):
        raise ResponseParseError(
            INFO.id, "Synthetic API returned an unexpected response shape", 502
        )
    results = data.get("results", [])
    if results is None:
        return ()
    if not isinstance(results, list):
        raise ResponseParseError(
            INFO.id, "Synthetic API returned an unexpected response shape", 502
        )
    found = (_source(item, now) for item in first_items(results))
    sources = [source for source in found if source is not None]
    return tuple(sources[:limit] if limit is not None else sources)


class SyntheticProvider(ProtocolProvider):
    """The Synthetic search provider (see the module docstring for the wire details)."""

    info = INFO
    credential_kinds = KEY_IN_AUTHORIZATION

    def build_request(self, params: SearchParams, context: ProviderContext) -> HttpRequest:
        """The POST request for ``params``: only the query is sent."""
        key = self.require_api_key(context)
        return HttpRequest(
            method="POST",
            url=SYNTHETIC_ENDPOINT,
            headers=bearer_json_headers(key),
            json={"query": params.query},
        )

    def parse_response(self, response: HttpResponse, params: SearchParams) -> SearchResponse:
        """The sources of a 2xx body, cut to the requested count when there is one."""
        data = response.json(self.info.id, self.info.label)
        return SearchResponse(
            provider=self.info.id,
            sources=parse_results(data, limit=params.result_count),
            auth_mode="api_key",
        )
