"""A byte-order mark is dropped at an event stream's start only, never in an event's data.

The reference reads a stream by WHATWG's rules (its decode drops one U+FEFF at the start of
the stream) and each event by ``JSON.parse(event.data)``, which refuses data led by a
mark. Ours dropped the stream's mark alike, but then read each event's data with the rule
of a whole body (``json_loads`` drops a leading mark), so ``data: \\ufeff{...}`` read as
JSON: Codex, Gemini and Perplexity answered from events the reference finds unreadable,
Anthropic's stream reader folded them, and Exa's MCP reply was taken. Each now reads such
data as what it is, data that is not JSON: exactly as the same stream with another
character JSON does not allow (U+2060, WORD JOINER) in the mark's place.

The streams are real captures read from ``../shared/fixtures`` (never copied), served by
the loopback simulator; Perplexity's recorder kept its chunks one a line, framed back as
the events they came as. Exa's MCP reply is the simulator's own (no MCP capture is stored).
"""

import re
import time
from collections.abc import AsyncIterator, Callable
from typing import Final

import aiohttp
import pytest

from tests.functional._sim_helpers import sim_client
from tests.stream_bodies import captured, framed_chunks
from websearch_core.credentials import CredentialStore, OAuthToken
from websearch_core.errors import ResponseParseError
from websearch_core.providers.anthropic import message_from_stream
from websearch_core.sse import parse_sse
from websearch_core.testing import Fault, Simulator

QUERY: Final = "what is an event stream"
STREAM: Final = {"Content-Type": "text/event-stream"}
BOM: Final = "\ufeff"
WORD_JOINER: Final = "\u2060"
"""Invisible as the mark is, and not JSON whitespace either: what the mark must read as."""

STREAMS: Final = {
    "codex": captured("openai/responses_web_search_tool_stream.sse"),
    "gemini": captured("gemini/stream_generate_content_google_search.sse"),
    "perplexity": framed_chunks("perplexity/chat_completions_sonar_citations_stream.chunks.txt"),
}
"""A real stream of each provider that reads one."""
ANTHROPIC: Final = captured("anthropic/messages_web_search_tool_stream.sse")


def _data_led_by(body: str, mark: str, *, first_only: bool = False) -> str:
    """``body`` with ``mark`` put first in each event's data (or the first event's only)."""
    return re.sub(r"(?m)^data: ?", lambda found: found.group(0) + mark, body, count=first_only)


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


async def _texts(sim: Simulator, *bodies: str) -> list[str]:
    """What the model reads of each body served as an event stream, in order."""
    (provider_id,) = sim.providers
    texts = []
    for body in bodies:
        sim[provider_id].enqueue(Fault.http(200, body, STREAM))
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            texts.append((await ws.run(QUERY, provider=provider_id)).text)
    return texts


def _body(sim: Simulator) -> str:
    (provider_id,) = sim.providers
    return STREAMS[provider_id]()


async def test_a_mark_leading_each_event_s_data_is_data(sim: Simulator) -> None:
    """Failed before on all three: the marked stream read as the plain one (its answer)."""
    body = _body(sim)
    plain, marked, joined = await _texts(
        sim, body, _data_led_by(body, BOM), _data_led_by(body, WORD_JOINER)
    )

    assert marked == joined
    assert marked != plain


async def test_a_mark_leading_the_first_event_s_data_is_data(sim: Simulator) -> None:
    """Failed before on all three: the one marked event was read as JSON."""
    body = _body(sim)
    marked, joined = await _texts(
        sim,
        _data_led_by(body, BOM, first_only=True),
        _data_led_by(body, WORD_JOINER, first_only=True),
    )

    assert marked == joined


async def test_a_mark_at_the_stream_s_start_is_dropped(sim: Simulator) -> None:
    """A guard (held before): WHATWG's decode drops one mark at the stream's start."""
    body = _body(sim)
    plain, marked = await _texts(sim, body, BOM + body)

    assert marked == plain
    assert "Error" not in plain


async def test_a_second_mark_at_the_stream_s_start_spoils_the_first_line(sim: Simulator) -> None:
    """A guard (held before): WHATWG drops one mark; a second leads the first line, whose
    field name it then is part of, so that line is ignored, as one named ``x-`` + its
    field would be."""
    body = _body(sim)
    twice, renamed = await _texts(sim, BOM + BOM + body, "x-" + body)

    assert twice == renamed


def _anthropic_reading(body: str) -> str:
    """What Anthropic's stream reader makes of ``body``: its message's id, or its refusal."""
    try:
        return str(message_from_stream(parse_sse(body.encode("utf-8")))["id"])
    except ResponseParseError as refused:
        return refused.message


def test_anthropic_s_reader_refuses_an_event_led_by_a_mark() -> None:
    """Failed before: the capture with a mark leading its first event's data was folded
    into the same message as the plain capture; ``JSON.parse`` refuses that event."""
    body = ANTHROPIC()
    marked = _data_led_by(body, BOM, first_only=True)

    assert _anthropic_reading(marked) == "Anthropic stream carried invalid JSON"
    assert _anthropic_reading(marked) == _anthropic_reading(
        _data_led_by(body, WORD_JOINER, first_only=True)
    )


def test_anthropic_s_reader_drops_the_stream_s_mark() -> None:
    """A guard (held before): a mark at the stream's start is the stream's, and dropped."""
    body = ANTHROPIC()

    assert _anthropic_reading(BOM + body) == _anthropic_reading(body)
    assert _anthropic_reading(body).startswith("msg_")


async def _exa_own_reply() -> str:
    """The simulator's own MCP reply to a keyless ``tools/call``, without its ``id``.

    The simulator answers this request's ``id`` (``"1"``), never the search's own; a reply
    with none answers any request (as Z.AI's envelope does), so the search reads it.
    """
    asked = {
        "jsonrpc": "2.0",
        "id": "1",
        "method": "tools/call",
        "params": {"name": "web_search_exa", "arguments": {"query": QUERY}},
    }
    headers = {"Accept": "application/json, text/event-stream"}
    async with Simulator(["exa"]) as sim, aiohttp.ClientSession() as session:
        url = f"{sim['exa'].base_url}/mcp?tools=web_search_exa"
        async with session.post(url, json=asked, headers=headers) as reply:
            return re.sub(r'"id": ?"1", ?', "", (await reply.read()).decode("utf-8"))


async def _exa_text(body: str) -> str:
    async with Simulator(["exa"]) as sim:
        sim["exa"].enqueue(Fault.http(200, body, STREAM))
        async with sim_client(sim, api_keys={}, rate_limit_wait_seconds=0, cache=False) as ws:
            return (await ws.run(QUERY, provider="exa")).text


@pytest.mark.parametrize(
    ("marked", "error"),
    [
        pytest.param(lambda reply: _data_led_by(reply, BOM), True, id="in-the-data"),
        pytest.param(lambda reply: BOM + reply, False, id="at-the-start"),
    ],
)
async def test_exa_s_mcp_reply_led_by_a_mark(marked: Callable[[str], str], error: bool) -> None:
    """In the data, failed before (the reply was read, its results answered); the same as
    a word joiner there now. At the stream's start, a guard: read as the plain reply."""
    reply = await _exa_own_reply()
    assert reply.startswith(("data:", "event:")) and '"jsonrpc"' in reply
    assert '"id"' not in reply
    plain = await _exa_text(reply)
    assert "Error" not in plain
    text = await _exa_text(marked(reply))

    if error:
        assert text == await _exa_text(_data_led_by(reply, WORD_JOINER))
        assert text != plain
    else:
        assert text == plain
