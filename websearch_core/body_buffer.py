"""A response body gathered chunk by chunk into one ``bytes``, without a second copy of it.

aiohttp hands a body over in chunks of up to 64 KiB (``readany``). Joining them at the end
(``b"".join(chunks)``, which aiohttp's own ``read()`` does too) holds every chunk and the
joined copy at once: twice the body, 14 MB for a 7 MB page, the peak of a whole search's
Python memory. :class:`BodyBuffer` writes each chunk into one growing buffer as it comes
and drops it, then hands that buffer itself over (``io.BytesIO.getvalue`` gives its own
buffer, trimmed to size, when nothing else refers to it), so the body is held once plus a
chunk. A body that came in one chunk is that chunk, copied nowhere.
"""

import io

__all__ = ["BodyBuffer"]


class BodyBuffer:
    """The chunks of one body, in order; :meth:`take` gives them as one ``bytes``.

    Example:
        >>> gathered = BodyBuffer()
        >>> for chunk in (b"<p>", b"caf", "é</p>".encode()):
        ...     gathered.add(chunk)
        >>> gathered.size, gathered.take().decode()
        (12, '<p>café</p>')
    """

    __slots__ = ("_buffer", "_first", "size")

    def __init__(self) -> None:
        self._first = b""
        """The body while it is one chunk: handed over as it is."""
        self._buffer: io.BytesIO | None = None
        """The body from its second chunk on."""
        self.size = 0
        """Bytes added so far (a size cap compares against it as chunks come)."""

    def add(self, chunk: bytes) -> None:
        """Append ``chunk`` to the body (an empty chunk changes nothing)."""
        self.size += len(chunk)
        buffer = self._buffer
        if buffer is None:
            if not self._first:
                self._first = chunk
                return
            buffer = self._buffer = io.BytesIO()
            buffer.write(self._first)
            self._first = b""
        buffer.write(chunk)

    def take(self) -> bytes:
        """The whole body, after which the buffer is empty (so the bytes have no other holder)."""
        buffer, first = self._buffer, self._first
        self._buffer, self._first, self.size = None, b"", 0
        if buffer is None:
            return first
        return buffer.getvalue()  # BytesIO's own bytes, shared; the BytesIO is dropped here
