"""An xAI event stream is refused as one, not as JSON that merely failed to decode.

We never ask xAI to stream (the request has no ``stream`` field, as the spec's JSON POST),
but xAI does stream when asked: ``../shared/fixtures/xai/responses_web_search_tool_stream
.chunks.txt`` (read there, not copied) is the same call as the JSON capture, streamed, one
event a line with the ``data:`` prefix taken off by its recorder. Served back as SSE by the
loopback simulator (a gateway streaming for us), it was refused as ``xAI Responses API
returned invalid JSON: Expecting value``, naming neither the stream nor why it went unread.
"""

import json
from typing import Final

import pytest

from tests.conftest import read_capture
from tests.functional._sim_helpers import fault_failure, sim_client, simulator_fixture
from websearch_core.errors import ResponseParseError
from websearch_core.testing import Fault, Simulator

STREAM: Final = "xai/responses_web_search_tool_stream.chunks.txt"
OBJECT: Final = "xai/responses_web_search_tool.json"
REFUSAL: Final = (
    "xAI Responses API returned invalid JSON: an event stream (text/event-stream), where the "
    "request asked for one JSON object and no stream"
)
EVENT_STREAM: Final = "text/event-stream"

sim = simulator_fixture("xai")


def _events(named: bool, line_end: str = "\n") -> str:
    """The captured events as SSE: ``data:`` lines, with their ``event:`` names if ``named``."""
    blocks = []
    for line in read_capture(STREAM).decode("utf-8").splitlines():
        if not line.strip():
            continue
        name = f"event: {json.loads(line)['type']}{line_end}" if named else ""
        blocks.append(f"{name}data: {line}{line_end}{line_end}")
    return "".join(blocks)


@pytest.mark.parametrize(
    ("named", "line_end", "content_type"),
    [
        (False, "\n", EVENT_STREAM),
        (True, "\n", EVENT_STREAM),
        (True, "\r\n", f"{EVENT_STREAM}; charset=utf-8"),
        (False, "\n", "application/json"),
        (True, "\n", "text/plain"),
    ],
)
async def test_the_real_stream_is_refused_as_a_stream(
    sim: Simulator, named: bool, line_end: str, content_type: str
) -> None:
    """Failed before: ``Expecting value``. A stream mislabelled is told by its first line."""
    body = _events(named, line_end)
    failure = await fault_failure(
        sim, "xai", "what is xAI", Fault.http(200, body, {"Content-Type": content_type})
    )
    assert isinstance(failure, ResponseParseError)
    assert (failure.message, failure.status) == (REFUSAL, 502)


async def test_a_json_object_labelled_a_stream_is_still_read(sim: Simulator) -> None:
    """A guard: the label alone refuses nothing; the real object answers as it is."""
    body = read_capture(OBJECT).decode("utf-8")
    sim["xai"].enqueue(Fault.http(200, body, {"Content-Type": EVENT_STREAM}))
    async with sim_client(sim) as ws:
        labelled = await ws.search("what is xAI", provider="xai")
    sim["xai"].enqueue(Fault.http(200, body, {"Content-Type": "application/json"}))
    async with sim_client(sim) as ws:
        plain = await ws.search("what is xAI", provider="xai")
    assert labelled.answer and labelled.answer == plain.answer
    assert labelled.sources == plain.sources


async def test_other_bodies_keep_the_decoders_reason(sim: Simulator) -> None:
    """A guard: a body that is neither JSON nor a stream is not called a stream."""
    body = "<html><body>gateway error</body></html>"
    failure = await fault_failure(
        sim, "xai", "what is xAI", Fault.http(200, body, {"Content-Type": "text/html"})
    )
    assert failure.message == "xAI Responses API returned invalid JSON: Expecting value"
