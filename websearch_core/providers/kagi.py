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
* **Results (v1 envelope):** ``{"meta": {"trace", "id", "ms"}, "data": {...}}``. Sources
  are ``data.search``, then ``data.video`` (title prefixed ``[Video] ``), ``data.news``
  (``[News] ``) and ``data.infobox`` (``[Info] ``); each item's URL is the first non-empty
  ``url`` / ``href`` / ``link``, its title ``title`` / ``name`` (else the URL), its snippet
  ``snippet`` / ``description`` / ``summary`` and its date ``time``. Related questions come
  from ``data.adjacent_question`` then ``data.related_search`` (``props.question``, else
  ``props.query``, else ``title``); the answer is ``data.direct_answer[0].snippet`` (else its
  ``title``); ``request_id`` is ``meta.trace``, else ``meta.id``.
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
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime, timedelta
from typing import Any, Final

from dateutil.relativedelta import relativedelta

from ..errors import ResponseParseError, SearchProviderError
from ..models import Recency, SearchParams, SearchResponse, SearchSource
from ..transport import (
    ERROR_BODY_LIMIT,
    HttpRequest,
    HttpResponse,
    classify_http_error,
    raise_for_status,
)
from ._common import age_seconds_from_date, is_http_url, normalise_text
from .base import ProviderContext, ProviderInfo, RequestResponseProvider, clamp_count

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
DEFAULT_RESULTS: Final = 10
MAX_RESULTS: Final = 40

_RECENCY_STEP: Final[Mapping[Recency, timedelta | relativedelta]] = {
    "day": timedelta(days=1),
    "week": timedelta(days=7),
    "month": relativedelta(months=1),
    "year": relativedelta(years=1),
}
_SECTIONS: Final = (
    ("search", ""),
    ("video", "[Video] "),
    ("news", "[News] "),
    ("infobox", "[Info] "),
)
_RELATED_SECTIONS: Final = ("adjacent_question", "related_search")
_INVALID: Final = "Kagi API returned an invalid response"

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


def _first_text(item: Mapping[str, Any], keys: Sequence[str]) -> str:
    for key in keys:
        value = item.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return ""


def _source(item: Any, tag: str, now: datetime | None) -> SearchSource | None:
    if not isinstance(item, Mapping):
        return None
    url = _first_text(item, ("url", "href", "link"))
    if not is_http_url(url):
        return None
    title = normalise_text(_first_text(item, ("title", "name")))
    snippet = normalise_text(_first_text(item, ("snippet", "description", "summary")))
    published = _first_text(item, ("time", "published")) or None
    return SearchSource(
        title=f"{tag}{title or url}",
        url=url,
        snippet=snippet or None,
        published_date=published,
        age_seconds=age_seconds_from_date(published, now=now),
    )


def _related(item: Any) -> str | None:
    if not isinstance(item, Mapping):
        return None
    props = item.get("props")
    text = _first_text(props, ("question", "query")) if isinstance(props, Mapping) else ""
    return text or _first_text(item, ("title",)) or None


def _answer(data: Mapping[str, Any]) -> str | None:
    answers = data.get("direct_answer")
    first = answers[0] if isinstance(answers, list) and answers else None
    if not isinstance(first, Mapping):
        return None
    return _first_text(first, ("snippet", "title")) or None


def _list(data: Mapping[str, Any], key: str) -> list[Any]:
    value = data.get(key)
    return value if isinstance(value, list) else []


def _parse_v1(
    data: Mapping[str, Any], now: datetime | None
) -> tuple[list[SearchSource], list[str], str | None]:
    sources = [
        source
        for section, tag in _SECTIONS
        for source in (_source(item, tag, now) for item in _list(data, section))
        if source is not None
    ]
    related = [
        question
        for section in _RELATED_SECTIONS
        for question in map(_related, _list(data, section))
        if question
    ]
    return sources, related, _answer(data)


def _parse_v0(items: list[Any], now: datetime | None) -> tuple[list[SearchSource], list[str]]:
    sources: list[SearchSource] = []
    related: list[str] = []
    for item in items:
        if not isinstance(item, Mapping):
            continue
        if item.get("t") == 0:
            source = _source(item, "", now)
            if source is not None:
                sources.append(source)
        elif item.get("t") == 1:
            related.extend(
                text.strip()
                for text in _list(item, "list")
                if isinstance(text, str) and text.strip()
            )
    return sources, related


def _request_id(envelope: Mapping[str, Any]) -> str | None:
    meta = envelope.get("meta")
    if not isinstance(meta, Mapping):
        return None
    for key in ("trace", "id"):
        value = meta.get(key)
        if isinstance(value, str | int) and not isinstance(value, bool) and str(value):
            return str(value)
    return None


def parse_body(
    envelope: Any, limit: int = DEFAULT_RESULTS, *, now: datetime | None = None
) -> SearchResponse:
    """A decoded 2xx Kagi body (v1 envelope or v0 list) as a response (pure).

    Args:
        envelope: The decoded JSON.
        limit: How many sources to keep.
        now: Reference time for ``age_seconds`` (default: now).

    Raises:
        ResponseParseError: The body is not an object, or its ``data`` is neither an object
            (v1) nor a list (v0).
    """
    if not isinstance(envelope, Mapping):
        raise ResponseParseError(INFO.id, f"{_INVALID}: expected an object envelope", 502)
    data = envelope.get("data")
    answer: str | None = None
    if isinstance(data, Mapping):
        sources, related, answer = _parse_v1(data, now)
    elif isinstance(data, list):
        sources, related = _parse_v0(data, now)
    else:
        raise ResponseParseError(INFO.id, f"{_INVALID}: expected data to be an object", 502)
    return SearchResponse(
        provider=INFO.id,
        answer=answer,
        sources=tuple(sources[:limit]),
        related_questions=tuple(related),
        request_id=_request_id(envelope),
        auth_mode="api_key",
    )


def _error_entry(value: Any) -> tuple[str | None, Any]:
    """``(message, code)`` of an ``error`` / ``errors`` value: a string or a list of objects."""
    if isinstance(value, str) and value.strip():
        return value.strip(), None
    if isinstance(value, Mapping):
        value = [value]
    if not isinstance(value, list) or not value or not isinstance(value[0], Mapping):
        return None, None
    first = value[0]
    code = first.get("code")
    message = _first_text(first, ("message", "msg"))
    if not message and isinstance(code, str | int) and not isinstance(code, bool):
        message = str(code)
    return message or None, code


def _body_error(data: Any) -> tuple[str | None, Any]:
    if not isinstance(data, Mapping):
        return None, None
    for key in ("error", "errors"):
        message, code = _error_entry(data.get(key))
        if message:
            return message, code
    return None, None


def error_detail(body: str) -> str:
    """The ``<detail>`` of ``Kagi API error (<status>): <detail>`` ("" for an empty body).

    Example:
        >>> error_detail('{"meta": {}, "data": null, "error": [{"code": 1, "msg": "Bad key"}]}')
        'Bad key'
    """
    text = body.strip()
    try:
        data = json.loads(text) if text else None
    except ValueError:
        return text
    if isinstance(data, Mapping):
        direct = _first_text(data, ("message", "detail"))
        if direct:
            return direct
    message, _ = _body_error(data)
    return message or text


def _http_status(code: Any) -> int | None:
    if isinstance(code, bool):
        return None
    if isinstance(code, int):
        number = code
    elif isinstance(code, str) and code.strip().isdigit():
        number = int(code)
    else:
        return None
    return number if 400 <= number < 600 else None


class KagiProvider(RequestResponseProvider):
    """The Kagi Search API provider (see the module docstring for the wire details)."""

    info = INFO

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

    def check_response(self, response: HttpResponse) -> None:
        """Raise ``Kagi API error (<status>): <detail>`` typed by the shared classifier."""
        status = response.status
        if 200 <= status < 300:
            return
        detail = error_detail(response.text()[:ERROR_BODY_LIMIT])
        message = f"Kagi API error ({status}): {detail}" if detail else f"Kagi API error ({status})"
        raise_for_status(self.info.id, response, message)

    def parse_response(self, response: HttpResponse, params: SearchParams) -> SearchResponse:
        """The sources, related questions, answer and request id of a 2xx body.

        Raises:
            SearchProviderError: The body reports an error (typed like a failed status).
            ResponseParseError: The body is not a Kagi response.
        """
        try:
            envelope = json.loads(response.body)
        except ValueError:
            raise ResponseParseError(self.info.id, f"{_INVALID}: invalid JSON", 502) from None
        message, code = _body_error(envelope)
        if message:
            self._raise_body_error(response, message, code)
        limit = clamp_count(params.result_count, DEFAULT_RESULTS, MAX_RESULTS)
        return parse_body(envelope, limit)

    def _raise_body_error(self, response: HttpResponse, message: str, code: Any) -> None:
        label = code if isinstance(code, str | int) and not isinstance(code, bool) else None
        text = f"Kagi API error ({label if label is not None else response.status}): {message}"
        status = _http_status(code)
        if status is not None:
            # The body names an HTTP failure: classify it exactly as that status would be.
            raise_for_status(
                self.info.id,
                HttpResponse(status=status, body=response.body, headers=response.headers),
                text,
            )
        classified = classify_http_error(self.info.id, response.status, message)
        raise classified or SearchProviderError(self.info.id, text, response.status)
