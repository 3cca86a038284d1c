"""A stream labelled ``application/json``, held open, is refused at its first line.

:meth:`~websearch_core.transport.Transport.send` serves requests for one JSON object, and
every reader of one refuses an event stream by its first line, naming it. A body labelled
``text/event-stream`` was read only to that line (streams60); one relabelled
``application/json`` (a gateway that streams and rewrites the label) was read on to the
socket's close: a real stream served so and held open left the search waiting for the
deadline and failing as timed out. No JSON text starts with an SSE field (``data:``,
``event:``, ``id:``, ``retry:``) or comment (``:``), so a JSON-labelled body whose first
line is one is no JSON whatever follows: the read stops there too.

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
from tests.stream_bodies import captured, framed_chunks
from websearch_core.testing import Fault, Simulator

QUERY: Final = "what is an event stream"
STREAM_REASON: Final = (
    "an event stream (text/event-stream), where the request asked for one JSON object and no stream"
)
FRAMES: Final = {
    "anthropic": "Anthropic API returned invalid JSON",
    "brave": "Brave API returned invalid JSON",
    "xai": "xAI Responses API returned invalid JSON",
}
"""Providers asking for one JSON object, with their invalid-JSON frame (the reference's)."""
ANTHROPIC: Final = captured("anthropic/messages_web_search_tool_stream.sse")
CASES: Final = [
    ("anthropic", "application/json", ANTHROPIC),
    (
        "xai",
        "application/json; charset=utf-8",
        framed_chunks("xai/responses_web_search_tool_stream.chunks.txt"),
    ),
    ("brave", "application/problem+json", ANTHROPIC),
]
"""Each provider's own real stream where one is captured, and another API's (a gateway
joining the wrong upstream), under a JSON label (plain, with a charset, a ``+json`` one)."""


def _head(content_type: str) -> bytes:
    return f"HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\n\r\n".encode()


@pytest.mark.parametrize(
    ("provider", "content_type", "stream"), CASES, ids=["anthropic", "xai", "brave-plus-json"]
)
async def test_a_stream_relabelled_json_held_open_is_refused_at_its_first_line(
    provider: str, content_type: str, stream: object
) -> None:
    """Failed before for each (``<label> request timed out``): only the stream label
    stopped the read at the first line."""
    assert callable(stream)
    raw = _head(content_type) + stream().encode()
    async with Simulator([provider]) as sim:
        sim[provider].enqueue(Fault.stall(raw, seconds=HANG_GUARD_SECONDS))
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider=provider)
        assert sim[provider].holding == 1, "the refusal waited for the socket to close"
    assert result.is_error
    assert f"{FRAMES[provider]}: {STREAM_REASON}" in result.text, result.text


async def test_guard_a_json_reply_held_open_after_its_length_is_answered() -> None:
    """A guard (passes before and after): a real JSON reply under its JSON label is no
    stream by its first line, so it is read whole (its length ends it) and answered."""
    body = read_capture("brave/web_search_laravel_2024.json")
    raw = (
        f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode() + body
    async with Simulator(["brave"]) as sim:
        sim["brave"].enqueue(Fault.stall(raw, seconds=HANG_GUARD_SECONDS))
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="brave")
        assert sim["brave"].holding == 1, "the answer waited for the socket to close"
    assert not result.is_error, result.text
    assert result.response is not None and result.response.sources


async def test_guard_a_page_starting_like_a_field_is_read_to_its_close() -> None:
    """A guard (passes before and after): only a JSON label is told by its first line; an
    HTML engine's page is read whole whatever its first line, as a page may say anything
    (here a line ``data: ...`` before the real page, which Mojeek still parses)."""
    page = read_capture("mojeek/serp_javascript_tutorial_2026.html")
    head = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close\r\n\r\n"
    raw = head + b"data: not a stream\n" + page
    async with Simulator(["mojeek"]) as sim:
        sim["mojeek"].enqueue(Fault.not_http(raw))
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="mojeek")
    assert not result.is_error, result.text
    assert result.response is not None and result.response.sources
