"""A reply's ``Content-Length``, one table, both transports.

:class:`~websearch_core.testing.MockTransport` read a handler's body whole whatever its
headers declared: a body cut short of its length (the peer closed early) was a whole answer
there, where aiohttp fails it as a connection closed before the response was complete, and
a body held open after its length never ended there. Each case here runs on the real
transport (the simulator writing the reply's bytes at once, then closing or holding the
socket) and on the mock (the same headers and body, given whole, or in reads and held), and
both must give the same outcome: the status and body read, or the failure and its text.

The outcomes are aiohttp's own, measured on loopback (stop 57, streams64): fewer bytes than
declared fail when the socket closes and wait when it is held; bytes past the length that
arrive with the head are the next message, refused unless a status line opens there, and
later ones are never read; a length that is not digits, twice, or beside
``Transfer-Encoding`` is an invalid reply; a 204 has no body whatever it declares.
"""

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Final

import aiohttp
import pytest

from tests.conftest import read_capture
from tests.fault_release import HANG_GUARD_SECONDS
from websearch_core.errors import SearchProviderError
from websearch_core.testing import Fault, MockTransport, Simulator, in_parts
from websearch_core.transport import HttpRequest, HttpResponse, Transport

URL: Final = "https://api.search.brave.com/res/v1/web/search"
MOCK_HOST: Final = "api.search.brave.com"
JSON: Final = "application/json"
STREAM: Final = "text/event-stream"
BODY: Final = read_capture("brave/web_search_laravel_2024.json")
SSE: Final = b"data: one\n\ndata: two\n\n"
PAGE_429: Final = b'{"type":"ErrorResponse","error":{"code":"RATE_LIMITED"}}'
CAP: Final = 1 << 20
ENDED_WITHIN: Final = 10.0
NEVER_ENDS_WITHIN: Final = 0.5
CLOSED_EARLY: Final = (
    "failed",
    "ProviderConnectionError",
    "Brave search failed: the connection closed before the response was complete (<host>)",
)
TIMED_OUT: Final = ("failed", "ProviderTimeoutError", "Brave search timed out after 0.5s")


def _invalid(said: str) -> tuple[str, str, str]:
    text = f"Brave search failed: it sent an invalid HTTP response (<host>): {said}"
    return ("failed", "ProviderUnavailableError", text)


@dataclass(frozen=True)
class Case:
    """One reply: its status, headers and body, how the socket ends, what must be read."""

    name: str
    body: bytes
    headers: tuple[tuple[str, str], ...]
    expected: tuple[object, ...]
    status: int = 200
    held: bool = False
    """The socket held after the bytes (else closed)."""
    streamed: bool = False
    """``send_sse``; else ``send``."""
    reads: tuple[int, ...] = field(default=())
    """The mock's first reads' lengths (none: the body as one read)."""


def _length(
    value: object, label: str = JSON, *more: tuple[str, str]
) -> tuple[tuple[str, str], ...]:
    return (("Content-Type", label), ("Content-Length", str(value)), *more)


N: Final = len(BODY)
CASES: Final = [
    Case("short-closed", BODY, _length(N + 10), CLOSED_EARLY),
    Case("short-held", BODY, _length(N + 10), TIMED_OUT, held=True),
    Case("short-held-in-parts", BODY, _length(N + 10), TIMED_OUT, held=True, reads=(1, 3)),
    Case("none-closed", b"", _length(5), CLOSED_EARLY),
    Case("exact-held", BODY, _length(N), ("read", 200, BODY), held=True),
    Case("exact-held-in-parts", BODY, _length(N), ("read", 200, BODY), held=True, reads=(1, 7)),
    Case("long-closed", BODY, _length(N - 5), _invalid("Bad status line")),
    Case("long-held", BODY, _length(N - 5), _invalid("Bad status line"), held=True),
    Case("long-zero", BODY, _length(0), _invalid("Bad status line")),
    Case("long-line-ends", BODY + b"\r\n\r\n", _length(N), ("read", 200, BODY)),
    Case(
        "long-next-reply",
        BODY + b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
        _length(N),
        ("read", 200, BODY),
    ),
    Case(
        "over-cap-declared",
        BODY,
        _length(CAP + 1),
        ("failed", "ResponseTooLargeError", "Brave API response exceeded 1 MiB"),
    ),
    Case("429-short-closed", PAGE_429, _length(len(PAGE_429) + 9), CLOSED_EARLY, status=429),
    Case("not-digits", BODY, _length("-1"), _invalid("Invalid character in Content-Length")),
    Case("sign", BODY, _length(f"+{N}"), _invalid("Invalid character in Content-Length")),
    Case("list", BODY, _length(f"{N}, {N}"), _invalid("Invalid character in Content-Length")),
    Case("spaced", BODY, _length(f" {N} "), ("read", 200, BODY)),
    Case(
        "twice",
        BODY,
        _length(N, JSON, ("content-length", str(N))),
        _invalid("Duplicate Content-Length"),
    ),
    Case(
        "with-chunked",
        BODY,
        _length(N, JSON, ("Transfer-Encoding", "chunked")),
        _invalid("Transfer-Encoding can't be present with Content-Length"),
    ),
    Case("no-content", b"", _length(10), ("read", 204, b""), status=204),
    Case("sse-short-closed", SSE, _length(len(SSE) + 4, STREAM), CLOSED_EARLY, streamed=True),
    Case(
        "sse-exact-held",
        SSE,
        _length(len(SSE), STREAM),
        ("events", ["one", "two"]),
        held=True,
        streamed=True,
        reads=(1, 3),
    ),
    Case(
        "sse-ends-mid-event",
        SSE,
        _length(len(SSE) - 1, STREAM),
        (
            "failed",
            "ProviderConnectionError",
            "Brave search failed: the stream ended in the middle of an event",
        ),
        held=True,
        streamed=True,
    ),
    Case(
        "sse-long-closed",
        SSE,
        _length(len(SSE) - 3, STREAM),
        _invalid("Bad status line"),
        streamed=True,
    ),
]
"""Short of the length (closed: the "closed before" text, a 429's page too; held: the
timeout), at it (held, read to the length), past it (with the head: refused unless a reply
opens there), over the cap, malformed lengths, a 204, and an event stream at, short of and
past its length."""


def _raw(case: Case) -> bytes:
    """The reply's bytes on the wire: status line, headers, body (chunked when it says so)."""
    reason = {200: "OK", 204: "No Content", 429: "Too Many Requests"}[case.status]
    head = f"HTTP/1.1 {case.status} {reason}\r\n"
    head += "".join(f"{name}: {value}\r\n" for name, value in case.headers) + "\r\n"
    chunked = any(name == "Transfer-Encoding" for name, _ in case.headers)
    body = b"%x\r\n%s\r\n0\r\n\r\n" % (len(case.body), case.body) if chunked else case.body
    return head.encode() + body


async def _outcome(transport: Transport, case: Case, host: str) -> tuple[object, ...]:
    timeout = NEVER_ENDS_WITHIN if case.expected == TIMED_OUT else ENDED_WITHIN
    request = HttpRequest(method="GET", url=URL, stream=case.streamed)
    try:
        if case.streamed:
            streamed = await transport.send_sse("brave", "Brave", request, timeout_seconds=timeout)
            return "events", [event.data for event in streamed.events]
        reply = await transport.send("brave", "Brave", request, timeout_seconds=timeout)
    except SearchProviderError as exc:
        return "failed", type(exc).__name__, exc.message.replace(host, "<host>")
    return "read", reply.status, reply.body


@asynccontextmanager
async def _real(case: Case) -> AsyncIterator[tuple[Transport, Simulator]]:
    """The real transport, ``case``'s reply written at once, then the socket held or closed."""
    raw = _raw(case)
    fault = Fault.stall(raw, seconds=HANG_GUARD_SECONDS) if case.held else Fault.not_http(raw)
    async with Simulator(["brave"]) as sim, aiohttp.ClientSession() as session:
        sim["brave"].enqueue(fault)
        routes = sim.base_urls()
        yield Transport(session, timeout_seconds=5.0, max_response_bytes=CAP, base_urls=routes), sim


def _mock(case: Case) -> MockTransport:
    answer = HttpResponse(status=case.status, body=case.body, headers=dict(case.headers))
    reads = in_parts(*case.reads, held_open=True) if case.held else None
    return MockTransport(lambda _: answer, reads=reads, max_response_bytes=CAP)


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
async def test_a_declared_length_reads_alike_on_both_transports(case: Case) -> None:
    """Failed before on the mock side for every case but the guards: ``short-held``,
    ``short-held-in-parts``, ``no-content`` and ``spaced`` (the mock read the whole
    body, and a held one to the time bound)."""
    async with _real(case) as (real, sim):
        host = sim["brave"].base_url.removeprefix("http://")
        outcome = await _outcome(real, case, host)
        if case.held and case.expected != TIMED_OUT:
            await asyncio.sleep(0)
            assert sim["brave"].holding == 1, "the read waited for the socket to close"
    assert outcome == case.expected, ("real", outcome)
    mocked = await _outcome(_mock(case), case, MOCK_HOST)
    assert mocked == case.expected, ("mock", mocked)


@asynccontextmanager
async def _two_writes(first: bytes, then: bytes) -> AsyncIterator[tuple[str, asyncio.Event]]:
    """A loopback server writing ``first``, then ``then`` a moment later, then holding.

    The simulator writes a fault's bytes at once; the excess must come in a read of its
    own. Yields its origin and an event set once both writes are out.
    """
    written = asyncio.Event()
    release = asyncio.Event()

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(first)
        await writer.drain()
        await asyncio.sleep(0.05)  # the client's turn to read ``first`` alone
        writer.write(then)
        await writer.drain()
        written.set()
        await release.wait()
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}", written
    finally:
        release.set()
        server.close()
        await server.wait_closed()


async def test_bytes_past_the_length_in_a_later_read_are_never_read_on_both() -> None:
    """The body's last declared byte, then (in a read of its own) bytes that open no
    reply, then the socket held: the body is read to its length on both, no refusal.
    Failed before on the mock side (it read the excess as body, then waited)."""
    case = Case("later", BODY, _length(N - 5), ("read", 200, BODY[: N - 5]), held=True)
    head = _raw(case)[: -len(BODY)]
    async with (
        _two_writes(head + BODY[: N - 5], BODY[N - 5 :]) as (origin, written),
        aiohttp.ClientSession() as session,
    ):
        real = Transport(
            session, timeout_seconds=5.0, max_response_bytes=CAP, base_urls={"brave": origin}
        )
        outcome = await _outcome(real, case, origin.removeprefix("http://"))
        await asyncio.wait_for(written.wait(), ENDED_WITHIN)
    assert outcome == case.expected, ("real", outcome)
    mocked = await _outcome(_mock(dataclasses.replace(case, reads=(N - 5,))), case, MOCK_HOST)
    assert mocked == case.expected, ("mock", mocked)
