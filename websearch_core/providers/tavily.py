"""Tavily Search API: web results plus a short generated answer, as JSON.

* **Endpoint:** ``POST https://api.tavily.com/search`` with a JSON body: ``query``,
  ``search_depth: "basic"``, ``max_results``, ``include_answer: "advanced"``,
  ``include_raw_content: false``, and when asked ``include_domains``, ``exclude_domains``,
  ``start_date`` (``date_after``), ``end_date`` (``date_before``) and ``time_range``
  (``recency``, sent only when neither date is). ``topic`` is never sent, so searches keep
  Tavily's general scope even with a recency filter.
* **Auth:** ``Authorization: Bearer <key>``; the key comes from ``TAVILY_API_KEY`` (or code,
  the config file, the credential store).
* **Limits:** ``max_results`` is ``num_search_results`` or ``limit``, default 5, clamped to
  5..20 as ``spec/web_search.md`` states (the behaviour reference says the upstream code
  clamps to 1..20; the spec is the authority here, see ``MIN_RESULTS``).
* **Retry:** when a time filter was sent and the answer came back with neither an answer nor
  a source, the request is sent once more without ``time_range``, ``start_date`` and
  ``end_date``.
* **Results:** ``answer`` (trimmed; ``null`` gives none) and ``results[]`` as sources: title
  (else the URL), URL (``http(s)`` only), ``content`` as the snippet, ``published_date``,
  and ``raw_content``, when a body has it (this request asks for none, a gateway may add
  it), as the source's page ``content``.
  ``request_id`` comes from the body.
* **Errors:** ``Tavily API error (<status>): <msg>``, where ``msg`` is the first
  ``detail`` / ``error`` / ``message`` string found anywhere in a JSON body (Tavily nests it:
  ``{"detail": {"error": "..."}}``), else the raw body, else the status phrase. The shared
  classifier still decides the error type; Tavily's own 432 (plan limit) and 433
  (pay-as-you-go limit) statuses are raised as
  :class:`~websearch_core.errors.QuotaExhaustedError`.

Quirks: both real captures (``fixtures/tavily/*.json``, keys alphabetised by the recorder)
have ``answer: null``, no ``published_date`` on any result (the reference lists the field,
but general-topic results carry none), and markdown fragments in ``content`` (``## ...``,
``**bold**``), which are passed through unchanged; they also carry ``raw_content: null``,
``score``, ``images``, ``follow_up_questions`` and ``response_time``, which are not used.

Docs: https://docs.tavily.com/documentation/api-reference/endpoint/search
"""

import http
import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from ..content.models import provided_page
from ..errors import QuotaExhaustedError, ResponseParseError
from ..filters import FilterSupport
from ..models import SearchParams, SearchResponse, SearchSource
from ..transport import HttpRequest, HttpResponse
from ._common import age_seconds_from_date, bearer_json_headers, collapse_whitespace, is_http_url
from .base import ErrorMap, Flow, ProtocolProvider, ProviderContext, ProviderInfo, clamp_count

__all__ = [
    "INFO",
    "TAVILY_ENDPOINT",
    "TavilyProvider",
    "error_message",
    "parse_answer",
    "parse_results",
    "request_body",
    "without_time_filter",
]

TAVILY_ENDPOINT = "https://api.tavily.com/search"
DEFAULT_RESULTS = 5
MIN_RESULTS = 5
"""The spec's lower bound; the reference's upstream code uses 1."""
MAX_RESULTS = 20
QUOTA_STATUSES = frozenset({432, 433})
"""Tavily's "plan limit exceeded" (432) and "pay-as-you-go limit exceeded" (433)."""

_TIME_FILTER_KEYS = ("time_range", "start_date", "end_date")
_MESSAGE_KEYS = ("detail", "error", "message")

INFO = ProviderInfo(
    id="tavily",
    label="Tavily",
    kind="api",
    description="Requires TAVILY_API_KEY",
    docs_url="https://docs.tavily.com/documentation/api-reference/endpoint/search",
    env_vars=("TAVILY_API_KEY",),
    honours=frozenset(
        {
            "query",
            "recency",
            "limit",
            "num_search_results",
            "date_after",
            "date_before",
            "include_domains",
            "exclude_domains",
        }
    ),
    default_results=DEFAULT_RESULTS,
    max_results=MAX_RESULTS,
    index="tavily",
    filters=FilterSupport(
        native=frozenset(
            {"include_domains", "exclude_domains", "date_after", "date_before", "recency"}
        )
    ),
)


def request_body(params: SearchParams) -> dict[str, Any]:
    """The JSON body Tavily receives for ``params`` (pure).

    Example:
        >>> request_body(SearchParams(query="x", recency="week"))["time_range"]
        'week'
    """
    body: dict[str, Any] = {
        "query": params.query,
        "search_depth": "basic",
        "max_results": clamp_count(
            params.result_count, DEFAULT_RESULTS, MAX_RESULTS, minimum=MIN_RESULTS
        ),
        "include_answer": "advanced",
        "include_raw_content": False,
    }
    if params.include_domains:
        body["include_domains"] = list(params.include_domains)
    if params.exclude_domains:
        body["exclude_domains"] = list(params.exclude_domains)
    if params.date_after is not None:
        body["start_date"] = params.date_after.isoformat()
    if params.date_before is not None:
        body["end_date"] = params.date_before.isoformat()
    if params.recency is not None and params.date_after is None and params.date_before is None:
        body["time_range"] = params.recency
    return body


def without_time_filter(body: Mapping[str, Any]) -> dict[str, Any] | None:
    """``body`` minus its time filter, or ``None`` when it had none (nothing to retry)."""
    if not any(key in body for key in _TIME_FILTER_KEYS):
        return None
    return {key: value for key, value in body.items() if key not in _TIME_FILTER_KEYS}


def parse_answer(data: Mapping[str, Any]) -> str | None:
    """The trimmed ``answer``, or ``None`` when it is missing, ``null`` or blank."""
    answer = data.get("answer")
    if not isinstance(answer, str):
        return None
    return answer.strip() or None


def _source(item: Any, now: datetime | None) -> SearchSource | None:
    if not isinstance(item, Mapping):
        return None
    url = item.get("url")
    if not isinstance(url, str) or not is_http_url(url.strip()):
        return None
    url = url.strip()
    title = item.get("title")
    content = item.get("content")
    published = item.get("published_date")
    published_date = (published.strip() or None) if isinstance(published, str) else None
    title = (collapse_whitespace(title) if isinstance(title, str) else "") or url
    return SearchSource(
        title=title,
        url=url,
        snippet=(content.strip() or None) if isinstance(content, str) else None,
        published_date=published_date,
        age_seconds=age_seconds_from_date(published_date, now=now),
        content=provided_page(url, title, item.get("raw_content")),
    )


def parse_results(data: Any, *, now: datetime | None = None) -> tuple[SearchSource, ...]:
    """The ``results[]`` of a decoded Tavily body as sources, in Tavily's order.

    Raises:
        ResponseParseError: The body is not a Tavily search response.
    """
    if not isinstance(data, Mapping):
        raise ResponseParseError(INFO.id, "Tavily API returned an unexpected response shape", 502)
    results = data.get("results", [])
    if results is None:
        return ()
    if not isinstance(results, list):
        raise ResponseParseError(INFO.id, "Tavily API returned an unexpected response shape", 502)
    sources = (_source(item, now) for item in results)
    return tuple(source for source in sources if source is not None)


def _find_message(value: Any) -> str | None:
    if isinstance(value, list):
        return next((found for found in map(_find_message, value) if found), None)
    if not isinstance(value, Mapping):
        return None
    for key in _MESSAGE_KEYS:
        text = value.get(key)
        if isinstance(text, str) and text.strip():
            return text.strip()
    preferred = [value.get(key) for key in _MESSAGE_KEYS]
    others = [item for key, item in value.items() if key not in _MESSAGE_KEYS]
    return next((found for found in map(_find_message, [*preferred, *others]) if found), None)


def error_message(status: int, body: str) -> str:
    """The ``<msg>`` of ``Tavily API error (<status>): <msg>``.

    The first ``detail`` / ``error`` / ``message`` string in a JSON body, searched depth
    first; else the raw body; else the HTTP status phrase.

    Example:
        >>> error_message(401, '{"detail": {"error": "Unauthorized: missing or invalid API key."}}')
        'Unauthorized: missing or invalid API key.'
    """
    text = body.strip()
    try:
        found = _find_message(json.loads(text)) if text else None
    except ValueError:
        found = None
    if found:
        return found
    if text:
        return text
    try:
        return http.HTTPStatus(status).phrase
    except ValueError:
        return "Unknown error"


class TavilyProvider(ProtocolProvider):
    """The Tavily search provider (see the module docstring for the wire details)."""

    info = INFO
    errors = ErrorMap(
        prefix="Tavily API error",
        detail=error_message,
        statuses=dict.fromkeys(QUOTA_STATUSES, QuotaExhaustedError),
    )

    def build_request(self, params: SearchParams, context: ProviderContext) -> HttpRequest:
        """The POST request for ``params``."""
        key = self.require_api_key(context)
        return HttpRequest(
            method="POST",
            url=TAVILY_ENDPOINT,
            headers=bearer_json_headers(key),
            json=request_body(params),
        )

    def follow_up(self, flow: Flow) -> HttpRequest | None:
        """Once, the same search without its time filter when that filter emptied the answer."""
        if len(flow.exchanges) > 1 or flow.last.response.status != 200:
            return None
        request = flow.last.request
        response = flow.last.response
        if not isinstance(request.json, Mapping) or not isinstance(response, HttpResponse):
            return None
        if self.parse_response(response, flow.params).has_renderable_content():
            return None
        retry_body = without_time_filter(request.json)
        if retry_body is None:
            return None
        return HttpRequest(
            method=request.method, url=request.url, headers=request.headers, json=retry_body
        )

    def parse_response(self, response: HttpResponse, params: SearchParams) -> SearchResponse:
        """The answer and sources of a 2xx body."""
        data = response.json(self.info.id, self.info.label)
        sources = parse_results(data)
        request_id = data.get("request_id")  # parse_results checked that data is a mapping
        return SearchResponse(
            provider=self.info.id,
            answer=parse_answer(data),
            sources=sources,
            request_id=request_id if isinstance(request_id, str) and request_id else None,
            auth_mode="api_key",
        )
