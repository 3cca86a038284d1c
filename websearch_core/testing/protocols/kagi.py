"""The Kagi Search API (v1) as the simulator speaks it.

``POST /api/v1/search`` with a JSON body ``{"query", "workflow", "limit", "filters"}`` is
answered with the v1 envelope ``{"meta": {"trace", "ms", "node"}, "data": {"search": [...],
"related_search": [...], "direct_answer": [...]}}``: each search item has ``url``, ``title``,
``snippet`` and ``time``; ``limit`` is honoured (default 10, at most 40); two related
searches and one direct answer are derived from the query.

As in the success example of Kagi's OpenAPI description (kagisearch/kagi-api-golang
``api/openapi.yaml``, the ``steve jobs`` search), a success's ``meta`` is ``trace``,
``ms`` and ``node`` (no ``id``), and titles and snippets come
HTML-escaped (``Apple, &amp; Facts``, ``Steve&#39;s``, ``&quot;Steve&quot;``). Until stop 55
the simulator sent ``meta.id`` and plain text, so the decoding a client needs was never
exercised against it.

``filters`` holds ``after`` / ``before`` (``YYYY-MM-DD``) and ``region``, the keys of
Kagi's OpenAPI ``search_request_filters``; the two dates are the window
:meth:`KagiProtocol.date_window` lets through, and one that is not a date is a 400.

Errors come in v1's envelope, the ``errorEnvelope`` of Kagi's OpenAPI description
(kagisearch/kagi-api-golang ``api/openapi.yaml``): ``{"meta": {...}, "data": null, "error":
[{"code", "url", "message", "location"}]}`` with a string ``code``. v0 wrote ``msg`` and a
numeric ``code``; the simulator wrote that until stop 44, so the v1 shape our requests get
was never served. A request without the description's ``Authorization: Bearer <token>``
header (its ``securitySchemes.kagi`` is HTTP ``bearer``; v0's ``Bot`` included) gets the
description's own 401 example (``code "2"``, ``message "Unauthorized"``); a body without a
query, or a filter date that is not one, gets a 400 whose namespaced ``code`` is the
simulator's (the description names no 400 codes). :func:`error_body` writes the envelope
for a test's fault (a 429, a 402). The API has no bot challenge, so
:meth:`KagiProtocol.challenge` is a plain 403.
"""

import hashlib
import json
from datetime import date
from typing import Any

from aiohttp import web

from ..simulator import RecordedRequest, SimResult
from ._common import bearer_token
from ._operators import Operators
from ._windows import ANY_DATE, DateWindow, between_days

__all__ = ["KagiProtocol", "error_body"]

_DEFAULT_LIMIT = 10
_MAX_LIMIT = 40


def _meta(seed: str) -> dict[str, Any]:
    """``meta``: ``trace``, ``ms`` and ``node``, as in the description's success example.

    Errors get the same (the description's 401 example has ``id`` instead of ``trace``;
    ``meta`` "is subject to change", and no client reads it from an error).
    """
    digest = hashlib.sha256(seed.encode("utf-8")).hexdigest()
    return {"trace": f"trace-{digest[:16]}", "ms": 42, "node": "sim-east1"}


_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}
"""How Kagi's v1 writes these characters in titles and snippets (the description's example)."""


def _escaped(text: str) -> str:
    r"""``text`` HTML-escaped the way Kagi's titles and snippets are.

    Example:
        >>> _escaped("Q&A: Steve's \"book\"")
        'Q&amp;A: Steve&#39;s &quot;book&quot;'
    """
    return "".join(_ESCAPES.get(char, char) for char in text)


_ERRORS_PAGE = "https://help.kagi.com/api/errors"
"""Where v1's ``error[].url`` points, an anchor per error (the description's own links)."""


def error_body(code: str, message: str, anchor: str | None = None) -> str:
    """Kagi v1's error envelope as JSON text, for a fault or the simulator's own refusal.

    Args:
        code: The error's ``code``, a string in v1 (``"2"`` for the description's 401).
        message: The error's ``message``.
        anchor: The anchor of its ``url`` on Kagi's errors page; ``code`` by default.

    Example:
        >>> import json
        >>> json.loads(error_body("2", "Unauthorized", "unauthorized"))["error"][0]["url"]
        'https://help.kagi.com/api/errors#unauthorized'
    """
    entry = {
        "code": code,
        "url": f"{_ERRORS_PAGE}#{anchor or code}",
        "message": message,
        "location": None,
    }
    return json.dumps({"meta": _meta(message), "data": None, "error": [entry]})


def _error(status: int, code: str, message: str, anchor: str | None = None) -> web.Response:
    return web.Response(
        status=status, text=error_body(code, message, anchor), content_type="application/json"
    )


def _bad_request(message: str) -> web.Response:
    return _error(400, "search.invalid_request", message)


def _limit(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        return _DEFAULT_LIMIT
    return max(1, min(_MAX_LIMIT, value))


class _BadFilter(ValueError):
    """A ``filters`` date that is not ``YYYY-MM-DD``."""


def _filter_day(filters: dict[str, Any], key: str) -> date | None:
    value = filters.get(key)
    if value is None:
        return None
    if isinstance(value, str):
        try:
            return date.fromisoformat(value)
        except ValueError:
            pass
    raise _BadFilter(f"filters.{key} must be a YYYY-MM-DD date")


def _filters(request: RecordedRequest) -> dict[str, Any]:
    try:
        body = request.json()
    except ValueError:
        return {}
    filters = body.get("filters") if isinstance(body, dict) else None
    return filters if isinstance(filters, dict) else {}


def _window(filters: dict[str, Any]) -> DateWindow:
    """The days ``filters`` lets through; raises :class:`_BadFilter` for a non-date."""
    after, before = _filter_day(filters, "after"), _filter_day(filters, "before")
    if after is None and before is None:
        return ANY_DATE
    return between_days(after, before)


def _item(result: SimResult) -> dict[str, Any]:
    item: dict[str, Any] = {
        "url": result.url,
        "title": _escaped(result.title),
        "snippet": _escaped(result.snippet),
    }
    if result.published:
        item["time"] = result.published
    return item


class KagiProtocol:
    """Kagi's v1 search JSON, its error envelope, a 403 and a wrong-shaped body."""

    operators = Operators(site=True, filetype=True, field="query")
    """Kagi's query reads ``site:``, ``-site:`` and ``filetype:``, as its search box does
    (help.kagi.com/kagi/features/search-operators.html lists them)."""

    def answer(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        """The v1 envelope for the JSON request body, honouring ``limit``."""
        if not bearer_token(request):
            return _error(401, "2", "Unauthorized", "unauthorized")  # as in its example
        try:
            body = request.json()
        except ValueError:
            return _bad_request("Request body must be JSON")
        query = body.get("query") if isinstance(body, dict) else None
        if not isinstance(query, str) or not query.strip():
            return _bad_request("Missing query")
        try:
            _window(_filters(request))
        except _BadFilter as bad:
            return _bad_request(str(bad))
        served = results[: _limit(body.get("limit"))]
        payload = {
            "meta": _meta(query),
            "data": {
                "search": [_item(result) for result in served],
                "related_search": [
                    {"props": {"query": f"{query} tutorial"}},
                    {"props": {"query": f"{query} examples"}},
                ],
                "direct_answer": (
                    [{"title": query, "snippet": f"Simulated direct answer about {query}."}]
                    if served
                    else []
                ),
            },
        }
        return web.json_response(payload)

    def date_window(self, request: RecordedRequest) -> DateWindow:
        """The days ``filters.after`` and ``filters.before`` let through (both included).

        A date that is not one lets every result through: :meth:`answer` refuses that
        request with a 400 anyway.
        """
        try:
            return _window(_filters(request))
        except _BadFilter:
            return ANY_DATE

    def challenge(self) -> web.Response:
        """The API has no challenge page: a bare 403."""
        return web.Response(status=403, text="Forbidden")

    def malformed(self) -> web.Response:
        """A 200 JSON body whose ``data`` is a string."""
        return web.json_response({"meta": {"id": "x"}, "data": "unavailable"})
