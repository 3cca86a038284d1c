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
So does a v2 ``includeDomains`` / ``excludeDomains`` that is not an array of bare hostnames,
or both lists at once (Firecrawl's server, firecrawl/firecrawl ``apps/api/src/controllers/
v2/types.ts``: "includeDomains and excludeDomains cannot both be specified"); the lists are
applied to the results served, as the query's ``site:`` / ``-site:`` are.
The API has no bot challenge, so :meth:`FirecrawlProtocol.challenge` is a plain 403.
"""

import hashlib
import re
import uuid
from typing import Any, Final

from aiohttp import web

from ..simulator import RecordedRequest, SimResult
from ._common import is_country_code
from ._operators import DomainLists, Operators

__all__ = ["FirecrawlProtocol"]

_DEFAULT_LIMIT = 10
_MAX_LIMIT = 100
_HOSTNAME: Final = re.compile(
    r"^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$"
)
"""What the v2 schema's ``searchDomainSchema`` accepts once trimmed and lower-cased."""
_DOMAIN_KEYS: Final = ("includeDomains", "excludeDomains")


def _domains_problem(body: dict[str, Any]) -> str | None:
    """Why the v2 server would refuse ``body``'s domain lists, or ``None`` when it would not."""
    given = [key for key in _DOMAIN_KEYS if key in body]
    for key in given:
        value = body[key]
        if not isinstance(value, list) or not all(
            isinstance(item, str) and _HOSTNAME.match(item.strip().lower()) for item in value
        ):
            return f"{key}: Domain must be a valid hostname without protocol or path"
    if all(body.get(key) for key in _DOMAIN_KEYS):
        return "includeDomains and excludeDomains cannot both be specified"
    return None


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

    operators = Operators(
        site=True, field="query", domains=DomainLists("includeDomains", "excludeDomains")
    )
    """Firecrawl's docs list ``site:`` and ``-site:`` among its query operators, and no
    ``filetype:``; v2 also takes the lists as ``includeDomains`` / ``excludeDomains``."""

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
        v1 = request.path.rstrip("/").endswith("/v1/search")
        problem = None if v1 else _domains_problem(body)
        if problem is not None:
            return _error(400, f"Bad Request: {problem}")
        served = [_result(i, r) for i, r in enumerate(results[:limit], start=1)]
        if v1:
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
