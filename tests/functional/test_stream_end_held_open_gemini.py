"""Gemini's stream ends at its last chunk with the socket held open: blocked, or wrapped.

Streams58 ended Gemini's stream at the chunk naming a ``finishReason``. Two ends were left:
a blocked prompt gets no candidate at all (the API reference: "If set, the prompt was
blocked and no candidates are returned"), so its one chunk, ``promptFeedback.blockReason``
with the usage and the model, names no finish reason and the read waited for the close;
and Cloud Code Assist's wrapped end (``{"response": ...}``) was proven by a doctest only.

The bound is an event, not a clock: the reply must come while the simulator still holds
the socket (:attr:`~websearch_core.testing.simulator.SimulatedProvider.holding`); the hold
lets go by itself after :data:`~tests.fault_release.HANG_GUARD_SECONDS` at most, so a
search that does wait fails (timed out) rather than hangs.
"""

import json
import time
from typing import Final

import pytest

from tests.fault_release import HANG_GUARD_SECONDS
from tests.functional._sim_helpers import credential_store, sim_client
from websearch_core.credentials import OAuthToken
from websearch_core.testing import Fault, Simulator

QUERY: Final = "population of san francisco"
EMPTY_GROUNDED: Final = "Gemini API returned an empty grounded response"
"""The reference's text for a reply with no answer and no source (502): a blocked prompt's."""
BLOCKED: Final = {
    "promptFeedback": {"blockReason": "PROHIBITED_CONTENT"},
    "usageMetadata": {"promptTokenCount": 12, "totalTokenCount": 12},
    "modelVersion": "gemini-2.5-flash",
}
"""A blocked prompt's chunk as the API documents it: feedback, usage, model, no candidate."""

pytestmark = pytest.mark.usefixtures("no_gemini_variables")


def _stalled(chunk: object) -> Fault:
    """``chunk`` as the one event of a stream with no length, then the socket held."""
    head = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n"
    event = f"data: {json.dumps(chunk)}\n\n".encode()
    return Fault.stall(head + event, seconds=HANG_GUARD_SECONDS)


def _signed_in(sim: Simulator) -> None:
    """A Cloud Code sign-in, so the search goes to ``v1internal`` (after its project)."""
    token = OAuthToken(access_token="ya29.token", expires_at=time.time() + 3600)
    credential_store(sim).set_oauth("gemini", token)


async def test_a_blocked_prompt_ends_the_stream_with_the_socket_open() -> None:
    """Failed before (timed out): no chunk named a ``finishReason``, so the read went on to
    the close. Now the block reason ends it, and the reply is the reference's empty one."""
    async with Simulator(["gemini"]) as sim:
        sim["gemini"].enqueue(_stalled(BLOCKED))
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="gemini")
        assert sim["gemini"].holding == 1, "the reply waited for the socket to close"
    assert result.is_error
    assert EMPTY_GROUNDED in result.text, result.text


async def test_a_blocked_prompt_is_an_empty_reply_not_a_cut_stream() -> None:
    """Failed before: a blocked prompt's stream, closed cleanly, was refused as cut short
    (``Gemini API stream ended before its last chunk``, 500), which it was not; it is the
    reference's reply with no answer and no source."""
    body = f"data: {json.dumps(BLOCKED)}\n\n"
    async with Simulator(["gemini"]) as sim:
        sim["gemini"].enqueue(Fault.http(200, body, {"Content-Type": "text/event-stream"}))
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="gemini")
    assert result.is_error
    assert EMPTY_GROUNDED in result.text, result.text
    assert "ended before its last chunk" not in result.text


async def test_cloud_codes_blocked_prompt_ends_the_wrapped_stream() -> None:
    """Failed before (timed out): the same block inside Cloud Code's ``response`` wrapper."""
    async with Simulator(["gemini"]) as sim:
        _signed_in(sim)
        sim["gemini"].enqueue(None, _stalled({"response": BLOCKED, "traceId": "0f"}))
        async with sim_client(sim, api_keys={}, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="gemini")
        assert sim["gemini"].holding == 1, "the reply waited for the socket to close"
        assert sim["gemini"].requests[-1].path == "/v1internal:streamGenerateContent"
    assert result.is_error
    assert EMPTY_GROUNDED in result.text, result.text


async def test_guard_cloud_codes_wrapped_stream_ends_at_its_finish_reason() -> None:
    """A guard (passes before and after; a doctest was its only proof): Cloud Code's own
    stream, every chunk wrapped as ``{"response": ...}``, held open after its last chunk,
    ends at the wrapped ``finishReason``."""
    held = Fault.held_open(seconds=HANG_GUARD_SECONDS)
    async with Simulator(["gemini"]) as sim:
        _signed_in(sim)
        sim["gemini"].enqueue(None, held)
        async with sim_client(sim, api_keys={}, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="gemini")
        assert sim["gemini"].holding == 1, "the answer waited for the socket to close"
        assert sim["gemini"].requests[-1].path == "/v1internal:streamGenerateContent"
    assert not result.is_error, result.text
    assert result.response is not None and result.response.sources
    assert result.response.auth_mode == "oauth"
