"""Z.AI's MCP tool reply reads the same as an event or as plain JSON, under either label.

Streamable HTTP lets the server answer ``tools/call`` either way. Z.AI's reader already
told the form by the body's first line, but a plain JSON reply labelled
``text/event-stream`` never reached it: the transport took its last line (JSON ends with
no line end) for an event begun and never ended, and refused it as ``Z.AI stream ended in
the middle of an event``. No real MCP reply of Z.AI is captured; its tool-result text is
(``zai/web_search_prime_tool_result_content_json_shape_2026-10.txt``, read from
``../shared/fixtures``, never copied), so each reply here is that real text in the
JSON-RPC envelope the simulator answers with.
"""

import json
from typing import Final

import pytest

from tests.conftest import read_capture
from tests.functional._sim_helpers import sim_client, simulator_fixture
from tests.zai_ids import pin_rpc_ids
from websearch_core.testing import Fault, Simulator

QUERY: Final = "usd cny"
CONTENT: Final = "zai/web_search_prime_tool_result_content_json_shape_2026-10.txt"
STREAM: Final = "text/event-stream"
JSON: Final = "application/json"

sim = simulator_fixture("zai")


@pytest.fixture(autouse=True)
def _calls_go_as_id_2(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each ``tools/call`` goes with the ``id`` its fixed reply answers (read by ``id``)."""
    pin_rpc_ids(monkeypatch, "2")


def _reply() -> str:
    text = read_capture(CONTENT).decode("utf-8").strip()
    message = {"jsonrpc": "2.0", "id": "2", "result": {"content": [{"type": "text", "text": text}]}}
    return json.dumps(message)


def _as_event() -> str:
    return f"event: message\ndata: {_reply()}\n\n"


async def _text(sim: Simulator, body: str, label: str) -> str:
    """What the model reads when ``tools/call`` is answered with ``body`` under ``label``."""
    sim["zai"].enqueue(None, None, Fault.http(200, body, {"Content-Type": label}))
    async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
        result = await ws.run(QUERY, provider="zai")
    assert not result.is_error, (label, result.text)
    return result.text


async def test_a_json_reply_labelled_a_stream_reads_as_the_event_does(sim: Simulator) -> None:
    """Failed before: ``Z.AI stream ended in the middle of an event``."""
    expected = await _text(sim, _as_event(), STREAM)
    assert "https://www.safe.gov.cn/" in expected
    assert await _text(sim, _reply(), STREAM) == expected


@pytest.mark.parametrize(
    ("form", "label"), [("event", JSON), ("json", JSON)], ids=["event-labelled-json", "json"]
)
async def test_the_other_forms_read_alike(sim: Simulator, form: str, label: str) -> None:
    """A guard: an event labelled JSON, and JSON labelled right, read as the event does."""
    expected = await _text(sim, _as_event(), STREAM)
    body = _as_event() if form == "event" else _reply()
    assert await _text(sim, body, label) == expected
