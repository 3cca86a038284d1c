"""Z.AI web search: the ``webSearchPrime`` tool of Z.AI's remote MCP server.

* **Endpoint:** ``POST https://api.z.ai/api/mcp/web_search_prime/mcp``, a streamable-HTTP
  MCP server; every call is a JSON-RPC 2.0 POST with headers ``Authorization: Bearer <key>``,
  ``Content-Type: application/json``, ``Accept: application/json, text/event-stream`` and,
  once the server has handed one out, ``Mcp-Session-Id``.
* **Sequence:** ``initialize`` (protocol ``2025-03-26``, empty capabilities, our client
  info; the session id is read from the ``Mcp-Session-Id`` response header), then the
  ``notifications/initialized`` notification (no id; its answer is ignored), then
  ``tools/call``. The call's arguments are tried in three shapes, in order, moving on only
  when the server refused the *shape* (a plain provider error with status 400, or whose text
  names ``invalid``, ``argument``, ``search_query`` or ``query``; never after an
  authorization, quota, rate-limit, transport or parse failure):
  ``{query, count}``, ``{search_query, count}``,
  ``{search_query, search_engine: "search-prime", count}``.
* **Auth:** the key comes from ``ZAI_API_KEY`` (or code, the config file, the credential
  store). Z.AI's GLM Coding Plan keys are the ones the MCP server accepts.
* **Limits:** ``count`` is ``num_search_results``, else ``limit``, else 10; it is not
  clamped (the server documents at most 50) and the sources are cut to it. ``recency`` and
  the other filters are not sent, as in the reference.
* **Replies** may be JSON or SSE (``data:`` lines); the last JSON-RPC reply in a stream is
  used. Errors inside a 2xx reply: Z.AI's ``{"success": false, "msg", "code"}`` envelope is
  ``Z.AI API error (<code>): <msg>``; a JSON-RPC ``error`` is ``Z.AI MCP error (<code>):
  <message>``; a tool result with ``isError`` is its text. Their status is the code when it
  is an HTTP status (else 400), and they are typed by the shared classifier (so a quota
  text is :class:`~websearch_core.errors.QuotaExhaustedError`). A body with no JSON-RPC
  reply is ``Failed to parse Z.AI MCP response``
  (:class:`~websearch_core.errors.ResponseParseError`).
* **Results:** the candidates are the tool result, its ``structuredContent``, ``data`` and
  ``result``, then each ``content[].text`` decoded as JSON, as JSON inside a JSON string
  (Z.AI double-encodes), or as a Python literal; the first that is a list (nested lists are
  flattened) or has ``search_result[]`` / ``results[]`` supplies the sources. Text parts
  that hold no results become the answer, joined by blank lines. Sources: url = ``link`` or
  ``url``, title = ``title`` or the URL, snippet = ``content``, published date =
  ``publish_date`` or ``publishedDate``, author = ``media``. ``request_id`` is
  ``request_id``, ``requestId`` or ``id``.
* **HTTP errors:** ``Z.AI API error (<status>): <message>`` after the shared classifier;
  for 401 and 403 the text stays Z.AI's own (the chain passes Z.AI's authorization messages
  through verbatim), e.g. ``Z.AI API error (401): token expired or incorrect``.

Differences from the reference:

* The tool is called ``webSearchPrime``, the name Z.AI's MCP documentation lists; the
  reference writes ``web_search_prime``, which is the server's URL path and the name of the
  *server tool* on Z.AI's Anthropic-compatible endpoint (as the capture
  ``anthropic_compat_messages_stream_web_search_prime_2026-10.sse`` shows).
* Captures (``fixtures/zai/``): there is no capture of an MCP reply. The two ``.txt`` files
  are the ``content`` of a ``web_search_prime`` tool result from the Anthropic-compatible
  endpoint: a JSON ``[[{title, link, content, refer}]]`` (a nested list, flattened here) and
  a Python ``repr`` ``[{'text': [...]}]`` (read with :func:`ast.literal_eval`). The ``.sse``
  capture is a whole Anthropic-compatible Messages stream; the provider never calls that
  API, but :func:`~websearch_core.providers._zai_parse.parse_messages_stream` reads it, and
  the MCP parser refuses it as a parse error (it holds no JSON-RPC reply). The ``.json``
  capture is the documented body of Z.AI's REST ``/api/paas/v4/web_search``
  (``search_result[]`` with ``media`` and ``publish_date``), which the result extraction
  reads as it is.

Docs: https://docs.z.ai/devpack/mcp/search-mcp-server
"""

import uuid
from collections.abc import Mapping
from typing import Any, Final

from ..errors import AuthorizationError, SearchProviderError
from ..models import SearchParams, SearchResponse
from ..transport import (
    ERROR_BODY_LIMIT,
    HttpRequest,
    SseResponse,
    classify_http_error,
    raise_for_status,
)
from ._zai_parse import decode_text, parse_payload, parse_tool_result, raise_for_rpc_error
from ._zai_parse import rpc_message as _rpc_message
from .base import ProviderContext, ProviderInfo, SearchProvider

__all__ = [
    "INFO",
    "PROTOCOL_VERSION",
    "TOOL_NAME",
    "ZAI_MCP_ENDPOINT",
    "ZaiProvider",
    "argument_shapes",
    "call_body",
    "decode_text",
    "initialize_body",
    "initialized_body",
    "is_argument_shape_error",
    "parse_payload",
    "result_count",
]

ZAI_MCP_ENDPOINT: Final = "https://api.z.ai/api/mcp/web_search_prime/mcp"
TOOL_NAME: Final = "webSearchPrime"
PROTOCOL_VERSION: Final = "2025-03-26"
CLIENT_INFO: Final = {"name": "websearch-tools", "version": "0.1.0"}
DEFAULT_COUNT: Final = 10
SESSION_HEADER: Final = "Mcp-Session-Id"
_SHAPE_WORDS: Final = ("invalid", "argument", "search_query", "query")

INFO = ProviderInfo(
    id="zai",
    label="Z.AI",
    kind="api",
    description="Calls Z.AI webSearchPrime MCP (requires ZAI_API_KEY)",
    docs_url="https://docs.z.ai/devpack/mcp/search-mcp-server",
    env_vars=("ZAI_API_KEY",),
    honours=frozenset({"query", "limit", "num_search_results"}),
    default_results=DEFAULT_COUNT,
    max_results=None,
    index="zai",
)


def result_count(params: SearchParams) -> int:
    """``num_search_results``, else ``limit``, else 10 (not clamped)."""
    return params.result_count or DEFAULT_COUNT


def argument_shapes(query: str, count: int) -> tuple[dict[str, Any], ...]:
    """The tool arguments, in the order they are tried.

    Example:
        >>> [sorted(shape) for shape in argument_shapes("q", 3)][1]
        ['count', 'search_query']
    """
    return (
        {"query": query, "count": count},
        {"search_query": query, "count": count},
        {"search_query": query, "search_engine": "search-prime", "count": count},
    )


def _rpc_id() -> str:
    return str(uuid.uuid4())


def initialize_body(request_id: str) -> dict[str, Any]:
    """The ``initialize`` request."""
    return {
        "jsonrpc": "2.0",
        "method": "initialize",
        "params": {
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": {},
            "clientInfo": dict(CLIENT_INFO),
        },
        "id": request_id,
    }


def initialized_body() -> dict[str, Any]:
    """The ``notifications/initialized`` notification (no id: nothing answers it)."""
    return {"jsonrpc": "2.0", "method": "notifications/initialized", "params": {}}


def call_body(arguments: Mapping[str, Any], request_id: str) -> dict[str, Any]:
    """The ``tools/call`` request for ``arguments``."""
    return {
        "jsonrpc": "2.0",
        "method": "tools/call",
        "params": {"name": TOOL_NAME, "arguments": dict(arguments)},
        "id": request_id,
    }


def is_argument_shape_error(error: BaseException) -> bool:
    """Whether ``error`` means the server refused the arguments' shape (try the next one).

    Only an untyped provider error qualifies: with status 400, or naming ``invalid``,
    ``argument``, ``search_query`` or ``query``. Authorization, quota, rate-limit,
    transport and parse errors are subclasses and never do.
    """
    if type(error) is not SearchProviderError:
        return False
    text = error.message.lower()
    return error.status == 400 or any(word in text for word in _SHAPE_WORDS)


def _error_text(body: str) -> str:
    """Z.AI's own message from an error body (JSON ``msg`` / ``message`` / ``error``)."""
    data = decode_text(body)
    for candidate in (data, data.get("error") if isinstance(data, Mapping) else None):
        if isinstance(candidate, Mapping):
            for key in ("msg", "message", "error_message", "error"):
                value = candidate.get(key)
                if isinstance(value, str) and value.strip():
                    return value.strip()
    return body.strip()


def check_status(response: SseResponse) -> None:
    """Raise for a non-2xx reply; a 401/403 keeps Z.AI's own message."""
    status = response.status
    if 200 <= status < 300:
        return
    http = response.as_http()
    body = http.text()[:ERROR_BODY_LIMIT]
    message = f"Z.AI API error ({status}): {_error_text(body)}".rstrip(": ")
    classified = classify_http_error(INFO.id, status, body)
    if isinstance(classified, AuthorizationError):
        raise AuthorizationError(INFO.id, message, status)
    raise_for_status(INFO.id, http, message)


class ZaiProvider(SearchProvider):
    """The Z.AI provider (see the module docstring for the wire details)."""

    info = INFO

    async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
        """Open an MCP session, then call the tool with each argument shape in turn."""
        key = self.require_api_key(context)
        headers = {
            "Authorization": f"Bearer {key}",
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
        }
        session = await self._initialize(context, headers)
        if session:
            headers[SESSION_HEADER] = session
        await self._post(context, headers, initialized_body())
        count = result_count(params)
        shapes = argument_shapes(params.query, count)
        for index, arguments in enumerate(shapes):
            try:
                return await self._call(context, headers, arguments, count)
            except SearchProviderError as error:
                if index == len(shapes) - 1 or not is_argument_shape_error(error):
                    raise
        raise AssertionError("unreachable")  # pragma: no cover  (the last shape re-raises)

    async def _post(
        self, context: ProviderContext, headers: Mapping[str, str], body: Mapping[str, Any]
    ) -> SseResponse:
        request = HttpRequest(
            method="POST", url=ZAI_MCP_ENDPOINT, headers=dict(headers), json=dict(body)
        )
        return await context.transport.send_sse(self.info.id, self.info.label, request)

    async def _initialize(self, context: ProviderContext, headers: Mapping[str, str]) -> str | None:
        response = await self._post(context, headers, initialize_body(_rpc_id()))
        check_status(response)
        raise_for_rpc_error(_rpc_message(response.body, response.events))
        session = response.as_http().header(SESSION_HEADER)
        return session.strip() if session and session.strip() else None

    async def _call(
        self,
        context: ProviderContext,
        headers: Mapping[str, str],
        arguments: Mapping[str, Any],
        count: int,
    ) -> SearchResponse:
        response = await self._post(context, headers, call_body(arguments, _rpc_id()))
        check_status(response)
        message = _rpc_message(response.body, response.events)
        raise_for_rpc_error(message)
        return parse_tool_result(message, limit=count)
