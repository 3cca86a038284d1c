"""Keep-alive blank lines before a stream's first event decide nothing.

Streams59 told a stream relabelled ``application/json`` (a gateway's label over ``data:``
lines) from a JSON body by its first line, gathering at most 64 bytes of head; blank lines
before the first event (a server's keep-alive newlines) counted towards them, so 64 of
them made the stream a body, read to the socket's close past its end. They count for
nothing now (``event_stream_body.after_blank_lines``), and a 200 body of blank lines only,
which then stays undecided to its end, is refused as a stream that ended before its first
event. While blank lines still come, the deadline and the size cap bound them.

The bound is an event, not a clock: the answer must come while the simulator still holds
the socket (``holding == 1``); the hold lets go by itself after
:data:`~tests.fault_release.HANG_GUARD_SECONDS`, so a search that does wait fails rather
than hangs. The streams are the simulator's own: only its own answer can be sent with its
first bytes alone (``Fault.held_open(first=...)``), which is what a keep-alive read is.
"""

from typing import Final

import pytest

from tests.fault_release import HANG_GUARD_SECONDS, held_until_guard
from tests.functional._sim_helpers import sim_client
from websearch_core.testing import Fault, Simulator

QUERY: Final = "population of san francisco"
JSON_HEAD: Final = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n"


@pytest.mark.parametrize(
    "blank", [b"\n" * 64, b"\r\n" * 100, b"\n \n" * 40], ids=["lf64", "crlf100", "spaced40"]
)
async def test_blank_lines_before_a_relabelled_stream_do_not_make_it_a_body(blank: bytes) -> None:
    """Failed before for each (timed out): 64 bytes or more of blank lines, the client's
    whole first read, told a stream relabelled ``application/json`` for a JSON body, read
    to the close past its end. Blank lines now decide nothing; the first line after them
    does."""
    relabelled = held_until_guard(before=blank, content_type="application/json", first=len(blank))
    async with Simulator(["perplexity"]) as sim:
        sim["perplexity"].enqueue(relabelled)
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="perplexity")
        assert sim["perplexity"].holding == 1, "the answer waited for the socket to close"
    assert not result.is_error, result.text


async def test_blank_lines_flushed_alone_before_exas_relabelled_reply() -> None:
    """Failed before (timed out): the same for Exa's MCP reply, its 64 blank bytes sent
    alone as the first read."""
    async with Simulator(["exa"]) as sim:
        sim["exa"].enqueue(
            held_until_guard(before=b"\n" * 64, content_type="application/json", first=64)
        )
        async with sim_client(sim, api_keys={}, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="exa")
        assert sim["exa"].holding == 1, "the answer waited for the socket to close"
    assert not result.is_error, result.text
    assert result.response is not None and result.response.sources


async def test_guard_a_json_reply_after_blank_lines_is_still_json() -> None:
    """A guard (passes before and after): a JSON reply (Z.AI's ``initialize``) after 100
    blank lines, sent alone, is still a body ended by its length, not taken for a stream."""
    async with Simulator(["zai"]) as sim:
        sim["zai"].enqueue(held_until_guard(before=b"\n" * 100, framing="declared", first=100))
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="zai")
        assert sim["zai"].holding == 1, "the session waited for the socket to close"
    assert not result.is_error, result.text


@pytest.mark.parametrize("label", ["application/json", "text/event-stream"])
async def test_a_body_of_blank_lines_only_is_refused_as_an_eventless_stream(label: str) -> None:
    """Failed before for both (``Perplexity API returned invalid JSON``, which says nothing
    of what came): a 200 reply of blank lines only is a stream that ended before its first
    event, refused as the broken stream it is."""
    async with Simulator(["perplexity"]) as sim:
        sim["perplexity"].enqueue(Fault.http(200, "\n" * 200, {"Content-Type": label}))
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="perplexity")
    assert result.is_error
    expected = "stream ended before its first event: 200 bytes of blank lines"
    assert expected in result.text, result.text


async def test_guard_blank_lines_without_end_are_bounded_by_the_deadline() -> None:
    """A guard (passes before and after: then a body read to the close, now a stream not
    yet begun): blank lines and the socket held end at the deadline, as timed out."""
    async with Simulator(["perplexity"]) as sim:
        sim["perplexity"].enqueue(Fault.stall(JSON_HEAD + b"\n" * 500, seconds=HANG_GUARD_SECONDS))
        async with sim_client(
            sim, rate_limit_wait_seconds=0, cache=False, timeout_seconds=0.5
        ) as ws:
            result = await ws.run(QUERY, provider="perplexity")
    assert result.is_error
    assert "timed out" in result.text, result.text


async def test_guard_blank_lines_past_the_cap_are_refused_as_too_large() -> None:
    """A guard (passes before and after): blank lines count towards the body cap while
    they come, so a server sending nothing else is refused as too large."""
    async with Simulator(["perplexity"]) as sim:
        sim["perplexity"].enqueue(Fault.stall(JSON_HEAD + b"\n" * 3000, seconds=HANG_GUARD_SECONDS))
        async with sim_client(
            sim, rate_limit_wait_seconds=0, cache=False, max_response_bytes=1024
        ) as ws:
            result = await ws.run(QUERY, provider="perplexity")
    assert result.is_error
    assert "response exceeded 1 KiB" in result.text, result.text
