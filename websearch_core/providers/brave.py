"""Brave Search API: Brave's own independent web index, as JSON.

* **Endpoint:** ``GET https://api.search.brave.com/res/v1/web/search`` with ``q``,
  ``count``, ``extra_snippets=true``, ``text_decorations=false``, ``safesearch=moderate``
  and, when asked, ``freshness``, ``country`` and ``search_lang``.
* **Auth:** header ``X-Subscription-Token: <key>`` (``BRAVE_API_KEY``), plus ``Accept:
  application/json``.
* **Limits:** ``count`` is ``num_search_results`` or ``limit``, default 10, at most 20.
  A query longer than 400 characters (UTF-16 code units) or 50 words is refused before
  any request: Brave's API reference allows "400 characters and 50 words in the query"
  (the behaviour reference's 500 characters came from older upstream code). Success
  bodies are capped at 2 MiB (or the configured cap, if smaller).
* **Time filters:** ``recency`` maps to ``freshness=pd|pw|pm|py``; ``date_after`` /
  ``date_before`` win over it and give ``freshness=<after|1970-01-01>to<before|today UTC>``.
* **Results:** ``web.results[]``. Only ``http(s)`` URLs of at most 2048 characters are
  kept. Titles and snippets are plain text: tags stripped, entities decoded, whitespace
  collapsed; the title is cut to 300 characters and falls back to the URL; the snippet is
  the distinct values of ``description`` and ``extra_snippets`` joined by newlines, cut to
  8000 characters. ``request_id`` is the ``x-request-id`` (or ``request-id``) response
  header.
* **Dates:** ``published_date`` is ISO 8601 whenever the result carries an absolute date:
  ``page_age`` (ISO already, kept as written) first, else an absolute ``age`` such as
  ``May 1, 2023`` (given as ``2023-05-01``). Only a result whose sole date is relative
  (``2 days ago``) keeps that text, and it alone has no ``age_seconds``; every other
  ``age_seconds`` is measured from the ISO date shown, a date without a time zone taken
  as UTC. The reference takes ``age`` first, which gave the model ``2 days ago`` frozen
  into the cache and ``May 1, 2023`` in another format than every other provider's.
* **Errors:** ``Brave API error (<status>): <body>`` after the shared classifier.
* **Modules:** the query string is built in ``_brave_request``, the body is decoded to the
  fields read in ``_brave_body`` and results are read in ``_brave_parse``; this module holds
  the facts, the error map and the 422 hook.

Quirks:

* The real capture (``fixtures/brave/web_search_laravel_2024.json``) has HTML entities in
  descriptions (``Twitter&#x27;s``) besides the ``<strong>`` highlighting; the reference only
  says tags are stripped, so entities are decoded here as well. That capture was made without
  ``extra_snippets`` (every result has ``extra_snippets`` missing or null) and has ``age`` as
  either ``May 1, 2023`` or ``2 days ago``; ``page_age`` is ISO without a time zone.
* Brave answers a wrong or malformed key with HTTP 422 and error code
  ``SUBSCRIPTION_TOKEN_INVALID`` rather than 401, so that case is raised as an
  :class:`~websearch_core.errors.AuthorizationError` (status 422) here. Any other 422 to a
  search that sent ``search_lang`` or ``country`` is answered by sending it once more
  without them; they are then reported as ignored filters.
* ``search_lang`` takes Brave's own codes, which are not all BCP 47 (Japanese is ``jp``,
  Chinese is ``zh-hans`` / ``zh-hant``); a language Brave does not list is not sent.

Docs: https://api-dashboard.search.brave.com/app/documentation/web-search/get-started
"""

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Final

from ..errors import AuthorizationError
from ..filters import QUERY_OPERATORS, FilterSupport
from ..models import SearchParams, SearchResponse
from ..transport import HttpRequest, HttpResponse
from ._brave_body import decode_projection
from ._brave_parse import iso_published_date, parse_results, parse_source, result_fields
from ._brave_request import (
    DEFAULT_RESULTS,
    MAX_RESULTS,
    SEARCH_COUNTRIES,
    brave_search_lang,
    carries_language,
    freshness,
    query_params,
)
from ._brave_steps import TOKEN_ERRORS, dropped_filters, error_code, resend_without
from ._json_api import honours
from .base import ErrorMap, Flow, ProtocolProvider, ProviderContext, ProviderInfo

__all__ = [
    "BRAVE_ENDPOINT",
    "INFO",
    "BraveProvider",
    "brave_search_lang",
    "freshness",
    "iso_published_date",
    "parse_results",
    "parse_source",
    "query_params",
]

BRAVE_ENDPOINT: Final = "https://api.search.brave.com/res/v1/web/search"
MAX_RESPONSE_BYTES: Final = 2 * 1024 * 1024
_REQUEST_ID: Final = "x-request-id"
_REQUEST_ID_FALLBACK: Final = "request-id"
"""The response headers that may carry the request's id, the first preferred."""

_FILTERS: Final = FilterSupport(
    native=frozenset({"date_after", "date_before", "recency", "language", "country"}),
    query=QUERY_OPERATORS,
    # Brave's operator list has intitle:, not inurl: (the reference sends it anyway).
    unpromised=frozenset({"in_url", "exclude_in_url"}),
    two_letter_language=True,  # ``search_lang`` lists no three-letter code
    carries_language=carries_language,  # nor ``af``: what query_params drops is unapplied
    countries=SEARCH_COUNTRIES,  # 37 countries; another is a 422 and a resend
)
INFO = ProviderInfo(
    id="brave",
    label="Brave",
    kind="api",
    description="Requires BRAVE_API_KEY",
    docs_url="https://api-dashboard.search.brave.com/app/documentation/web-search/get-started",
    env_vars=("BRAVE_API_KEY",),
    honours=honours(_FILTERS),
    default_results=DEFAULT_RESULTS,
    max_results=MAX_RESULTS,
    index="brave",
    filters=_FILTERS,
)


class BraveProvider(ProtocolProvider):
    """The Brave Search API provider (see the module docstring for the wire details)."""

    info = INFO
    errors = ErrorMap(code=error_code, codes=dict.fromkeys(TOKEN_ERRORS, AuthorizationError))
    max_response_bytes = MAX_RESPONSE_BYTES

    def build_request(self, params: SearchParams, context: ProviderContext) -> HttpRequest:
        """The GET request for ``params`` (raises before sending for an over-long query)."""
        key = self.require_api_key(context)
        return HttpRequest(
            method="GET",
            url=BRAVE_ENDPOINT,
            params=query_params(params, datetime.now(UTC).date()),
            headers={"Accept": "application/json", "X-Subscription-Token": key},
        )

    def follow_up(self, flow: Flow) -> HttpRequest | None:
        """Once, the same search without its optional filters after a 422 that rejected them.

        Brave answers a language or country it does not take with 422; the search is still
        worth having, so it is sent again without them and they are reported as ignored.
        """
        return resend_without(flow.last) if len(flow.exchanges) == 1 else None

    def parse(self, flow: Flow) -> SearchResponse:
        """The last page, with the filters a 422 made us drop recorded as ignored."""
        response = super().parse(flow)
        if len(flow.exchanges) == 1:
            return response
        dropped = dropped_filters(flow.exchanges[0].request.params)
        return response.model_copy(update={"filters": dropped})

    def parse_response(self, response: HttpResponse, params: SearchParams) -> SearchResponse:
        """The sources of a 2xx body, with the request id header.

        Only the fields the parser reads are decoded (:mod:`._brave_body`); a body that
        does not fit their shape is decoded whole, as before, so the sources are the same
        either way. The sources' fields are validated with the response, in one step.
        """
        data = decode_projection(response.body)
        if data is None:
            data = response.json(self.info.id, self.info.label)
        return SearchResponse.model_validate(
            {
                "provider": self.info.id,
                "sources": result_fields(data),
                "request_id": _request_id(response.headers),
                "auth_mode": "api_key",
            }
        )


def _request_id(headers: Mapping[str, str]) -> str | None:
    """``x-request-id`` (or ``request-id`` when it is absent or empty), read in one pass.

    What ``response.header("x-request-id") or response.header("request-id")`` gives, each
    name's first value by a case-insensitive match, with each header's name lower-cased
    once rather than once a look-up: without an ``x-request-id`` (the test server's
    answer, and a proxy's) that was two passes over every header.
    """
    fallback: str | None = None
    seen_preferred = seen_fallback = False
    for key, value in headers.items():
        name = key.lower()
        if name == _REQUEST_ID and not seen_preferred:
            if value:
                return value  # the first x-request-id decides, when it is not empty
            seen_preferred = True  # an empty one leaves it to request-id, as ``or`` did
        elif name == _REQUEST_ID_FALLBACK and not seen_fallback:
            fallback, seen_fallback = value, True
    return fallback
