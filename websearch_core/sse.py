r"""A pure, incremental Server-Sent Events parser (the WHATWG ``text/event-stream`` rules).

Part of the transport layer: :meth:`websearch_core.transport.Transport.send_sse` feeds it
bytes as they arrive and enforces the timeout; every streaming provider parses the resulting
:class:`SseEvent` list with pure functions.

Handled: ``data:`` fields spread over several lines (joined with ``\n``), comments (lines
starting with ``:``), ``event:`` names, ``id:`` and ``retry:``, CRLF / LF / CR line ends
(including a CRLF split across two reads), a UTF-8 byte-order mark, and an optional space
after the colon. The mark is dropped once, at the stream's start, as WHATWG's decode of the
stream does; one leading an event's ``data`` is kept as data (the readers' ``JSON.parse``
then refuses it, :func:`~websearch_core.json_decode.decoded_json`), and a second at the start
makes the first line's field name unknown, so that line is ignored.

Two things the standard leaves silent become errors here, because a search tool must not
hang or pass on half an answer: an event larger than the cap, and a stream that ends in the
middle of an event.
"""

from dataclasses import dataclass

__all__ = ["DEFAULT_MAX_EVENT_BYTES", "SseError", "SseEvent", "SseParser", "parse_sse"]

DEFAULT_MAX_EVENT_BYTES = 4 * 1024 * 1024


class SseError(ValueError):
    """The stream broke the parser's limits or ended mid-event.

    Args:
        message: What went wrong.
        too_large: True when an event passed the size cap (rather than the stream breaking).
    """

    def __init__(self, message: str, *, too_large: bool = False) -> None:
        super().__init__(message)
        self.too_large = too_large


@dataclass(frozen=True, slots=True)
class SseEvent:
    """One dispatched event."""

    data: str
    event: str = "message"
    id: str | None = None
    retry: int | None = None


class SseParser:
    """Feed it bytes; it returns the events completed so far.

    Args:
        max_event_bytes: Largest event (its data lines together) accepted.
    """

    def __init__(self, max_event_bytes: int = DEFAULT_MAX_EVENT_BYTES) -> None:
        self.max_event_bytes = max_event_bytes
        self._buffer = b""
        self._data: list[str] = []
        self._data_size = 0
        self._event = ""
        self._id: str | None = None
        self._retry: int | None = None
        self._pending_fields = False
        self._first_line = True
        self._skip_lf = False

    def feed(self, chunk: bytes) -> list[SseEvent]:
        """Parse ``chunk`` and return every event it completed.

        An empty ``chunk`` changes nothing: a read that brought no bytes between a CR and
        its LF must not forget the CR, or the LF would end the event early as a blank line.
        """
        if not chunk:
            return []
        if self._skip_lf and chunk.startswith(b"\n"):
            chunk = chunk[1:]
        self._skip_lf = False
        buffer = self._buffer + chunk if self._buffer else chunk
        events: list[SseEvent] = []
        # Lines are read at an offset and the rest kept once: slicing the buffer per line
        # made a body of many small events quadratic (200,000 events: 13 s).
        position = 0
        while (found := self._next_line(buffer, position)) is not None:
            line, position = found
            event = self._process_line(line)
            if event is not None:
                events.append(event)
        self._buffer = buffer[position:] if position < len(buffer) else b""
        if len(self._buffer) > self.max_event_bytes:
            raise SseError(f"larger than {self.max_event_bytes} bytes", too_large=True)
        return events

    def finish(self) -> list[SseEvent]:
        """Flush at end of stream.

        Raises:
            SseError: The stream ended with an event begun but not terminated by a blank line.
        """
        if self._buffer.strip(b"\r\n"):
            raise SseError("stream ended in the middle of an event")
        if self._pending_fields and self._data:
            raise SseError("stream ended in the middle of an event")
        return []

    def _next_line(self, buffer: bytes, start: int) -> tuple[bytes, int] | None:
        """The line beginning at ``start`` and where the next begins; ``None`` if unfinished."""
        lf = buffer.find(b"\n", start)
        cr = buffer.find(b"\r", start, lf if lf >= 0 else len(buffer))
        if cr < 0 and lf < 0:
            return None
        if cr < 0:
            return buffer[start:lf], lf + 1
        if cr + 1 < len(buffer):
            skip = 2 if buffer[cr + 1 : cr + 2] == b"\n" else 1
            return buffer[start:cr], cr + skip
        # A CR at the end of this read: its LF may start the next one.
        self._skip_lf = True
        return buffer[start:cr], len(buffer)

    def _process_line(self, raw: bytes) -> SseEvent | None:
        if self._first_line:
            raw = raw.removeprefix(b"\xef\xbb\xbf")
            self._first_line = False
        if not raw:
            return self._dispatch()
        if raw.startswith(b":"):
            return None
        line = raw.decode("utf-8", errors="replace")
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        self._pending_fields = True
        if name == "data":
            self._data_size += len(value) + 1
            if self._data_size > self.max_event_bytes:
                raise SseError(f"larger than {self.max_event_bytes} bytes", too_large=True)
            self._data.append(value)
        elif name == "event":
            self._event = value
        elif name == "id" and "\x00" not in value:
            self._id = value
        elif name == "retry" and value.isascii() and value.isdigit() and len(value) < 10:
            self._retry = int(value)
        return None

    def _dispatch(self) -> SseEvent | None:
        self._pending_fields = False
        if not self._data:
            self._event = ""
            return None
        event = SseEvent(
            data="\n".join(self._data),
            event=self._event or "message",
            id=self._id,
            retry=self._retry,
        )
        self._data = []
        self._data_size = 0
        self._event = ""
        return event


def parse_sse(body: bytes, max_event_bytes: int = DEFAULT_MAX_EVENT_BYTES) -> list[SseEvent]:
    """Parse a complete stream (for recorded bodies and tests).

    Raises:
        SseError: An event passed the cap, or the stream ended mid-event.
    """
    parser = SseParser(max_event_bytes)
    events = parser.feed(body)
    events.extend(parser.finish())
    return events
