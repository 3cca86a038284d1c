"""Every provider asking for one JSON object refuses an event stream as one, alike.

A gateway or a misconfigured proxy may stream where the request asked for one JSON object
and no stream. audit53 made xAI say so; every other such provider still said only its
frame (``Brave API returned invalid JSON``) or its decoder's ``Expecting value``, naming
neither the stream nor why it went unread. The bodies are real streams, read from
``../shared/fixtures`` (never copied): OpenAI's Responses stream and Anthropic's Messages
stream, served by the loopback simulator labelled as a stream and mislabelled as JSON.
The frames are the behaviour reference's texts; only the reason after them is new.
"""

from collections.abc import AsyncIterator
from typing import Final

import pytest

from tests.conftest import read_capture
from tests.functional._sim_helpers import fault_failure, sim_client
from websearch_core.errors import ResponseParseError
from websearch_core.testing import Fault, Simulator

QUERY: Final = "what is an event stream"
STREAM_REASON: Final = (
    "an event stream (text/event-stream), where the request asked for one JSON object and no stream"
)
FRAMES: Final = {
    "anthropic": "Anthropic API returned invalid JSON",
    "brave": "Brave API returned invalid JSON",
    "exa": "Exa API returned invalid JSON",
    "firecrawl": "Firecrawl API returned invalid JSON",
    "jina": "Jina API returned invalid JSON",
    "kagi": "Kagi API returned an invalid response",
    "kimi": "Kimi API returned invalid JSON",
    "parallel": "Parallel search returned invalid JSON",
    "searxng": "SearXNG API returned invalid JSON",
    "serper": "Serper API returned invalid JSON",
    "synthetic": "Synthetic API returned invalid JSON",
    "tavily": "Tavily API returned invalid JSON",
    "tinyfish": "TinyFish API returned invalid JSON",
    "xai": "xAI Responses API returned invalid JSON",
}
"""Each provider that asks for one JSON object (no stream), with its invalid-JSON frame."""
OTHER_REASONS: Final = {
    "kagi": "invalid JSON",
    "parallel": "Expecting value: line 1 column 1 (char 0)",
    "xai": "Expecting value",
}
"""The reason each frame carried for a body neither JSON nor a stream (none elsewhere)."""
STREAMS: Final = (
    "openai/responses_web_search_tool_stream.sse",
    "anthropic/messages_web_search_tool_stream.sse",
)
"""Real streams, verbatim SSE as recorded."""
JSON_CAPTURES: Final = {
    "anthropic": "anthropic/messages_web_search_tool_call1.json",
    "brave": "brave/web_search_laravel_2024.json",
    "exa": "exa/search_doc_example_latest_llm_research.json",
    "firecrawl": "firecrawl/v2_search_firecrawl_with_markdown.json",
    "jina": "jina/s_jina_ai_search_doc_example.json",
    "kagi": "kagi/v0_search_doc_example_steve_jobs_2024.json",
    "kimi": "kimi/chat_completions_web_search_round2_final_answer_excerpted_2026.json",
    "parallel": "parallel/v1_search_doc_example.json",
    "searxng": "searxng/search_format_json_espresso_2026.json",
    "serper": "serper/search_amazon_knowledge_graph_2023.json",
    "tavily": "tavily/search_basic_pydantic_ai.json",
    "tinyfish": "tinyfish/search_doc_example.json",
    "xai": "xai/responses_web_search_tool.json",
}
"""One JSON body of each provider (Synthetic has none captured)."""


@pytest.fixture(params=sorted(FRAMES))
async def sim(request: pytest.FixtureRequest) -> AsyncIterator[Simulator]:
    async with Simulator([str(request.param)]) as simulator:
        yield simulator


def _provider(sim: Simulator) -> str:
    (provider_id,) = sim.providers
    return provider_id


@pytest.mark.parametrize("stream", STREAMS)
@pytest.mark.parametrize("content_type", ["text/event-stream; charset=utf-8", "application/json"])
async def test_a_real_stream_is_refused_as_a_stream(
    sim: Simulator, stream: str, content_type: str
) -> None:
    """Failed before on every provider but xAI: the bare frame or ``Expecting value``.

    Mislabelled as JSON, the stream is told by its first line (an SSE field).
    """
    provider_id = _provider(sim)
    body = read_capture(stream).decode("utf-8")
    fault = Fault.http(200, body, {"Content-Type": content_type})
    failure = await fault_failure(sim, provider_id, QUERY, fault)
    assert isinstance(failure, ResponseParseError)
    assert (failure.message, failure.status) == (f"{FRAMES[provider_id]}: {STREAM_REASON}", 502)


async def test_a_body_neither_json_nor_a_stream_keeps_its_text(sim: Simulator) -> None:
    """A guard: only a stream is named; other bodies keep the frame and its own reason."""
    provider_id = _provider(sim)
    fault = Fault.http(200, "Bad gateway", {"Content-Type": "text/plain"})
    failure = await fault_failure(sim, provider_id, QUERY, fault)
    reason = OTHER_REASONS.get(provider_id)
    assert failure.message == (
        f"{FRAMES[provider_id]}: {reason}" if reason else FRAMES[provider_id]
    )


async def test_a_json_body_labelled_a_stream_reads_as_it_would_unlabelled(sim: Simulator) -> None:
    """A guard: the label alone refuses nothing; the model reads the same text either way."""
    provider_id = _provider(sim)
    if provider_id not in JSON_CAPTURES:
        pytest.skip(f"no JSON capture of {provider_id}")
    body = read_capture(JSON_CAPTURES[provider_id]).decode("utf-8")
    texts = []
    for content_type in ("text/event-stream", "application/json"):
        sim[provider_id].always(Fault.http(200, body, {"Content-Type": content_type}))
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            texts.append((await ws.run(QUERY, provider=provider_id)).text)
    assert "event stream" not in texts[0]
    assert texts[0] == texts[1]
