"""How the transport reads a body: the size cap on every framing, and the exact bytes back.

Every body is counted as it arrives, into one buffer (``body_buffer``); these tests pin
that the cap holds (before reading for a declared length over it, as soon as it is passed
otherwise), that nothing is lost, and that a large body is held once, not as its chunks
plus their join. The server writes raw HTTP so each test chooses the framing byte for
byte, and can hold the connection open: a transport that waited for more would then time
out instead of failing on the cap.
"""

import asyncio
import gzip
import os
import tracemalloc
from collections.abc import AsyncIterator

import aiohttp
import pytest

from websearch_core.errors import (
    ProviderConnectionError,
    ResponseTooLargeError,
    SearchProviderError,
)
from websearch_core.transport import HttpRequest, Transport

CAP = 16 * 1024
_WRITE = 64 * 1024
"""Bytes the server writes at a time."""


class RawServer:
    """A loopback server answering every request with ``reply`` and then, if ``hold``, waiting."""

    def __init__(self) -> None:
        self.reply = b""
        self.hold = False
        self.origin = ""
        self._server: asyncio.Server | None = None
        self._release = asyncio.Event()

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._answer, "127.0.0.1", 0)
        port = self._server.sockets[0].getsockname()[1]
        self.origin = f"http://127.0.0.1:{port}"

    async def _answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        reply = memoryview(self.reply)
        for start in range(0, len(reply), _WRITE):  # never a second copy of a large reply
            writer.write(reply[start : start + _WRITE])
            await writer.drain()
        if self.hold:
            await self._release.wait()
        writer.close()

    async def close(self) -> None:
        self._release.set()
        assert self._server is not None
        self._server.close()
        await self._server.wait_closed()


@pytest.fixture
async def raw() -> AsyncIterator[RawServer]:
    server = RawServer()
    await server.start()
    yield server
    await server.close()


def _head(*headers: str) -> bytes:
    return ("HTTP/1.1 200 OK\r\n" + "".join(f"{h}\r\n" for h in headers) + "\r\n").encode()


def _opaque(size: int) -> bytes:
    """``size`` random bytes that no reader takes for an event stream.

    A body whose first byte is a blank (``\\t``, ``\\n``, ``\\r``, ``\\f``, ``\\v``, a space)
    or ``:`` reads as a stream's blank line or comment, which ``send_sse`` judges as the
    stream it would be (other tests pin that): plain ``os.urandom`` gave one in about 37
    runs of a 1-byte body. The first byte is set above ASCII, the rest stays random.
    """
    body = os.urandom(size)
    return bytes([body[0] | 0x80]) + body[1:] if body else body


def _chunked(body: bytes, size: int = 4096) -> bytes:
    parts = [
        b"%x\r\n%s\r\n" % (len(body[i : i + size]), body[i : i + size])
        for i in range(0, len(body), size)
    ]
    return b"".join(parts)


async def _send(
    server: RawServer, *, sse: bool = False, timeout: float = 2.0, cap: int = CAP
) -> bytes:
    async with aiohttp.ClientSession() as session:
        transport = Transport(session, timeout_seconds=timeout, max_response_bytes=cap)
        request = HttpRequest(method="GET", url=f"{server.origin}/search")
        if sse:
            return (await transport.send_sse("brave", "Brave", request)).body
        return (await transport.send("brave", "Brave", request)).body


@pytest.mark.parametrize("sse", [False, True])
@pytest.mark.parametrize("size", [0, 1, CAP - 1, CAP])
async def test_a_declared_body_within_the_cap_arrives_whole(
    raw: RawServer, size: int, sse: bool
) -> None:
    body = _opaque(size)
    raw.reply = _head(f"Content-Length: {size}") + body
    assert await _send(raw, sse=sse) == body


@pytest.mark.parametrize("sse", [False, True])
@pytest.mark.parametrize("size", [1, CAP])
async def test_a_chunked_body_within_the_cap_arrives_whole(
    raw: RawServer, size: int, sse: bool
) -> None:
    body = _opaque(size)
    raw.reply = _head("Transfer-Encoding: chunked") + _chunked(body) + b"0\r\n\r\n"
    assert await _send(raw, sse=sse) == body


@pytest.mark.parametrize("sse", [False, True])
async def test_a_declared_length_over_the_cap_fails_before_the_body_is_read(
    raw: RawServer, sse: bool
) -> None:
    # Only the head is sent and the connection stays open: reading would time out.
    raw.reply, raw.hold = _head(f"Content-Length: {CAP + 1}"), True
    with pytest.raises(ResponseTooLargeError, match="Brave API response exceeded 16 KiB"):
        await _send(raw, sse=sse, timeout=5.0)


@pytest.mark.parametrize("sse", [False, True])
async def test_an_undeclared_body_fails_as_soon_as_it_passes_the_cap(
    raw: RawServer, sse: bool
) -> None:
    # The stream goes on (never ends): only counting what arrived can stop it.
    raw.reply = _head("Transfer-Encoding: chunked") + _chunked(b"x" * (CAP + 4096))
    raw.hold = True
    with pytest.raises(ResponseTooLargeError, match="Brave API response exceeded 16 KiB"):
        await _send(raw, sse=sse, timeout=5.0)


async def test_a_body_read_to_the_close_fails_as_soon_as_it_passes_the_cap(
    raw: RawServer,
) -> None:
    raw.reply = _head("Connection: close") + b"x" * (CAP + 4096)
    raw.hold = True
    with pytest.raises(ResponseTooLargeError, match="Brave API response exceeded 16 KiB"):
        await _send(raw, timeout=5.0)


@pytest.mark.parametrize("sse", [False, True])
@pytest.mark.parametrize("framing", ["Content-Length: 1000000", "Transfer-Encoding: chunked"])
async def test_an_error_page_past_the_cap_comes_back_cut_with_its_status(
    raw: RawServer, framing: str, sse: bool
) -> None:
    # More than the cap arrives and the rest never does: the status is answered with the
    # body's first CAP bytes, without waiting for the rest and without a size failure.
    page = _opaque(CAP * 2)
    sent = _chunked(page) if "chunked" in framing else page
    raw.reply = _head(framing).replace(b"200 OK", b"503 Service Unavailable") + sent
    raw.hold = True
    async with aiohttp.ClientSession() as session:
        transport = Transport(session, timeout_seconds=5.0, max_response_bytes=CAP)
        request = HttpRequest(method="GET", url=f"{raw.origin}/search")
        send = transport.send_sse if sse else transport.send
        response = await send("brave", "Brave", request)
    assert response.status == 503
    assert response.body == page[:CAP]


async def test_a_compressed_body_is_capped_as_inflated(raw: RawServer) -> None:
    # The declared length (the compressed size) is well within the cap; the body is not.
    packed = gzip.compress(b"a" * (CAP * 64))
    assert len(packed) < CAP
    raw.reply = _head(f"Content-Length: {len(packed)}", "Content-Encoding: gzip") + packed
    with pytest.raises(ResponseTooLargeError, match="Brave API response exceeded 16 KiB"):
        await _send(raw)


async def test_a_compressed_body_within_the_cap_arrives_inflated(raw: RawServer) -> None:
    body = b"results " * 1000
    packed = gzip.compress(body)
    raw.reply = _head(f"Content-Length: {len(packed)}", "Content-Encoding: gzip") + packed
    assert await _send(raw) == body


async def test_a_length_that_does_not_frame_a_chunked_body_is_never_a_long_answer(
    raw: RawServer,
) -> None:
    # Both framings at once (a smuggling shape): a short declared length must not let a
    # chunked body past the cap; whatever aiohttp makes of it, no oversized body comes back.
    body = b"x" * (CAP * 4)
    raw.reply = (
        _head("Content-Length: 10", "Transfer-Encoding: chunked") + _chunked(body) + b"0\r\n\r\n"
    )
    with pytest.raises(SearchProviderError):
        await _send(raw)


@pytest.mark.parametrize("sse", [False, True])
async def test_a_body_cut_short_of_its_length_is_a_connection_error(
    raw: RawServer, sse: bool
) -> None:
    raw.reply = _head("Content-Length: 1000") + b"x" * 10
    with pytest.raises(ProviderConnectionError) as caught:
        await _send(raw, sse=sse)
    assert caught.value.message.startswith(
        "Brave search failed: the connection closed before the response was complete (127.0.0.1:"
    )
    assert caught.value.__context__ is None


@pytest.mark.parametrize("sse", [False, True])
@pytest.mark.parametrize("chunked", [False, True])
async def test_a_large_body_is_held_once_not_as_its_chunks_and_their_join(
    raw: RawServer, chunked: bool, sse: bool
) -> None:
    size = 4_000_000
    body = _opaque(size)
    if chunked:
        raw.reply = _head("Transfer-Encoding: chunked") + _chunked(body, 65536) + b"0\r\n\r\n"
    else:
        raw.reply = _head(f"Content-Length: {size}") + body
    await _send(raw, sse=sse, cap=2 * size)  # the session's first use, outside the peak
    tracemalloc.start()
    try:
        got = await _send(raw, sse=sse, cap=2 * size)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert got == body
    assert peak < 1.3 * size, peak  # the chunks and their join held 2x
