"""Synthetic's search API as the simulator speaks it: ``POST /v2/search`` with ``{query}``.

The success body is the documented ``{"results": [{"url", "title", "text", "published"}]}``
with ``published`` as an ISO 8601 timestamp in milliseconds (``2026-01-01T00:00:00.000Z``);
like the real API it takes no count and serves every result. A request without a bearer
token gets a 401, a body without a query a 400 and any other path a 404, each as
``{"error": "<message>"}``. The API has no bot challenge, so
:meth:`SyntheticProtocol.challenge` is a plain 403.
"""

from datetime import UTC, datetime
from typing import Any

from aiohttp import web

from ..simulator import RecordedRequest, SimResult
from ._common import bearer_token

__all__ = ["SyntheticProtocol"]


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status)


def _published(value: str | None) -> str | None:
    if not value:
        return None
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        return value
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _result(result: SimResult) -> dict[str, Any]:
    return {
        "url": result.url,
        "title": result.title,
        "text": result.snippet,
        "published": _published(result.published),
    }


class SyntheticProtocol:
    """Synthetic's search JSON, its error body, a 403 and a wrong-shaped body."""

    def answer(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        """Every result for the query in the JSON body."""
        if not bearer_token(request):
            return _error(401, "Invalid API key")
        if request.method != "POST" or request.path.rstrip("/") != "/v2/search":
            return _error(404, "Not found")
        try:
            body = request.json()
        except ValueError:
            return _error(400, "Invalid JSON body")
        query = body.get("query") if isinstance(body, dict) else None
        if not isinstance(query, str) or not query.strip():
            return _error(400, "query is required")
        payload = {"results": [_result(result) for result in results]}
        return web.json_response(payload)

    def challenge(self) -> web.Response:
        """The API has no challenge page: a bare 403."""
        return web.Response(status=403, text="Forbidden")

    def malformed(self) -> web.Response:
        """A 200 JSON body whose ``results`` is a string."""
        return web.Response(text='{"results": "unavailable"}', content_type="application/json")
