"""Kagi Search API: Kagi's own results, plus related searches and direct answers, as JSON.

* **Endpoint:** ``POST https://kagi.com/api/v1/search`` with a JSON body
  ``{"query", "workflow": "search", "limit", "filters": {"after": "YYYY-MM-DD"}}``;
  ``filters`` is sent only with a time filter.
* **Auth:** ``Authorization: Bearer <key>`` (plus ``Content-Type`` and ``Accept:
  application/json``). The key comes from ``KAGI_API_KEY`` (or code, the config file, the
  credential store). Kagi's Search API is a closed beta: a key needs Kagi's approval.
* **Limits:** ``limit`` is ``num_search_results`` or ``limit``, default 10, clamped to
  1..40; the parsed sources are cut to the same number.
* **Time filters:** ``filters.after`` is ``date_after`` when given, else today (UTC) minus
  one day / seven days / one calendar month / one calendar year for ``recency``. A calendar
  step that lands past the end of a month is clamped to its last day (March 31 minus a month
  is February 28 or 29), where JavaScript's ``setUTCMonth`` would roll into March.
* **Results** (read in ``_kagi_parse``), v1 envelope: ``{"meta": {"trace", "id", "ms"},
  "data": {...}}``. Sources are ``data.search``, then ``data.video`` (title prefixed
  ``[Video] ``), ``data.news`` (``[News] ``) and ``data.infobox`` (``[Info] ``); each item's
  URL is the first non-empty ``url`` / ``href`` / ``link``, its title ``title`` / ``name``
  (else the URL), its snippet ``snippet`` / ``description`` / ``summary`` and its date
  ``time``. Related questions come from ``data.adjacent_question`` then
  ``data.related_search`` (``props.question``, else ``props.query``, else ``title``); the
  answer is ``data.direct_answer[0].snippet`` (else its ``title``); ``request_id`` is
  ``meta.trace``, else ``meta.id``.
* **Errors:** ``Kagi API error (<status>): <detail>`` typed by the shared classifier, where
  the detail is ``message`` / ``detail``, else ``error`` / ``errors`` (a string, or the first
  ``message`` / ``msg`` / ``code`` of a list), else the raw body; an empty body gives
  ``Kagi API error (<status>)``. A 2xx body carrying ``error`` / ``errors`` raises
  ``Kagi API error (<code or status>): <msg>``. Unreadable bodies raise
  :class:`~websearch_core.errors.ResponseParseError` with ``Kagi API returned an invalid
  response: invalid JSON`` / ``expected an object envelope`` / ``expected data to be an
  object``.

Capture vs reference: the only real bodies (``fixtures/kagi/v0_search_doc_example_*.json``,
examples from Kagi's docs) are the **v0** API (``GET https://kagi.com/api/v0/search?q=...``
with ``Authorization: Bot <key>``), whose ``data`` is a *list*: ``t: 0`` items are results
(``url``, ``title``, ``snippet``, ``published``, ``thumbnail``; older ones also ``rank``)
and a ``t: 1`` item holds ``list``, the related searches. The capture wins on parsing, so
:func:`parse_body` accepts both shapes: ``t: 0`` items become sources (``published`` is the
date) and ``t: 1`` lists become related questions; ``meta.id`` is the request id. The
request stays the v1 one the reference describes. The v0 titles and snippets carry HTML
(``<b>Steve Jobs</b>``, ``&amp;``, ``&#39;``, ``&nbsp;``), so titles and snippets of either
shape are reduced to plain text (tags stripped, entities decoded, whitespace collapsed).

Docs: https://help.kagi.com/kagi/api/search.html
"""

import json
from collections.abc import Mapping
from datetime import UTC, date, datetime, timedelta
from typing import Any, Final

from dateutil.relativedelta import relativedelta

from ..errors import ResponseParseError, SearchProviderError
from ..filters import QUERY_OPERATORS, FilterSupport
from ..models import Recency, SearchParams, SearchResponse
from ..transport import HttpRequest, HttpResponse, classify_http_error, raise_for_status
from ._kagi_parse import DEFAULT_RESULTS, INVALID, body_error, error_detail, http_status, parse_body
from .base import ErrorMap, ProtocolProvider, ProviderContext, ProviderInfo, clamp_count

__all__ = [
    "INFO",
    "KAGI_ENDPOINT",
    "KagiProvider",
    "after_date",
    "error_detail",
    "parse_body",
    "request_body",
]

KAGI_ENDPOINT: Final = "https://kagi.com/api/v1/search"
MAX_RESULTS: Final = 40

_RECENCY_STEP: Final[Mapping[Recency, timedelta | relativedelta]] = {
    "day": timedelta(days=1),
    "week": timedelta(days=7),
    "month": relativedelta(months=1),
    "year": relativedelta(years=1),
}

INFO = ProviderInfo(
    id="kagi",
    label="Kagi",
    kind="api",
    description="Requires KAGI_API_KEY and Kagi Search API beta access",
    docs_url="https://help.kagi.com/kagi/api/search.html",
    env_vars=("KAGI_API_KEY",),
    honours=frozenset({"query", "recency", "limit", "num_search_results", "date_after"}),
    default_results=DEFAULT_RESULTS,
    max_results=MAX_RESULTS,
    index="kagi",
    filters=FilterSupport(native=frozenset({"date_after", "recency"}), query=QUERY_OPERATORS),
)


def after_date(params: SearchParams, today: date) -> date | None:
    """The ``filters.after`` date for ``params``, or ``None`` for no time filter.

    Args:
        params: The request; ``date_after`` wins over ``recency``.
        today: Today's date in UTC.

    Example:
        >>> after_date(SearchParams(query="x", recency="month"), date(2024, 3, 31))
        datetime.date(2024, 2, 29)
    """
    if params.date_after is not None:
        return params.date_after
    if params.recency is None:
        return None
    result: date = today - _RECENCY_STEP[params.recency]
    return result


def request_body(params: SearchParams, today: date) -> dict[str, Any]:
    """The JSON body Kagi receives for ``params`` (pure).

    Example:
        >>> request_body(SearchParams(query="x", limit=50), date(2026, 1, 1))
        {'query': 'x', 'workflow': 'search', 'limit': 40}
    """
    body: dict[str, Any] = {
        "query": params.query,
        "workflow": "search",
        "limit": clamp_count(params.result_count, DEFAULT_RESULTS, MAX_RESULTS),
    }
    after = after_date(params, today)
    if after is not None:
        body["filters"] = {"after": after.isoformat()}
    return body


def _body_failure(response: HttpResponse, message: str, code: Any) -> SearchProviderError:
    """The error a 2xx body's ``error`` / ``errors`` stands for (no status says it)."""
    label = code if isinstance(code, str | int) and not isinstance(code, bool) else None
    text = f"Kagi API error ({label if label is not None else response.status}): {message}"
    status = http_status(code)
    if status is not None:
        # The body names an HTTP failure: classify it exactly as that status would be.
        try:
            raise_for_status(
                INFO.id,
                HttpResponse(status=status, body=response.body, headers=response.headers),
                text,
            )
        except SearchProviderError as error:
            return error
    classified = classify_http_error(INFO.id, response.status, message)
    return classified or SearchProviderError(INFO.id, text, response.status)


class KagiProvider(ProtocolProvider):
    """The Kagi Search API provider (see the module docstring for the wire details)."""

    info = INFO
    errors = ErrorMap(prefix="Kagi API error", detail=error_detail)

    def build_request(self, params: SearchParams, context: ProviderContext) -> HttpRequest:
        """The v1 POST request for ``params``."""
        key = self.require_api_key(context)
        return HttpRequest(
            method="POST",
            url=KAGI_ENDPOINT,
            headers={
                "Authorization": f"Bearer {key}",
                "Content-Type": "application/json",
                "Accept": "application/json",
            },
            json=request_body(params, datetime.now(UTC).date()),
        )

    def parse_response(self, response: HttpResponse, params: SearchParams) -> SearchResponse:
        """The sources, related questions, answer and request id of a 2xx body.

        Raises:
            SearchProviderError: The body reports an error (typed like a failed status).
            ResponseParseError: The body is not a Kagi response.
        """
        try:
            envelope = json.loads(response.body)
        except ValueError:
            raise ResponseParseError(self.info.id, f"{INVALID}: invalid JSON", 502) from None
        message, code = body_error(envelope)
        if message:
            raise _body_failure(response, message, code)
        limit = clamp_count(params.result_count, DEFAULT_RESULTS, MAX_RESULTS)
        return parse_body(envelope, limit)
