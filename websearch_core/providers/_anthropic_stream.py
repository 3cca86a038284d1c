"""Fold an Anthropic Messages event stream into the message a JSON call returns (pure).

The provider itself asks for JSON; this exists so a streamed answer (the capture
``fixtures/anthropic/messages_web_search_tool_stream.sse``, or a gateway that streams)
parses exactly like a JSON body through
:func:`~websearch_core.providers._anthropic_parse.parse_messages`.
"""

import json
from collections.abc import Iterable, Mapping
from typing import Any, Final

from ..errors import ResponseParseError
from ..js_string import js_string, js_truthy
from ..json_decode import decoded_json, json_loads
from ..sse import SseEvent
from ..stream_apis import ANTHROPIC_MESSAGES, refuse_foreign_stream
from ..transport import HttpResponse, raise_for_status
from ._field_errors import field_error

__all__ = ["message_from_stream"]

PROVIDER_ID: Final = "anthropic"
INVALID_STREAM_JSON: Final = "Anthropic stream carried invalid JSON"
INVALID_TOOL_INPUT: Final = "Anthropic stream carried invalid tool input"
NO_START: Final = "Anthropic stream had no message_start event"
_CHAT_END: Final = "[DONE]"
"""The Chat Completions stream's last data, never JSON and never Anthropic's: skipped, so
such a stream is refused as another API's rather than as ``carried invalid JSON``."""
_STREAM_ERROR_STATUS: Final = {
    "invalid_request_error": 400,
    "authentication_error": 401,
    "billing_error": 402,
    "permission_error": 403,
    "not_found_error": 404,
    "request_too_large": 413,
    "rate_limit_error": 429,
    "api_error": 500,
    "timeout_error": 504,
    "overloaded_error": 529,
}


def _decode(data: str) -> dict[str, Any]:
    try:
        value = decoded_json(data)
    except ValueError:
        raise ResponseParseError(PROVIDER_ID, INVALID_STREAM_JSON, 502) from None
    if not isinstance(value, dict):
        raise ResponseParseError(PROVIDER_ID, INVALID_STREAM_JSON, 502)
    return value


def _js_or(value: Any, fallback: str) -> str:
    """JavaScript's `` `${value || fallback}` ``: the value as ``String`` writes it, if truthy.

    Python's ``str(value or fallback)`` wrote a non-string ``message`` in Python's form
    (``True``, ``429.0``, ``{'k': 'v'}``, ``['a', 'b']``) and took ``[]`` and ``{}`` for
    missing, where JavaScript writes ``true``, ``429``, ``[object Object]``, ``a,b``.
    """
    return js_string(value) if js_truthy(value) else fallback


def _stream_error(payload: Mapping[str, Any]) -> None:
    error = payload.get("error")
    error = error if isinstance(error, Mapping) else {}
    kind = _js_or(error.get("type"), "api_error")
    detail = _js_or(error.get("message"), kind)
    status = _STREAM_ERROR_STATUS.get(kind, 500)
    response = HttpResponse(status=status, body=json.dumps(payload).encode())
    raise_for_status(PROVIDER_ID, response, f"Anthropic API error ({status}): {kind}: {detail}")


def _text_so_far(block: Mapping[str, Any], key: str) -> str:
    """The block's ``key`` text so far; a start block may carry a non-string there."""
    value = block.get(key)
    return value if isinstance(value, str) else ""


def _piece(delta: Mapping[str, Any], key: str) -> str:
    """The delta's ``key`` text; another type carries none.

    ``str()`` of it put ``None``, ``7``, ``['x']`` or ``{'k': 'v'}`` into the answer when a
    ``text_delta``'s text came wrong-typed (48 of the capture's fields each, in the sweep).
    """
    value = delta.get(key)
    return value if isinstance(value, str) else ""


def _apply_delta(
    block: dict[str, Any], delta: Mapping[str, Any], partial: list[str], index: int
) -> None:
    kind = delta.get("type")
    if kind == "text_delta":
        block["text"] = _text_so_far(block, "text") + _piece(delta, "text")
    elif kind == "citations_delta":
        citations = block.get("citations")
        if not isinstance(citations, list):
            citations = block["citations"] = []
        citations.append(delta.get("citation"))
    elif kind == "input_json_delta":
        if not isinstance(delta.get("partial_json"), str):
            text = f"{INVALID_TOOL_INPUT} (content block {index})"
            raise field_error(PROVIDER_ID, text, delta, "partial_json", "a string", parent="delta")
        partial.append(delta["partial_json"])
    elif kind == "thinking_delta":
        block["thinking"] = _text_so_far(block, "thinking") + _piece(delta, "thinking")
    elif kind == "signature_delta":
        block["signature"] = _piece(delta, "signature")


def _finish_input(block: dict[str, Any], partial: list[str], index: int) -> None:
    if not partial:
        return
    text = "".join(partial).strip()
    try:
        block["input"] = json_loads(text) if text else {}
    except ValueError:
        # The block's number names where: the same text for every block told nothing.
        message = f"{INVALID_TOOL_INPUT} (content block {index}'s input_json_delta pieces)"
        raise ResponseParseError(PROVIDER_ID, message, 502) from None


class _StreamFold:
    """The state of one Messages stream being folded into a message."""

    def __init__(self) -> None:
        self.message: dict[str, Any] | None = None
        self.blocks: dict[int, dict[str, Any]] = {}
        self.partial: dict[int, list[str]] = {}
        self.bad_start: Mapping[str, Any] | None = None
        """A ``message_start`` whose ``message`` was no object, for the refusal to name."""

    def feed(self, payload: Mapping[str, Any], kind: str) -> None:
        index = payload.get("index")
        position = index if isinstance(index, int) else len(self.blocks)
        if kind == "error":
            _stream_error(payload)
        elif kind == "message_start" and isinstance(payload.get("message"), Mapping):
            self.message = dict(payload["message"])
        elif kind == "message_start":
            self.bad_start = payload
        elif kind == "content_block_start" and isinstance(payload.get("content_block"), Mapping):
            self.blocks[position] = dict(payload["content_block"])
            self.partial[position] = []
        elif kind == "content_block_delta" and isinstance(payload.get("delta"), Mapping):
            block = self.blocks.setdefault(position, {})
            partial = self.partial.setdefault(position, [])
            _apply_delta(block, payload["delta"], partial, position)
        elif kind == "content_block_stop":
            block = self.blocks.setdefault(position, {})
            _finish_input(block, self.partial.pop(position, []), position)
        elif kind == "message_delta":
            self.message_delta(payload)

    def message_delta(self, payload: Mapping[str, Any]) -> None:
        if self.message is None:
            return
        delta = payload.get("delta")
        if isinstance(delta, Mapping):
            self.message.update({k: v for k, v in delta.items() if v is not None})
        usage = payload.get("usage")
        if isinstance(usage, Mapping):
            # message_start's usage may have come as a number or list: it is replaced, not
            # merged (``**7`` was a TypeError, the one crash of the stream sweep).
            started = self.message.get("usage")
            self.message["usage"] = {**(started if isinstance(started, Mapping) else {}), **usage}


def _kind(payload: Mapping[str, Any], event: SseEvent) -> str:
    """The event's type: its data's ``type`` when a string, else its SSE ``event:`` name.

    ``str()`` of a wrong-typed ``type`` named the event ``"7"``: a ``message_start`` so
    read was refused as ``no message_start event``, though its SSE line named it.
    """
    kind = payload.get("type")
    return kind if isinstance(kind, str) and kind else event.event


def message_from_stream(events: Iterable[SseEvent]) -> dict[str, Any]:
    """Fold a Messages API event stream into the message a JSON call returns (pure).

    Handles ``message_start``, ``content_block_start`` / ``_delta`` (text, citations, tool
    input JSON, thinking, signature) / ``_stop``, ``message_delta`` and ``ping``.

    Raises:
        SearchProviderError: An ``error`` event, classified by its error type.
        ResponseParseError: An event is not JSON, or the stream has no ``message_start``
            (another API's stream: :func:`~..stream_apis.foreign_stream_error`).
    """
    fold = _StreamFold()
    seen: list[tuple[object, str]] = []
    for event in events:
        if event.data.strip() == _CHAT_END:
            continue
        payload = _decode(event.data)
        seen.append((payload, event.event))
        fold.feed(payload, _kind(payload, event))
    # Another API's stream (no message_start either) or its events mixed into this one:
    # named as what it is, not folded past in silence.
    refuse_foreign_stream(PROVIDER_ID, NO_START, ANTHROPIC_MESSAGES, seen)
    if fold.message is None and fold.bad_start is not None:
        # One came, with its message of another type: say so, not that none came.
        raise field_error(
            PROVIDER_ID, NO_START, fold.bad_start, "message", "an object", parent="message_start"
        )
    if fold.message is None:
        raise ResponseParseError(PROVIDER_ID, NO_START, 502)
    fold.message["content"] = [fold.blocks[index] for index in sorted(fold.blocks)]
    return fold.message
