"""The one SSE reader, on hand-made streams and on every real captured stream."""

import asyncio
import json
from collections.abc import AsyncIterator

import aiohttp
import pytest
from aiohttp import web

from tests.conftest import read_capture
from websearch_core.errors import (
    ProviderConnectionError,
    ProviderTimeoutError,
    ResponseTooLargeError,
)
from websearch_core.sse import SseError, SseEvent, SseParser, parse_sse
from websearch_core.transport import HttpRequest, Transport


def _bytewise(body: bytes) -> list[SseEvent]:
    parser = SseParser()
    events: list[SseEvent] = []
    for index in range(len(body)):
        events.extend(parser.feed(body[index : index + 1]))
    events.extend(parser.finish())
    return events


def test_fields_comments_and_multiline_data() -> None:
    body = (
        b"\xef\xbb\xbf: a comment\n"
        b"event: update\nid: 7\nretry: 1500\ndata: first line\ndata:second line\n\n"
        b'data: {"n": 2}\r\n\r\n'
        b"event: ignored-without-data\n\n"
        b"data\n\n"
    )
    events = parse_sse(body)
    assert events == [
        SseEvent(data="first line\nsecond line", event="update", id="7", retry=1500),
        SseEvent(data='{"n": 2}', event="message", id="7", retry=1500),
        SseEvent(data="", event="message", id="7", retry=1500),
    ]
    assert _bytewise(body) == events


@pytest.mark.parametrize("ending", [b"\n", b"\r\n", b"\r"])
def test_every_line_ending(ending: bytes) -> None:
    body = ending.join([b"event: a", b"data: x", b"", b"data: y", b"", b""])
    assert [(e.event, e.data) for e in parse_sse(body)] == [("a", "x"), ("message", "y")]
    assert [(e.event, e.data) for e in _bytewise(body)] == [("a", "x"), ("message", "y")]


def test_crlf_split_across_reads_is_one_line_end() -> None:
    parser = SseParser()
    assert parser.feed(b"data: x\r") == []
    assert parser.feed(b"\n\r") == [SseEvent(data="x")]
    assert parser.feed(b"\ndata: y\n\n") == [SseEvent(data="y")]


def test_stream_cut_mid_event_is_an_error() -> None:
    with pytest.raises(SseError, match="middle of an event"):
        parse_sse(b"data: complete\n\ndata: half")
    with pytest.raises(SseError, match="middle of an event"):
        parse_sse(b"data: complete\n\ndata: no blank line\n")


def test_oversized_event_is_an_error() -> None:
    with pytest.raises(SseError) as caught:
        parse_sse(b"data: " + b"x" * 2000 + b"\n\n", max_event_bytes=1024)
    assert caught.value.too_large
    parser = SseParser(max_event_bytes=1024)
    with pytest.raises(SseError):
        for _ in range(100):
            parser.feed(b"data: " + b"y" * 100 + b"\n")


@pytest.mark.parametrize(
    ("capture", "count", "first_event", "last_type"),
    [
        ("anthropic/messages_web_search_tool_stream.sse", 119, "message_start", "message_stop"),
        (
            "openai/responses_web_search_tool_stream.sse",
            61,
            "response.created",
            "response.completed",
        ),
        ("gemini/stream_generate_content_google_search.sse", 10, "message", None),
        (
            "zai/anthropic_compat_messages_stream_web_search_prime_2026-10.sse",
            20,
            "message",
            "message_stop",
        ),
    ],
)
def test_real_captured_streams(
    capture: str, count: int, first_event: str, last_type: str | None
) -> None:
    body = read_capture(capture)
    events = parse_sse(body)
    assert len(events) == count
    assert events[0].event == first_event
    for event in events:
        json.loads(event.data)  # every data payload is one complete JSON document
    if last_type is not None:
        assert json.loads(events[-1].data)["type"] == last_type
    assert _bytewise(body) == events


@pytest.fixture
async def server() -> AsyncIterator[str]:
    async def stream(request: web.Request) -> web.StreamResponse:
        mode = request.match_info["mode"]
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        await response.write(b"event: a\ndata: 1\n\n")
        if mode == "cut":
            await response.write(b"data: half")
        elif mode == "stall":
            await asyncio.sleep(5)
        elif mode == "big":
            await response.write(b"data: " + b"z" * 4096 + b"\n\n")
        else:
            await response.write(b"data: 2\n\n")
        return response

    app = web.Application()
    app.router.add_get("/{mode}", stream)
    runner = web.AppRunner(app, shutdown_timeout=0.1)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    yield f"http://{host}:{port}"
    await runner.cleanup()


async def _stream(base: str, mode: str, **kwargs: int | float) -> list[SseEvent]:
    async with aiohttp.ClientSession() as session:
        transport = Transport(
            session, timeout_seconds=kwargs.pop("timeout", 2.0), max_response_bytes=1 << 20
        )
        response = await transport.send_sse(
            "gemini",
            "Gemini",
            HttpRequest(method="GET", url=f"{base}/{mode}"),
            **kwargs,  # type: ignore[arg-type]
        )
        return list(response.events)


async def test_transport_reads_a_whole_stream(server: str) -> None:
    events = await _stream(server, "ok")
    assert [(e.event, e.data) for e in events] == [("a", "1"), ("message", "2")]


async def test_transport_stream_cut_mid_event_is_a_connection_error(server: str) -> None:
    with pytest.raises(ProviderConnectionError, match="middle of an event"):
        await _stream(server, "cut")


async def test_transport_stalled_stream_times_out(server: str) -> None:
    with pytest.raises(ProviderTimeoutError):
        await _stream(server, "stall", timeout=0.3)


async def test_transport_oversized_event(server: str) -> None:
    with pytest.raises(ResponseTooLargeError):
        await _stream(server, "big", max_event_bytes=1024)


REAL_STREAMS = (
    "anthropic/messages_web_search_tool_stream.sse",
    "openai/responses_web_search_tool_stream.sse",
    "gemini/stream_generate_content_google_search.sse",
    "zai/anthropic_compat_messages_stream_web_search_prime_2026-10.sse",
)
"""The real streams in ../shared/fixtures; Gemini's ends its lines with CRLF, the rest LF."""


def _read(*chunks: bytes) -> list[SseEvent]:
    parser = SseParser()
    events: list[SseEvent] = []
    for chunk in chunks:
        events.extend(parser.feed(chunk))
    events.extend(parser.finish())
    return events


def _event_blocks(body: bytes) -> list[bytes]:
    """``body`` cut after each blank line: one block per event, its line ends kept."""
    blocks: list[bytes] = []
    start = 0
    for ending in (b"\r\n\r\n", b"\n\n"):
        if ending in body:
            while (found := body.find(ending, start)) >= 0:
                blocks.append(body[start : found + len(ending)])
                start = found + len(ending)
            break
    return [*blocks, body[start:]] if body[start:] else blocks


@pytest.mark.parametrize("capture", REAL_STREAMS)
def test_an_empty_read_after_a_cr_keeps_its_line_end(capture: str) -> None:
    """A read of no bytes between a CR and its LF forgot the CR.

    The LF then ended a line of its own, a blank line: after an ``event:`` line it ended an
    event with no data, so the next event lost its name (Anthropic's and Codex's streams,
    read with CRLF endings, came out with ``message`` events only where they had a name).
    :meth:`Transport.send_sse` stops at an empty read; a caller feeding the parser itself
    need not. Each stream is read as captured (Gemini's has CRLF) and with CRLF endings.
    """
    body = read_capture(capture)
    crlf = body.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    for text in dict.fromkeys((body, crlf)):
        whole = parse_sse(text)
        cuts = [index + 1 for index, byte in enumerate(text) if byte == ord("\r")]
        assert cuts or text != crlf
        for cut in cuts:
            assert _read(text[:cut], b"", text[cut:]) == whole, cut


@pytest.mark.parametrize("capture", REAL_STREAMS)
def test_every_split_of_a_real_stream_reads_the_same(capture: str) -> None:
    """A guard (passes before and after): a stream cut in two at any byte reads the same.

    The parser keeps nothing from one event to the next in these captures (no ``id:`` or
    ``retry:`` line), so each event cut at each of its offsets covers every offset of the
    stream without reading the whole of it tens of thousands of times.
    """
    body = read_capture(capture)
    assert b"\nid:" not in body and b"\nretry:" not in body
    for block in _event_blocks(body):
        whole = parse_sse(block)
        assert len(whole) == 1
        for cut in range(len(block) + 1):
            assert _read(block[:cut], block[cut:]) == whole, (block[:60], cut)
