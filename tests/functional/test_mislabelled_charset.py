"""A JSON answer in Latin-1 or windows-1252 labelled UTF-8 is still an answer.

Real captures, re-encoded in a single-byte charset, are served by the loopback simulator
with ``Content-Type: application/json; charset=utf-8``, as a misconfigured server or proxy
sends them. The reference reads every body with the browser's fetch, which decodes UTF-8
with replacement characters whatever the bytes: each letter the charset damaged becomes
U+FFFD, and the rest of the answer reads exactly as the capture sent in UTF-8 does.

Each provider here reaches the body by another road (the transport's ``json``, its own
decode, a projection that falls back to the whole body), so all of them are covered.
"""

from collections.abc import AsyncIterator

import pytest

from tests.conftest import read_capture
from tests.functional._sim_helpers import sim_client
from websearch_core import SearchToolResult
from websearch_core.testing import Fault, Simulator

CAPTURES = {
    "tavily": ("tavily/search_bound_params_attention.json", "latin-1"),
    "kagi": ("kagi/v0_search_doc_example_steve_jobs_2024.json", "windows-1252"),
    "serper": ("serper/search_amazon_knowledge_graph_2023.json", "windows-1252"),
    "anthropic": ("anthropic/messages_web_search_tool_call2.json", "latin-1"),
    "xai": ("openai/responses_web_search_tool_call2.json", "latin-1"),
}
"""Each provider's capture holding letters its charset can write, and that charset."""


@pytest.fixture
async def sim() -> AsyncIterator[Simulator]:
    async with Simulator(list(CAPTURES)) as simulator:
        yield simulator


def _labelled_utf8(body: bytes) -> Fault:
    """A whole 200 reply carrying ``body`` as it is, whatever its bytes, labelled UTF-8."""
    head = (
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=utf-8\r\n"
        b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body)
    )
    return Fault.not_http(head + body)


async def _served(sim: Simulator, provider_id: str, body: bytes) -> SearchToolResult:
    sim[provider_id].enqueue(_labelled_utf8(body))
    async with sim_client(sim) as ws:
        return await ws.run("search", provider=provider_id, use_cache=False)


def _damaged(text: str) -> str:
    """``text`` with every letter beyond ASCII replaced, as a UTF-8 decoder reads it from
    single-byte bytes (no two such letters stand together in these captures)."""
    return "".join(letter if letter.isascii() else "\ufffd" for letter in text)


@pytest.mark.parametrize("provider_id", list(CAPTURES))
async def test_a_single_byte_charset_labelled_utf8_answers_with_replacements(
    sim: Simulator, provider_id: str
) -> None:
    path, charset = CAPTURES[provider_id]
    text = read_capture(path).decode("utf-8")
    as_sent = await _served(sim, provider_id, text.encode("utf-8"))
    assert not as_sent.is_error, as_sent.text
    assert not as_sent.text.isascii()  # the capture's own letters reach the model

    mislabelled = await _served(sim, provider_id, text.encode(charset))
    assert not mislabelled.is_error, mislabelled.text
    answer = as_sent.response.answer
    assert mislabelled.response.answer == (None if answer is None else _damaged(answer))
    assert _sources(mislabelled) == [_damaged(source) for source in _sources(as_sent)]
    # What the model reads: the same, but for the damaged letters (and the ellipsis the
    # renderer adds where it shortens a text, which both carry).
    assert "\ufffd" in mislabelled.text
    assert _damaged(mislabelled.text) == _damaged(as_sent.text)


def _sources(result: SearchToolResult) -> list[str]:
    """Each source as JSON, less its age (counted from the clock, which moves between)."""
    return [s.model_dump_json(exclude={"age_seconds"}) for s in result.response.sources]
