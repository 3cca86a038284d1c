"""One Z.AI MCP session's bookkeeping between the request loop's calls.

Kept apart from :mod:`websearch_core.providers.zai` (the facts, the error map and the
hooks) so the hooks read as the session's order and this module as its state: the
headers every step sends (the session id once the server gave one), the step in flight
and which argument shape the ``tools/call`` uses. It also says what a reply carries, so
the hook can tell a refused argument shape (try the next) from a failure that ends the
search. Nothing here sends anything.
"""

from collections.abc import Mapping
from typing import Any, Final

from ..errors import SearchProviderError
from ..provider_types import ErrorMap, Flow, ProviderInfo
from ..stream_ends import ZAI_MCP_REPLY_END
from ..transport import HttpRequest, HttpResponse, SseResponse
from ._error_map import error_for
from ._zai_request import argument_shapes, call_body, initialized_body, result_count, rpc_id
from ._zai_rpc import raise_for_rpc_error, reply_message, request_id_of

__all__ = [
    "CALL",
    "INITIALIZE",
    "INITIALIZED",
    "SESSION_HEADER",
    "ZAI_MCP_ENDPOINT",
    "call_request",
    "carried_error",
    "is_argument_shape_error",
    "keep_session",
    "last_shape",
    "next_request",
    "post",
    "start",
    "step",
]

ZAI_MCP_ENDPOINT: Final = "https://api.z.ai/api/mcp/web_search_prime/mcp"
SESSION_HEADER: Final = "Mcp-Session-Id"
INITIALIZE, INITIALIZED, CALL = "initialize", "initialized", "tools/call"
"""The session's steps, in order (``flow.state["step"]``)."""
_SHAPE_WORDS: Final = ("invalid", "argument", "search_query", "query")
_STEP, _SHAPE, _HEADERS = "step", "shape", "headers"


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


def carried_error(
    info: ProviderInfo,
    errors: ErrorMap,
    response: SseResponse | HttpResponse,
    request: HttpRequest | None = None,
) -> SearchProviderError | None:
    """The error a reply carries; ``None`` for a readable reply without one.

    Its HTTP status (read through ``errors``), an unreadable body, a JSON-RPC error or a
    tool error: the hook needs the error itself to tell a refused argument shape. The
    reply is the one to ``request``'s JSON-RPC ``id`` (``None``: any).
    """
    error = error_for(info, errors, response)
    if error is not None:
        return error
    request_id = None if request is None else request_id_of(request)
    try:
        raise_for_rpc_error(reply_message(response, request_id))
    except SearchProviderError as carried:
        return carried
    return None


def start(flow: Flow, key: str) -> None:
    """Begin the session: the headers every step sends, and ``initialize`` in flight."""
    flow.state[_HEADERS] = {
        "Authorization": f"Bearer {key}",
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
    }
    flow.state[_STEP] = INITIALIZE


def step(flow: Flow) -> str:
    """The step in flight: :data:`INITIALIZE`, :data:`INITIALIZED` or :data:`CALL`."""
    current: str = flow.state[_STEP]
    return current


def keep_session(flow: Flow, response: SseResponse | HttpResponse) -> None:
    """Send the session id ``initialize``'s reply handed out (if any) from now on.

    The ``notifications/initialized`` notification is the step in flight next.
    """
    session = (response.as_http().header(SESSION_HEADER) or "").strip()
    if session:
        flow.state[_HEADERS][SESSION_HEADER] = session
    flow.state[_STEP] = INITIALIZED


def call_request(flow: Flow, *, next_shape: bool = False) -> HttpRequest:
    """The ``tools/call`` with the first argument shape, or with the next one."""
    if flow.state[_STEP] != CALL:
        flow.state[_STEP], flow.state[_SHAPE] = CALL, 0
    elif next_shape:
        flow.state[_SHAPE] += 1
    arguments = _shapes(flow)[flow.state[_SHAPE]]
    return post(flow, call_body(arguments, rpc_id()))


def last_shape(flow: Flow) -> bool:
    """Whether the call in flight already uses the last argument shape."""
    return bool(flow.state[_SHAPE] == len(_shapes(flow)) - 1)


def post(flow: Flow, body: Mapping[str, Any]) -> HttpRequest:
    """One JSON-RPC POST of the session, streamed (the server may answer SSE).

    The stream ends at the JSON-RPC reply to this POST's ``id`` or Z.AI's own ``success``
    envelope (:data:`~..stream_ends.ZAI_MCP_REPLY_END`), not at the socket's close, which a
    server or proxy holding the connection never sends; nor at a reply to another ``id``,
    which the reader skips too (:func:`~._zai_rpc.reply_message`).
    """
    headers = dict(flow.state[_HEADERS])
    return HttpRequest(
        method="POST",
        url=ZAI_MCP_ENDPOINT,
        headers=headers,
        json=dict(body),
        stream=True,
        stream_end=ZAI_MCP_REPLY_END.answering(body.get("id")),
    )


def next_request(flow: Flow, info: ProviderInfo, errors: ErrorMap) -> HttpRequest | None:
    """The session's next step, a call with the next argument shape, or ``None`` (done).

    The notification's answer is ignored. A reply that carries an error ends the session
    (the loop reads its status, the provider's ``parse`` its JSON-RPC error), unless it
    refused the call's argument shape and another shape is left.
    """
    current = step(flow)
    if current == INITIALIZED:
        return call_request(flow)
    response = flow.last.response
    error = carried_error(info, errors, response, flow.last.request)
    if current == INITIALIZE:
        if error is not None:
            return None
        keep_session(flow, response)
        return post(flow, initialized_body())
    if error is None or last_shape(flow) or not is_argument_shape_error(error):
        return None
    return call_request(flow, next_shape=True)


def _shapes(flow: Flow) -> tuple[dict[str, Any], ...]:
    return argument_shapes(flow.params.query, result_count(flow.params))
