"""A provider that asked for a stream reads it whatever label a gateway put on it.

Codex, Perplexity (API key) and Gemini ask for an event stream and read a plain JSON body
too. The transport parses a body as a stream only when it is labelled
``text/event-stream``, so a gateway rewriting the label to ``application/json`` left each
of them decoding the stream as JSON and refusing it (``Codex API returned invalid JSON``,
``Perplexity API returned invalid JSON``, ``Gemini API returned invalid JSON``), though
they had asked for it and read it when labelled right. The body's first line now decides,
by the rule that already tells a stream from JSON for the providers that never asked for
one. The bodies are real captures read from ``../shared/fixtures`` (never copied), served
by the loopback simulator; Perplexity's recorder kept its stream's chunks one a line with
the ``data:`` prefix stripped, so its stream is those lines framed again as SSE events.
"""

import time
from collections.abc import AsyncIterator, Callable
from typing import Final

import pytest

from tests.conftest import read_capture
from tests.functional._sim_helpers import sim_client
from tests.stream_bodies import captured, framed_chunks
from websearch_core.credentials import CredentialStore, OAuthToken
from websearch_core.testing import Fault, Simulator

QUERY: Final = "what is an event stream"
STREAM: Final = "text/event-stream; charset=utf-8"
JSON: Final = "application/json"


STREAMS: Final = {
    "codex": captured("openai/responses_web_search_tool_stream.sse"),
    "gemini": captured("gemini/stream_generate_content_google_search.sse"),
    "perplexity": framed_chunks("perplexity/chat_completions_sonar_citations_stream.chunks.txt"),
}
"""A real stream of each provider that asks for one."""
JSON_BODIES: Final = {
    "codex": captured("openai/responses_web_search_url_citation_gpt5_2.json"),
    "gemini": captured("gemini/generate_content_google_search_call1.json"),
    "perplexity": captured("perplexity/chat_completions_sonar_citations.json"),
}
"""A real plain JSON answer of each (what a server sends when it ignores the stream)."""


def _without_line_end(path: str) -> Callable[[], str]:
    return lambda: read_capture(path).decode("utf-8").rstrip("\r\n")


JSON_ENDLESS: Final = {
    "codex": captured("openai/responses_web_search_verbatim_gpt4o_mini.json"),
    "gemini": _without_line_end("gemini/generate_content_google_search_call1.json"),
    "perplexity": _without_line_end(
        "perplexity/chat_completions_sonar_usage_cost_sanitized_2026.json"
    ),
}
"""A real JSON answer of each with no line end after its last byte."""


@pytest.fixture(params=sorted(STREAMS))
async def sim(
    request: pytest.FixtureRequest, no_gemini_variables: None
) -> AsyncIterator[Simulator]:
    provider_id = str(request.param)
    async with Simulator([provider_id]) as simulator:
        if provider_id == "codex":
            CredentialStore(simulator.settings().resolved_credentials_file()).set_oauth(
                "codex", OAuthToken(access_token="sim-token", expires_at=time.time() + 3600)
            )
        yield simulator


async def _texts(sim: Simulator, body: str, labels: tuple[str, ...]) -> list[str]:
    """What the model reads of ``body`` served under each label, in order."""
    (provider_id,) = sim.providers
    texts = []
    for label in labels:
        sim[provider_id].enqueue(Fault.http(200, body, {"Content-Type": label}))
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider=provider_id)
        assert not result.is_error, (label, result.text)
        texts.append(result.text)
    return texts


async def test_a_stream_labelled_json_reads_as_when_labelled_a_stream(sim: Simulator) -> None:
    """Failed before on all three: ``<Label> API returned invalid JSON`` under the JSON label."""
    (provider_id,) = sim.providers
    labelled, mislabelled = await _texts(sim, STREAMS[provider_id](), (STREAM, JSON))
    assert mislabelled == labelled


async def test_a_json_body_labelled_a_stream_still_reads(sim: Simulator) -> None:
    """A guard: a real JSON answer under the stream label reads as under its own."""
    (provider_id,) = sim.providers
    labelled, mislabelled = await _texts(sim, JSON_BODIES[provider_id](), (JSON, STREAM))
    assert mislabelled == labelled


async def test_a_json_body_ending_with_no_line_end_labelled_a_stream_reads(
    sim: Simulator,
) -> None:
    """Failed before on all three: ``<label> stream ended in the middle of an event``.

    Most servers end a JSON body with no line end (the recorders added the one these
    captures end with, but Codex's ``verbatim_gpt4o_mini`` capture has none and is served
    as it is); under the stream label the transport took that last line for an event
    begun and never ended, a broken stream, before the reader that reads JSON saw it.
    """
    (provider_id,) = sim.providers
    body = JSON_ENDLESS[provider_id]()
    assert not body.endswith("\n")
    labelled, mislabelled = await _texts(sim, body, (JSON, STREAM))
    assert mislabelled == labelled
