"""Z.AI reads the reply to its own request's JSON-RPC ``id``, not the last message.

The behaviour reference has Z.AI's reader take the last JSON-RPC reply in a stream. Since
streams60 the transport ends a Z.AI POST's stream at the reply to that POST's own ``id``,
so a reply to another ``id`` ahead of it is read past; but a stream closed after only
another request's reply (a gateway sharing one stream, a replay on resumption) still
reached the reader, which took it: another search's page became this search's source, or
another request's error this one's. MCP's Streamable HTTP sends one reply a request on its
POST's stream and JSON-RPC pairs them by ``id``, so neither joining the replies nor the last
is right: the reply is the one to the request's own ``id`` (the first, where the read ends).
Another's is skipped; a stream of only those is refused, as Exa's reader refuses it.

The MCP replies are the simulator's own shapes (no MCP capture of Z.AI is stored).
"""

import json
from typing import Final

from tests.fault_release import HANG_GUARD_SECONDS
from tests.functional._sim_helpers import sim_client
from websearch_core.models import SearchToolResult
from websearch_core.testing import Fault, Simulator

QUERY: Final = "population of san francisco"
OTHER_ID: Final = "another-requests-id"
OTHER_PAGE: Final = "https://other.example.org/not-this-search"
STREAM: Final = {"Content-Type": "text/event-stream"}
PARSE_FAILURE: Final = "Failed to parse Z.AI MCP response"


def _event(message: dict[str, object]) -> str:
    """One JSON-RPC message as an MCP SSE event."""
    return f"event: message\ndata: {json.dumps(message)}\n\n"


def _other_result() -> str:
    """A result (one page, as Z.AI's tool writes it) replying to another request's ``id``."""
    pages = [{"title": "Not this search", "link": OTHER_PAGE, "content": "another search"}]
    result = {"content": [{"type": "text", "text": json.dumps(pages)}]}
    return _event({"jsonrpc": "2.0", "id": OTHER_ID, "result": result})


def _other_error() -> str:
    """A JSON-RPC error replying to another request's ``id`` (quota spent, for another)."""
    error = {"code": 429, "message": "another request's limit"}
    return _event({"jsonrpc": "2.0", "id": OTHER_ID, "error": error})


async def _answered(sim: Simulator, *faults: Fault | None) -> SearchToolResult:
    """Queue ``faults`` on Z.AI (``None``: a normal answer) and run one search there."""
    sim["zai"].enqueue(*faults)
    async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
        return await ws.run(QUERY, provider="zai")


async def test_a_call_answered_only_for_another_id_is_refused() -> None:
    """Failed before (answered, the other request's page its source): the stream closed
    after a reply to another ``id`` and the reader took it as the last message."""
    async with Simulator(["zai"]) as sim:
        result = await _answered(sim, None, None, Fault.http(200, _other_result(), STREAM))
        sent = sim["zai"].requests[-1].json()["id"]
    assert result.is_error, result.text
    expected = f"{PARSE_FAILURE}: no reply to this request's id ({sent}), only 1 to another"
    assert expected in result.text, result.text
    assert OTHER_PAGE not in result.text


async def test_another_requests_error_is_not_this_searchs() -> None:
    """Failed before (``Z.AI MCP error (429): another request's limit``, a rate limit on
    this search): another request's error, alone in the stream, was read as this one's."""
    async with Simulator(["zai"]) as sim:
        result = await _answered(sim, None, None, Fault.http(200, _other_error(), STREAM))
    assert result.is_error, result.text
    assert "another request's limit" not in result.text, result.text
    assert f"{PARSE_FAILURE}: no reply to this request's id" in result.text, result.text


async def test_an_initialize_answered_only_for_another_id_is_refused() -> None:
    """Failed before (the session went on as if initialized, its call then refused, `No
    valid session ID provided`): the
    ``initialize`` reply is read by ``id`` too, so another's alone is none."""
    other = _event({"jsonrpc": "2.0", "id": OTHER_ID, "result": {"capabilities": {}}})
    async with Simulator(["zai"]) as sim:
        result = await _answered(sim, Fault.http(200, other, STREAM))
        sent = [request.json().get("method") for request in sim["zai"].requests]
    assert result.is_error, result.text
    assert f"{PARSE_FAILURE}: no reply to this request's id" in result.text, result.text
    assert sent == ["initialize"], sent


async def test_guard_a_null_id_error_answers_the_call() -> None:
    """A guard (passes before and after): an error whose ``id`` is null (JSON-RPC's reply
    to a request the server could not read) is this request's, read and named."""
    error = {"code": -32700, "message": "Parse error"}
    body = _event({"jsonrpc": "2.0", "id": None, "error": error})
    async with Simulator(["zai"]) as sim:
        # Each argument shape is answered alike (the error's 400 tries the next).
        result = await _answered(sim, None, None, *[Fault.http(200, body, STREAM)] * 3)
    assert result.is_error
    assert "Z.AI MCP error (-32700): Parse error" in result.text, result.text


async def test_guard_zais_envelope_without_an_id_answers_the_call() -> None:
    """A guard (passes before and after): Z.AI's own ``success`` envelope has no ``id``;
    it is the reply, its error read as Z.AI's."""
    body = _event({"success": False, "code": 1214, "msg": "Invalid search engine"})
    async with Simulator(["zai"]) as sim:
        result = await _answered(sim, None, None, *[Fault.http(200, body, STREAM)] * 3)
    assert result.is_error
    assert "Z.AI API error (1214): Invalid search engine" in result.text, result.text


async def test_guard_another_reply_after_the_own_one_is_never_read() -> None:
    """A guard (passes before and after): the read ends at the call's own reply, so a
    reply to another ``id`` after it, the socket held, is neither read nor waited for."""
    async with Simulator(["zai"]) as sim:
        held = Fault.held_open(after=_other_result().encode(), seconds=HANG_GUARD_SECONDS)
        result = await _answered(sim, None, None, held)
        assert sim["zai"].holding == 1, "the answer waited for the socket to close"
    assert not result.is_error, result.text
    assert result.response is not None and result.response.sources
    assert OTHER_PAGE not in [source.url for source in result.response.sources]
