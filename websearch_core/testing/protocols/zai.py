"""Z.AI's remote MCP search server as the simulator speaks it.

``POST /api/mcp/web_search_prime/mcp`` is a streamable-HTTP MCP endpoint:

* ``initialize`` answers with plain JSON and an ``Mcp-Session-Id`` header;
* ``notifications/initialized`` answers ``202 Accepted`` with no body;
* ``tools/call`` of ``webSearchPrime`` answers with one SSE ``message`` event whose result
  has a single text part holding the results *double-encoded* (a JSON string of a JSON
  list), as the live server does. Each result has ``title``, ``link``, ``content``,
  ``media``, ``icon``, ``refer`` and ``publish_date``; ``count`` (default 10, at most 50) is
  honoured.

Like the live tool, ``search_query`` is the required argument: a call without it (a
``{query, count}`` call) gets a tool result with ``isError: true`` and ``MCP error -32602:
Invalid arguments ...``, so a client that sends ``query`` has to move on to another
argument shape. A call
without the session id the server handed out gets a 400 ``Bad Request: No valid session
ID provided``; an unknown tool or method gets a JSON-RPC error; a client that does not
accept both ``application/json`` and ``text/event-stream`` gets a 406. A request without a
bearer token gets a 401 in Z.AI's envelope ``{"success": false, "code": 401, "msg"}``.

The shared handler finds no query in a JSON-RPC body, so :meth:`ZaiProtocol.query_of`
reads it from the tool arguments. The API has no bot challenge, so
:meth:`ZaiProtocol.challenge` is a plain 403; :meth:`ZaiProtocol.malformed` is an event
stream whose only event is not JSON (an HTML error page), which holds no JSON-RPC reply.
"""

import hashlib
import json
from typing import Any

from aiohttp import web

from ..simulator import RecordedRequest, SimResult
from ._common import bearer_token

__all__ = ["ZaiProtocol"]

_TOOL = "webSearchPrime"
_DEFAULT_COUNT = 10
_MAX_COUNT = 50
_SESSION_HEADER = "Mcp-Session-Id"


def _session_for(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()[:32]


def _sse(message: dict[str, Any]) -> web.Response:
    text = f"event: message\ndata: {json.dumps(message, ensure_ascii=False)}\n\n"
    return web.Response(text=text, content_type="text/event-stream")


def _rpc_error(request_id: Any, code: int, message: str) -> web.Response:
    return _sse({"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}})


def _tool_error(request_id: Any, text: str) -> web.Response:
    result = {"content": [{"type": "text", "text": text}], "isError": True}
    return _sse({"jsonrpc": "2.0", "id": request_id, "result": result})


def _count(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        return _DEFAULT_COUNT
    return min(_MAX_COUNT, value)


def _item(result: SimResult, rank: int) -> dict[str, Any]:
    return {
        "title": result.title,
        "link": result.url,
        "content": result.snippet,
        "media": f"Sim Media {rank}",
        "icon": "https://sfile.example.org/icon.png",
        "refer": f"ref_{rank}",
        "publish_date": result.published[:10] if result.published else "",
    }


class ZaiProtocol:
    """Z.AI's MCP ``webSearchPrime`` tool, its error envelope, a 403 and a non-JSON stream."""

    def query_of(self, request: RecordedRequest) -> str:
        """The query in a ``tools/call`` body (``search_query`` or ``query``)."""
        try:
            body = request.json()
        except ValueError:
            return ""
        params = body.get("params") if isinstance(body, dict) else None
        arguments = params.get("arguments") if isinstance(params, dict) else None
        if not isinstance(arguments, dict):
            return ""
        for key in ("search_query", "query"):
            if isinstance(arguments.get(key), str):
                return str(arguments[key])
        return ""

    def answer(self, request: RecordedRequest, results: list[SimResult]) -> web.Response:
        """Answer one JSON-RPC message."""
        token = bearer_token(request)
        if not token:
            body = {"success": False, "code": 401, "msg": "token expired or incorrect"}
            return web.json_response(body, status=401)
        accept = request.header("Accept") or ""
        if "application/json" not in accept or "text/event-stream" not in accept:
            message = "Not Acceptable: Client must accept application/json and text/event-stream"
            return web.json_response({"error": message}, status=406)
        try:
            body = request.json()
        except ValueError:
            return web.json_response({"error": "Parse error"}, status=400)
        method = body.get("method") if isinstance(body, dict) else None
        if method == "initialize":
            return self._initialize(body, token)
        if request.header(_SESSION_HEADER) != _session_for(token):
            return web.json_response(
                {"error": "Bad Request: No valid session ID provided"}, status=400
            )
        if method == "notifications/initialized":
            return web.Response(status=202)
        if method == "tools/call":
            return self._call(body, results)
        return _rpc_error(body.get("id"), -32601, f"Method not found: {method}")

    def _initialize(self, body: dict[str, Any], token: str) -> web.Response:
        result = {
            "protocolVersion": "2025-03-26",
            "capabilities": {"tools": {"listChanged": False}},
            "serverInfo": {"name": "web-search-prime", "version": "1.0.0"},
        }
        return web.json_response(
            {"jsonrpc": "2.0", "id": body.get("id"), "result": result},
            headers={_SESSION_HEADER: _session_for(token)},
        )

    def _call(self, body: dict[str, Any], results: list[SimResult]) -> web.Response:
        request_id = body.get("id")
        raw_params = body.get("params")
        params: dict[str, Any] = raw_params if isinstance(raw_params, dict) else {}
        if params.get("name") != _TOOL:
            return _rpc_error(request_id, -32602, f"Unknown tool: {params.get('name')}")
        raw_arguments = params.get("arguments")
        arguments: dict[str, Any] = raw_arguments if isinstance(raw_arguments, dict) else {}
        query = arguments.get("search_query")
        if not isinstance(query, str) or not query.strip():
            return _tool_error(
                request_id,
                f"MCP error -32602: Invalid arguments for tool {_TOOL}: search_query: Required",
            )
        served = results[: _count(arguments.get("count"))]
        listing = json.dumps(
            [_item(r, rank) for rank, r in enumerate(served, 1)], ensure_ascii=False
        )
        text = json.dumps(listing, ensure_ascii=False)
        result = {"content": [{"type": "text", "text": text}], "isError": False}
        return _sse({"jsonrpc": "2.0", "id": request_id, "result": result})

    def challenge(self) -> web.Response:
        """The API has no challenge page: a bare 403."""
        return web.Response(status=403, text="Forbidden")

    def malformed(self) -> web.Response:
        """A 200 event stream whose only event is an HTML page, not a JSON-RPC reply."""
        text = "event: message\ndata: <html><body>502 Bad Gateway</body></html>\n\n"
        return web.Response(text=text, content_type="text/event-stream")
