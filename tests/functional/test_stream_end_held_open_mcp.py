"""Gemini's stream and the MCP replies (Exa, Z.AI) end at their own last event, not the close.

Streams57 ended Perplexity's and Codex's streams at their closing event; Gemini's stream,
Z.AI's MCP replies and Exa's were still read until the socket closed, so a server or proxy
that held the connection after the last event left a search, its answer in hand, waiting
for the deadline and then failing as timed out. Their ends, as data in
``websearch_core.stream_ends``: Gemini's chunk that names a ``finishReason`` (the real
capture's tenth and last); an MCP stream's JSON-RPC reply (an ``id``, no ``method``). A
plain JSON reply has no closing event: its declared length ends it.

The bound is an event, not a clock: the answer must come while the simulator still holds
the socket (:attr:`~websearch_core.testing.simulator.SimulatedProvider.holding`); the hold
lets go by itself after :data:`~tests.fault_release.HANG_GUARD_SECONDS` at most, so a
search that does wait fails (timed out) rather than hangs. The MCP replies are the
simulator's own (no MCP capture is stored), served by a ``held_open`` fault so they answer
the request's own JSON-RPC ``id``.
"""

import json
from typing import Final

import pytest

from tests.conftest import read_capture
from tests.fault_release import HANG_GUARD_SECONDS, held_until_guard
from tests.functional._sim_helpers import sim_client
from tests.stream_bodies import captured, framed_chunks
from websearch_core.sse import parse_sse
from websearch_core.testing import Fault, Simulator

QUERY: Final = "population of san francisco"
GEMINI_CAPTURE: Final = "gemini/stream_generate_content_google_search.sse"
FOREIGN: Final = captured("openai/responses_web_search_tool_stream.sse")
"""A real stream of another API (OpenAI Responses), for a gateway that joins two."""


def _stalled(label: str, body: str) -> Fault:
    """``body`` under ``label`` with no length, then the socket held until the guard."""
    head = f"HTTP/1.1 200 OK\r\nContent-Type: {label}\r\n\r\n".encode()
    return Fault.stall(head + body.encode("utf-8"), seconds=HANG_GUARD_SECONDS)


def _notification(method: str, params: dict[str, object]) -> bytes:
    """An MCP notification as an SSE event: JSON-RPC with a ``method`` and no ``id``."""
    message = {"jsonrpc": "2.0", "method": method, "params": params}
    return f"event: message\ndata: {json.dumps(message)}\n\n".encode()


@pytest.mark.usefixtures("no_gemini_variables")
async def test_the_captured_gemini_stream_ends_at_its_finish_reason_with_the_socket_open() -> None:
    """Failed before: the search waited for the close and timed out, answer unread.

    The real capture has no ``[DONE]`` and no closing event: its tenth and last chunk is
    the only one naming a ``finishReason`` (``STOP``).
    """
    body = read_capture(GEMINI_CAPTURE).decode("utf-8")
    chunks = [json.loads(event.data) for event in parse_sse(body.encode())]
    finished = ["finishReason" in chunk["candidates"][0] for chunk in chunks]
    assert finished == [False] * (len(chunks) - 1) + [True]
    async with Simulator(["gemini"]) as sim:
        sim["gemini"].enqueue(_stalled("text/event-stream", body))
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="gemini")
        assert sim["gemini"].holding == 1, "the answer waited for the socket to close"
    assert not result.is_error, result.text
    assert result.response is not None and result.response.sources


async def test_zais_mcp_reply_ends_the_stream_with_the_socket_open() -> None:
    """Failed before (timed out): the ``tools/call`` reply came as SSE and was read on to
    the close. The session's first two steps are answered normally."""
    async with Simulator(["zai"]) as sim:
        sim["zai"].enqueue(None, None, held_until_guard())
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="zai")
        assert sim["zai"].holding == 1, "the answer waited for the socket to close"
    assert not result.is_error, result.text
    assert result.response is not None and result.response.sources


async def test_guard_zais_plain_json_reply_ends_at_its_declared_length() -> None:
    """A guard (passes before and after): a plain JSON reply (``initialize``'s) has no
    closing event; its ``Content-Length`` ends the read, with the socket held after it."""
    async with Simulator(["zai"]) as sim:
        sim["zai"].enqueue(held_until_guard(framing="declared"))
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="zai")
        assert sim["zai"].holding == 1, "the session waited for the socket to close"
    assert not result.is_error, result.text


async def test_zai_refuses_another_apis_events_before_its_reply() -> None:
    """A guard (passes before and after; Z.AI's mixed stream had no simulator test): a
    real stream of another API ahead of the reply, inside the stream, is named."""
    async with Simulator(["zai"]) as sim:
        sim["zai"].enqueue(
            None, None, held_until_guard(before=FOREIGN().encode(), framing="declared")
        )
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="zai")
    assert result.is_error
    assert "Failed to parse Z.AI MCP response: another API's event stream: " in result.text
    assert "OpenAI Responses events (response.created" in result.text, result.text


async def test_zai_reads_no_further_than_its_reply() -> None:
    """Failed before (refused as a mixed stream): after the JSON-RPC reply the MCP stream
    has ended, so another API's events after it are not read, as for every stream whose
    closing event came (the transport drops what follows); the reply is the answer."""
    async with Simulator(["zai"]) as sim:
        sim["zai"].enqueue(
            None, None, held_until_guard(after=FOREIGN().encode(), framing="declared")
        )
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="zai")
    assert not result.is_error, result.text
    assert result.response is not None and result.response.sources


async def test_exas_mcp_reply_ends_the_stream_with_the_socket_open() -> None:
    """Failed before (timed out): the keyless ``tools/call`` was read as one body, to the
    close."""
    async with Simulator(["exa"]) as sim:
        sim["exa"].enqueue(held_until_guard())
        async with sim_client(sim, api_keys={}, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="exa")
        assert sim["exa"].holding == 1, "the answer waited for the socket to close"
    assert not result.is_error, result.text
    assert result.response is not None and result.response.sources


@pytest.mark.parametrize(
    "method",
    ["notifications/progress", "notifications/message"],
)
async def test_exa_reads_its_reply_by_id_past_notifications(method: str) -> None:
    """Failed before for both: the first ``data:`` line, a notification, was read as the
    reply: ``Exa MCP search returned unexpected response shape.``"""
    params = (
        {"progressToken": 1, "progress": 1, "total": 2}
        if method.endswith("progress")
        else {"level": "info", "data": "searching"}
    )
    before = _notification(method, params)
    async with Simulator(["exa"]) as sim:
        sim["exa"].enqueue(held_until_guard(before=before, framing="declared"))
        async with sim_client(sim, api_keys={}, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="exa")
    assert not result.is_error, result.text
    assert result.response is not None and result.response.sources


async def test_guard_exa_with_notifications_and_no_reply_keeps_the_spec_text() -> None:
    """A guard (passes before and after): notifications and no reply at all is still
    refused by its shape, in the text it had."""
    before = _notification("notifications/progress", {"progressToken": 1, "progress": 1})
    async with Simulator(["exa"]) as sim:
        sim["exa"].enqueue(Fault.http(200, before.decode(), {"Content-Type": "text/event-stream"}))
        async with sim_client(sim, api_keys={}, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="exa")
    assert result.is_error
    assert "Exa MCP search returned unexpected response shape." in result.text, result.text


# --- a stream relabelled as JSON -------------------------------------------------------------


async def test_a_stream_relabelled_as_json_ends_at_its_closing_event() -> None:
    """Failed before (timed out): a gateway's ``application/json`` over ``data:`` lines was
    read as a body, to the close, though every reader then reads it as the stream it is.
    The transport now knows it by its first line too, and stops at its end."""
    body = framed_chunks("perplexity/chat_completions_sonar_citations_stream.chunks.txt")()
    async with Simulator(["perplexity"]) as sim:
        sim["perplexity"].enqueue(_stalled("application/json", body))
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="perplexity")
        assert sim["perplexity"].holding == 1, "the answer waited for the socket to close"
    assert not result.is_error, result.text


async def test_exas_reply_relabelled_as_json_ends_at_the_reply() -> None:
    """Failed before (timed out): the same for Exa's MCP reply under a JSON label."""
    async with Simulator(["exa"]) as sim:
        sim["exa"].enqueue(held_until_guard(content_type="application/json"))
        async with sim_client(sim, api_keys={}, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="exa")
        assert sim["exa"].holding == 1, "the answer waited for the socket to close"
    assert not result.is_error, result.text


# --- a relabelled stream whose first read is shorter than ``data:`` -------------------------


@pytest.mark.parametrize("first", [1, 3, 4])
async def test_exas_relabelled_reply_flushed_a_few_bytes_first_ends_at_the_reply(
    first: int,
) -> None:
    """Failed before for each (timed out): the stream was told by its first chunk, and a
    server flushing 1-4 bytes first (``d``, ``dat``, ``data``: shorter than ``data:``)
    made it a body, read to the close. Now it is told by its first line, a few bytes
    gathered until the line says which."""
    async with Simulator(["exa"]) as sim:
        sim["exa"].enqueue(held_until_guard(content_type="application/json", first=first))
        async with sim_client(sim, api_keys={}, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="exa")
        assert sim["exa"].holding == 1, "the answer waited for the socket to close"
    assert not result.is_error, result.text
    assert result.response is not None and result.response.sources


async def test_the_perplexity_stream_relabelled_and_flushed_short_ends_at_its_end() -> None:
    """Failed before (timed out): the same for the simulator's Perplexity stream, its first
    two bytes sent alone under a JSON label."""
    async with Simulator(["perplexity"]) as sim:
        sim["perplexity"].enqueue(held_until_guard(content_type="application/json", first=2))
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="perplexity")
        assert sim["perplexity"].holding == 1, "the answer waited for the socket to close"
    assert not result.is_error, result.text


async def test_guard_a_json_reply_flushed_short_is_still_read_as_json() -> None:
    """A guard (passes before and after): a JSON reply (Z.AI's ``initialize``) whose first
    two bytes come alone is still a body, ended by its length, not taken for a stream."""
    async with Simulator(["zai"]) as sim:
        sim["zai"].enqueue(held_until_guard(framing="declared", first=2))
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="zai")
        assert sim["zai"].holding == 1, "the session waited for the socket to close"
    assert not result.is_error, result.text


# --- Z.AI's own envelope ---------------------------------------------------------------------


async def test_zais_failure_envelope_as_an_event_ends_the_stream_with_the_socket_open() -> None:
    """Failed before (timed out): Z.AI's own ``{"success": false}`` envelope, sent as an
    event, carries no JSON-RPC ``id``, so it was no MCP reply and the read went on to the
    close, though the reader takes it as the reply. It ends the stream now, and its spec'd
    ``Z.AI API error (<code>): <msg>`` is the answer."""
    envelope = {"success": False, "code": 1113, "msg": "Insufficient balance"}
    head = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n"
    event = f"event: message\ndata: {json.dumps(envelope)}\n\n".encode()
    async with Simulator(["zai"]) as sim:
        sim["zai"].enqueue(None, None, Fault.stall(head + event, seconds=HANG_GUARD_SECONDS))
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="zai")
        assert sim["zai"].holding == 1, "the reply waited for the socket to close"
    assert result.is_error
    assert "Z.AI API error (1113): Insufficient balance" in result.text, result.text
