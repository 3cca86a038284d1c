"""SearXNG's wire protocol for the simulator: ``GET /search?format=json``.

The success body has the shape of a real instance's JSON answer (``query``, ``results``
with ``title``/``url``/``content``/``publishedDate``/``engine``/``engines``/``positions``/
``category``, ``answers``, ``corrections``, ``infoboxes``, ``suggestions``,
``unresponsive_engines``). It behaves like a real instance where a provider can get it
wrong:

* a request without ``format=json`` gets the HTML results page;
* a format missing from :attr:`SearxngProtocol.formats` (``search.formats`` of the
  instance's ``settings.yml``) gets Flask's HTML ``403 Forbidden`` page;
* a path other than ``[/prefix]/search`` (``/search/search`` among them) gets Flask's HTML
  ``404 Not Found`` page;
* a ``time_range`` or ``language`` SearXNG does not know gets ``400`` with
  ``{"error": ...}``, as its parameter check answers;
* a query with a ``!!`` token is redirected (``302``) off the instance, as external bangs
  and the bare ``!!`` are.

The extra sections (:attr:`SearxngProtocol.answers` and the rest) are served as set, so
tests can drive the partial-result, infobox and correction paths.
"""

import html
import json
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from aiohttp import web

from ..simulator import RecordedRequest, SimResult
from ._operators import Operators

__all__ = ["CHALLENGE_PAGE", "SearxngProtocol"]

TIME_RANGES = frozenset({"", "None", "day", "week", "month", "year"})
_LANGUAGE = re.compile(r"^(?:all|auto|[a-z]{2,3}(?:-[A-Za-z]{2,4})?)$")

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

FORBIDDEN_PAGE = (
    "<!doctype html>\n<html lang=en>\n<title>403 Forbidden</title>\n<h1>Forbidden</h1>\n"
    "<p>You don't have the permission to access the requested resource. It is either "
    "read-protected or not readable by the server.</p>\n"
)
"""What Flask (``flask.abort(403)``) serves when the format is not enabled."""

NOT_FOUND_PAGE = (
    "<!doctype html>\n<html lang=en>\n<title>404 Not Found</title>\n<h1>Not Found</h1>\n"
    "<p>The requested URL was not found on the server. If you entered the URL manually "
    "please check your spelling and try again.</p>\n"
)
"""Flask's page for a route the instance does not have."""


def _html_results_page(query: str) -> str:
    escaped = html.escape(query)
    return (
        "<!DOCTYPE html><html><head><title>"
        f"{escaped} - SearXNG</title></head><body><div id='results'>"
        f"<p>HTML results for {escaped}</p></div></body></html>"
    )


def _is_search_path(path: str) -> bool:
    return path.endswith("/search") and not path.endswith("/search/search")


def _parameter_error(name: str, value: str) -> web.Response:
    message = f'Invalid value "{value}" for parameter {name}'
    return web.json_response({"error": message}, status=400)


@dataclass
class SearxngProtocol:
    """Answers like a SearXNG instance; the fields are its settings and extra sections."""

    operators = Operators(site=True)
    """SearXNG passes ``site:`` on to its engines; ``filetype:`` they read unevenly (the
    core checks it itself and never sends it)."""

    formats: tuple[str, ...] = ("html", "json")
    """``search.formats`` of the instance: a format outside it is refused with 403."""
    engines: tuple[str, ...] = ("brave", "google")
    """Engines the results come from: the first result from all, the rest one each in turn."""
    answers: list[Any] = field(default_factory=list)
    corrections: list[str] = field(default_factory=list)
    infoboxes: list[dict[str, Any]] = field(default_factory=list)
    unresponsive_engines: list[list[str]] = field(default_factory=list)
    suggests: bool = True
    """Whether the answer suggests two related queries, as most instances do; off, an
    answer whose results are all dropped has nothing else a model could read."""

    def _suggestions(self, query: str) -> list[str]:
        """Two related queries, unless the instance is set to suggest none."""
        return [f"{query} tutorial", f"{query} examples"] if query and self.suggests else []

    def _result(self, position: int, result: SimResult) -> dict[str, Any]:
        engines = (
            list(self.engines)
            if position == 1
            else [self.engines[(position - 2) % len(self.engines)]]
        )
        return {
            "template": "default.html",
            "url": result.url,
            "title": result.title,
            "content": result.snippet,
            "publishedDate": result.published,
            "thumbnail": "",
            "engine": engines[0],
            "engines": engines,
            "positions": [position] * len(engines),
            "score": round(len(engines) / position, 4),
            "category": "general",
        }

    def answer(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        """The JSON search answer carrying ``results``, or the instance's refusal."""
        params = request.query_dict()
        query = params.get("q", "")
        output = params.get("format", "html")
        if not _is_search_path(request.path):
            return web.Response(status=404, text=NOT_FOUND_PAGE, content_type="text/html")
        if output not in self.formats:
            return web.Response(status=403, text=FORBIDDEN_PAGE, content_type="text/html")
        if any(token.startswith("!!") for token in query.split()):
            rest = " ".join(token for token in query.split() if not token.startswith("!!"))
            raise web.HTTPFound(f"https://external.example/search?q={quote(rest)}")
        if output != "json":
            return web.Response(text=_html_results_page(query), content_type="text/html")
        time_range = params.get("time_range", "")
        if time_range not in TIME_RANGES:
            return _parameter_error("time_range", time_range)
        language = params.get("language")
        if language is not None and not _LANGUAGE.match(language):
            return _parameter_error("language", language)
        payload: dict[str, Any] = {
            "query": query,
            "number_of_results": 0,
            "results": [self._result(i, result) for i, result in enumerate(results, start=1)],
            "answers": self.answers,
            "corrections": self.corrections,
            "infoboxes": self.infoboxes,
            "suggestions": self._suggestions(query),
            "unresponsive_engines": self.unresponsive_engines,
        }
        return web.json_response(payload)

    def challenge(self) -> web.Response:
        """A ``200`` HTML "Verifying your request" bot check, as public instances serve."""
        return web.Response(text=CHALLENGE_PAGE, content_type="text/html")

    def malformed(self) -> web.Response:
        """A ``200`` labelled JSON whose body is cut off mid-document."""
        body = json.dumps({"query": "x", "results": [{"url": "https://a.example"}]})
        return web.Response(text=body[: len(body) // 2], content_type="application/json")
