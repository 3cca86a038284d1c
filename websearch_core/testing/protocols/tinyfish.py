"""The TinyFish Search API as the simulator speaks it.

``GET /?query=...&num_results=<n>&page=<p>`` is answered like the spec example
``fixtures/tinyfish/search_doc_example.json``: ``{"query", "results": [{"position",
"site_name", "title", "snippet", "url"}], "total_results", "page"}``. Pages hold at most 10
results (``num_results``, default 10); page ``p`` serves the results after the first
``p * num_results``, so a short (or empty) page marks the end, and ``page`` above 10 is a
400 as TinyFish documents. TinyFish's reference has no domain parameter: it tells callers
to scope ``query`` with ``site:`` and ``-site:``, so the results served keep to them
(:attr:`TinyFishProtocol.operators`); it lists no ``filetype:``.

A request without ``X-API-Key`` gets a 401 with TinyFish's error envelope
``{"error": {"code", "message", "details"}}``; a request without ``query`` gets a 400 in the
same envelope. The API has no bot challenge, so :meth:`TinyFishProtocol.challenge` is a
plain 403.
"""

from typing import Any
from urllib.parse import urlsplit

from aiohttp import web

from ..simulator import RecordedRequest, SimResult
from ._operators import Operators

__all__ = ["TinyFishProtocol"]

_PAGE_SIZE = 10
_MAX_PAGE = 10


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
            return _error(401, "UNAUTHORIZED", "Missing or invalid API key")
        query = request.query_dict()
        text = query.get("query", "")
        if not text.strip():
            return _error(400, "INVALID_INPUT", 'Field "query" is required and must be a string')
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

    def challenge(self) -> web.Response:
        """The API has no challenge page: a bare 403."""
        return web.Response(status=403, text="Forbidden")

    def malformed(self) -> web.Response:
        """A 200 JSON body whose ``results`` is not a list."""
        return web.json_response({"query": "?", "results": {"error": "unavailable"}})
