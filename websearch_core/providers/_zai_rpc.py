"""The JSON-RPC envelope of Z.AI's MCP replies: find the reply, raise the error it carries.

Kept apart from :mod:`websearch_core.providers._zai_parse` (the tool results) so each
module has one job; nothing here does I/O. A reply arrives as SSE (``data:`` lines) or as
plain JSON; Z.AI's own ``{"success": false}`` envelope, a JSON-RPC ``error`` and a tool
result with ``isError`` are raised as :mod:`websearch_core.errors` errors tagged ``zai``,
typed like HTTP failures when their code is an HTTP status.

* **Reply:** the JSON-RPC reply to the request's own ``id`` (or a null one, or Z.AI's
  ``success`` envelope, which has none); replies to other ids are skipped, and a stream
  of only those is refused (``Failed to parse Z.AI MCP response: no reply to this
  request's id (<id>), only <n> to another request's``). The reference takes the last
  message, which MCP's one reply a request makes the same but for another's.
* **Errors inside a 2xx reply:** the ``{"success": false, "msg", "code"}`` envelope is
  ``Z.AI API error (<code>): <msg>`` (the parentheses only for a number, as the
  reference's); a JSON-RPC ``error`` is ``Z.AI MCP error (<code>):
  <message>`` (with no code, or one JavaScript's template would not show, the parentheses
  are left out, as the reference's are); a tool result with ``isError`` is its text; each
  typed as its code would be as an HTTP status (else 400), or as :data:`BUSINESS_CODES`
  says for one of Z.AI's business codes. No JSON-RPC reply: ``Failed to parse Z.AI MCP response``
  (:class:`~websearch_core.errors.ResponseParseError`).
"""

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, TypeGuard

from ..errors import (
    CreditsSpentError,
    ProviderUnavailableError,
    QuotaExhaustedError,
    RateLimitedError,
    ResponseParseError,
    SearchProviderError,
)
from ..js_string import js_number, js_string, js_truthy
from ..json_decode import json_loads
from ..sse import SseError, SseEvent, parse_sse
from ..stream_apis import MCP_JSON_RPC, refuse_foreign_stream, sse_payloads
from ..transport import HttpRequest, HttpResponse, SseResponse, classify_http_error
from ._common import HTTP_STATUS_TEXT
from ._json_api import text_or_none

__all__ = [
    "BUSINESS_CODES",
    "PARSE_FAILURE",
    "content_texts",
    "json_messages",
    "parse_failure",
    "raise_for_rpc_error",
    "reply_message",
    "request_id_of",
    "rpc_message",
]

PROVIDER_ID = "zai"
PARSE_FAILURE = "Failed to parse Z.AI MCP response"
_MCP_ERROR_CODE = re.compile(r"MCP error\s*(-?[0-9]{1,6})\b")
BUSINESS_CODES: Final[Mapping[str, type[SearchProviderError]]] = {
    "1113": CreditsSpentError,
    "1308": QuotaExhaustedError,
    "1310": QuotaExhaustedError,
}
"""Z.AI business codes whose meaning no HTTP status carries; each comes with a ``429`` that
otherwise means too many requests at once.

* ``1113`` (https://docs.z.ai/api-reference/api-code): "Your account is in arrears, please
  recharge and try again": a spent prepaid balance, re-checked as one.
* ``1308`` and ``1310``: the GLM Coding Plan's usage windows spent, "Usage limit reached for
  5 hour. Your limit will reset at <time>" and "Weekly/Monthly Limit Exhausted. Your limit
  will reset at <time>". No Z.AI page found here lists them (docs.z.ai/devpack/
  usage-policy names the 5-hour and weekly windows); the bodies are live answers quoted in
  public projects' tests and notes, ``{"error": {"type": "rate_limit_error", "code":
  "1310", "message": "[1310][Weekly/Monthly Limit Exhausted. ...]"}}``. The window is spent
  for hours or days, not seconds: asked again on every search, as a rate limit, it only
  fails again. When the reset comes is read from the text
  (:func:`~._zai_errors.reset_hint`)."""


def parse_failure() -> ResponseParseError:
    """The error for a body that holds no readable JSON-RPC reply."""
    return ResponseParseError(PROVIDER_ID, PARSE_FAILURE, 502)


def json_messages(events: Iterable[SseEvent]) -> list[Any]:
    """The events' data that parses as JSON, in order."""
    return [payload for payload, _ in sse_payloads(events)]


def _looks_like_sse(text: str) -> bool:
    return any(line.startswith(("data:", "event:")) for line in text.lstrip().splitlines()[:3])


def _pick(
    messages: Sequence[Any], request_id: object = None, *, streamed: bool = True
) -> Mapping[str, Any]:
    """The reply among the messages: the first that answers the request's own ``id``.

    A reply carries a ``result``, ``error`` or ``success`` and no ``method`` (a progress
    notification or a server's own request is none). The last reply was taken, as the
    behaviour reference says: a stream closed after only another request's reply (a
    gateway sharing one stream, a replay on resumption) gave that request's results or
    error as this search's. JSON-RPC pairs a reply with its request by ``id``, and MCP's
    Streamable HTTP sends one reply a request on its POST's stream, so the reply is the
    one with this request's ``id``, or a null one (an error to a request the server could
    not read), or none at all (Z.AI's own ``success`` envelope); the first such, where
    the transport's read ends too (:data:`~..stream_ends.ZAI_MCP_REPLY_END`). Another's
    reply is skipped; only such replies are refused, saying so. ``request_id`` ``None``
    (unknown): any reply answers, the last as before. Another API's stream, or its events
    among the replies, is refused as one (:func:`~..stream_apis.foreign_stream_error`),
    after the spec'd :data:`PARSE_FAILURE`. A plain JSON body (``streamed`` false) is no
    stream, so it keeps that text alone.

    Raises:
        ResponseParseError: No reply; or replies to other ids only.
    """
    if streamed:
        # Another API's events, alone or mixed with the replies, are named, not read past.
        payloads = [(message, "") for message in messages]
        refuse_foreign_stream(PROVIDER_ID, PARSE_FAILURE, MCP_JSON_RPC, payloads)
    replies = [message for message in messages if _is_reply(message)]
    if request_id is None and replies:
        return replies[-1]
    own = next((reply for reply in replies if reply.get("id") in (None, request_id)), None)
    if own is not None:
        return own
    if replies:
        text = (
            f"{PARSE_FAILURE}: no reply to this request's id ({request_id}), only "
            f"{len(replies)} to another request's"
        )
        raise ResponseParseError(PROVIDER_ID, text, 502)
    raise parse_failure()


def _is_reply(message: Any) -> TypeGuard[Mapping[str, Any]]:
    """Whether ``message`` is a JSON-RPC reply (or Z.AI's envelope), not a notification."""
    return (
        isinstance(message, Mapping)
        and "method" not in message
        and ("result" in message or "error" in message or "success" in message)
    )


def rpc_message(
    body: bytes, events: Sequence[SseEvent] = (), request_id: object = None
) -> Mapping[str, Any]:
    """The JSON-RPC reply in a 2xx body, whether it came as SSE or as plain JSON.

    Args:
        body: The raw body (kept by the transport even when it was a stream).
        events: The events the transport parsed, when the body was ``text/event-stream``.
        request_id: The ``id`` the request went with; ``None``: unknown, any reply answers.

    Raises:
        ResponseParseError: No JSON message could be read (``Failed to parse Z.AI MCP
            response``), or only replies to other ids.
    """
    if events:
        return _pick(json_messages(events), request_id)
    text = body.decode("utf-8", errors="replace")
    if _looks_like_sse(text):
        try:
            parsed = parse_sse(body)
        except SseError:
            raise parse_failure() from None
        return _pick(json_messages(parsed), request_id)
    try:
        return _pick([json_loads(text)], request_id, streamed=False)
    except ValueError:
        raise parse_failure() from None


def reply_message(
    response: SseResponse | HttpResponse, request_id: object = None
) -> Mapping[str, Any]:
    """The JSON-RPC reply a 2xx response carries (SSE, or JSON on a streamed request).

    Args:
        response: The reply to one POST of the session.
        request_id: That POST's JSON-RPC ``id`` (:func:`request_id_of`).

    Raises:
        ResponseParseError: The body holds no JSON-RPC reply to ``request_id``.
    """
    if isinstance(response, SseResponse):
        return rpc_message(response.body, response.events, request_id)
    return rpc_message(response.body, request_id=request_id)


def request_id_of(request: HttpRequest) -> object:
    """The JSON-RPC ``id`` a POST of the session went with (``None``: a notification).

    Example:
        >>> from websearch_core.transport import HttpRequest
        >>> request_id_of(HttpRequest(method="POST", url="u", json={"id": "r1"}))
        'r1'
    """
    body = request.json
    return body.get("id") if isinstance(body, Mapping) else None


def _envelope_code(code: Any) -> str:
    """`` (<code>)`` for the label of Z.AI's ``{"success": false}`` envelope, or ``""``.

    The reference puts the parentheses in only for a code that is a number JavaScript finds
    truthy, written as JavaScript writes it (``1113.0`` is ``1113``); with none it reads
    ``Z.AI API error: <msg>``, where ours read ``Z.AI API error (None): <msg>``. A code in
    text is left out too (``typeof code === "number"`` there): ours showed ``"1113"`` as
    ``(1113)``. The code in text still types the failure (:data:`BUSINESS_CODES`): only
    the words follow the reference.
    """
    if isinstance(code, int | float) and not isinstance(code, bool) and js_truthy(code):
        return f" ({js_number(code)})"
    return ""


def _code_key(code: Any) -> str | None:
    """``code`` as :data:`BUSINESS_CODES` is keyed: text, or a number as JavaScript writes it."""
    if isinstance(code, str):
        return code
    if isinstance(code, int | float) and not isinstance(code, bool):
        return js_number(code)
    return None


def _http_like(code: Any) -> int | None:
    if isinstance(code, float) and code.is_integer():
        code = int(code)  # JSON's 429.0 is the number 429 to the reference's reader
    if isinstance(code, int) and not isinstance(code, bool) and 100 <= code <= 599:
        return code
    if isinstance(code, str) and HTTP_STATUS_TEXT.fullmatch(code):
        return int(code)
    return None


def _classified(status: int | None, message: str, code: Any = None) -> SearchProviderError:
    """A JSON-level failure typed by its business code, else like an HTTP one; else plain.

    A code in :data:`BUSINESS_CODES` decides first; otherwise the status is read as the
    shared classifier reads it (quota text, 401/403, 402), then 429 and 5xx.
    """
    effective = status if status is not None else 400
    key = _code_key(code)
    business = BUSINESS_CODES.get(key) if key is not None else None
    if business is not None:
        return business(PROVIDER_ID, message, effective)
    found = classify_http_error(PROVIDER_ID, effective, message)
    if found is not None:
        # Keep Z.AI's own words: the chain passes a Z.AI 401/403 message through verbatim.
        return type(found)(PROVIDER_ID, message, effective)
    if effective == 429:
        return RateLimitedError(PROVIDER_ID, message, effective)
    if effective >= 500:
        return ProviderUnavailableError(PROVIDER_ID, message, effective)
    return SearchProviderError(PROVIDER_ID, message, effective)


def _first_text(value: Mapping[str, Any], keys: Iterable[str]) -> str | None:
    for key in keys:
        text = text_or_none(value.get(key))  # the field rule: a lone BOM is no message
        if text is not None:
            return text
    return None


def content_texts(result: Mapping[str, Any]) -> list[str]:
    """The ``text`` of each ``content[]`` part of a tool result."""
    content = result.get("content")
    if not isinstance(content, list):
        return []
    texts = (part.get("text") for part in content if isinstance(part, Mapping))
    return [text for text in texts if isinstance(text, str)]


def raise_for_rpc_error(message: Mapping[str, Any]) -> None:
    """Raise the error a JSON-RPC reply carries, if it carries one.

    Three shapes: Z.AI's own ``{"success": false, "msg", "code"}`` envelope, a JSON-RPC
    ``error`` object and a tool result with ``isError: true``.
    """
    if message.get("success") is False:
        text = _first_text(message, ("msg", "message", "error_message")) or "Unknown error"
        code = message.get("code")
        label = _envelope_code(code)
        raise _classified(_http_like(code), f"Z.AI API error{label}: {text}", code)
    error = message.get("error")
    if isinstance(error, Mapping):
        code = error.get("code")
        text = _first_text(error, ("message",)) or "Unknown error"
        label = f" ({js_string(code)})" if js_truthy(code) else ""
        raise _classified(_http_like(code), f"Z.AI MCP error{label}: {text}")
    result = message.get("result")
    if isinstance(result, Mapping) and result.get("isError") is True:
        text = text_or_none("\n".join(content_texts(result))) or "Z.AI MCP tool call failed"
        found = _MCP_ERROR_CODE.search(text)
        raise _classified(_http_like(abs(int(found.group(1)))) if found else None, text)
