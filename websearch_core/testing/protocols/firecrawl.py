"""The Firecrawl Search API as the simulator speaks it.

Success bodies follow the real capture
``fixtures/firecrawl/v2_search_firecrawl_with_markdown.json``:
``{"success": true, "data": {"web": [{"url", "title", "description", "position"}]},
"creditsUsed": n}``, plus an ``id`` (the field the provider reads as the request id; the
capture itself has none). A request to a path ending in ``/v1/search`` (a self-hosted base
pinned to ``/v1``) gets the v1 shape instead: ``{"success": true, "data": [...]}``.
``limit`` is honoured; results carry no dates, like the real ones.

Without an ``Authorization`` header the request is served as keyless; a header that is not
``Bearer <token>`` gets Firecrawl's 401 envelope ``{"success": false, "error":
"Unauthorized: Invalid token"}``. A body without ``query``, or with a ``limit`` outside
1..100, or a ``country`` that is not a two-letter code, gets a 400 in the same envelope.
The API has no bot challenge, so :meth:`FirecrawlProtocol.challenge` is a plain 403.
"""

import hashlib
import uuid
from typing import Any

from aiohttp import web

from ..simulator import RecordedRequest, SimResult
from ._common import is_country_code
from ._operators import Operators

__all__ = ["FirecrawlProtocol"]

_DEFAULT_LIMIT = 10
_MAX_LIMIT = 100


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"success": False, "error": message}, status=status)


def _result(position: int, result: SimResult) -> dict[str, Any]:
    return {
        "url": result.url,
        "title": result.title,
        "description": result.snippet,
        "position": position,
    }


class FirecrawlProtocol:
    """Firecrawl's search JSON (v2, or v1 under ``/v1``), its error envelope and a 403."""

    operators = Operators(site=True, field="query")
    """Firecrawl's docs list ``site:`` and ``-site:`` among its query operators, and no
    ``filetype:``."""

    def answer(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        """``data.web`` (or the v1 ``data`` array) for the JSON request body."""
        authorization = request.header("Authorization")
        if authorization is not None and (
            not authorization.startswith("Bearer ") or not authorization[7:].strip()
        ):
            return _error(401, "Unauthorized: Invalid token")
        try:
            body = request.json()
        except ValueError:
            return _error(400, "Bad Request: invalid JSON body")
        query = body.get("query") if isinstance(body, dict) else None
        if not isinstance(query, str) or not query.strip():
            return _error(400, "Bad Request: query is required")
        limit = body.get("limit", _DEFAULT_LIMIT)
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= _MAX_LIMIT:
            return _error(400, "Bad Request: limit must be between 1 and 100")
        country = body.get("country")
        if country is not None and not is_country_code(country):
            return _error(400, "Bad Request: country must be an ISO 3166-1 alpha-2 code")
        served = [_result(i, r) for i, r in enumerate(results[:limit], start=1)]
        if request.path.rstrip("/").endswith("/v1/search"):
            payload: dict[str, Any] = {"success": True, "data": served}
        else:
            digest = hashlib.sha256(query.encode("utf-8")).digest()[:16]
            payload = {
                "success": True,
                "data": {"web": served},
                "creditsUsed": max(1, len(served) // 10),
                "id": str(uuid.UUID(bytes=digest, version=4)),
            }
        return web.json_response(payload)

    def challenge(self) -> web.Response:
        """The API has no challenge page: a bare 403."""
        return web.Response(status=403, text="Forbidden")

    def malformed(self) -> web.Response:
        """A 200 JSON body whose ``data.web`` is not a list."""
        return web.Response(
            text='{"success": true, "data": {"web": {"error": "unavailable"}}}',
            content_type="application/json",
        )
