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
* **Auth:** ``ZAI_API_KEY``; Z.AI's GLM Coding Plan keys are the ones the MCP server
  accepts.
* **Limits:** ``count`` is ``num_search_results``, else ``limit``, else 10; it is not
  clamped (the server documents at most 50) and the sources are cut to it. ``recency`` and
  the other filters are not sent, as in the reference.
* **Replies** (read in ``_zai_rpc``) may be JSON or SSE; the last JSON-RPC reply in a
  stream is used. Errors inside a 2xx reply: Z.AI's ``{"success": false, "msg", "code"}``
  envelope is ``Z.AI API error (<code>): <msg>``; a JSON-RPC ``error`` is ``Z.AI MCP error
  (<code>): <message>``; a tool result with ``isError`` is its text; each typed as its code
  would be as an HTTP status (else 400). No JSON-RPC reply: ``Failed to parse Z.AI MCP
  response`` (:class:`~websearch_core.errors.ResponseParseError`).
* **Modules:** bodies are built in ``_zai_request``, the session's state is kept in
  ``_zai_session``, replies read in ``_zai_rpc`` and results in ``_zai_parse``.
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

from collections.abc import Mapping

from ..errors import AuthorizationError, ResponseParseError, SearchProviderError
from ..models import SearchResponse
from ..transport import HttpRequest, HttpResponse, SseResponse
from ._json_api import COUNT_FIELDS
from ._zai_parse import decode_text, parse_payload, parse_tool_result
from ._zai_request import (
    DEFAULT_COUNT,
    PROTOCOL_VERSION,
    TOOL_NAME,
    argument_shapes,
    call_body,
    initialize_body,
    initialized_body,
    result_count,
    rpc_id,
)
from ._zai_rpc import PARSE_FAILURE, raise_for_rpc_error, reply_message
from ._zai_session import (
    CALL,
    INITIALIZE,
    INITIALIZED,
    ZAI_MCP_ENDPOINT,
    call_request,
    is_argument_shape_error,
    keep_session,
    last_shape,
    post,
    start,
    step,
)
from ._zai_session import carried_error as _carried_error
from .base import ErrorMap, Flow, ProtocolProvider, ProviderInfo, raise_for_error_map

__all__ = [
    "INFO",
    "PROTOCOL_VERSION",
    "TOOL_NAME",
    "ZAI_MCP_ENDPOINT",
    "ZaiProvider",
    "argument_shapes",
    "call_body",
    "carried_error",
    "check_status",
    "decode_text",
    "error_text",
    "initialize_body",
    "initialized_body",
    "is_argument_shape_error",
    "parse_payload",
    "result_count",
]

INFO = ProviderInfo(
    id="zai",
    label="Z.AI",
    kind="api",
    description="Calls Z.AI webSearchPrime MCP (requires ZAI_API_KEY)",
    docs_url="https://docs.z.ai/devpack/mcp/search-mcp-server",
    env_vars=("ZAI_API_KEY",),
    honours=COUNT_FIELDS,
    default_results=DEFAULT_COUNT,
    max_results=None,
    index="zai",
)


def error_text(status: int, body: str) -> str | None:
    """Z.AI's own message from an error body (JSON ``msg`` / ``message`` / ``error``).

    Example:
        >>> error_text(401, '{"success": false, "msg": "token expired or incorrect"}')
        'token expired or incorrect'
    """
    data = decode_text(body)
    for candidate in (data, data.get("error") if isinstance(data, Mapping) else None):
        if isinstance(candidate, Mapping):
            for key in ("msg", "message", "error_message", "error"):
                value = candidate.get(key)
                if isinstance(value, str) and value.strip():
                    return value.strip()
    return None


ERRORS = ErrorMap(
    prefix="Z.AI API error",
    detail=error_text,
    # The chain passes a Z.AI 401/403 through verbatim, so they keep Z.AI's own words.
    statuses={401: AuthorizationError, 403: AuthorizationError},
)
"""How Z.AI's HTTP error statuses read: ``Z.AI API error (<status>): <message>``."""


def check_status(response: SseResponse | HttpResponse) -> None:
    """Raise for a non-2xx reply through :data:`ERRORS`; a 401/403 keeps Z.AI's message."""
    raise_for_error_map(INFO, ERRORS, response)


def carried_error(response: SseResponse | HttpResponse) -> SearchProviderError | None:
    """The error a reply carries (HTTP status, unreadable body, JSON-RPC or tool error)."""
    return _carried_error(INFO, ERRORS, response)


class ZaiProvider(ProtocolProvider):
    """Each MCP step (module docstring, **Sequence**) is one request the core's loop sends."""

    info = INFO
    errors = ERRORS

    def first_request(self, flow: Flow) -> HttpRequest:
        """``initialize``, with the key as a bearer token."""
        start(flow, self.require_api_key(flow.context))
        return post(flow, initialize_body(rpc_id()))

    def follow_up(self, flow: Flow) -> HttpRequest | None:
        """The session's next step, a call with the next argument shape, or done.

        A reply that carries an error ends the session (the loop reads its status,
        :meth:`parse` its JSON-RPC error), unless it refused the call's argument shape and
        another shape is left.
        """
        current = step(flow)
        if current == INITIALIZED:  # the notification's answer is ignored
            return call_request(flow)
        response = flow.last.response
        error = _carried_error(self.info, self.error_map(flow), response)
        if current == INITIALIZE:
            if error is not None:
                return None
            keep_session(flow, response)
            return post(flow, initialized_body())
        if error is None or last_shape(flow) or not is_argument_shape_error(error):
            return None
        return call_request(flow, next_shape=True)

    def parse(self, flow: Flow) -> SearchResponse:
        """The last tool result as a response, or the error the last reply carried."""
        message = reply_message(flow.last.response)
        raise_for_rpc_error(message)
        if step(flow) != CALL:  # pragma: no cover  (an initialize error raised above)
            raise ResponseParseError(self.info.id, PARSE_FAILURE, 502)
        return parse_tool_result(message, limit=result_count(flow.params))
