"""An MCP stream ends at the reply to its own request, not at a reply to another id.

The MCP end (an ``id``, a ``result`` or ``error``, no ``method``) knew no request id, so a
reply to another ``id`` ahead of the real one (a gateway sharing one stream, a server
replaying another request's reply on resumption) ended the read there; Exa's reader, which
takes its reply by ``id``, was then left with the other request's reply and read it, and
Z.AI's (the last message wins) too. JSON-RPC pairs a reply with its request by ``id``, and
MCP's Streamable HTTP has the POST's stream carry that request's reply, so another's is
skipped: the end closes at the request's own ``id`` (or a null one, an error to a request
the server could not read), and Exa's reader refuses a stream holding only replies to
other ids. What reads on is bounded by the deadline and the size cap, as every stream is.

The bound is an event, not a clock: the answer must come while the simulator still holds
the socket (``holding == 1``); the hold lets go by itself after
:data:`~tests.fault_release.HANG_GUARD_SECONDS`, so a search that does wait fails rather
than hangs. The MCP replies are the simulator's own (no MCP capture is stored), served by
``Fault.held_open`` so they answer the request's own ``id``.
"""

import json
from typing import Final

import pytest

from tests.fault_release import HANG_GUARD_SECONDS, held_until_guard
from tests.functional._sim_helpers import sim_client
from websearch_core.testing import Fault, Simulator

QUERY: Final = "population of san francisco"
OTHER_ID: Final = "another-requests-id"
OTHER_PAGE: Final = "https://other.example.org/not-this-search"
STREAM_HEAD: Final = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n"


def _event(message: dict[str, object]) -> bytes:
    """One JSON-RPC message as an MCP SSE event."""
    return f"event: message\ndata: {json.dumps(message)}\n\n".encode()


def _other_error() -> bytes:
    """A JSON-RPC error replying to another request's ``id``."""
    error = {"code": -32000, "message": "this reply is another request's"}
    return _event({"jsonrpc": "2.0", "id": OTHER_ID, "error": error})


def _other_result() -> bytes:
    """A JSON-RPC result (one page, Exa's payload) replying to another request's ``id``."""
    payload = {"results": [{"title": "Not this search", "url": OTHER_PAGE}]}
    result = {"content": [{"type": "text", "text": json.dumps(payload)}]}
    return _event({"jsonrpc": "2.0", "id": OTHER_ID, "result": result})


def _other_zai_result() -> bytes:
    """A JSON-RPC result (one page, as Z.AI's tool writes it) to another request's ``id``."""
    pages = [{"title": "Not this search", "link": OTHER_PAGE, "content": "another search"}]
    result = {"content": [{"type": "text", "text": json.dumps(pages)}]}
    return _event({"jsonrpc": "2.0", "id": OTHER_ID, "result": result})


# --- a reply to another id ----------------------------------------------------------------


@pytest.mark.parametrize("other", [_other_error, _other_result], ids=["error", "result"])
async def test_exa_reads_past_a_reply_to_another_id_to_its_own(other: object) -> None:
    """Failed before for both: the stream ended at the other request's reply, which Exa's
    reader then read (its error, ``MCP error: this reply is another request's``, or its
    page as this search's source). Now it is skipped and the real reply, held open after,
    is the answer."""
    assert callable(other)
    async with Simulator(["exa"]) as sim:
        sim["exa"].enqueue(held_until_guard(before=other()))
        async with sim_client(sim, api_keys={}, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="exa")
        assert sim["exa"].holding == 1, "the answer waited for the socket to close"
    assert not result.is_error, result.text
    assert result.response is not None and result.response.sources
    assert OTHER_PAGE not in [source.url for source in result.response.sources]


async def test_exa_refuses_a_stream_of_replies_to_other_ids_only() -> None:
    """Failed before (answered with the other request's page): a stream whose only reply
    is to another ``id`` holds none to this request; refused, naming that, in the spec's
    parse-failure frame. (Streams59's guard that it was read is reversed.)"""
    async with Simulator(["exa"]) as sim:
        closed = Fault.http(200, _other_result().decode(), {"Content-Type": "text/event-stream"})
        sim["exa"].enqueue(closed)
        async with sim_client(sim, api_keys={}, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="exa")
        sent = sim["exa"].requests[-1].json()["id"]
    assert result.is_error, result.text
    expected = f"Failed to parse MCP response: no reply to this request's id ({sent}), only 1"
    assert expected in result.text, result.text


async def test_a_reply_to_another_id_held_open_is_bounded_by_the_deadline() -> None:
    """Failed before (answered with the other request's page): the read goes on past a
    reply to another ``id``, so with the socket held and no own reply it ends at the
    deadline, as timed out."""
    async with Simulator(["exa"]) as sim:
        sim["exa"].enqueue(Fault.stall(STREAM_HEAD + _other_result(), seconds=HANG_GUARD_SECONDS))
        async with sim_client(
            sim, api_keys={}, rate_limit_wait_seconds=0, cache=False, timeout_seconds=0.5
        ) as ws:
            result = await ws.run(QUERY, provider="exa")
    assert result.is_error
    assert "timed out" in result.text, result.text


async def test_replies_to_other_ids_are_bounded_by_the_size_cap() -> None:
    """Failed before (answered with the other request's error): replies to other ids
    read on count towards the body cap, so a server sending nothing else is refused as
    too large, before its own reply."""
    others = _other_error() * 40
    assert len(others) > 2 * 1024
    async with Simulator(["exa"]) as sim:
        # The first reply alone in the first read, under the cap, as a server sends it.
        sim["exa"].enqueue(held_until_guard(before=others, first=len(_other_error())))
        async with sim_client(
            sim, api_keys={}, rate_limit_wait_seconds=0, cache=False, max_response_bytes=1024
        ) as ws:
            result = await ws.run(QUERY, provider="exa")
    assert result.is_error
    assert "response exceeded 1 KiB" in result.text, result.text


async def test_guard_a_reply_with_a_null_id_still_ends_the_stream() -> None:
    """A guard (passes before and after): an error whose ``id`` is null (JSON-RPC's reply
    to a request the server could not read) answers this request, so it ends the stream
    and is the answer, the socket held after it."""
    error = {"code": -32700, "message": "Parse error"}
    event = _event({"jsonrpc": "2.0", "id": None, "error": error})
    async with Simulator(["exa"]) as sim:
        sim["exa"].enqueue(Fault.stall(STREAM_HEAD + event, seconds=HANG_GUARD_SECONDS))
        async with sim_client(sim, api_keys={}, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="exa")
        assert sim["exa"].holding == 1, "the reply waited for the socket to close"
    assert result.is_error
    assert "MCP error: Parse error" in result.text, result.text


async def test_zai_reads_past_a_reply_to_another_id_to_its_own() -> None:
    """Failed before (the other request's page was the source): Z.AI's ``tools/call``
    stream ended at the other request's reply, its reader's last message. Its POST's end
    now awaits the POST's own ``id``; the real reply, held open after, is the answer."""
    async with Simulator(["zai"]) as sim:
        sim["zai"].enqueue(None, None, held_until_guard(before=_other_zai_result()))
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="zai")
        assert sim["zai"].holding == 1, "the answer waited for the socket to close"
    assert not result.is_error, result.text
    assert result.response is not None and result.response.sources
    assert OTHER_PAGE not in [source.url for source in result.response.sources]
