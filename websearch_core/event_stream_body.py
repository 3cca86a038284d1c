"""Telling an event stream from a broken JSON body, for providers that never ask to stream.

A JSON provider that meets a ``text/event-stream`` body (a gateway streaming for it, a base
URL pointing at a streaming endpoint) failed with its JSON decoder's first complaint,
``Expecting value``, or with no reason at all (``Brave API returned invalid JSON``), naming
neither the stream nor why it was not read. Every such refusal is worded here, once
(:func:`invalid_json_text`), so that all of them name the stream alike: the provider's
spec'd invalid-JSON text stays the frame, only the reason after it comes from
:data:`EVENT_STREAM`. It sits beside the transport, not among the providers, because
:meth:`~.transport.HttpResponse.json` words most of those refusals. Pure.
"""

import contextlib
import re
from collections.abc import Sequence
from typing import Final

from .sse import SseError, SseEvent, SseParser

__all__ = [
    "EVENT_STREAM",
    "FIRST_LINE_BYTES",
    "after_blank_lines",
    "asked_stream_events",
    "invalid_json_text",
    "is_event_stream",
    "only_blank_lines",
    "stream_by_first_line",
]

EVENT_STREAM: Final = (
    "an event stream (text/event-stream), where the request asked for one JSON object and no stream"
)
"""The reason given for such a body, after the provider's invalid-JSON text."""

_MEDIA_TYPE: Final = "text/event-stream"
_FIRST_FIELD: Final = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*(?::|(?:data|event|id|retry)[ \t]*:)")
"""A first line that is an SSE field (``data:``, ``event:``, ``id:``, ``retry:``) or a
comment (``:``); no JSON text starts so."""


def is_event_stream(content_type: str | None, body: bytes) -> bool:
    r"""Whether a body that is not JSON is an event stream, by its label or its first line.

    Args:
        content_type: The ``Content-Type`` header, if any (parameters ignored).
        body: The response body.

    Examples:
        >>> is_event_stream("text/event-stream; charset=utf-8", b"")
        True
        >>> is_event_stream("application/json", b'data: {"type": "response.created"}\n\n')
        True
        >>> is_event_stream("application/json", b"<html>")
        False
    """
    media = (content_type or "").split(";", 1)[0].strip().lower()
    return media == _MEDIA_TYPE or _FIRST_FIELD.match(body) is not None


FIRST_LINE_BYTES: Final = 64
"""The most of a body's first line gathered to tell a stream by it: past the longest field
name (``retry:``) with room for a byte-order mark and spaces before it. Blank lines before
it are not counted (:func:`after_blank_lines`)."""

_BOM: Final = b"\xef\xbb\xbf"


_MAY_LEAD: Final = frozenset(b" \t\n\r\x0b\x0c" + _BOM[:1])
"""The bytes a head may open with when it has something to drop: ASCII whitespace (what
``bytes.lstrip`` takes) and the mark's first byte. Any other first byte, and the head is
returned as it is, uncopied (a JSON body's 16 KiB first read was copied twice: ~3.7 us a
search)."""


def after_blank_lines(head: bytes) -> bytes:
    r"""``head`` without its byte-order mark and the whole blank lines that lead it.

    A server may send newlines to keep a quiet connection open before its first event;
    they dispatch no event (a blank line ends an event that has no data), so the head a
    stream is told by, and fed to the parser once told, can go without them: what is
    gathered stays one line, however many keep-alives came first. A blank line's spaces
    go with it; spaces on the first line that is not blank stay (they are that line's).

    Examples:
        >>> after_blank_lines(b"\n\r\n \ndata: {}")
        b'data: {}'
        >>> after_blank_lines(b"\n\n  {")
        b'  {'
        >>> after_blank_lines(b"\xef\xbb\xbf\n\n")
        b''
    """
    if not head or head[0] not in _MAY_LEAD:
        return head  # the usual first read (``{``, ``data:``): no copy of it to make
    text = head.removeprefix(_BOM)
    blank = len(text) - len(text.lstrip())
    cut = max(text.rfind(b"\n", 0, blank), text.rfind(b"\r", 0, blank))
    return text[cut + 1 :]


def stream_by_first_line(head: bytes) -> bool | None:
    r"""Whether a 2xx body starting with ``head`` is an event stream, or ``None``: unsaid yet.

    A server may flush a few bytes before the rest (``d``, then ``ata: ...``): told by the
    first read alone, a stream relabelled ``application/json`` became a body and was read
    to the socket's close, past its end. The head says it once its first line has a field
    separator or a line end, or once :data:`FIRST_LINE_BYTES` of that line came, so the
    bytes gathered to ask stay a few, never the body. Blank lines before the first line
    (keep-alive newlines before the first event) say nothing: counted, 64 of them made a
    stream a body, read to the close past its end.

    Examples:
        >>> stream_by_first_line(b"dat") is None
        True
        >>> stream_by_first_line(b"data: {}"), stream_by_first_line(b'{"id": 1}')
        (True, False)
        >>> stream_by_first_line(b"<html>\n")
        False
        >>> stream_by_first_line(b"\n" * 100) is None
        True
    """
    if _FIRST_FIELD.match(head) is not None:
        return True
    line = after_blank_lines(head)
    if b":" in line or b"\n" in line or b"\r" in line or len(line) >= FIRST_LINE_BYTES:
        return False
    return None


def only_blank_lines(body: bytes) -> bool:
    r"""Whether ``body`` holds bytes, and every one of them a blank line's (or the mark's).

    Such a reply to a request for a stream is a stream that ended before its first event:
    its keep-alives came, nothing else did.

    Examples:
        >>> only_blank_lines(b"\n\r\n \n"), only_blank_lines(b""), only_blank_lines(b"\n{}")
        (True, False, False)
    """
    return bool(body) and not body.removeprefix(_BOM).strip()


def invalid_json_text(frame: str, content_type: str | None, body: bytes, reason: str = "") -> str:
    r"""A provider's refusal of a 2xx body that is not JSON: its frame, then why.

    A stream (:func:`is_event_stream`) is named as one whatever the decoder said, since
    ``Expecting value`` or a bare frame tells a reader nothing of a gateway that streamed;
    any other body keeps the provider's own reason (its decoder's, or none).

    Args:
        frame: The spec'd text up to its reason (``Brave API returned invalid JSON``,
            ``Kagi API returned an invalid response``).
        content_type: The response's ``Content-Type`` header, if any.
        body: The response body.
        reason: The reason this provider gives for any other body; empty: none.

    Examples:
        >>> invalid_json_text("Brave API returned invalid JSON", None, b"data: {}\n\n")[:48]
        'Brave API returned invalid JSON: an event stream'
        >>> invalid_json_text("Brave API returned invalid JSON", "text/html", b"<html>")
        'Brave API returned invalid JSON'
        >>> invalid_json_text("Kagi API returned an invalid response", None, b"<", "invalid JSON")
        'Kagi API returned an invalid response: invalid JSON'
    """
    if is_event_stream(content_type, body):
        return f"{frame}: {EVENT_STREAM}"
    return f"{frame}: {reason}" if reason else frame


def asked_stream_events(events: Sequence[SseEvent], body: bytes) -> tuple[SseEvent, ...]:
    r"""The events of a reply to a request that asked for a stream, whatever its label said.

    The transport parses a body as a stream only when it is labelled ``text/event-stream``.
    A gateway that rewrites the label to ``application/json`` left Codex, Perplexity and
    Gemini, which asked for that stream and can read it, refusing it as invalid JSON. The
    body's first line decides instead, by the rule :func:`is_event_stream` already uses
    (an SSE field or comment, which no JSON text starts with); a JSON body, whatever its
    label, gives no events, so the caller reads it as the plain JSON it is.

    Args:
        events: The events the transport parsed (a body labelled as a stream).
        body: The raw body, kept by the transport either way.

    Returns:
        ``events`` when there are any; else the body's own events when its first line is
        an SSE field; else none. A body cut mid-event gives the events before the cut
        (the reader then refuses it as cut, as it does a labelled stream ended early); an
        event over the parser's cap gives none.

    Examples:
        >>> [e.data for e in asked_stream_events((), b'data: {"a": 1}\n\ndata: [DONE]\n\n')]
        ['{"a": 1}', '[DONE]']
        >>> asked_stream_events((), b'{"data": 1}')
        ()
    """
    if events:
        return tuple(events)
    if _FIRST_FIELD.match(body) is None:
        return ()
    parser = SseParser()
    try:
        found = parser.feed(body)
    except SseError:
        return ()
    # Cut mid-event: the events before the cut, which the reader refuses as a cut stream.
    with contextlib.suppress(SseError):
        found.extend(parser.finish())
    return tuple(found)
