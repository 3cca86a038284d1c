"""The in-process ``MockTransport`` reads a stream as the real transport does.

The rules of a stream reply (where it ends, a relabelled stream told by its first line, a
JSON body under the stream label, blank lines alone) were the real transport's alone;
:class:`~websearch_core.testing.MockTransport`, which tests and users answer requests with
in-process, parsed any body labelled a stream to its end and nothing else. Each case here
sends one body both ways, once over a loopback socket the simulator closes after it, once
from a handler, and asks the same of both: the events read, or the failure and its text.
The streams are real captures, read from ``../shared/fixtures`` (never copied).
"""

import json
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from typing import Final

import aiohttp
import pytest

from tests.stream_bodies import framed_chunks
from websearch_core.errors import SearchProviderError
from websearch_core.sse import SseEvent
from websearch_core.stream_ends import CHAT_COMPLETIONS_END, MCP_REPLY_END
from websearch_core.testing import Fault, MockTransport, Simulator
from websearch_core.transport import HttpRequest, HttpResponse, Transport

URL: Final = "https://api.perplexity.ai/chat/completions"
PERPLEXITY_CHUNKS: Final = framed_chunks(
    "perplexity/chat_completions_sonar_citations_stream.chunks.txt"
)
STREAM: Final = "text/event-stream"
Outcome = tuple[str, object]
"""``("events", [data, ...])`` or ``("failed", (error type, text))``."""


@asynccontextmanager
async def _both(body: bytes, content_type: str) -> AsyncIterator[tuple[Transport, Transport]]:
    """A real transport whose reply is ``body`` over a socket closed after it, and a
    ``MockTransport`` whose handler answers the same; both route ``perplexity`` alike."""
    head = f"HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nConnection: close\r\n\r\n"
    answer = HttpResponse(status=200, body=body, headers={"Content-Type": content_type})
    async with Simulator(["perplexity"]) as sim, aiohttp.ClientSession() as session:
        sim["perplexity"].enqueue(Fault.not_http(head.encode() + body))
        routes = sim.base_urls()
        real = Transport(
            session, timeout_seconds=10.0, max_response_bytes=1 << 20, base_urls=routes
        )
        yield real, MockTransport(lambda _: answer, timeout_seconds=10.0, base_urls=routes)


async def _outcome(transport: Transport, end: Callable[[SseEvent], bool] | None) -> Outcome:
    request = HttpRequest(method="POST", url=URL, json={}, stream=True, stream_end=end)
    try:
        response = await transport.send_sse("perplexity", "Perplexity", request)
    except SearchProviderError as exc:
        return "failed", (type(exc).__name__, exc.message)
    return "events", [event.data for event in response.events]


async def _alike(
    body: bytes, content_type: str, end: Callable[[SseEvent], bool] | None
) -> tuple[Outcome, Outcome]:
    async with _both(body, content_type) as (real, mock):
        return await _outcome(real, end), await _outcome(mock, end)


def _datas(body: bytes) -> Iterator[str]:
    """Each ``data:`` line's text, in order (every event here is one such line)."""
    for line in body.decode().splitlines():
        if line.startswith("data: "):
            yield line.removeprefix("data: ")


def _rpc(rpc_id: str, result: object) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": rpc_id, "result": result})


async def test_a_stream_ends_at_its_closing_event_whatever_follows() -> None:
    """Failed before on the mock (``connection closed before the response was complete``):
    it parsed past the real capture's closing chunk into a trailer cut mid-event, which
    the real transport never reads."""
    stream = PERPLEXITY_CHUNKS().encode()
    body = stream + b'data: {"object": "chat.completion.chunk", "cut'
    real, mock = await _alike(body, STREAM, CHAT_COMPLETIONS_END)
    assert real == ("events", list(_datas(stream))), real
    assert mock == real


async def test_an_mcp_stream_ends_at_the_reply_to_its_own_id() -> None:
    """Failed before on the mock (three events): it read on past the reply to the
    request's own ``id`` to a later reply; another request's reply before it is kept, as
    the real transport keeps it, for the reader to skip."""
    own = MCP_REPLY_END.answering("r1")
    replies = [_rpc("r0", {}), _rpc("r1", {"content": []}), _rpc("r2", {})]
    body = "".join(f"event: message\ndata: {reply}\n\n" for reply in replies).encode()
    real, mock = await _alike(body, STREAM, own)
    assert real == ("events", replies[:2]), real
    assert mock == real


@pytest.mark.parametrize("content_type", ["application/json", "text/plain"])
async def test_a_relabelled_stream_is_read_as_one(content_type: str) -> None:
    """Failed before on the mock (no events): only a body labelled a stream was parsed;
    the real capture relabelled is read by its first line, to its closing event."""
    stream = PERPLEXITY_CHUNKS().encode()
    real, mock = await _alike(stream, content_type, CHAT_COMPLETIONS_END)
    assert real == ("events", list(_datas(stream))), real
    assert mock == real


async def test_a_json_body_labelled_a_stream_is_no_cut_stream() -> None:
    """Failed before on the mock (``connection closed before the response was complete``):
    the real JSON reply under the stream label, ending with no blank line, was refused as
    a stream cut mid-event; the real transport hands it on unparsed, for its reader."""
    body = (
        "\n".join(line for line in PERPLEXITY_CHUNKS().splitlines() if line)
        .split("data: ", 2)[1]
        .strip()
        .encode()
    )
    assert json.loads(body)
    real, mock = await _alike(body, STREAM, CHAT_COMPLETIONS_END)
    assert real == ("events", []), real
    assert mock == real


@pytest.mark.parametrize("content_type", [STREAM, "application/json"])
async def test_blank_lines_alone_are_refused_as_an_eventless_stream(content_type: str) -> None:
    """Failed before on the mock (no failure): a 200 of blank lines only was handed on as a
    body, for its reader to refuse as invalid JSON."""
    real, mock = await _alike(b"\n\r\n" * 70, content_type, CHAT_COMPLETIONS_END)
    assert real[0] == "failed", real
    assert "stream ended before its first event: 210 bytes of blank lines" in str(real[1])
    assert mock == real


async def test_guard_a_whole_stream_reads_alike() -> None:
    """A guard (passes before and after): the real capture as sent, ended by the close,
    with no end named, gives every event both ways."""
    stream = PERPLEXITY_CHUNKS().encode()
    real, mock = await _alike(stream, STREAM, None)
    assert real == ("events", list(_datas(stream))), real
    assert mock == real
