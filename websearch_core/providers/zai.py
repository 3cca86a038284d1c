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
  ``{search_query, count}``, ``{search_query, search_engine: "search-prime", count}``,
  ``{query, count}``. The tool's argument is ``search_query``, so the first call is the one
  that searches.
* **Auth:** ``ZAI_API_KEY``; Z.AI's GLM Coding Plan keys are the ones the MCP server
  accepts.
* **Limits:** ``count`` is ``num_search_results``, else ``limit``, else 10; it is not
  clamped (the server documents at most 50) and the sources are cut to it.
* **Filters are not sent**, as in the reference, and are checked on the results here.
  The MCP documentation names the tool but lists no arguments. Z.AI's REST
  ``/paas/v4/web_search`` documents ``search_recency_filter`` (``oneDay`` ... ``noLimit``)
  and a one-domain ``search_domain_filter``, but marks both (and ``count``) "Supported
  search engines: search_pro_jina", not the ``search-prime`` engine this tool is named
  after; clients and Z.AI's own model (capture below) send ``search_recency_filter`` to the
  tool, but nothing shows it is applied, so recency is not claimed as ``native``.
* **Replies** may be JSON or SSE; how they are read, and the errors a 2xx reply can carry,
  are in ``_zai_rpc``; results in ``_zai_parse``.
* **HTTP errors:** ``Z.AI API error (<status>): <message>`` after the shared classifier; a
  401 or 403 keeps Z.AI's own text (``_zai_errors``). A ``429`` whose business code is
  ``1113`` (arrears) or ``1308`` / ``1310`` (a Coding Plan window spent) is a spent quota,
  the latter two until the reset time their text names.
* **Modules:** bodies are built in ``_zai_request`` and the session's state is kept in
  ``_zai_session``.

Differences from the reference: the tool is called ``webSearchPrime``, the name Z.AI's MCP
documentation lists; the reference writes ``web_search_prime``, which is the server's URL
path and the name of the *server tool* on Z.AI's Anthropic-compatible endpoint (as the
capture ``anthropic_compat_messages_stream_web_search_prime_2026-10.sse`` shows). The
reference tries ``{query, count}`` first; the tool takes ``search_query`` (OpenClaw's
change openclaw/openclaw#9337, tested against the live server with a real key, found
``query`` refused and ``search_query`` answered, and the capture shows Z.AI's own model
calling the tool with ``{search_query, search_recency_filter}``), so ``{search_query,
count}`` goes first and ``{query, count}`` last.

Captures (``fixtures/zai/``): there is no capture of an MCP reply. The two ``.txt`` files
are the ``content`` of a ``web_search_prime`` tool result from the Anthropic-compatible
endpoint: a JSON ``[[{title, link, content, refer}]]`` (a nested list, flattened here) and
a Python ``repr`` ``[{'text': [...]}]`` (read with :func:`ast.literal_eval`). The ``.sse``
capture is a whole Anthropic-compatible Messages stream; the provider never calls that
API, but :func:`~websearch_core.providers._zai_parse.parse_messages_stream` reads it, and
the MCP parser refuses it as a parse error (it holds no JSON-RPC reply). The ``.json``
capture is the documented body of Z.AI's REST ``/api/paas/v4/web_search``
(``search_result[]`` with ``media`` and ``publish_date``), which the result extraction
reads as it is.

Docs: https://docs.z.ai/devpack/mcp/search-mcp-server (the MCP server and its tool) and
https://docs.z.ai/api-reference/tools/web-search (the REST search and its filters).
"""

from typing import Final

from ..errors import ResponseParseError
from ..filters import FilterSupport
from ..models import SearchResponse
from ..transport import HttpRequest, HttpResponse, SseResponse
from ._json_api import COUNT_FIELDS
from ._zai_errors import ERRORS
from ._zai_parse import decode_text, parse_payload, parse_tool_result
from ._zai_request import (
    DEFAULT_COUNT,
    TOOL_NAME,
    argument_shapes,
    call_body,
    initialize_body,
    initialized_body,
    result_count,
    rpc_id,
)
from ._zai_rpc import PARSE_FAILURE, raise_for_rpc_error, reply_message, request_id_of
from ._zai_session import CALL, is_argument_shape_error, next_request, post, start, step
from .base import KEY_IN_AUTHORIZATION, Flow, ProtocolProvider, ProviderInfo, raise_for_error_map

__all__ = [
    "ERRORS",
    "INFO",
    "TOOL_NAME",
    "ZaiProvider",
    "argument_shapes",
    "call_body",
    "check_status",
    "decode_text",
    "initialize_body",
    "initialized_body",
    "is_argument_shape_error",
    "parse_payload",
    "result_count",
]

_FILTERS: Final = FilterSupport.query_only()
"""No filter parameter: its query carries the operators, its results are still checked."""
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
    filters=_FILTERS,
)


def check_status(response: SseResponse | HttpResponse) -> None:
    """Raise for a non-2xx reply through :data:`ERRORS`; a 401/403 keeps Z.AI's message."""
    raise_for_error_map(INFO, ERRORS, response)


class ZaiProvider(ProtocolProvider):
    """Each MCP step (module docstring, **Sequence**) is one request the core's loop sends."""

    info = INFO
    credential_kinds = KEY_IN_AUTHORIZATION
    errors = ERRORS

    def first_request(self, flow: Flow) -> HttpRequest:
        """``initialize``, with the key as a bearer token."""
        start(flow, self.require_api_key(flow.context))
        return post(flow, initialize_body(rpc_id()))

    def follow_up(self, flow: Flow) -> HttpRequest | None:
        """The session's next step, a call with the next argument shape, or done."""
        return next_request(flow, self.info, self.error_map(flow))

    def parse(self, flow: Flow) -> SearchResponse:
        """The call's tool result as a response, or the error its reply carried."""
        message = reply_message(flow.last.response, request_id_of(flow.last.request))
        raise_for_rpc_error(message)
        if step(flow) != CALL:  # pragma: no cover  (an initialize error raised above)
            raise ResponseParseError(self.info.id, PARSE_FAILURE, 502)
        return parse_tool_result(message, limit=result_count(flow.params))
