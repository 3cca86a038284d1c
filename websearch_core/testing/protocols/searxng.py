"""SearXNG's wire protocol for the simulator: ``GET /search?format=json``.

The success body has the shape of a real instance's JSON answer (``query``, ``results``
with ``title``/``url``/``content``/``publishedDate``/``engine``, ``suggestions``,
``answers``, ``unresponsive_engines``). Like a real instance, a request without
``format=json`` gets an HTML page, so a provider that forgets the parameter fails loudly.
"""

import html
import json
from typing import Any

from aiohttp import web

from ..simulator import RecordedRequest, SimResult

__all__ = ["CHALLENGE_PAGE", "SearxngProtocol"]

SIM_ENGINE = "simulated"

CHALLENGE_PAGE = """<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="robots" content="noindex, nofollow">
    <title>searx.simulated | Verifying your request</title>
    <script src="/check/challenge.js"></script>
  </head>
  <body>
    <h1>searx.simulated | Verifying your request</h1>
    <p>This page keeps the instance usable for everyone. Your browser will be sent on to
    the results once the check passes.</p>
    <noscript>Please enable JavaScript to continue.</noscript>
  </body>
</html>
"""
"""A bot-check page in the style public instances put in front of ``/search``."""


def _html_results_page(query: str) -> str:
    escaped = html.escape(query)
    return (
        "<!DOCTYPE html><html><head><title>"
        f"{escaped} - SearXNG</title></head><body><div id='results'>"
        f"<p>HTML results for {escaped}</p></div></body></html>"
    )


def _result(position: int, result: SimResult) -> dict[str, Any]:
    return {
        "template": "default.html",
        "url": result.url,
        "title": result.title,
        "content": result.snippet,
        "publishedDate": result.published,
        "thumbnail": "",
        "engine": SIM_ENGINE,
        "engines": [SIM_ENGINE],
        "positions": [position],
        "score": round(1.0 / position, 4),
        "category": "general",
    }


class SearxngProtocol:
    """Answers like a SearXNG instance with the ``json`` output format enabled."""

    def answer(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        """The JSON search answer carrying ``results`` (HTML when JSON was not asked for)."""
        query = request.query_dict().get("q", "")
        if request.query_dict().get("format") != "json":
            return web.Response(text=_html_results_page(query), content_type="text/html")
        payload: dict[str, Any] = {
            "query": query,
            "number_of_results": 0,
            "results": [_result(i, result) for i, result in enumerate(results, start=1)],
            "answers": [],
            "corrections": [],
            "infoboxes": [],
            "suggestions": [f"{query} tutorial", f"{query} examples"] if query else [],
            "unresponsive_engines": [],
        }
        return web.json_response(payload)

    def challenge(self) -> web.Response:
        """A ``200`` HTML "Verifying your request" bot check, as public instances serve."""
        return web.Response(text=CHALLENGE_PAGE, content_type="text/html")

    def malformed(self) -> web.Response:
        """A ``200`` labelled JSON whose body is cut off mid-document."""
        body = json.dumps({"query": "x", "results": [{"url": "https://a.example"}]})
        return web.Response(text=body[: len(body) // 2], content_type="application/json")
