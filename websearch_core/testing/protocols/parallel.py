"""The Parallel Search API (``/v1beta/search``) as the simulator speaks it.

Success bodies follow the documentation example
``fixtures/parallel/v1beta_search_doc_example.json``: ``{"search_id", "results": [{"url",
"title", "publish_date", "excerpts": [...]}]}``, each result with two excerpts (the
snippet, then a second sentence) and a ``YYYY-MM-DD`` ``publish_date``. Ten results are
served whatever the request (Parallel's default count).

The query travels in ``objective`` (and ``search_queries``), which the simulator's generic
query finder does not read, so :meth:`ParallelProtocol.answer` reads ``objective`` itself and
derives the default results from it; results set on the simulated provider are served as
they are.

A request without ``x-api-key`` gets a 401 and one without ``objective`` or
``search_queries`` a 422, both in Parallel's envelope ``{"type": "error", "error":
{"ref_id", "message"}}``. The API has no bot challenge, so
:meth:`ParallelProtocol.challenge` is a plain 403.
"""

import hashlib
from typing import Any

from aiohttp import web

from ..simulator import RecordedRequest, SimResult, default_results

__all__ = ["ParallelProtocol"]

_SERVED = 10


def _search_id(seed: str) -> str:
    return "search_" + hashlib.sha256(seed.encode("utf-8")).hexdigest()[:32]


def _error(status: int, message: str) -> web.Response:
    body = {"type": "error", "error": {"ref_id": _search_id(message), "message": message}}
    return web.json_response(body, status=status)


def _result(result: SimResult) -> dict[str, Any]:
    item: dict[str, Any] = {
        "url": result.url,
        "title": result.title,
        "excerpts": [result.snippet, f"More about {result.title}."],
    }
    item["publish_date"] = result.published[:10] if result.published else None
    return item


def _objective(body: Any) -> str:
    if not isinstance(body, dict):
        return ""
    objective = body.get("objective")
    if isinstance(objective, str) and objective.strip():
        return objective
    queries = body.get("search_queries")
    if isinstance(queries, list) and queries and isinstance(queries[0], str):
        return queries[0]
    return ""


class ParallelProtocol:
    """Parallel's search JSON, its error envelope, a 403 and a non-JSON body."""

    def answer(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        """Results for the ``objective`` of the JSON request body."""
        if not (request.header("x-api-key") or "").strip():
            return _error(401, "Invalid or missing API key")
        try:
            body = request.json()
        except ValueError:
            return _error(422, "Request validation error")
        objective = _objective(body)
        if not objective.strip():
            return _error(422, "Request validation error")
        if results == default_results(""):
            # The simulator derived these from an empty query: derive them from ours.
            results = default_results(objective)
        payload = {
            "search_id": _search_id(objective),
            "results": [_result(result) for result in results[:_SERVED]],
        }
        return web.json_response(payload)

    def challenge(self) -> web.Response:
        """The API has no challenge page: a bare 403."""
        return web.Response(status=403, text="Forbidden")

    def malformed(self) -> web.Response:
        """A 200 whose body is cut off half way through the JSON."""
        return web.Response(
            text='{"search_id": "search_x", "results": [{"url": "https://example.org/cu',
            content_type="application/json",
        )
