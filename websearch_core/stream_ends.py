"""Which event closes a stream, as data, so the transport stops reading at it.

:meth:`~.transport.Transport.send_sse` read every stream to the close of its socket. The
readers end on the stream's own closing event (Perplexity's chat stream on ``[DONE]`` or
its ``chat.completion.done`` object, the ask stream on ``end_of_stream`` or its final
snapshot, Codex's on ``response.completed``), but the transport did not: a server, proxy
or keep-alive connection that held the socket open after that event left a search with
its whole answer in hand waiting for the deadline, and then failing as timed out. A
request names its stream's end (:attr:`~.transport.HttpRequest.stream_end`); the
transport stops at the first event that matches and keeps no event after it (what follows
belongs to no answer this request asked for; the readers already stopped there). Pure.
"""

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Final

from .json_decode import json_loads, without_bom
from .sse import SseEvent

__all__ = [
    "CHAT_COMPLETIONS_END",
    "GEMINI_GENERATE_CONTENT_END",
    "MCP_REPLY_END",
    "OPENAI_RESPONSES_END",
    "PERPLEXITY_ASK_END",
    "ZAI_MCP_REPLY_END",
    "StreamEnd",
]


@dataclass(frozen=True, slots=True)
class StreamEnd:
    """The events that close one API's stream; call it with an event to ask.

    Attributes:
        names: SSE ``event:`` names that close the stream.
        data: Whole ``data`` texts that close it (``[DONE]``).
        types: ``type`` values of the closing event.
        objects: ``object`` values of the closing event.
        flags: Top-level keys whose ``true`` marks the closing event.
        statuses: ``status`` values of the closing event.
        finishes: Paths (keys from the top; a list steps into its first item) to a value
            that, once set (not null, false or empty), closes the stream: Gemini's
            ``candidates[0].finishReason`` or ``promptFeedback.blockReason``, which its
            reader also ends on.
        replies: Top-level keys that close the stream in a JSON-RPC response: an object
            with an ``id`` and no ``method`` (a notification has no ``id``, a server's own
            request a ``method``), as MCP's reply to the request that opened the stream.
        envelopes: Top-level keys whose ``true`` or ``false`` marks a provider's own reply
            envelope, with no JSON-RPC ``id``: Z.AI's ``{"success": false, "msg"}``, which
            its reader takes as the reply.
        answers: The JSON-RPC ``id`` of the request the stream answers
            (:meth:`answering`); a reply to any other ``id`` does not close the stream.
            Empty: any reply does. A reply whose ``id`` is null (an error to a request the
            server could not read) always does.
    """

    names: tuple[str, ...] = ()
    data: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    objects: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    statuses: tuple[str, ...] = ()
    finishes: tuple[tuple[str, ...], ...] = ()
    replies: tuple[str, ...] = ()
    envelopes: tuple[str, ...] = ()
    answers: tuple[str | int, ...] = ()

    def answering(self, request_id: object) -> "StreamEnd":
        """This end, closing only at the reply to ``request_id`` (a string or a number).

        JSON-RPC pairs a reply with its request by ``id``, and the reader of an MCP reply
        takes the one with its request's: a reply to another ``id`` ahead of it (a
        gateway sharing one stream, a server replaying another request's reply on
        resumption) ended the read there, and the real reply was never read. Any other
        ``request_id`` (none was sent) leaves the end as it is.

        Examples:
            >>> end = MCP_REPLY_END.answering("r1")
            >>> end.closes({"id": "r0", "result": {}}), end.closes({"id": "r1", "result": {}})
            (False, True)
            >>> end.closes({"id": None, "error": {"code": -32700}})
            True
        """
        if isinstance(request_id, bool) or not isinstance(request_id, (str, int)):
            return self
        return replace(self, answers=(request_id,))

    def __call__(self, event: SseEvent) -> bool:
        """Whether ``event`` closes the stream.

        The data is decoded only when one of the markers is written in it, so the chunks
        before the last (nearly all of a stream) cost a substring search each, not a parse.

        Examples:
            >>> PERPLEXITY_ASK_END(SseEvent("{}", event="end_of_stream"))
            True
            >>> CHAT_COMPLETIONS_END(SseEvent('{"object": "chat.completion.chunk"}'))
            False
        """
        if event.event in self.names:
            return True
        text = event.data.strip()
        if text in self.data:
            return True
        if not any(marker in text for marker in self._markers()):
            return False
        return self.closes(_decoded(text))

    def closes(self, payload: object) -> bool:
        """Whether one decoded event (a JSON value) is the closing one.

        Examples:
            >>> PERPLEXITY_ASK_END.closes({"status": "COMPLETED"})
            True
            >>> GEMINI_GENERATE_CONTENT_END.closes(
            ...     {"response": {"candidates": [{"finishReason": "STOP"}]}}
            ... )
            True
            >>> GEMINI_GENERATE_CONTENT_END.closes({"promptFeedback": {"blockReason": "OTHER"}})
            True
            >>> MCP_REPLY_END.closes({"method": "notifications/progress", "params": {}})
            False
            >>> ZAI_MCP_REPLY_END.closes({"success": False, "code": 1113, "msg": "arrears"})
            True
        """
        if not isinstance(payload, Mapping):
            return False
        if payload.get("type") in self.types or payload.get("object") in self.objects:
            return True
        if payload.get("status") in self.statuses:
            return True
        if any(_is_set(_walked(payload, path)) for path in self.finishes):
            return True
        if any(isinstance(payload.get(key), bool) for key in self.envelopes):
            return "method" not in payload
        if "id" in payload and "method" not in payload:
            replied = any(key in payload for key in self.replies)
            return replied and self._answers(payload["id"])
        return any(payload.get(flag) is True for flag in self.flags)

    def _answers(self, rpc_id: object) -> bool:
        """Whether a reply with ``rpc_id`` is the one awaited (by value and JSON type)."""
        if not self.answers or rpc_id is None:
            return True
        return any(type(rpc_id) is type(own) and rpc_id == own for own in self.answers)

    def _markers(self) -> tuple[str, ...]:
        ends = tuple(path[-1] for path in self.finishes if path)
        keys = (*self.flags, *self.replies, *self.envelopes)
        return (*self.types, *self.objects, *self.statuses, *ends, *keys)


def _walked(value: object, path: tuple[str, ...]) -> object:
    """The value at ``path`` in ``value`` (a list steps into its first item), else None."""
    for key in path:
        if isinstance(value, list):
            value = value[0] if value else None
        if not isinstance(value, Mapping):
            return None
        value = value.get(key)
    return value


def _is_set(value: object) -> bool:
    """Whether a finish field names a finish: set, and not null, false or empty."""
    if value is None or value is False:
        return False
    if isinstance(value, (str, list, Mapping)):
        return bool(value.strip() if isinstance(value, str) else value)
    return True


def _decoded(text: str) -> object:
    """The event's data as JSON, the words ``JSON.parse`` refuses read, else ``None``.

    ``NaN``, ``Infinity`` and ``-Infinity`` make an event no JSON to its reader
    (:func:`~.json_decode.json_loads` refuses them), but a closing event holding one still
    closes the stream: read without them, it was no end, and a socket held open after it
    kept the search to its deadline (``timed out``) where the reader refuses it at once.
    """
    try:
        return json_loads(text)
    except ValueError:
        pass
    try:
        return json.loads(without_bom(text))  # a second read only for data that is no JSON
    except (ValueError, RecursionError):
        return None


CHAT_COMPLETIONS_END: Final = StreamEnd(data=("[DONE]",), objects=("chat.completion.done",))
"""A chat-completion stream (Perplexity's API, OpenRouter): ``data: [DONE]``, as the API's
reference ends it, or Perplexity's last object, ``chat.completion.done``, as the real
capture (``fixtures/perplexity/..._stream.chunks.txt``) ends. Not a chunk's
``finish_reason``: a usage chunk may still follow it."""
_RESPONSE_CLOSED: Final = ("response.completed", "response.done", "response.incomplete")
OPENAI_RESPONSES_END: Final = StreamEnd(names=_RESPONSE_CLOSED, types=_RESPONSE_CLOSED)
"""A Responses stream (Codex): the event that closes the response, by its ``type`` or its
SSE name, as the real capture's ``response.completed`` is written with both; the Codex
fold stops there too (:data:`~.providers._codex_parse._LAST_EVENTS`)."""
PERPLEXITY_ASK_END: Final = StreamEnd(
    names=("end_of_stream",),
    flags=("final", "final_sse_message"),
    statuses=("COMPLETED",),
)
"""The perplexity.ai ask stream: its ``end_of_stream`` event, or the snapshot marked
``final`` / ``final_sse_message`` or ``status: "COMPLETED"``, which the reader's fold stops
at (:func:`~.providers._perplexity_ask.ask_finished`)."""
_GEMINI_LAST: Final = (("candidates", "finishReason"), ("promptFeedback", "blockReason"))
GEMINI_GENERATE_CONTENT_END: Final = StreamEnd(
    finishes=(*_GEMINI_LAST, *(("response", *path) for path in _GEMINI_LAST))
)
"""Gemini's ``streamGenerateContent?alt=sse`` (the Developer API's chunks, or Cloud Code
Assist's ``{"response": ...}`` wrappers): the stream names no closing event and sends no
``[DONE]``; its last chunk is the one whose candidate names a ``finishReason`` ("If empty,
the model has not stopped generating", the API reference), as the real capture
(``fixtures/gemini/stream_generate_content_google_search.sse``) ends: ten chunks, only the
tenth with ``finishReason: "STOP"`` (and every grounding source). The reader ends there too
(:data:`~.providers._gemini_parse.STREAM_CUT` when no chunk names one). A blocked prompt
gets no candidate at all ("If set, the prompt was blocked and no candidates are returned",
``promptFeedback.blockReason`` in the API reference): its one chunk holds the feedback, the
usage and the model, and names no ``finishReason``, so the block reason ends it too."""
MCP_REPLY_END: Final = StreamEnd(replies=("result", "error"))
"""An MCP reply over Streamable HTTP (Exa's and Z.AI's ``tools/call``): the stream a POST
opens carries notifications and then the JSON-RPC response to the request, after which the
server "SHOULD close the SSE stream" (the MCP transport specification); no capture of
either is stored. The response (an ``id``, a ``result`` or ``error``, no ``method``) ends
it; a ``notifications/progress`` or ``notifications/message`` before it has no ``id`` and
does not. A request names its own ``id`` (:meth:`StreamEnd.answering`), so a reply to
another one does not end it either."""
ZAI_MCP_REPLY_END: Final = StreamEnd(replies=("result", "error"), envelopes=("success",))
"""Z.AI's MCP session: a JSON-RPC reply as :data:`MCP_REPLY_END`, or Z.AI's own
``{"success": ..., "msg", "code"}`` envelope, which carries no ``id`` and which its reader
(:func:`~.providers._zai_rpc.rpc_message`) takes as the reply: sent as an event, it left
the read waiting for the close with the refusal in hand. Not Exa's: its reader reads no
such envelope."""
