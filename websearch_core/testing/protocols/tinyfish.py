"""The TinyFish Search API as the simulator speaks it.

``GET /?query=...&num_results=<n>&page=<p>`` is answered like the spec example
``fixtures/tinyfish/search_doc_example.json``: ``{"query", "results": [{"position",
"site_name", "title", "snippet", "url"}], "total_results", "page"}``. Pages hold at most 10
results (``num_results``, default 10); page ``p`` serves the results after the first
``p * num_results``, so a short (or empty) page marks the end, and ``page`` above 10 is a
400 as TinyFish documents. TinyFish's reference has no domain parameter: it tells callers
to scope ``query`` with ``site:`` and ``-site:``, so the results served keep to them
(:attr:`TinyFishProtocol.operators`); it lists no ``filetype:``.

Freshness follows the reference's rules: ``recency_minutes`` is an integer from 1 to
5256000, ``after_date`` / ``before_date`` are ``YYYY-MM-DD`` with ``after_date`` not later
than ``before_date``, and ``recency_minutes`` is never combined with either date; anything
else is a 400. :meth:`TinyFishProtocol.date_window` is the window they ask for.

A request without ``X-API-Key`` gets a 401 with TinyFish's error envelope
``{"error": {"code", "message", "details"}}`` and the code TinyFish's error table gives
that case, ``MISSING_API_KEY`` ("No X-API-Key header was supplied"; the table, derived from
TinyFish's OpenAPI descriptions, is api-evangelist/tinyfish ``errors/tinyfish-error-codes.yml``,
and the search description's ``error.code`` enum lists it); until stop 55 the simulator
sent ``UNAUTHORIZED``, the code for a key not allowed a resource. A request without
``query`` gets a 400 ``INVALID_INPUT`` in the same envelope. The API has no bot
challenge, so :meth:`TinyFishProtocol.challenge` is a plain 403.
"""

import re
from collections.abc import Mapping
from datetime import UTC, date, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web

from ..simulator import RecordedRequest, SimResult
from ._operators import Operators
from ._windows import ANY_DATE, DateWindow, between_days

__all__ = ["TinyFishProtocol"]

_PAGE_SIZE = 10
_MAX_PAGE = 10
_ISO_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_MAX_RECENCY_MINUTES = 5_256_000
"""Ten years, the largest ``recency_minutes`` TinyFish's reference allows."""


class _BadFreshness(ValueError):
    """A freshness parameter TinyFish's reference refuses."""


def _error(status: int, code: str, message: str) -> web.Response:
    return web.json_response(
        {"error": {"code": code, "message": message, "details": {}}}, status=status
    )


def _integer(raw: str | None, default: int) -> int | None:
    if raw is None:
        return default
    try:
        return int(raw)
    except ValueError:
        return None


def _day(query: Mapping[str, str], key: str) -> date | None:
    raw = query.get(key)
    if raw is None:
        return None
    try:
        if _ISO_DAY.fullmatch(raw):
            return date.fromisoformat(raw)
    except ValueError:
        pass
    raise _BadFreshness(f"{key} must be YYYY-MM-DD")


def _window(query: Mapping[str, str]) -> DateWindow:
    """The freshness window ``query`` asks for; raises :class:`_BadFreshness` if refused."""
    after, before = _day(query, "after_date"), _day(query, "before_date")
    if after is not None and before is not None and after > before:
        raise _BadFreshness("after_date must be less than or equal to before_date")
    raw_minutes = query.get("recency_minutes")
    if raw_minutes is None:
        return ANY_DATE if after is None and before is None else between_days(after, before)
    if after is not None or before is not None:
        raise _BadFreshness("recency_minutes cannot be combined with after_date or before_date")
    minutes = _integer(raw_minutes, 0)
    if minutes is None or not 1 <= minutes <= _MAX_RECENCY_MINUTES:
        raise _BadFreshness("recency_minutes must be an integer from 1 to 5256000")
    return DateWindow(earliest=datetime.now(UTC) - timedelta(minutes=minutes))


def _result(result: SimResult, position: int) -> dict[str, Any]:
    return {
        "position": position,
        "site_name": urlsplit(result.url).hostname or "",
        "snippet": result.snippet,
        "title": result.title,
        "url": result.url,
    }


class TinyFishProtocol:
    """TinyFish's paged search JSON, its error envelope, a 403 and a wrong-shaped body."""

    operators = Operators(site=True, field="query")
    """``site:`` and ``-site:`` in ``query``, as docs.tinyfish.ai/search-api/reference says."""

    def answer(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        """One page of ``results`` for the query string."""
        if not (request.header("X-API-Key") or "").strip():
            return _error(401, "MISSING_API_KEY", "Missing API key")
        query = request.query_dict()
        text = query.get("query", "")
        if not text.strip():
            return _error(400, "INVALID_INPUT", 'Field "query" is required and must be a string')
        try:
            _window(query)
        except _BadFreshness as bad:
            return _error(400, "INVALID_INPUT", str(bad))
        size = _integer(query.get("num_results"), _PAGE_SIZE)
        page = _integer(query.get("page"), 0)
        if size is None or page is None or not 0 <= page <= _MAX_PAGE:
            return _error(400, "INVALID_INPUT", "Invalid pagination parameters")
        size = max(1, min(_PAGE_SIZE, size))
        start = page * size
        served = results[start : start + size]
        body = {
            "query": text,
            "results": [_result(r, start + i + 1) for i, r in enumerate(served)],
            "total_results": len(served),
            "page": page,
        }
        return web.json_response(body)

    def date_window(self, request: RecordedRequest) -> DateWindow:
        """The window ``recency_minutes`` or ``after_date`` / ``before_date`` asks for.

        A refused combination lets every result through: :meth:`answer` answers it with a
        400 anyway.
        """
        try:
            return _window(request.query_dict())
        except _BadFreshness:
            return ANY_DATE

    def challenge(self) -> web.Response:
        """The API has no challenge page: a bare 403."""
        return web.Response(status=403, text="Forbidden")

    def malformed(self) -> web.Response:
        """A 200 JSON body whose ``results`` is not a list."""
        return web.json_response({"query": "?", "results": {"error": "unavailable"}})
