"""Perplexity's and Codex's streams end at their closing event, not at the socket's close.

The transport read every stream to the close of its socket, though the readers end on the
stream's own closing event: the real capture's last object (``chat.completion.done``, the
API's ``data: [DONE]`` after it), the ask stream's final snapshot, and the real Responses
capture's ``response.completed``. A server or proxy that
held the socket open after that event left the search, its answer in hand, waiting for the
deadline, and then failing as timed out.

The simulator serves each stream whole, then holds the connection open (a ``stall`` fault:
no length, so only the close would end the body). The bound is an event, not a clock: the
answer must come while the simulator still holds the socket (:attr:`holding`), and the
hold lets go by itself after :data:`~tests.fault_release.HANG_GUARD_SECONDS` at most, so a
search that does wait fails (timed out) rather than hangs.
"""

import json
import time
from typing import Final

import aiohttp

from tests.conftest import read_capture
from tests.fault_release import HANG_GUARD_SECONDS
from tests.functional._sim_helpers import sim_client
from tests.stream_bodies import framed_chunks
from websearch_core.credentials import CredentialStore, OAuthToken
from websearch_core.sse import parse_sse
from websearch_core.testing import Fault, Simulator

QUERY: Final = "population of san francisco"
HEAD: Final = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n"
"""A 200 stream with no length: its body ends only when the server closes the socket."""
CAPTURE: Final = framed_chunks("perplexity/chat_completions_sonar_citations_stream.chunks.txt")


def _held_open(body: str) -> Fault:
    """``body`` served whole, then the socket held open until the hang guard lets go."""
    return Fault.stall(HEAD + body.encode("utf-8"), seconds=HANG_GUARD_SECONDS)


async def _ask_body(sim: Simulator) -> str:
    """The simulator's own ask stream, which closes with its ``final`` snapshot."""
    asked = {"query_str": QUERY, "params": {"send_back_text_in_streaming_api": True}}
    url = f"{sim['perplexity'].base_url}/rest/sse/perplexity_ask"
    async with aiohttp.ClientSession() as session, session.post(url, json=asked) as reply:
        return (await reply.read()).decode("utf-8")


async def test_the_captured_chat_stream_ends_at_its_done_object_with_the_socket_open() -> None:
    """Failed before: the search waited for the close and timed out (5 s), answer unread.

    The real capture ends with ``chat.completion.done`` (its recorder kept no ``[DONE]``).
    """
    body = CAPTURE()
    last = json.loads(parse_sse(body.encode())[-1].data)
    assert last["object"] == "chat.completion.done"
    async with Simulator(["perplexity"]) as sim:
        sim["perplexity"].enqueue(_held_open(body))
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="perplexity")
        assert sim["perplexity"].holding == 1, "the answer waited for the socket to close"
    assert not result.is_error, result.text
    assert result.response is not None and result.response.provider == "perplexity"
    assert "https://en.wikipedia.org/wiki/San_Francisco" in result.text


async def test_a_chat_stream_ends_at_done_with_the_socket_open() -> None:
    """Failed before (timed out): the simulator's own stream ends ``chat.completion.done``
    then ``data: [DONE]``, as the API's reference does; served without the former, the
    ``[DONE]`` alone ends it."""
    async with Simulator(["perplexity"]) as sim:
        url = f"{sim['perplexity'].base_url}/chat/completions"
        asked = {"model": "sonar", "stream": True, "messages": [{"role": "user", "content": QUERY}]}
        headers = {"Authorization": f"Bearer {sim.api_keys()['perplexity']}"}
        async with (
            aiohttp.ClientSession() as session,
            session.post(url, json=asked, headers=headers) as reply,
        ):
            served = (await reply.read()).decode("utf-8")
        kept = [event for event in served.split("\n\n") if "chat.completion.done" not in event]
        body = "\n\n".join(kept)
        assert body.rstrip().endswith("data: [DONE]")
        sim["perplexity"].enqueue(_held_open(body))
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="perplexity")
        assert sim["perplexity"].holding == 1, "the answer waited for the socket to close"
    assert not result.is_error, result.text


async def test_the_ask_stream_ends_at_its_final_snapshot_with_the_socket_open() -> None:
    """Failed before (timed out): the ask mode (no key) read to the close as well."""
    async with Simulator(["perplexity"]) as sim:
        body = await _ask_body(sim)
        last = json.loads(parse_sse(body.encode())[-1].data)
        assert last["final"] is True and last["status"] == "COMPLETED"
        sim["perplexity"].enqueue(_held_open(body))
        async with sim_client(sim, api_keys={}, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="perplexity")
        assert sim["perplexity"].holding == 1, "the answer waited for the socket to close"
    assert not result.is_error, result.text
    assert result.response is not None and result.response.auth_mode == "anonymous"


async def test_the_ask_stream_ends_at_end_of_stream_with_the_socket_open() -> None:
    """Failed before (timed out): an ask stream whose snapshots carry no end of their own
    (the final marks taken off the simulator's) ends at the ``end_of_stream`` event live
    clients read."""
    async with Simulator(["perplexity"]) as sim:
        served = parse_sse((await _ask_body(sim)).encode())
        snapshots = [json.loads(event.data) for event in served]
        for snapshot in snapshots:
            snapshot.pop("final", None)
            snapshot["status"] = "PENDING"
        body = "".join(f"event: message\ndata: {json.dumps(s)}\n\n" for s in snapshots)
        body += "event: end_of_stream\ndata: {}\n\n"
        sim["perplexity"].enqueue(_held_open(body))
        async with sim_client(sim, api_keys={}, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="perplexity")
        assert sim["perplexity"].holding == 1, "the answer waited for the socket to close"
    assert not result.is_error, result.text


async def test_guard_a_stream_held_open_before_its_end_still_times_out() -> None:
    """A guard (passes before and after): a stream whose closing event never comes is
    still bounded by the deadline, not read as ended."""
    body = "".join(CAPTURE().split("\n\n")[0]) + "\n\n"
    async with Simulator(["perplexity"]) as sim:
        sim["perplexity"].enqueue(_held_open(body))
        async with sim_client(
            sim, rate_limit_wait_seconds=0, cache=False, timeout_seconds=0.5
        ) as ws:
            result = await ws.run(QUERY, provider="perplexity")
    assert result.is_error
    assert "timed out" in result.text, result.text


async def test_the_captured_responses_stream_ends_at_response_completed_with_the_socket_open(
    no_gemini_variables: None,
) -> None:
    """Failed before (timed out): Codex's fold stops at ``response.completed`` (the real
    capture's last event), but the transport read on to the close."""
    body = read_capture("openai/responses_web_search_tool_stream.sse").decode("utf-8")
    assert parse_sse(body.encode())[-1].event == "response.completed"
    async with Simulator(["codex"]) as sim:
        CredentialStore(sim.settings().resolved_credentials_file()).set_oauth(
            "codex", OAuthToken(access_token="sim-token", expires_at=time.time() + 3600)
        )
        sim["codex"].enqueue(_held_open(body))
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="codex")
        assert sim["codex"].holding == 1, "the answer waited for the socket to close"
    assert not result.is_error, result.text
