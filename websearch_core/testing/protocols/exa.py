"""Exa as the simulator speaks it: the ``/search`` API and the keyless remote MCP tool.

``POST /search`` answers in the shape of the documentation capture
``fixtures/exa/search_doc_example_latest_llm_research.json``: ``{"requestId",
"resolvedSearchType", "results": [{"id", "title", "url", "publishedDate", "author",
"summary"?, "text"?, "highlights"?}], "searchType", "costDollars"}``. ``numResults``
(default 10, at most 100), ``includeDomains`` / ``excludeDomains`` (declared as
:attr:`ExaProtocol.operators`, so a test can make them leak) and
``startPublishedDate`` / ``endPublishedDate`` are applied; a ``userLocation`` that is not
a two-letter country code is a 400 (docs.exa.ai/reference/search); ``summary``, ``text`` and
``highlights`` are present only when ``contents`` asked for them, as with the real API. A
request without ``x-api-key`` gets a 401 ``{"requestId", "error", "tag"}`` body.

``POST /mcp?tools=web_search_exa`` is a stateless JSON-RPC endpoint: a ``tools/call`` of
``web_search_exa`` gets one SSE ``message`` event whose result holds the plain-text listing
(``Title:`` / ``URL:`` / ``Published Date:`` / ``Author:`` / ``Text:`` sections separated
by blank lines). ``numResults`` defaults to 8; ``site:`` and ``-site:`` directives in the
query filter by domain. A client that does not accept both ``application/json`` and
``text/event-stream`` gets a 406, as from a streamable-HTTP MCP server; an unknown method
or tool gets a JSON-RPC error. With :attr:`ExaProtocol.keyless_calls` set, the calls after
that many get the keyless tier's rate limit the way Exa's MCP server sends it: not an HTTP
429 but a 200 reply whose result is a tool error (``isError``) with the text ``You've hit
Exa's free MCP rate limit. ...`` (exa-labs/exa-mcp-server ``src/utils/errorHandler.ts``).

The shared handler finds no query in a JSON-RPC body, so the MCP answer reads it from the
request itself and, when the results are the simulator's query-derived defaults, derives
them again from that query. The API has no bot challenge, so :meth:`ExaProtocol.challenge`
is a plain 403; :meth:`ExaProtocol.malformed` is JSON cut off mid-document, which both the
API and the MCP parser must reject.
"""

import hashlib
import json
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web

from ..simulator import RecordedRequest, SimResult, default_results
from ._common import is_country_code
from ._operators import DomainLists, Operators

__all__ = ["FREE_RATE_LIMIT_TEXT", "MCP_NO_RESULTS_TEXT", "ExaProtocol"]

_API_DEFAULT = 10
_API_MAX = 100
_MCP_DEFAULT = 8


def _request_id(query: str) -> str:
    return hashlib.md5(query.encode("utf-8"), usedforsecurity=False).hexdigest()


def _served(query: str, results: list[SimResult]) -> list[SimResult]:
    """The results for ``query``: re-derived when the handler derived them from no query."""
    return default_results(query) if results == default_results("") else results


def _host(url: str) -> str:
    return (urlsplit(url).hostname or "").lower().removeprefix("www.")


def _matches(url: str, domain: str) -> bool:
    host = _host(url)
    return host == domain or host.endswith("." + domain)


def _count(value: Any, default: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        return default
    return min(_API_MAX, value)


def _when(text: str | None) -> datetime | None:
    if not text:
        return None
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def _by_domain(results: list[SimResult], include: list[str], exclude: list[str]) -> list[SimResult]:
    """The MCP tool's ``site:`` / ``-site:``: the results on (and off) those domains."""
    return [
        result
        for result in results
        if (not include or any(_matches(result.url, domain) for domain in include))
        and not any(_matches(result.url, domain) for domain in exclude)
    ]


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _filtered(results: list[SimResult], body: dict[str, Any]) -> list[SimResult]:
    start = _when(body.get("startPublishedDate"))
    end = _when(body.get("endPublishedDate"))
    kept: list[SimResult] = []
    for result in results:
        published = _when(result.published)
        if (start or end) and published is None:
            continue
        if published is not None and (
            (start is not None and published < start) or (end is not None and published > end)
        ):
            continue
        kept.append(result)
    return kept


def _api_result(result: SimResult, rank: int, contents: dict[str, Any]) -> dict[str, Any]:
    item: dict[str, Any] = {
        "id": result.url,
        "title": result.title,
        "url": result.url,
        "publishedDate": result.published,
        "author": f"Sim Author {rank}",
    }
    if "text" in contents:
        item["text"] = f"{result.title}. {result.snippet}"
    if "highlights" in contents:
        item["highlights"] = [result.snippet]
        item["highlightScores"] = [0.5]
    if "summary" in contents:
        item["summary"] = result.snippet
    return item


def _api_error(status: int, message: str, tag: str) -> web.Response:
    body = {"requestId": "0" * 32, "error": message, "tag": tag}
    return web.json_response(body, status=status)


def _listing(results: list[SimResult]) -> str:
    sections = []
    for rank, result in enumerate(results, start=1):
        lines = [f"Title: {result.title}", f"URL: {result.url}"]
        if result.published:
            lines.append(f"Published Date: {result.published}")
        lines.append(f"Author: Sim Author {rank}")
        lines.append(f"Text: {result.snippet}\nMore text from {result.title}.")
        sections.append("\n".join(lines))
    return "\n\n".join(sections)


def _rpc(message: dict[str, Any]) -> web.Response:
    text = f"event: message\ndata: {json.dumps(message)}\n\n"
    return web.Response(text=text, content_type="text/event-stream")


def _rpc_error(request_id: Any, code: int, message: str) -> web.Response:
    return _rpc({"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}})


MCP_NO_RESULTS_TEXT = "No search results found. Please try a different query."
"""What Exa's ``web_search_exa`` answers when nothing matched (exa-labs/exa-mcp-server
``src/tools/webSearch.ts``): a plain text result, no ``isError``."""
FREE_RATE_LIMIT_TEXT = (
    "You've hit Exa's free MCP rate limit. To continue using without limits, create your own"
    " Exa API key.\n\nFix: Create API key at https://dashboard.exa.ai/api-keys and pass it via"
    " the exaApiKey URL parameter."
)
"""The tool error's text; its first words are Exa's, the rest is the simulator's."""


class ExaProtocol:
    """Exa's search JSON and its remote MCP ``web_search_exa`` tool."""

    operators = Operators(domains=DomainLists("includeDomains", "excludeDomains"))
    """The search API's domain lists; the MCP tool's ``site:`` is read in :func:`_served`."""

    def __init__(self, keyless_calls: int | None = None) -> None:
        self.keyless_calls = keyless_calls
        """Tool calls the keyless tier serves before its rate limit answers (``None``: all)."""
        self._tool_calls = 0

    def answer(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        """Route to the MCP tool (``/mcp``) or the search API (anything else)."""
        if request.path.rstrip("/").endswith("/mcp"):
            return self._mcp(request, results)
        return self._api(request, results)

    def _api(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        if not (request.header("x-api-key") or "").strip():
            return _api_error(401, "Invalid API key", "INVALID_API_KEY")
        if request.method != "POST" or request.path.rstrip("/") != "/search":
            return _api_error(404, "Not found", "NOT_FOUND")
        try:
            body = request.json()
        except ValueError:
            return _api_error(400, "Request body must be JSON", "INVALID_REQUEST_BODY")
        query = body.get("query") if isinstance(body, dict) else None
        if not isinstance(query, str) or not query.strip():
            return _api_error(400, "query is required", "INVALID_REQUEST_BODY")
        location = body.get("userLocation")
        if location is not None and not is_country_code(location):
            return _api_error(
                400, "userLocation must be a two-letter ISO country code", "INVALID_REQUEST_BODY"
            )
        contents = _object(body.get("contents"))
        served = _filtered(results, body)[: _count(body.get("numResults"), _API_DEFAULT)]
        payload = {
            "requestId": _request_id(query),
            "resolvedSearchType": "neural",
            "results": [
                _api_result(result, rank, contents) for rank, result in enumerate(served, 1)
            ],
            "searchType": body.get("type", "auto"),
            "costDollars": {"total": 0.005},
        }
        return web.json_response(payload)

    def _mcp(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        accept = request.header("Accept") or ""
        if "application/json" not in accept or "text/event-stream" not in accept:
            return web.json_response(
                {
                    "jsonrpc": "2.0",
                    "id": None,
                    "error": {
                        "code": -32000,
                        "message": "Not Acceptable: Client must accept both application/json "
                        "and text/event-stream",
                    },
                },
                status=406,
            )
        try:
            message = request.json()
        except ValueError:
            return _rpc_error(None, -32700, "Parse error")
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            return _rpc_error(None, -32600, "Invalid Request")
        request_id = message.get("id")
        if message.get("method") != "tools/call":
            return _rpc_error(request_id, -32601, "Method not found")
        params = _object(message.get("params"))
        if params.get("name") != "web_search_exa":
            return _rpc_error(request_id, -32602, f"Tool {params.get('name')} not found")
        self._tool_calls += 1
        if self.keyless_calls is not None and self._tool_calls > self.keyless_calls:
            return _rpc(
                {
                    "jsonrpc": "2.0",
                    "id": request_id,
                    "result": {
                        "content": [{"type": "text", "text": FREE_RATE_LIMIT_TEXT}],
                        "isError": True,
                    },
                }
            )
        arguments = _object(params.get("arguments"))
        query = arguments.get("query")
        if not isinstance(query, str) or not query.strip():
            return _rpc_error(request_id, -32602, "Invalid arguments: query is required")
        words = query.split()
        include = [w[5:].lower() for w in words if w.startswith("site:")]
        exclude = [w[6:].lower() for w in words if w.startswith("-site:")]
        plain = " ".join(w for w in words if not w.startswith(("site:", "-site:")))
        served = _by_domain(_served(plain, results), include, exclude)
        served = served[: _count(arguments.get("numResults"), _MCP_DEFAULT)]
        text = _listing(served) if served else MCP_NO_RESULTS_TEXT
        return _rpc(
            {
                "jsonrpc": "2.0",
                "id": request_id,
                "result": {"content": [{"type": "text", "text": text}]},
            }
        )

    def challenge(self) -> web.Response:
        """Exa has no challenge page: a bare 403."""
        return web.Response(status=403, text="Forbidden")

    def malformed(self) -> web.Response:
        """A 200 labelled JSON whose body stops mid-document."""
        body = json.dumps({"requestId": "x", "results": [{"url": "https://a.example/"}]})
        return web.Response(text=body[: len(body) // 2], content_type="application/json")
