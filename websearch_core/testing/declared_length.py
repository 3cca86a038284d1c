"""A reply's ``Content-Length`` read as aiohttp reads it, for :class:`MockTransport`.

The mock read a handler's body whole whatever length its headers declared, so a body cut
short of it (the peer closed early) was a whole answer there, where the real transport
fails it as a connection closed before the response was complete; and a JSON body held
open after its declared length never ended there, where the length ends it on the wire.
Measured on loopback with aiohttp 3.14 (``benchmarks/RESULTS.md``, stop 57, streams64):

- fewer bytes than declared, then the close: ``ClientPayloadError`` (the "closed before"
  text); held open instead: the read waits for the time bound;
- more bytes than declared: the body ends at the length. The excess is the next message
  on the connection: arriving with the head (one write), bytes that cannot open a status
  line (line ends before one are skipped) are refused as ``Bad status line``; arriving in
  a later read, they are never read;
- a value that is not digits (``-1``, ``+5``, ``5, 5``, ``abc``): ``Invalid character in
  Content-Length``; two of them: ``Duplicate Content-Length``; with ``Transfer-Encoding``:
  ``Transfer-Encoding can't be present with Content-Length`` (each an invalid HTTP reply);
- a 1xx, 204 or 304 reply, or one to ``HEAD``, has no body whatever the length says.

The refusals are raised as the aiohttp errors the real transport meets, so the one
translation of both (``Transport._failure``) words them.
"""

from collections.abc import AsyncIterator
from typing import Final

import aiohttp
from multidict import CIMultiDict, CIMultiDictProxy
from yarl import URL

from ..transport import HttpRequest, HttpResponse

__all__ = ["declared_length", "up_to_declared"]

_BODILESS_STATUSES: Final = frozenset({204, 304})
"""Replies that carry no body, whatever length they declare (with every 1xx)."""
_STATUS_LINE_OPENING: Final = b"HTTP/"
"""How the next message on the connection must open to be taken as a reply (not refused)."""
_OPTIONAL_WHITESPACE: Final = " \t"


def declared_length(request: HttpRequest, response: HttpResponse) -> int | None:
    """The body length ``response``'s headers declare, ``None`` where none applies.

    ``None`` also for a reply that has no body (a 1xx, 204 or 304, or one to ``HEAD``).

    Raises:
        aiohttp.ClientResponseError: The length is not digits, given twice, or given with
            ``Transfer-Encoding`` (aiohttp's parser refuses each reply so).
    """
    values = [value for name, value in response.headers.items() if name.lower() == "content-length"]
    if not values or request.method.upper() == "HEAD":
        return None
    if response.status < 200 or response.status in _BODILESS_STATUSES:
        return None
    if len(values) > 1:
        raise _invalid(request, "Duplicate Content-Length")
    if response.header("Transfer-Encoding") is not None:
        raise _invalid(request, "Transfer-Encoding can't be present with Content-Length")
    value = values[0].strip(_OPTIONAL_WHITESPACE)
    if not value or not (value.isascii() and value.isdigit()):
        raise _invalid(request, "Invalid character in Content-Length")
    return int(value)


async def up_to_declared(
    request: HttpRequest, response: HttpResponse, parts: AsyncIterator[bytes], declared: int
) -> AsyncIterator[bytes]:
    """``parts`` (the reads of ``response``'s body, the first with the head) up to ``declared``.

    Reading stops at the length, so a reply held open after it ends there. A body of
    none declared is read once more only if the handler gave bytes (a held reply of none
    would wait there).

    Raises:
        aiohttp.ClientResponseError: Past the length, the first read holds bytes that
            cannot open a status line (``Bad status line``).
        aiohttp.ClientPayloadError: The reads ended short of the length.
    """
    got = 0
    first = True
    try:
        while got < declared:
            part = await anext(parts, None)
            if part is None:
                raise aiohttp.ClientPayloadError(
                    "Response payload is not completed: <ContentLengthError: 400, message="
                    "'Not enough data to satisfy content length header (received "
                    f"{got} of {declared} bytes).'>"
                )
            wanted = declared - got
            if first and len(part) > wanted:
                _judge_next_message(request, part[wanted:])
            first = False
            got += min(len(part), wanted)
            yield part[:wanted]
        if declared == 0 and response.body:
            part = await anext(parts, None)
            if part:
                _judge_next_message(request, part)
    finally:
        close = getattr(parts, "aclose", None)
        if close is not None:
            await close()  # a reply held past its length is let go, as a released socket


def _judge_next_message(request: HttpRequest, excess: bytes) -> None:
    """Refuse ``excess`` (read with the head, past its length) if no status line opens so.

    Line ends before a message are skipped, as aiohttp's parser skips them.
    """
    opening = excess.lstrip(b"\r\n")[: len(_STATUS_LINE_OPENING)]
    if not _STATUS_LINE_OPENING.startswith(opening):
        raise _invalid(request, "Bad status line")


def _invalid(request: HttpRequest, said: str) -> aiohttp.ClientResponseError:
    """The error aiohttp raises for a reply its parser refused, saying ``said``."""
    info = aiohttp.RequestInfo(
        url=URL(request.url),
        method=request.method,
        headers=CIMultiDictProxy(CIMultiDict()),
    )
    return aiohttp.ClientResponseError(info, (), status=400, message=said)
