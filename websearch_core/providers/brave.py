"""Brave Search API: Brave's own independent web index, as JSON.

* **Endpoint:** ``GET https://api.search.brave.com/res/v1/web/search`` with ``q``,
  ``count``, ``extra_snippets=true``, ``text_decorations=false``, ``safesearch=moderate``
  and, when asked, ``freshness``, ``country`` and ``search_lang``.
* **Auth:** header ``X-Subscription-Token: <key>`` (plus ``Accept: application/json``).
  The key comes from ``BRAVE_API_KEY`` (or code, the config file, the credential store).
* **Limits:** ``count`` is ``num_search_results`` or ``limit``, default 10, at most 20.
  A query longer than 500 characters (UTF-16 code units) is refused before any request,
  as Brave would refuse it. Success bodies are capped at 2 MiB (or the configured cap, if
  smaller).
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
* **Errors:** ``Brave API error (<status>): <body>`` after the shared classifier (so a 401
  reads ``Brave authorization failed (401) ...``).

Quirks:

* The real capture (``fixtures/brave/web_search_laravel_2024.json``) has HTML entities in
  descriptions (``Twitter&#x27;s``) besides the ``<strong>`` highlighting; the reference only
  says tags are stripped, so entities are decoded here as well. That capture was made without
  ``extra_snippets`` (every result has ``extra_snippets`` missing or null) and has ``age`` as
  either ``May 1, 2023`` or ``2 days ago``; ``page_age`` is ISO without a time zone.
* Brave answers a wrong or malformed key with HTTP 422 and error code
  ``SUBSCRIPTION_TOKEN_INVALID`` rather than 401, so that case is raised as an
  :class:`~websearch_core.errors.AuthorizationError` (status 422) here.
* ``search_lang`` takes Brave's own codes, which are not all BCP 47 (Japanese is ``jp``,
  Chinese is ``zh-hans`` / ``zh-hant``); a language Brave does not list is not sent.

Docs: https://api-dashboard.search.brave.com/app/documentation/web-search/get-started
"""

import json
from collections.abc import Mapping
from datetime import UTC, date, datetime

from ..errors import AuthorizationError, SearchProviderError
from ..filters import QUERY_OPERATORS, FilterSupport
from ..format import utf16_len
from ..models import AppliedFilter, FilterName, SearchParams, SearchResponse
from ..transport import HttpRequest, HttpResponse, error_head
from ._brave_parse import iso_published_date, parse_results, parse_source
from .base import ErrorMap, Flow, ProtocolProvider, ProviderContext, ProviderInfo, clamp_count

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

BRAVE_ENDPOINT = "https://api.search.brave.com/res/v1/web/search"
DEFAULT_RESULTS = 10
MAX_RESULTS = 20
MAX_QUERY_LENGTH = 500
"""In UTF-16 code units, as Brave (and the spec's JavaScript) counts them."""
MAX_RESPONSE_BYTES = 2 * 1024 * 1024

_RECENCY = {"day": "pd", "week": "pw", "month": "pm", "year": "py"}
_EPOCH = date(1970, 1, 1)
_TOKEN_ERRORS = frozenset({"SUBSCRIPTION_TOKEN_INVALID", "SUBSCRIPTION_TOKEN_MISSING"})
_OPTIONAL_FILTERS: dict[str, FilterName] = {"search_lang": "language", "country": "country"}
"""Query parameters Brave may reject with 422, and the filter each one carries."""


_SEARCH_LANGS = frozenset(
    {
        "ar", "eu", "bn", "bg", "ca", "zh-hans", "zh-hant", "hr", "cs", "da", "nl", "en",
        "en-gb", "et", "fi", "fr", "gl", "de", "el", "gu", "he", "hi", "hu", "is", "it",
        "jp", "kn", "ko", "lv", "lt", "ms", "ml", "mr", "nb", "pl", "pt-br", "pt-pt", "pa",
        "ro", "ru", "sr", "sk", "sl", "es", "sv", "ta", "te", "th", "tr", "uk", "vi",
    }
)  # fmt: skip
"""Brave's documented ``search_lang`` codes."""
_LANG_ALIASES = {"ja": "jp", "no": "nb", "nn": "nb", "iw": "he"}
_TRADITIONAL_CHINESE = frozenset({"hant", "tw", "hk", "mo"})

INFO = ProviderInfo(
    id="brave",
    label="Brave",
    kind="api",
    description="Requires BRAVE_API_KEY",
    docs_url="https://api-dashboard.search.brave.com/app/documentation/web-search/get-started",
    env_vars=("BRAVE_API_KEY",),
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
        }
    ),
    default_results=DEFAULT_RESULTS,
    max_results=MAX_RESULTS,
    index="brave",
    filters=FilterSupport(
        native=frozenset({"date_after", "date_before", "recency", "language", "country"}),
        query=QUERY_OPERATORS,
    ),
)


def freshness(params: SearchParams, today: date) -> str | None:
    """Brave's ``freshness`` value for ``params``, or ``None`` for no time filter.

    Args:
        params: The request; ``date_after`` / ``date_before`` win over ``recency``.
        today: Today's date in UTC, the open end of a ``date_after``-only range.

    Example:
        >>> freshness(SearchParams(query="x", recency="week"), date(2026, 1, 1))
        'pw'
        >>> freshness(SearchParams(query="x", date_after=date(2025, 3, 1)), date(2026, 1, 1))
        '2025-03-01to2026-01-01'
    """
    if params.date_after is not None or params.date_before is not None:
        start = params.date_after or _EPOCH
        end = params.date_before or today
        return f"{start.isoformat()}to{end.isoformat()}"
    if params.recency is not None:
        return _RECENCY[params.recency]
    return None


def brave_search_lang(language: str) -> str | None:
    """Brave's ``search_lang`` code for a BCP 47 tag, or ``None`` when Brave has none.

    Example:
        >>> brave_search_lang("pt-BR"), brave_search_lang("ja"), brave_search_lang("en-US")
        ('pt-br', 'jp', 'en')
    """
    primary, *subtags = language.lower().split("-")
    if primary == "zh":
        return "zh-hant" if _TRADITIONAL_CHINESE.intersection(subtags) else "zh-hans"
    if primary == "pt":
        return "pt-br" if "br" in subtags else "pt-pt"
    if primary == "en" and "gb" in subtags:
        return "en-gb"
    code = _LANG_ALIASES.get(primary, primary)
    return code if code in _SEARCH_LANGS else None


def query_params(params: SearchParams, today: date) -> list[tuple[str, str]]:
    """The query string Brave receives for ``params`` (pure).

    Raises:
        SearchProviderError: The query is longer than Brave accepts (status 400).
    """
    if utf16_len(params.query) > MAX_QUERY_LENGTH:
        raise SearchProviderError(
            INFO.id, f"Brave search queries cannot exceed {MAX_QUERY_LENGTH} characters", 400
        )
    count = clamp_count(params.result_count, DEFAULT_RESULTS, MAX_RESULTS)
    query: list[tuple[str, str]] = [
        ("q", params.query),
        ("count", str(count)),
        ("extra_snippets", "true"),
        ("text_decorations", "false"),
        ("safesearch", "moderate"),
    ]
    window = freshness(params, today)
    if window is not None:
        query.append(("freshness", window))
    if params.country is not None:
        query.append(("country", params.country.upper()))
    if params.language is not None:
        search_lang = brave_search_lang(params.language)
        if search_lang is not None:
            query.append(("search_lang", search_lang))
    return query


def _error_code(body: str) -> str | None:
    try:
        data = json.loads(body)
    except ValueError:
        return None
    if not isinstance(data, Mapping):
        return None
    error = data.get("error")
    errors = data.get("errors")
    if not isinstance(error, Mapping) and isinstance(errors, list) and errors:
        error = errors[0]
    code = error.get("code") if isinstance(error, Mapping) else None
    return code if isinstance(code, str) else None


class BraveProvider(ProtocolProvider):
    """The Brave Search API provider (see the module docstring for the wire details)."""

    info = INFO
    errors = ErrorMap(code=_error_code, codes=dict.fromkeys(_TOKEN_ERRORS, AuthorizationError))
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
        last = flow.last
        if last.response.status != 422 or len(flow.exchanges) > 1:
            return None
        if _error_code(error_head(last.response.as_http())) in _TOKEN_ERRORS:
            return None
        kept = [(k, v) for k, v in last.request.params if k not in _OPTIONAL_FILTERS]
        if len(kept) == len(last.request.params):
            return None
        return HttpRequest(
            method=last.request.method,
            url=last.request.url,
            params=kept,
            headers=last.request.headers,
        )

    def parse(self, flow: Flow) -> SearchResponse:
        """The last page, with the filters a 422 made us drop recorded as ignored."""
        last = flow.last.response
        http = last.as_http()
        response = self.parse_response(http, flow.params)
        if len(flow.exchanges) == 1:
            return response
        sent = dict(flow.exchanges[0].request.params)
        dropped = tuple(
            AppliedFilter(name=name, value=sent[param], applied=("ignored",))
            for param, name in _OPTIONAL_FILTERS.items()
            if param in sent
        )
        return response.model_copy(update={"filters": dropped})

    def parse_response(self, response: HttpResponse, params: SearchParams) -> SearchResponse:
        """The sources of a 2xx body, with the request id header."""
        data = response.json(self.info.id, self.info.label)
        return SearchResponse(
            provider=self.info.id,
            sources=parse_results(data),
            request_id=response.header("x-request-id") or response.header("request-id"),
            auth_mode="api_key",
        )
