"""A stream with no label, or `text/plain`, to a request for JSON only ends at its first line.

Streams60 and 61 stopped :meth:`~websearch_core.transport.Transport.send` at a body's first
line when that line is an SSE field and the label says a stream or JSON; any other label
was read whole, since a page may start with anything. A stream sent with no
``Content-Type`` or as ``text/plain`` (a gateway dropping the label) to a provider that
asked for one JSON object, then held open, still waited for the close: the search timed
out, its refusal known at the first line. A request whose ``Accept`` names JSON and
nothing else has no page to cut: its server was told only JSON is read, no JSON text
starts with an SSE field or comment, and its reader refuses such a body whatever follows.
So such a request's body is judged by its first line too; a request that accepts anything
(an HTML engine's, or one with no ``Accept``) still reads its body whole.

The streams are real captures, read from ``../shared/fixtures`` (never copied). The bound
is an event, not a clock: the refusal must come while the simulator still holds the
socket (``holding == 1``); the hold lets go by itself after
:data:`~tests.fault_release.HANG_GUARD_SECONDS`.
"""

from typing import Final

import pytest

from tests.conftest import read_capture
from tests.fault_release import HANG_GUARD_SECONDS
from tests.functional._sim_helpers import sim_client
from tests.stream_bodies import captured
from websearch_core.testing import Fault, Simulator

QUERY: Final = "what is an event stream"
STREAM_REASON: Final = (
    "an event stream (text/event-stream), where the request asked for one JSON object and no stream"
)
FRAMES: Final = {
    "anthropic": "Anthropic API returned invalid JSON",
    "brave": "Brave API returned invalid JSON",
    "kimi": "Kimi API returned invalid JSON",
}
"""Providers whose request sends ``Accept: application/json``, with their invalid-JSON frame."""
ANTHROPIC: Final = captured("anthropic/messages_web_search_tool_stream.sse")


@pytest.mark.parametrize(
    ("provider", "label"),
    [
        ("anthropic", None),
        ("anthropic", "text/plain"),
        ("anthropic", "text/plain; charset=utf-8"),
        ("brave", "text/plain"),
        ("kimi", None),
        ("kimi", "application/octet-stream"),
    ],
    ids=["anthropic-none", "anthropic-plain", "anthropic-charset", "brave", "kimi", "kimi-octet"],
)
async def test_a_stream_with_no_json_label_held_open_is_refused_at_its_first_line(
    provider: str, label: str | None
) -> None:
    """Failed before for each (``<label> request timed out``): only a stream or JSON label
    was judged by its first line; these were read on to the close."""
    header = f"Content-Type: {label}\r\n" if label else ""
    head = f"HTTP/1.1 200 OK\r\n{header}\r\n".encode()
    async with Simulator([provider]) as sim:
        sim[provider].enqueue(Fault.stall(head + ANTHROPIC().encode(), seconds=HANG_GUARD_SECONDS))
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider=provider)
        assert sim[provider].holding == 1, "the refusal waited for the socket to close"
        assert sim[provider].requests[-1].header("Accept") == "application/json"
    assert result.is_error
    assert f"{FRAMES[provider]}: {STREAM_REASON}" in result.text, result.text


async def test_guard_a_json_reply_with_no_label_is_read_whole() -> None:
    """A guard (passes before and after): a real JSON reply with no label, to a request for
    JSON, is no stream by its first line: read whole (its length ends it, the socket held
    after) and answered."""
    body = read_capture("brave/web_search_laravel_2024.json")
    raw = f"HTTP/1.1 200 OK\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body
    async with Simulator(["brave"]) as sim:
        sim["brave"].enqueue(Fault.stall(raw, seconds=HANG_GUARD_SECONDS))
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="brave")
        assert sim["brave"].holding == 1, "the answer waited for the socket to close"
    assert not result.is_error, result.text
    assert result.response is not None and result.response.sources


async def test_guard_an_unlabelled_page_starting_like_a_field_is_read_to_its_close() -> None:
    """A guard (passes before and after): an HTML engine accepts pages, so its unlabelled
    body is read whole whatever its first line (here ``data: ...`` before the real page,
    which Mojeek still parses)."""
    page = read_capture("mojeek/serp_javascript_tutorial_2026.html")
    raw = b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\ndata: not a stream\n" + page
    async with Simulator(["mojeek"]) as sim:
        sim["mojeek"].enqueue(Fault.not_http(raw))
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="mojeek")
        assert "application/json" not in (sim["mojeek"].requests[-1].header("Accept") or "")
    assert not result.is_error, result.text
    assert result.response is not None and result.response.sources
