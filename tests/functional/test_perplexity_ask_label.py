"""Perplexity's ask mode reads its stream by the body, whatever label a gateway put on it.

The API-key mode, Codex and Gemini read a stream labelled ``application/json`` since stop
52 (audit55); the ask mode (cookies, OAuth, anonymous) still read one only when labelled
``text/event-stream``, and refused the same stream under a gateway's ``application/json`` or
``text/plain`` as ``Perplexity ask API returned no event stream``, though it had asked for
it. No capture of the ask endpoint is stored, so the stream is the loopback simulator's own
ask answer (its protocol's shape), fetched from it and served again under each label.
"""

from collections.abc import AsyncIterator
from typing import Final

import aiohttp
import pytest

from tests.functional._sim_helpers import sim_client
from websearch_core.testing import Fault, Simulator

QUERY: Final = "python asyncio"
LABELS: Final = ("text/event-stream", "application/json", "text/plain; charset=utf-8")
_UNSENT: Final = frozenset({"host", "content-length"})


@pytest.fixture
async def sim(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Simulator]:
    monkeypatch.delenv("PERPLEXITY_COOKIES", raising=False)
    async with Simulator(["perplexity"]) as simulator:
        yield simulator


async def _ask_stream(sim: Simulator) -> bytes:
    """The simulator's answer to the ask request an anonymous search sends, as served."""
    async with sim_client(sim, api_keys={}, cache=False) as ws:
        await ws.search(QUERY, provider="perplexity")
    (request,) = sim["perplexity"].requests
    assert request.path == "/rest/sse/perplexity_ask"
    headers = {k: v for k, v in request.headers.items() if k.lower() not in _UNSENT}
    url = f"{sim['perplexity'].base_url}{request.path}"
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, data=request.body, headers=headers) as reply,
    ):
        assert reply.content_type == "text/event-stream"
        return await reply.read()


async def test_an_ask_stream_under_another_label_reads_as_under_its_own(sim: Simulator) -> None:
    """Failed before: under ``application/json`` and ``text/plain``, ``Perplexity ask API
    returned no event stream``."""
    body = (await _ask_stream(sim)).decode("utf-8")
    texts = []
    for label in LABELS:
        sim["perplexity"].enqueue(Fault.http(200, body, {"Content-Type": label}))
        async with sim_client(sim, api_keys={}, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="perplexity")
        assert not result.is_error, (label, result.text)
        texts.append(result.text)
    assert texts == [texts[0]] * len(LABELS)


async def test_a_page_under_any_label_is_still_no_event_stream(sim: Simulator) -> None:
    """A guard (passes before and after): a body that is no stream keeps the spec'd text."""
    page = "<html><head><title>Just a moment...</title></head><body></body></html>"
    for label in LABELS:
        sim["perplexity"].enqueue(Fault.http(200, page, {"Content-Type": label}))
        async with sim_client(sim, api_keys={}, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="perplexity")
        assert result.is_error
        assert "Perplexity ask API returned no event stream" in result.text, (label, result.text)
