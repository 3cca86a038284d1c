"""The Tavily Search API as the simulator speaks it.

Success bodies follow the real captures in ``fixtures/tavily/``: ``{"answer", "follow_up_questions",
"images", "query", "request_id", "response_time", "results": [{"content", "raw_content",
"score", "title", "url"}]}``. ``max_results`` is honoured; ``answer`` is a string only
when ``include_answer`` was asked for and something was found, else ``null``. Like the real
general-topic results, results carry no ``published_date`` unless ``topic`` is ``"news"``.

A request without a bearer token gets Tavily's 401 body
``{"detail": {"error": "Unauthorized: missing or invalid API key."}}``; a body without a
query, or with a ``country`` that is not written as Tavily's names are (lower-case English
words such as ``united states``; an ISO code such as ``us`` is not one), gets a 400 in the
same envelope. The API has no bot challenge, so
:meth:`TavilyProtocol.challenge` is a plain 403.
"""

import hashlib
import re
import uuid
from typing import Any

from aiohttp import web

from ..simulator import RecordedRequest, SimResult
from ._common import bearer_token
from ._operators import DomainLists, Operators

__all__ = ["TavilyProtocol"]

_COUNTRY_NAME = re.compile(r"[a-z]+(?: [a-z]+)*")
_DEFAULT_RESULTS = 5
_MAX_RESULTS = 20


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"detail": {"error": message}}, status=status)


def _is_country_name(value: Any) -> bool:
    """Whether ``value`` is written as Tavily's ``country`` names are: lower-case words.

    Tavily's list runs from ``afghanistan`` to ``zimbabwe``; none of its names is shorter
    than four letters, so a two-letter code is refused, as the real enum refuses it.
    """
    return isinstance(value, str) and len(value) > 2 and _COUNTRY_NAME.fullmatch(value) is not None


def _max_results(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        return _DEFAULT_RESULTS
    return max(0, min(_MAX_RESULTS, value))


def _result(result: SimResult, rank: int, news: bool) -> dict[str, Any]:
    item: dict[str, Any] = {
        "content": result.snippet,
        "raw_content": None,
        "score": round(0.99 - rank * 0.01, 4),
        "title": result.title,
        "url": result.url,
    }
    if news and result.published:
        item["published_date"] = result.published
    return item


class TavilyProtocol:
    """Tavily's search JSON, its error envelope, a 403 and a wrong-shaped body."""

    operators = Operators(domains=DomainLists("include_domains", "exclude_domains"))
    """Tavily's domain lists: results only from (or never from) those domains."""

    def answer(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        """``results`` and an answer for the JSON request body."""
        if not bearer_token(request):
            return _error(401, "Unauthorized: missing or invalid API key.")
        try:
            body = request.json()
        except ValueError:
            return _error(400, "Invalid JSON body.")
        query = body.get("query") if isinstance(body, dict) else None
        if not isinstance(query, str) or not query.strip():
            return _error(400, "Query is missing.")
        country = body.get("country")
        if country is not None and not _is_country_name(country):
            return _error(400, f"Invalid country: {country}.")
        served = results[: _max_results(body.get("max_results"))]
        news = body.get("topic") == "news"
        answer = None
        if body.get("include_answer") and served:
            answer = f"Simulated answer about {query}, from {len(served)} sources."
        digest = hashlib.sha256(query.encode("utf-8")).digest()[:16]
        payload = {
            "answer": answer,
            "follow_up_questions": None,
            "images": [],
            "query": query,
            "request_id": str(uuid.UUID(bytes=digest, version=4)),
            "response_time": 0.42,
            "results": [_result(result, rank, news) for rank, result in enumerate(served)],
        }
        return web.json_response(payload)

    def challenge(self) -> web.Response:
        """The API has no challenge page: a bare 403."""
        return web.Response(status=403, text="Forbidden")

    def malformed(self) -> web.Response:
        """A 200 JSON body whose ``results`` is not a list."""
        return web.Response(
            text='{"answer": null, "query": "?", "results": {"error": "unavailable"}}',
            content_type="application/json",
        )
