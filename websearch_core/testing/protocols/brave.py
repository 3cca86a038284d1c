"""The Brave Search API as the simulator speaks it.

Success bodies follow the shape of the real capture ``fixtures/brave/web_search_laravel_2024.json``:
``{"query": {...}, "mixed": {...}, "type": "search", "web": {"type": "search", "results": [...],
"family_friendly": true}}``, each result with ``title``, ``url``, ``description``,
``page_age`` (ISO, no time zone), ``age``, ``meta_url`` and ``profile``. As in the capture,
``age`` is written out (``January 5, 2026``) for older pages and relative (``2 days ago``)
for pages from the last week. ``count`` is honoured, and an ``x-request-id`` header is sent.

A request without ``X-Subscription-Token`` gets Brave's 422 ``SUBSCRIPTION_TOKEN_INVALID``
error body (Brave answers a bad key with 422, not 401); a request without ``q`` gets a 422
validation error. The API has no bot challenge, so :meth:`BraveProtocol.challenge` is a
plain 403.
"""

import hashlib
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web

from ..simulator import RecordedRequest, SimResult
from ._common import clamped_count
from ._operators import Operators

__all__ = ["BraveProtocol"]

_MAX_COUNT = 20
_RELATIVE_WINDOW = timedelta(days=7)


def _error(status: int, code: str, detail: str) -> web.Response:
    body = {
        "type": "ErrorResponse",
        "error": {
            "id": "00000000-0000-4000-8000-000000000000",
            "status": status,
            "code": code,
            "detail": detail,
            "meta": {"component": "authentication" if "TOKEN" in code else "api"},
        },
        "time": 1767225600,
    }
    return web.json_response(body, status=status)


def _dates(published: str | None) -> tuple[str | None, str | None]:
    """``(page_age, age)`` as Brave writes them, from an ISO timestamp."""
    if not published:
        return None, None
    try:
        when = datetime.fromisoformat(published)
    except ValueError:
        return None, published
    page_age = when.replace(tzinfo=None).isoformat(timespec="seconds")
    elapsed = datetime.now(UTC) - (when if when.tzinfo else when.replace(tzinfo=UTC))
    if timedelta(0) <= elapsed < _RELATIVE_WINDOW:
        days = elapsed.days
        if days == 0:
            hours = int(elapsed.total_seconds() // 3600)
            return page_age, f"{hours} hour{'' if hours == 1 else 's'} ago"
        return page_age, f"{days} day{'' if days == 1 else 's'} ago"
    return page_age, f"{when:%B} {when.day}, {when.year}"


def _result(result: SimResult) -> dict[str, Any]:
    parts = urlsplit(result.url)
    page_age, age = _dates(result.published)
    item: dict[str, Any] = {
        "title": result.title,
        "url": result.url,
        "is_source_local": False,
        "is_source_both": False,
        "description": result.snippet,
        "profile": {
            "name": parts.hostname or "",
            "url": result.url,
            "long_name": parts.hostname or "",
            "img": "",
        },
        "language": "en",
        "family_friendly": True,
        "type": "search_result",
        "subtype": "generic",
        "meta_url": {
            "scheme": parts.scheme,
            "netloc": parts.netloc,
            "hostname": parts.hostname or "",
            "favicon": "",
            "path": parts.path,
        },
    }
    if page_age is not None:
        item["page_age"] = page_age
    if age is not None:
        item["age"] = age
    return item


def _count(raw: str | None) -> int:
    return clamped_count(raw, _MAX_COUNT, _MAX_COUNT)


class BraveProtocol:
    """Brave's web-search JSON, its 422 token error, a 403 and a truncated body."""

    operators = Operators(site=True, filetype=True)
    """Brave's search-operators docs list ``site:`` and ``filetype:`` (``ext:``) in ``q``."""

    def answer(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        """``web.results`` for the query, honouring ``count``."""
        if not (request.header("X-Subscription-Token") or "").strip():
            return _error(
                422, "SUBSCRIPTION_TOKEN_INVALID", "The provided subscription token is invalid."
            )
        query = request.query_dict()
        q = query.get("q", "")
        if not q.strip():
            return _error(422, "VALIDATION", "Unable to validate request parameter(s)")
        served = results[: _count(query.get("count"))]
        body = {
            "query": {
                "original": q,
                "show_strict_warning": False,
                "is_navigational": False,
                "is_news_breaking": False,
                "spellcheck_off": True,
                "country": query.get("country", "us").lower(),
                "bad_results": False,
                "should_fallback": False,
                "postal_code": "",
                "city": "",
                "header_country": "",
                "more_results_available": len(results) > len(served),
                "state": "",
            },
            "mixed": {
                "type": "mixed",
                "main": [{"type": "web", "index": i, "all": False} for i in range(len(served))],
                "top": [],
                "side": [],
            },
            "type": "search",
            "web": {
                "type": "search",
                "results": [_result(result) for result in served],
                "family_friendly": True,
            },
        }
        request_id = hashlib.sha256(q.encode("utf-8")).hexdigest()[:32]
        return web.json_response(
            body,
            headers={"x-request-id": request_id},
        )

    def challenge(self) -> web.Response:
        """The API has no challenge page: a bare 403."""
        return web.Response(status=403, text="Forbidden")

    def malformed(self) -> web.Response:
        """A 200 whose JSON body stops half way."""
        return web.Response(
            text='{"type": "search", "web": {"type": "search", "results": [{"title": "cut',
            content_type="application/json",
        )
