"""Jina's ``s.jina.ai`` search as the simulator speaks it: ``GET /<query>?count=N``.

With ``Accept: application/json`` the answer has the shape of the documentation capture
``fixtures/jina/s_jina_ai_search_doc_example.json``: ``{"code": 200, "status": 20000,
"data": [{"title", "url", "description", "content"?, "date"?, "usage": {"tokens"}}],
"meta": {"usage": {"tokens"}}}``. ``count`` is honoured (default 5, at most 20),
``X-Site`` keeps only results on its sites, which Jina reads split on ``", "``
(:attr:`JinaProtocol.operators`, so a test can make it leak), and ``content`` is left out
under
``X-Respond-With: no-content``. Without the JSON ``Accept`` header the answer is Jina's
default plain-text listing, so a client that forgets the header fails loudly.

A search that finds nothing (no results, or none on the ``X-Site`` sites) gets Jina's 422
``AssertionFailureError`` (status 42206, ``No search results available for query <q>``),
as jina-ai/reader ``src/api/searcher-serper.ts`` throws it and live clients quote it; until
stop 55 the simulator answered an empty ``data`` list, which s.jina.ai never sends. A
request without a bearer token gets Jina's 401 ``AuthenticationRequiredError`` body; a
request with no query in the path gets a 400. The query is the decoded request path (the
shared handler only looks in query parameters and bodies); when the results are the
simulator's query-derived defaults they are derived again from that query. The API has no
bot challenge, so :meth:`JinaProtocol.challenge` is a plain 403.
"""

from typing import Any

from aiohttp import web

from ..simulator import RecordedRequest, SimResult, default_results
from ._common import bearer_token, clamped_count
from ._operators import DomainLists, Operators

__all__ = ["JinaProtocol"]

_DEFAULT_COUNT = 5
_MAX_COUNT = 20


def _served(query: str, results: list[SimResult]) -> list[SimResult]:
    """The results for ``query``: re-derived when the handler derived them from no query."""
    return default_results(query) if results == default_results("") else results


def _error(status: int, name: str, code: int, message: str) -> web.Response:
    body = {
        "data": None,
        "code": status,
        "name": name,
        "status": code,
        "message": message,
        "readableMessage": f"{name}: {message}",
    }
    return web.json_response(body, status=status)


def _count(value: str | None) -> int:
    return clamped_count(value, _DEFAULT_COUNT, _MAX_COUNT)


def _item(result: SimResult, with_content: bool) -> dict[str, Any]:
    item: dict[str, Any] = {
        "title": result.title,
        "url": result.url,
        "description": result.snippet,
    }
    if with_content:
        item["content"] = f"# {result.title}\n\n{result.snippet}"
    if result.published:
        item["date"] = result.published
    item["usage"] = {"tokens": 1000 if with_content else 20}
    return item


class JinaProtocol:
    """Jina's search JSON (or text), its error envelope, a 403 and a wrong-shaped body."""

    operators = Operators(domains=DomainLists("X-Site", in_header=True, separator=", "))
    """``X-Site``: the sites, joined by ``", "``, whose pages alone are served."""

    def query_of(self, request: RecordedRequest) -> str:
        """The query, the decoded path.

        The shared handler derives the results from it before ``--site`` or a date
        window filters them; read from where it does not look, a filtered answer was
        for an empty query (``result 1``, ``https://site1.example.org/q``).
        """
        return request.path.lstrip("/")

    def answer(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        """Results for the query in the path, in JSON when JSON was asked for."""
        if not bearer_token(request):
            return _error(401, "AuthenticationRequiredError", 40103, "Authentication is required")
        if request.method != "GET":
            return _error(405, "MethodNotAllowedError", 40501, "Use GET")
        query = request.path.lstrip("/")
        if not query.strip():
            return _error(400, "ParamValidationError", 40001, "Query is required")
        served = _served(query, results)
        served = served[: _count(request.query_dict().get("count"))]
        if not served:
            return _error(
                422,
                "AssertionFailureError",
                42206,
                f"No search results available for query {query}",
            )
        with_content = (request.header("X-Respond-With") or "").lower() != "no-content"
        if "application/json" not in (request.header("Accept") or ""):
            text = "\n\n".join(
                f"[{i}] Title: {r.title}\n[{i}] URL Source: {r.url}\n[{i}] Description: {r.snippet}"
                for i, r in enumerate(served, start=1)
            )
            return web.Response(text=text, content_type="text/plain")
        data = [_item(result, with_content) for result in served]
        payload = {
            "code": 200,
            "status": 20000,
            "data": data,
            "meta": {"usage": {"tokens": sum(item["usage"]["tokens"] for item in data)}},
        }
        return web.json_response(payload)

    def challenge(self) -> web.Response:
        """The API has no challenge page: a bare 403."""
        return web.Response(status=403, text="Forbidden")

    def malformed(self) -> web.Response:
        """A 200 JSON envelope whose ``data`` is an object, not an array."""
        return web.Response(
            text='{"code": 200, "status": 20000, "data": {"error": "unavailable"}}',
            content_type="application/json",
        )
