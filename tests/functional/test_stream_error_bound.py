"""A stream's error event past the error bound, end to end: cut once, the cut said.

Stop 53 held every provider's error text to ``MESSAGE_LIMIT`` (10,000 UTF-16 units) where
the user reads it, a cut ending ``… [Error text cut: ...]``; it drove SearXNG's 2xx error
through the loopback simulator, but an error that arrives inside a stream (Perplexity's
chat chunks carry ``{"error": {...}}``, read by the stream parser, not from a status) was
bounded only on paper. Here Perplexity's real recorded stream from ``../shared/fixtures``
is served by the simulator with an error chunk after its first chunk, whose message is
longer than the bound: the tool's ``Error:`` line, ``--json``'s ``error`` and ``failures``
and the attempt's detail all keep the cut, with its mark once.
"""

import json
from typing import Final

from tests.conftest import read_capture
from tests.functional._sim_helpers import sim_client
from websearch_core.cli_output import search_json
from websearch_core.error_bound import ERROR_CUT_MARK, MESSAGE_LIMIT
from websearch_core.models import SearchToolResult
from websearch_core.testing import Fault, Simulator
from websearch_core.utf16_text import utf16_len

CAPTURE: Final = "perplexity/chat_completions_sonar_citations_stream.chunks.txt"
STREAM_LABEL: Final = {"Content-Type": "text/event-stream"}
HEAD: Final = "Perplexity API error (503): "
"""The parser's frame of a stream's error (its ``code`` as the status)."""


def _stream_failing_with(message: str) -> str:
    """The real stream's first chunk, then an error chunk saying ``message``, as SSE events."""
    lines = [line for line in read_capture(CAPTURE).decode("utf-8").splitlines() if line]
    error = json.dumps({"error": {"message": message, "type": "overloaded", "code": 503}})
    return f"data: {lines[0]}\n\ndata: {error}\n\n"


async def _failed(message: str) -> SearchToolResult:
    async with Simulator(["perplexity"]) as sim:
        sim["perplexity"].always(Fault.http(200, _stream_failing_with(message), STREAM_LABEL))
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run("population of san francisco", provider="perplexity")
    assert result.is_error, result.text[:300]
    return result


async def test_a_stream_error_past_the_bound_is_cut_once_and_says_so() -> None:
    """A guard (passes before and after): the cut holds for a stream's error, end to end.

    ``scrub_error`` cuts every provider failure, whatever read it; nothing had driven one
    read from a stream past the bound. The message: 30,000 units, ``E`` up to the bound
    then ``Z``, so a kept ``Z`` would show the cut came too late.
    """
    result = await _failed("E" * MESSAGE_LIMIT + "Z" * (30_000 - MESSAGE_LIMIT))
    (failure,) = result.failures
    assert failure.provider == "perplexity"
    assert failure.error.startswith(HEAD + "E")
    assert utf16_len(failure.error) == MESSAGE_LIMIT  # the frame and the message, cut
    assert failure.error.endswith("E…" + ERROR_CUT_MARK) and "Z" not in failure.error
    assert result.error is not None and result.error.count(ERROR_CUT_MARK.strip()) == 1
    assert failure.error in result.error and result.text == f"Error: {result.error}"
    printed = search_json(result)
    assert printed["error"] == result.error
    assert printed["failures"] == [{"provider": "perplexity", "error": failure.error}]
    (attempt,) = [a for a in result.response.attempts if a.provider == "perplexity"]
    assert attempt.detail is not None and attempt.detail.endswith(ERROR_CUT_MARK)
    assert utf16_len(attempt.detail) <= MESSAGE_LIMIT


async def test_a_stream_error_within_the_bound_is_whole() -> None:
    """A guard (passes before and after): an error one unit under the bound is not cut."""
    room = MESSAGE_LIMIT - utf16_len(HEAD)
    result = await _failed("E" * room)
    (failure,) = result.failures
    assert failure.error == HEAD + "E" * room
    assert ERROR_CUT_MARK not in (result.error or "")
