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
import re
from collections.abc import Mapping
from datetime import UTC, date, datetime
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from dateutil import parser as date_parser

from ..errors import AuthorizationError, ResponseParseError, SearchProviderError
from ..format import truncate_text, utf16_len
from ..models import SearchParams, SearchResponse, SearchSource
from ..transport import HttpRequest, HttpResponse
from ._common import age_seconds_from_date, is_http_url, normalise_text
from .base import ErrorMap, ProtocolProvider, ProviderContext, ProviderInfo, clamp_count

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
MAX_URL_LENGTH = 2048
TITLE_LIMIT = 300
SNIPPET_LIMIT = 8000
PUBLISHED_LIMIT = 100
MAX_RESPONSE_BYTES = 2 * 1024 * 1024

_RECENCY = {"day": "pd", "week": "pw", "month": "pm", "year": "py"}
_EPOCH = date(1970, 1, 1)
_TOKEN_ERRORS = frozenset({"SUBSCRIPTION_TOKEN_INVALID", "SUBSCRIPTION_TOKEN_MISSING"})
_ISO_8601 = re.compile(
    r"^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$"
)
_YEAR = re.compile(r"\b\d{4}\b")
_RELATIVE = re.compile(r"\b(?:ago|yesterday|today|now|last|next)\b", re.IGNORECASE)

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


def _normalise_url(raw: str) -> str | None:
    url = raw.strip()
    if not is_http_url(url):
        return None
    parts = urlsplit(url)
    netloc = parts.netloc if "@" in parts.netloc else parts.netloc.lower()
    path = parts.path or "/"
    normalised = urlunsplit((parts.scheme.lower(), netloc, path, parts.query, parts.fragment))
    return normalised if len(normalised) <= MAX_URL_LENGTH else None


def _text(value: Any) -> str:
    return normalise_text(value) if isinstance(value, str) else ""


def _snippet(item: Mapping[str, Any]) -> str | None:
    extras = item.get("extra_snippets")
    values = [item.get("description"), *(extras if isinstance(extras, list) else ())]
    unique: list[str] = []
    for value in values:
        text = _text(value)
        if text and text not in unique:
            unique.append(text)
    if not unique:
        return None
    return truncate_text("\n".join(unique), SNIPPET_LIMIT)


def iso_published_date(text: str | None) -> str | None:
    """``text`` as an ISO 8601 date, or ``None`` when it holds no absolute date.

    Text already in ISO 8601 is returned as written; a written-out date (``May 1, 2023``,
    with a four-digit year) becomes ``YYYY-MM-DD``, or a full timestamp when it carries a
    time. Relative text (``2 days ago``) is not an absolute date.

    Example:
        >>> iso_published_date("May 1, 2023"), iso_published_date("2023-05-01T20:10:05")
        ('2023-05-01', '2023-05-01T20:10:05')
        >>> iso_published_date("2 days ago") is None
        True
    """
    if not text:
        return None
    if _ISO_8601.match(text):
        try:
            datetime.fromisoformat(text)
        except ValueError:
            return None  # shaped like ISO but no real date (month 13): nothing to trust
        return text
    if not _YEAR.search(text) or _RELATIVE.search(text):
        return None
    try:
        # A missing month or day is January / the 1st, as age_seconds_from_date takes it.
        when = date_parser.parse(text, default=datetime(1970, 1, 1))
    except (ValueError, OverflowError):
        return None
    if when.tzinfo is None and when.time() == datetime.min.time():
        return when.date().isoformat()
    return when.isoformat()


def _published(item: Mapping[str, Any]) -> str | None:
    """ISO 8601 from ``page_age`` or ``age`` when either is absolute, else ``age`` as text."""
    page_age = _text(item.get("page_age"))
    age = _text(item.get("age"))
    for candidate in (page_age, age):
        iso = iso_published_date(candidate)
        if iso is not None:
            return iso
    text = age or page_age
    return truncate_text(text, PUBLISHED_LIMIT) if text else None


def parse_source(item: Any, *, now: datetime | None = None) -> SearchSource | None:
    """One ``web.results[]`` entry as a source, or ``None`` when it has no usable URL.

    Args:
        item: The decoded JSON object.
        now: Reference time for ``age_seconds`` (default: now).
    """
    if not isinstance(item, Mapping):
        return None
    raw_url = item.get("url")
    url = _normalise_url(raw_url) if isinstance(raw_url, str) else None
    if url is None:
        return None
    title = _text(item.get("title")) or url
    published = _published(item)
    return SearchSource(
        title=truncate_text(title, TITLE_LIMIT),
        url=url,
        snippet=_snippet(item),
        published_date=published,
        age_seconds=age_seconds_from_date(published, now=now),
    )


def parse_results(data: Any, *, now: datetime | None = None) -> tuple[SearchSource, ...]:
    """Every usable web result of a decoded Brave body, in Brave's order.

    A body without a ``web`` section (Brave's answer when nothing matched) gives ``()``.

    Raises:
        ResponseParseError: The body is not a Brave search response.
    """
    if not isinstance(data, Mapping):
        raise ResponseParseError(INFO.id, "Brave API returned an unexpected response shape", 502)
    web = data.get("web")
    if web is None:
        return ()
    results = web.get("results") if isinstance(web, Mapping) else None
    if not isinstance(results, list):
        raise ResponseParseError(INFO.id, "Brave API returned an unexpected response shape", 502)
    sources = (parse_source(item, now=now) for item in results)
    return tuple(source for source in sources if source is not None)


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

    def parse_response(self, response: HttpResponse, params: SearchParams) -> SearchResponse:
        """The sources of a 2xx body, with the request id header."""
        data = response.json(self.info.id, self.info.label)
        return SearchResponse(
            provider=self.info.id,
            sources=parse_results(data),
            request_id=response.header("x-request-id") or response.header("request-id"),
            auth_mode="api_key",
        )
