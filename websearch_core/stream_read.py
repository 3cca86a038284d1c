"""Reading one 2xx reply to a stream request, read by read: where it ends, what it holds.

The rules were the transport's alone (:meth:`~.transport.Transport.send_sse`): a stream
is one by its label or its first line, ends at its closing event (the reply to its own
request's ``id``), and is refused when it brought blank lines and nothing else.
:class:`~.testing.mock_transport.MockTransport`, which tests and users answer requests
with in-process, parsed any body labelled a stream to its end instead: it read past the
closing event (and failed on a cut trailer the real transport never reads), refused a
JSON body under the stream label as cut mid-event, read no relabelled stream, and handed
blank lines on as a body. Both now feed their reads to :class:`StreamRead`, so a test on
either sees what the network would give. Pure: no I/O, the caller reads.
"""

from collections.abc import Callable, Sequence

from .body_buffer import BodyBuffer
from .event_stream_body import (
    after_blank_lines,
    is_event_stream,
    only_blank_lines,
    stream_by_first_line,
)
from .sse import DEFAULT_MAX_EVENT_BYTES, SseError, SseEvent, SseParser

__all__ = ["StreamRead", "is_labelled_stream"]

_OK = 200
_STREAM_LABEL = "event-stream"


def is_labelled_stream(content_type: str | None) -> bool:
    """Whether a ``Content-Type`` labels the body an event stream, as both transports ask.

    Examples:
        >>> is_labelled_stream("text/event-stream; charset=utf-8"), is_labelled_stream(None)
        (True, False)
    """
    return _STREAM_LABEL in (content_type or "")


class StreamRead:
    r"""One 2xx stream reply as it comes: :meth:`add` each read, then :meth:`finish`.

    Args:
        labelled: The reply is labelled ``text/event-stream``; otherwise its first line
            decides (a gateway relabelling the stream ``application/json``).
        stream_end: Whether an event closes the stream
            (:attr:`~.transport.HttpRequest.stream_end`); ``None``: read to the close.
        cap: The most bytes the body may hold.
        too_large: The error to raise once the body passes ``cap`` (it names the provider).
        max_event_bytes: The most bytes one event may hold.

    Attributes:
        ended: The closing event came: read no more (what follows is no answer's).

    Example:
        >>> read = StreamRead(labelled=False, cap=99, too_large=lambda: ValueError("big"))
        >>> read.add(b"da"), read.add(b'ta: {"a": 1}\n\n')
        (False, False)
        >>> [event.data for event in read.finish(200)[1]]
        ['{"a": 1}']
    """

    __slots__ = (
        "_cap",
        "_end",
        "_events",
        "_gathered",
        "_head",
        "_parser",
        "_streaming",
        "_too_large",
        "ended",
    )

    def __init__(
        self,
        *,
        labelled: bool,
        cap: int,
        too_large: Callable[[], BaseException],
        stream_end: Callable[[SseEvent], bool] | None = None,
        max_event_bytes: int = DEFAULT_MAX_EVENT_BYTES,
    ) -> None:
        self._cap = cap
        self._too_large = too_large
        self._end = stream_end
        self._parser = SseParser(max_event_bytes)
        self._streaming: bool | None = True if labelled else None
        self._gathered = BodyBuffer()
        self._head = b""
        self._events: list[SseEvent] = []
        self.ended = False

    def add(self, chunk: bytes) -> bool:
        """Take one read; whether the stream ended with it (read no more then).

        Raises:
            BaseException: ``too_large()``, once the body passes the cap.
            SseError: An event passed its cap.
        """
        self._gathered.add(chunk)
        if self._gathered.size > self._cap:
            raise self._too_large()
        if self._streaming is None:
            # Keep-alive blank lines before the first line are dropped here, so they
            # decide nothing and the head stays one line; a server may flush a byte or
            # four first, so the head is gathered over the first reads.
            self._head = after_blank_lines(self._head + chunk)
            self._streaming = stream_by_first_line(self._head)
            chunk = self._head  # the parser has seen none of it yet
        if self._streaming:
            self.ended = _take_to_end(self._events, self._parser.feed(chunk), self._end)
        return self.ended

    def finish(self, status: int) -> tuple[bytes, tuple[SseEvent, ...]]:
        """The whole body and its events, once the reads ended (or the stream did).

        Raises:
            SseError: The stream ended mid-event, or brought blank lines only (both a
                broken stream, a connection error).
        """
        body = self._gathered.take()
        if self._streaming is None and is_event_stream(None, body):
            # The body ended before its first line said (a stream of a few bytes).
            self._streaming = True
            self.ended = _take_to_end(self._events, self._parser.feed(body), self._end)
        if self._streaming and not self.ended:
            self._events.extend(_stream_end(self._parser, body))
        _refuse_blank_lines(status, body, self._streaming, self._events)
        return body, tuple(self._events)


def _take_to_end(
    events: list[SseEvent],
    fresh: Sequence[SseEvent],
    closes: Callable[[SseEvent], bool] | None,
) -> bool:
    """Add ``fresh`` to ``events`` up to the one that ``closes`` the stream; whether one did.

    A server that holds the socket open after the stream's closing event (a proxy's
    keep-alive, a server that never closes) left a search with its answer in hand waiting
    for the deadline; the read stops at that event instead, and what comes after it in the
    same read is dropped: it belongs to no answer this request asked for. Released unread,
    the connection is closed rather than pooled.
    """
    if closes is None:
        events.extend(fresh)
        return False
    for event in fresh:
        events.append(event)
        if closes(event):
            return True
    return False


def _stream_end(parser: SseParser, body: bytes) -> list[SseEvent]:
    """The last events of a body read as a stream, once all of it came.

    A body cut mid-event is a broken stream (:class:`SseError`, a connection error), never
    half an answer. But a JSON body under the stream label (a server ignoring the stream it
    was asked for, a gateway relabelling) is no stream at all: its last line ends with no
    blank line, most often with no line end, and was refused as a stream that ``ended in
    the middle of an event`` before its reader, which reads plain JSON, ever saw it. The
    body's first line tells the two apart (:func:`~.event_stream_body.is_event_stream`).

    Raises:
        SseError: The body is an event stream and ended mid-event.
    """
    try:
        return parser.finish()
    except SseError:
        if is_event_stream(None, body):
            raise
        return []


def _refuse_blank_lines(
    status: int, body: bytes, streaming: bool | None, events: Sequence[SseEvent]
) -> None:
    """Refuse a 200 reply to a stream request that brought blank lines and nothing else.

    Blank lines do not decide whether a body is a stream (a server's keep-alives before
    its first event), so a body of nothing else stayed undecided to its end and reached
    its reader, which refused it in words about JSON (``Perplexity API returned invalid
    JSON``, ``Failed to parse MCP response``) that say nothing of what came. It is a
    stream that ended before its first event, a broken stream as one cut mid-event is;
    while it is still coming, the deadline and the size cap bound it. A 202 or 204 (an
    MCP notification's reply) is no answer to read, whatever its body.

    Raises:
        SseError: The body is blank lines only (a connection error naming them).
    """
    if streaming is not False and not events and status == _OK and only_blank_lines(body):
        raise SseError(f"stream ended before its first event: {len(body)} bytes of blank lines")
