"""Replies held open after their end, one table, both transports.

A server or proxy may keep the connection after a reply's last byte; only what ends the
body on the wire (a stream's closing event, a first line that refuses the body) may end
the read, or the deadline does. :class:`~websearch_core.testing.MockTransport` gave its
handler's body as one read and then ended it, so no test on it could hold a reply open or
flush a byte first: the held-open cases ran on the loopback simulator alone. Its
``reads`` argument (:func:`~websearch_core.testing.in_parts`) now delivers a body in parts
and holds it open, so each case here runs on both: the real transport over a socket the
simulator holds after the bytes (the bound is ``holding == 1``, an event, not a clock),
and the mock fed in 1-, 3- and 64-byte reads, then held. Both must give the same outcome:
the events read, the body's first line, or a timeout where nothing ends the body.

The streams are real captures, read from ``../shared/fixtures`` (never copied); the MCP
replies are built here (no MCP capture is stored).
"""

import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Final

import aiohttp
import pytest

from tests.fault_release import HANG_GUARD_SECONDS
from tests.stream_bodies import captured, framed_chunks
from websearch_core.errors import SearchProviderError
from websearch_core.event_stream_body import is_event_stream
from websearch_core.sse import SseEvent
from websearch_core.stream_ends import CHAT_COMPLETIONS_END, MCP_REPLY_END
from websearch_core.testing import Fault, MockTransport, Simulator, in_parts
from websearch_core.transport import HttpRequest, HttpResponse, Transport

URL: Final = "https://api.perplexity.ai/chat/completions"
PERPLEXITY: Final = framed_chunks("perplexity/chat_completions_sonar_citations_stream.chunks.txt")
ANTHROPIC: Final = captured("anthropic/messages_web_search_tool_stream.sse")
STREAM: Final = "text/event-stream"
JSON: Final = "application/json"
ENDED_WITHIN: Final = 10.0
"""The time bound where the read must end by itself (far past it: it waited)."""
NEVER_ENDS_WITHIN: Final = 0.5
"""The time bound where nothing ends the body (the outcome is the timeout)."""
Outcome = tuple[str, object]


def _rpc(rpc_id: str, result: object) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": rpc_id, "result": result})


MCP_REPLIES: Final = (_rpc("r0", {}), _rpc("r1", {"content": []}))
"""Another request's reply, then the request's own (``r1``)."""


def _mcp_body() -> str:
    return "".join(f"event: message\ndata: {reply}\n\n" for reply in MCP_REPLIES)


def _datas(body: str) -> list[str]:
    return [line.removeprefix("data: ") for line in body.splitlines() if line.startswith("data: ")]


@dataclass(frozen=True)
class Case:
    """One reply held open: how it is asked for, what comes, and what must be read."""

    name: str
    body: Callable[[], str]
    label: str | None
    streamed: bool
    """``send_sse`` (a stream request); else ``send`` with ``Accept: application/json``."""
    end: Callable[[SseEvent], bool] | None = None
    expected: Callable[[], Outcome] | None = None
    """``None``: the deadline ends it (nothing on the wire does)."""


def _events(body: Callable[[], str]) -> Callable[[], Outcome]:
    return lambda: ("events", _datas(body()))


def _blank_first() -> str:
    return "\n" * 64 + PERPLEXITY()


CASES: Final = [
    Case("stream", PERPLEXITY, STREAM, True, CHAT_COMPLETIONS_END, _events(PERPLEXITY)),
    Case("relabelled-json", PERPLEXITY, JSON, True, CHAT_COMPLETIONS_END, _events(PERPLEXITY)),
    Case("unlabelled", PERPLEXITY, None, True, CHAT_COMPLETIONS_END, _events(PERPLEXITY)),
    Case("blank-first", _blank_first, STREAM, True, CHAT_COMPLETIONS_END, _events(PERPLEXITY)),
    Case(
        "mcp-own-id",
        _mcp_body,
        STREAM,
        True,
        MCP_REPLY_END.answering("r1"),
        lambda: ("events", list(MCP_REPLIES)),
    ),
    Case("no-end-named", PERPLEXITY, STREAM, True),
    Case("json-asker-stream", ANTHROPIC, STREAM, False, expected=lambda: ("first line", True)),
    Case("json-asker-json", ANTHROPIC, JSON, False, expected=lambda: ("first line", True)),
    Case("json-asker-plain", ANTHROPIC, "text/plain", False, expected=lambda: ("first line", True)),
    Case("json-asker-none", ANTHROPIC, None, False, expected=lambda: ("first line", True)),
    Case("json-asker-json-body", lambda: '{"results": []}', JSON, False),
]
"""Each reply, then the connection held: a stream ended by its closing event (labelled,
relabelled JSON, unlabelled, after 64 keep-alive newlines), an MCP stream ended at its own
``id`` past another's reply, one naming no end, and replies to a request for JSON only:
a stream under each label refused at its first line, and a JSON body with no length."""


async def _outcome(transport: Transport, case: Case, timeout: float) -> Outcome:
    try:
        if case.streamed:
            request = HttpRequest(method="POST", url=URL, json={}, stream=True, stream_end=case.end)
            response = await transport.send_sse(
                "perplexity", "Perplexity", request, timeout_seconds=timeout
            )
            return "events", [event.data for event in response.events]
        headers = {"Accept": JSON}
        request = HttpRequest(method="POST", url=URL, json={}, headers=headers)
        reply = await transport.send("perplexity", "Perplexity", request, timeout_seconds=timeout)
    except SearchProviderError as exc:
        return "failed", type(exc).__name__
    sent = case.body().encode()
    return "first line", sent.startswith(reply.body) and is_event_stream(None, reply.body)


@asynccontextmanager
async def _real(case: Case) -> AsyncIterator[tuple[Transport, Simulator]]:
    """The real transport, its reply ``case``'s bytes on a socket then held."""
    label = f"Content-Type: {case.label}\r\n" if case.label else ""
    head = f"HTTP/1.1 200 OK\r\n{label}\r\n".encode()
    async with Simulator(["perplexity"]) as sim, aiohttp.ClientSession() as session:
        raw = head + case.body().encode()
        sim["perplexity"].enqueue(Fault.stall(raw, seconds=HANG_GUARD_SECONDS))
        routes = sim.base_urls()
        yield (
            Transport(session, timeout_seconds=5.0, max_response_bytes=1 << 20, base_urls=routes),
            sim,
        )


def _mock(case: Case, size: int) -> MockTransport:
    """The mock, its handler's reply ``case``'s bytes, in reads of ``size``, then held."""
    headers = {"Content-Type": case.label} if case.label else {}
    answer = HttpResponse(status=200, body=case.body().encode(), headers=headers)
    return MockTransport(lambda _: answer, reads=in_parts(*[size] * 4096, held_open=True))


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
async def test_a_reply_held_open_reads_alike_on_both_transports(case: Case) -> None:
    """Failed before for each, on the mock side (``MockTransport`` took no ``reads``, its
    body one read, never held). The real side's halves are the held-open cases of
    streams57-61 (passing on main) and streams62's two for a request for JSON only
    (``json-asker-plain``, ``json-asker-none``), which timed out on main
    (``test_stream_unasked_held_open``)."""
    timeout = ENDED_WITHIN if case.expected else NEVER_ENDS_WITHIN
    expected = case.expected() if case.expected else ("failed", "ProviderTimeoutError")
    async with _real(case) as (real, sim):
        outcome = await _outcome(real, case, timeout)
        if case.expected:
            assert sim["perplexity"].holding == 1, "the read waited for the socket to close"
    assert outcome == expected, ("real", outcome)
    for size in (1, 3, 64):
        mocked = await _outcome(_mock(case, size), case, timeout)
        assert mocked == expected, ("mock", size, mocked)
