"""The Serper Google Search API as the simulator speaks it.

Success bodies follow the real capture ``fixtures/serper/search_amazon_knowledge_graph_2023.json``:
``{"searchParameters": {...}, "organic": [{"title", "link", "snippet", "date"?,
"position"}], "relatedSearches": [{"query"}]}``, plus ``peopleAlsoAsk`` and an
``answerBox`` built from the first result (so the answer path is exercised) and a
``credits`` count. ``num`` is honoured (default 10, at most 100) and ``gl`` / ``hl`` /
``tbs`` are echoed in ``searchParameters`` as Serper does; dates are written as Google
shows them (``Jan 5, 2026``). An ``x-request-id`` header is sent. Serper takes no domain
or file type parameter (its playground lists ``q``, ``gl``, ``hl``, ``location``, ``num``,
``page``, ``tbs`` and ``autocorrect``): ``q`` goes to Google, which reads ``site:``,
``-site:`` and ``filetype:``, so the results served keep to them
(:attr:`SerperProtocol.operators`). ``tbs`` ``qdr:d|w|m|y`` is the date window Google
applies (:meth:`SerperProtocol.date_window`).

A request without ``X-API-KEY`` gets a 403 ``{"message": "Unauthorized.", "statusCode":
403}``; a body without ``q`` gets a 400 in the same envelope. The API has no bot challenge,
so :meth:`SerperProtocol.challenge` is a plain 403.
"""

import hashlib
from datetime import datetime
from typing import Any

from aiohttp import web

from ..simulator import RecordedRequest, SimResult
from ._operators import Operators
from ._windows import ANY_DATE, DateWindow, past

__all__ = ["SerperProtocol"]

_DEFAULT_NUM = 10
_MAX_NUM = 100


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"message": message, "statusCode": status}, status=status)


def _num(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        return _DEFAULT_NUM
    return max(1, min(_MAX_NUM, value))


def _google_date(published: str | None) -> str | None:
    if not published:
        return None
    try:
        when = datetime.fromisoformat(published)
    except ValueError:
        return published
    return f"{when:%b} {when.day}, {when.year}"


def _organic(position: int, result: SimResult) -> dict[str, Any]:
    item: dict[str, Any] = {"title": result.title, "link": result.url, "snippet": result.snippet}
    shown = _google_date(result.published)
    if shown is not None:
        item["date"] = shown
    item["position"] = position
    return item


class SerperProtocol:
    """Serper's search JSON, its error envelope, a 403 and a wrong-shaped body."""

    operators = Operators(site=True, filetype=True)
    """Google's ``site:`` and ``filetype:``, read in the JSON body's ``q``."""

    def answer(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        """Organic results, an answer box, questions and related searches for the body."""
        if not (request.header("X-API-KEY") or "").strip():
            return _error(403, "Unauthorized.")
        try:
            body = request.json()
        except ValueError:
            return _error(400, "Invalid JSON body.")
        query = body.get("q") if isinstance(body, dict) else None
        if not isinstance(query, str) or not query.strip():
            return _error(400, "Missing query parameter: q")
        num = _num(body.get("num"))
        served = results[:num]
        parameters: dict[str, Any] = {"q": query, "type": "search", "num": num}
        for key in ("gl", "hl", "tbs"):
            if isinstance(body.get(key), str):
                parameters[key] = body[key]
        parameters["engine"] = "google"
        payload: dict[str, Any] = {"searchParameters": parameters}
        if served:
            first = served[0]
            payload["answerBox"] = {
                "title": first.title,
                "link": first.url,
                "snippet": f"Simulated answer about {query}.",
            }
        payload["organic"] = [_organic(i, r) for i, r in enumerate(served, start=1)]
        if served:
            payload["peopleAlsoAsk"] = [
                {
                    "question": f"What is {query}?",
                    "snippet": served[0].snippet,
                    "title": served[0].title,
                    "link": served[0].url,
                }
            ]
        payload["relatedSearches"] = [{"query": f"{query} tutorial"}, {"query": f"{query} news"}]
        payload["credits"] = 1 if num <= 10 else 2
        request_id = hashlib.sha256(query.encode("utf-8")).hexdigest()[:32]
        return web.json_response(
            payload,
            headers={"x-request-id": request_id},
        )

    def date_window(self, request: RecordedRequest) -> DateWindow:
        """The span ``tbs`` asks for (``qdr:d|w|m|y``); any date without one."""
        try:
            body = request.json()
        except ValueError:
            return ANY_DATE
        tbs = body.get("tbs") if isinstance(body, dict) else None
        if not isinstance(tbs, str) or not tbs.startswith("qdr:"):
            return ANY_DATE
        return past(tbs.removeprefix("qdr:"))

    def challenge(self) -> web.Response:
        """The API has no challenge page: a bare 403."""
        return web.Response(status=403, text="Forbidden")

    def malformed(self) -> web.Response:
        """A 200 JSON body whose ``organic`` is not a list."""
        return web.Response(
            text='{"searchParameters": {"q": "?"}, "organic": {"error": "unavailable"}}',
            content_type="application/json",
        )
