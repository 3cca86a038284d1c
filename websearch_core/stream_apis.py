"""Which API an event stream speaks, and the one refusal of a stream of another API.

Each stream reader (Codex's and xAI's Responses folds, Anthropic's Messages fold, Gemini's
chunks, Perplexity's chat chunks and ask snapshots, Z.AI's MCP replies) met a stream of
another API (a base URL or gateway pointed at the wrong service) in its own words, none of
which said so: ``the stream ended before the response was completed`` (Codex), ``Perplexity
API stream failed``, ``Gemini API stream ended before its last chunk``, ``Anthropic stream
had no message_start event``, or no refusal at all (xAI's fold returned an empty response).
Each API's events are told apart here, as data (:data:`STREAM_APIS`), and the refusal is
worded once (:func:`foreign_stream_error`): the reader's own frame, then what it expected and
what arrived, with the event types seen. A stream no API here recognises (a reader's own
variant, an error event alone) is left to the reader, as before. Pure.
"""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from .errors import ResponseParseError
from .json_decode import decoded_json
from .sse import SseEvent

__all__ = [
    "ANTHROPIC_MESSAGES",
    "CHAT_COMPLETIONS",
    "GEMINI_GENERATE_CONTENT",
    "MCP_JSON_RPC",
    "OPENAI_RESPONSES",
    "PERPLEXITY_ASK",
    "STREAM_APIS",
    "StreamApi",
    "event_kind",
    "foreign_stream_error",
    "refuse_foreign_stream",
    "sse_payloads",
    "stream_api",
]

_DEFAULT_EVENT: Final = "message"
"""The SSE event name an event without an ``event:`` line has; it names no API."""
_KINDS_SHOWN: Final = 8
"""How many distinct event types a refusal lists before it counts the rest."""
_KIND_CHARACTERS: Final = 40
"""A listed type is cut to this: it is the far end's text, and only needs naming."""


@dataclass(frozen=True, slots=True)
class StreamApi:
    """One API's event stream, by what its events carry.

    Attributes:
        name: How a refusal names the API.
        types: ``type`` values of its events; one ending in ``.`` is a prefix.
        objects: Prefixes of the ``object`` value of its events (chat chunks carry no type).
        keys: Top-level keys, any of which marks an event that has neither ``type`` nor
            ``object`` (Gemini's chunks, Perplexity's ask snapshots, JSON-RPC messages).
        event_names: SSE ``event:`` names only this API uses.
        wrapper: A key whose object is one of its events, wrapped (Gemini's Code Assist
            endpoint sends each chunk as ``{"response": <chunk>}``).
    """

    name: str
    types: tuple[str, ...] = ()
    objects: tuple[str, ...] = ()
    keys: tuple[str, ...] = ()
    event_names: tuple[str, ...] = ()
    wrapper: str = ""

    def speaks(self, payload: object, event_name: str) -> bool:
        """Whether one event (its decoded ``data`` and SSE name) is one of this API's.

        Examples:
            >>> OPENAI_RESPONSES.speaks({"type": "response.created"}, "response.created")
            True
            >>> GEMINI_GENERATE_CONTENT.speaks({"type": "message_start"}, "message")
            False
        """
        if event_name in self.event_names:
            return True
        if not isinstance(payload, Mapping):
            return False
        kind, tagged = payload.get("type"), payload.get("object")
        if isinstance(kind, str) and kind:
            return any(kind == t or (t.endswith(".") and kind.startswith(t)) for t in self.types)
        if isinstance(tagged, str) and tagged:
            return tagged.startswith(self.objects) if self.objects else False
        if any(key in payload for key in self.keys):
            return True
        inner = payload.get(self.wrapper) if self.wrapper else None
        return isinstance(inner, Mapping) and self.speaks(inner, "")


OPENAI_RESPONSES: Final = StreamApi("OpenAI Responses", types=("response.",))
"""OpenAI's Responses stream (Codex, the public API) and xAI's, which speaks it too."""
ANTHROPIC_MESSAGES: Final = StreamApi(
    "Anthropic Messages",
    types=(
        "message_start",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
    ),
)
"""Anthropic's Messages stream (and Z.AI's Anthropic-compatible one); ``ping`` and
``error`` are left out: other APIs use those names too."""
CHAT_COMPLETIONS: Final = StreamApi("Chat Completions", objects=("chat.completion",))
"""OpenAI-style chat chunks (Perplexity's API, OpenRouter): ``object`` names them."""
GEMINI_GENERATE_CONTENT: Final = StreamApi(
    "Gemini generateContent",
    keys=("candidates", "usageMetadata", "promptFeedback", "modelVersion"),
    wrapper="response",
)
"""Gemini's ``streamGenerateContent`` chunks: untyped ``GenerateContentResponse`` objects."""
PERPLEXITY_ASK: Final = StreamApi(
    "Perplexity ask",
    keys=("blocks", "final_sse_message", "error_code"),
    event_names=("end_of_stream",),
)
"""The perplexity.ai ask endpoint's snapshots and its closing ``end_of_stream`` event."""
MCP_JSON_RPC: Final = StreamApi("MCP JSON-RPC", keys=("jsonrpc",))
"""An MCP server's JSON-RPC messages (Z.AI's search tools)."""
STREAM_APIS: Final = (
    OPENAI_RESPONSES,
    ANTHROPIC_MESSAGES,
    CHAT_COMPLETIONS,
    GEMINI_GENERATE_CONTENT,
    PERPLEXITY_ASK,
    MCP_JSON_RPC,
)
"""Every API a stream is told to be, in the order they are tried on each event."""


def sse_payloads(events: Iterable[SseEvent]) -> list[tuple[object, str]]:
    """Each event's decoded ``data`` with its SSE name; data that is not JSON is skipped.

    Examples:
        >>> sse_payloads([SseEvent('{"a": 1}'), SseEvent("[DONE]")])
        [({'a': 1}, 'message')]
    """
    found: list[tuple[object, str]] = []
    for event in events:
        try:
            found.append((decoded_json(event.data), event.event))
        except ValueError:
            continue
    return found


def event_kind(payload: object, event_name: str) -> str:
    """How a refusal names one event: its ``type``, ``object``, SSE name or first key.

    Examples:
        >>> event_kind({"type": "message_start"}, "message_start")
        'message_start'
        >>> event_kind({"candidates": [], "usageMetadata": {}}, "message")
        '{candidates}'
    """
    if isinstance(payload, Mapping):
        for key in ("type", "object"):
            value = payload.get(key)
            if isinstance(value, str) and value:
                return value[:_KIND_CHARACTERS]
    if event_name and event_name != _DEFAULT_EVENT:
        return event_name[:_KIND_CHARACTERS]
    if isinstance(payload, Mapping):
        first = next(iter(payload), "")
        return "{" + str(first)[:_KIND_CHARACTERS] + "}"
    return type(payload).__name__


def stream_api(payloads: Iterable[tuple[object, str]]) -> StreamApi | None:
    """The API of the first event any of :data:`STREAM_APIS` recognises; none: ``None``."""
    for payload, name in payloads:
        for api in STREAM_APIS:
            if api.speaks(payload, name):
                return api
    return None


def _kinds(payloads: Sequence[tuple[object, str]]) -> str:
    kinds = list(dict.fromkeys(event_kind(payload, name) for payload, name in payloads))
    shown = ", ".join(kinds[:_KINDS_SHOWN])
    rest = len(kinds) - _KINDS_SHOWN
    return f"{shown} and {rest} more" if rest > 0 else shown


def foreign_stream_error(
    provider_id: str, frame: str, expected: StreamApi, payloads: Sequence[tuple[object, str]]
) -> ResponseParseError | None:
    """The refusal of a stream of another API than ``expected``; ``None`` when it is not one.

    A stream is another API's when some event is recognised as another API's and not as
    the expected one's, whether or not the expected API's events come too. No real stream
    of the fixtures mixes two APIs (each of the six captures' events is its own API's and
    no other's), so a mixed one is a gateway or base URL joining two upstreams: read as
    the reader's own, the other API's events were dropped unnamed, or folded into the
    answer. The text is the reader's own frame (its refusal of a body it can not read),
    then ``another API's event stream: <API> events (<types of the events not the
    expected API's>) where <expected> events were expected``.

    Args:
        provider_id: The provider the refusal is tagged with.
        frame: The reader's own words for a reply it can not read.
        expected: The API the reader reads.
        payloads: The stream's events, decoded (:func:`sse_payloads`).

    Examples:
        >>> events = [({"type": "message_start"}, "message_start")]
        >>> foreign_stream_error("codex", "Codex said", OPENAI_RESPONSES, events).message
        "Codex said: another API's event stream: Anthropic Messages events (message_start) \
where OpenAI Responses events were expected"
        >>> foreign_stream_error("codex", "x", ANTHROPIC_MESSAGES, events) is None
        True
        >>> mixed = [({"type": "message_start"}, "message"), ({"candidates": []}, "message")]
        >>> foreign_stream_error("anthropic", "x", ANTHROPIC_MESSAGES, mixed).message[3:]
        "another API's event stream: Gemini generateContent events ({candidates}) where \
Anthropic Messages events were expected"
    """
    foreign = [(payload, name) for payload, name in payloads if not expected.speaks(payload, name)]
    arrived = stream_api(foreign)
    if arrived is None:
        return None
    text = (
        f"{frame}: another API's event stream: {arrived.name} events ({_kinds(foreign)})"
        f" where {expected.name} events were expected"
    )
    return ResponseParseError(provider_id, text, 502)


def refuse_foreign_stream(
    provider_id: str, frame: str, expected: StreamApi, payloads: Sequence[tuple[object, str]]
) -> None:
    """Raise :func:`foreign_stream_error`'s refusal when the stream is another API's.

    Raises:
        ResponseParseError: The stream is another API's (status 502).
    """
    error = foreign_stream_error(provider_id, frame, expected, payloads)
    if error is not None:
        raise error
