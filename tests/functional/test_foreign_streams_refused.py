"""Every stream reader refuses another API's stream in one text naming both APIs.

A base URL or gateway pointed at the wrong service serves a stream of another API: an
OpenAI Responses stream where Anthropic's Messages stream is read, Gemini's chunks where
Perplexity's chat chunks are. Each reader refused it in its own words, none naming it:
``Codex request failed: the stream ended before the response was completed``,
``Perplexity API error (500): Perplexity API stream failed``, ``Perplexity ask API stream
ended before its final event``, ``Gemini API stream ended before its last chunk``,
``Failed to parse Z.AI MCP response``, ``Anthropic stream had no message_start event``;
xAI's fold returned an empty response. Now each keeps its own frame and adds the one
reason worded in ``websearch_core.stream_apis``: ``another API's event stream: <API>
events (<types seen>) where <API> events were expected``.

The streams are the real captures, read from ``../shared/fixtures`` (never copied), served
by the loopback simulator to every reader but their own; Perplexity's and xAI's recorders
kept the chunks one a line with ``data:`` stripped, so those are framed again as events.
The five readers in a search path are driven by a search; the Anthropic and xAI folds
(public, for a gateway that streams) read the body the simulator served.
"""

import json
import re
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, Final

import aiohttp
import pytest

from tests.conftest import read_capture
from tests.fault_release import HANG_GUARD_SECONDS
from tests.functional._sim_helpers import sim_client
from tests.stream_bodies import captured, framed_chunks
from websearch_core.credentials import CredentialStore, OAuthToken
from websearch_core.errors import ResponseParseError
from websearch_core.providers.anthropic import message_from_stream
from websearch_core.providers.xai import response_from_events
from websearch_core.sse import parse_sse
from websearch_core.testing import Fault, Simulator

QUERY: Final = "what is an event stream"
STREAM_LABEL: Final = {"Content-Type": "text/event-stream"}
REASON: Final = "another API's event stream: "


@dataclass(frozen=True)
class Capture:
    """A real stream and the API it is."""

    api: str
    body: Callable[[], str]


CAPTURES: Final = {
    "openai": Capture("OpenAI Responses", captured("openai/responses_web_search_tool_stream.sse")),
    "xai": Capture(
        "OpenAI Responses", framed_chunks("xai/responses_web_search_tool_stream.chunks.txt")
    ),
    "anthropic": Capture(
        "Anthropic Messages", captured("anthropic/messages_web_search_tool_stream.sse")
    ),
    "zai": Capture(
        "Anthropic Messages",
        captured("zai/anthropic_compat_messages_stream_web_search_prime_2026-10.sse"),
    ),
    "gemini": Capture(
        "Gemini generateContent", captured("gemini/stream_generate_content_google_search.sse")
    ),
    "perplexity": Capture(
        "Chat Completions",
        framed_chunks("perplexity/chat_completions_sonar_citations_stream.chunks.txt"),
    ),
}
"""Every real stream in the fixtures, by the API it speaks (xAI's speaks Responses)."""


@dataclass(frozen=True)
class Reader:
    """A stream reader: the API it reads and its own frame for a reply it can not read."""

    api: str
    frame: str


READERS: Final = {
    "codex": Reader("OpenAI Responses", "Codex API returned an unexpected response shape"),
    "perplexity": Reader("Chat Completions", "Perplexity API returned an unexpected body"),
    "perplexity-ask": Reader("Perplexity ask", "Perplexity ask API returned an unexpected stream"),
    "gemini": Reader(
        "Gemini generateContent", "Gemini API returned a stream with no readable chunk"
    ),
    "zai": Reader("MCP JSON-RPC", "Failed to parse Z.AI MCP response"),
    "anthropic-fold": Reader("Anthropic Messages", "Anthropic stream had no message_start event"),
    "xai-fold": Reader("OpenAI Responses", "xAI Responses API returned an unexpected shape"),
}
FOREIGN: Final = [
    (reader, capture)
    for reader in READERS
    for capture in CAPTURES
    if CAPTURES[capture].api != READERS[reader].api
]
NATIVE: Final = [
    (reader, capture)
    for reader in READERS
    for capture in CAPTURES
    if CAPTURES[capture].api == READERS[reader].api
]


def _first_type(body: str) -> str:
    """The first event's type as the capture writes it: ``type``, ``object`` or first key."""
    first = json.loads(parse_sse(body.encode())[0].data)
    for key in ("type", "object"):
        if isinstance(first.get(key), str):
            return str(first[key])
    return "{" + next(iter(first)) + "}"


@pytest.fixture
async def network(no_gemini_variables: None) -> AsyncIterator[Simulator]:
    """All the readers' providers on one simulator, Codex signed in."""
    async with Simulator(["codex", "perplexity", "gemini", "zai", "anthropic", "xai"]) as sim:
        CredentialStore(sim.settings().resolved_credentials_file()).set_oauth(
            "codex", OAuthToken(access_token="sim-token", expires_at=time.time() + 3600)
        )
        yield sim


async def _searched(sim: Simulator, reader: str, body: str) -> str:
    """What a search through ``reader``'s provider gives for ``body``: its error text."""
    provider = reader.removesuffix("-ask")
    keys = {} if reader == "perplexity-ask" else sim.api_keys()
    sim[provider].enqueue(Fault.http(200, body, STREAM_LABEL))
    async with sim_client(sim, api_keys=keys, rate_limit_wait_seconds=0, cache=False) as ws:
        result = await ws.run(QUERY, provider=provider)
    assert result.is_error, result.text
    return result.text


async def _folded(sim: Simulator, reader: str, body: str) -> Any:
    """The Anthropic or xAI fold of ``body`` as the simulator served it."""
    provider = reader.removesuffix("-fold")
    sim[provider].enqueue(Fault.http(200, body, STREAM_LABEL))
    path = "/v1/messages" if provider == "anthropic" else "/v1/responses"
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{sim[provider].base_url}{path}", json={"stream": True}) as reply,
    ):
        raw = await reply.read()
    events = parse_sse(raw)
    if provider == "anthropic":
        return message_from_stream(events)
    return response_from_events(json.loads(event.data) for event in events)


async def _refusal(sim: Simulator, reader: str, body: str) -> str:
    if reader.endswith("-fold"):
        with pytest.raises(ResponseParseError) as caught:
            await _folded(sim, reader, body)
        return caught.value.message
    return await _searched(sim, reader, body)


@pytest.mark.parametrize(("reader", "capture"), FOREIGN)
async def test_a_stream_of_another_api_is_refused_naming_both(
    network: Simulator, reader: str, capture: str
) -> None:
    """Failed before for all 34 pairs: each reader's own words, none naming the stream.

    The refusal is the reader's frame, then the one reason: the API that arrived with the
    event types seen (the capture's first among them) and the API the reader expected.
    """
    body = CAPTURES[capture].body()
    text = await _refusal(network, reader, body)
    expected, arrived = READERS[reader], CAPTURES[capture]
    head = f"{expected.frame}: {REASON}{arrived.api} events ({_first_type(body)}"
    assert head in text
    assert text.rstrip().endswith(f" where {expected.api} events were expected")


@pytest.mark.parametrize(("reader", "capture"), NATIVE)
async def test_a_stream_of_the_readers_own_api_is_not_refused_as_foreign(
    network: Simulator, reader: str, capture: str
) -> None:
    """A guard (passes before and after): each real stream of a reader's own API reads."""
    body = CAPTURES[capture].body()
    if reader.endswith("-fold"):
        folded = await _folded(network, reader, body)
        assert folded.get("content") or folded.get("output")
        return
    provider = reader.removesuffix("-ask")
    network[provider].enqueue(Fault.http(200, body, STREAM_LABEL))
    async with sim_client(network, rate_limit_wait_seconds=0, cache=False) as ws:
        result = await ws.run(QUERY, provider=provider)
    assert not result.is_error, result.text


async def test_a_chat_stream_ending_in_done_is_refused_by_the_anthropic_fold_as_foreign(
    network: Simulator,
) -> None:
    """Failed before: ``Anthropic stream carried invalid JSON``, for the ``data: [DONE]``
    that ends a Chat Completions stream (the recorder of the real capture dropped it; the
    simulator's Perplexity stream sends it, as the API's reference shows), which named
    neither stream."""
    url = f"{network['perplexity'].base_url}/chat/completions"
    asked = {"model": "sonar", "stream": True, "messages": [{"role": "user", "content": QUERY}]}
    headers = {"Authorization": f"Bearer {network.api_keys()['perplexity']}"}
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, json=asked, headers=headers) as reply,
    ):
        body = (await reply.read()).decode("utf-8")
    assert body.rstrip().endswith("data: [DONE]")
    text = await _refusal(network, "anthropic-fold", body)
    assert text.startswith(f"{READERS['anthropic-fold'].frame}: {REASON}Chat Completions events")


async def test_guard_a_plain_json_answer_of_another_api_keeps_zais_spec_text(
    network: Simulator,
) -> None:
    """A guard (passes before and after): one JSON object of another API (a real chat
    completion, not a stream) is refused by Z.AI's MCP reader with the spec's text alone."""
    body = read_capture("perplexity/chat_completions_sonar_citations.json").decode("utf-8")
    network["zai"].enqueue(Fault.http(200, body, {"Content-Type": "application/json"}))
    async with sim_client(network, rate_limit_wait_seconds=0, cache=False) as ws:
        result = await ws.run(QUERY, provider="zai")
    assert result.is_error
    assert result.text.rstrip().endswith(READERS["zai"].frame), result.text


# --- another API's events mixed into a reader's own stream ----------------------------------

OWN: Final = {
    "codex": ("openai", "xai"),
    "perplexity": ("perplexity",),
    "gemini": ("gemini",),
    "anthropic-fold": ("anthropic", "zai"),
    "xai-fold": ("openai", "xai"),
}
"""The readers with a real stream of their own API, and those streams."""
MIXED: Final = [
    (reader, own, foreign)
    for reader, owns in OWN.items()
    for own in owns
    for foreign in CAPTURES
    if CAPTURES[foreign].api != READERS[reader].api
]
_BLANK_LINE: Final = re.compile(r"\r?\n\r?\n")


def _blocks(body: str) -> list[str]:
    """A stream's events as written, one block each (its lines, no blank line)."""
    return [block for block in _BLANK_LINE.split(body) if block.strip()]


def _mixed(own: str, foreign: str) -> str:
    """``own``'s first event, ``foreign``'s first two, then the rest of ``own``: a gateway
    that joined two upstreams' streams."""
    mine, theirs = _blocks(own), _blocks(foreign)
    return "".join(f"{block}\n\n" for block in [mine[0], *theirs[:2], *mine[1:]])


async def _ask_body(sim: Simulator) -> str:
    """The simulator's own ask stream (no capture of the ask endpoint is stored)."""
    asked = {"query_str": QUERY, "params": {"send_back_text_in_streaming_api": True}}
    url = f"{sim['perplexity'].base_url}/rest/sse/perplexity_ask"
    async with aiohttp.ClientSession() as session, session.post(url, json=asked) as reply:
        return (await reply.read()).decode("utf-8")


def _refused_as_mixed(text: str, reader: str, foreign: str) -> None:
    expected, arrived = READERS[reader], CAPTURES[foreign]
    body = CAPTURES[foreign].body()
    head = f"{expected.frame}: {REASON}{arrived.api} events ({_first_type(body)}"
    assert head in text, text
    assert text.rstrip().endswith(f" where {expected.api} events were expected"), text


@pytest.mark.parametrize(("reader", "own", "foreign"), MIXED)
async def test_another_apis_events_mixed_into_a_readers_own_stream_are_refused(
    network: Simulator, reader: str, own: str, foreign: str
) -> None:
    """Failed before for all 34: the reader's own events were read and the other API's
    passed over unnamed (an answer, or a fold of both). No real stream mixes two APIs
    (each capture's events are its own API's alone), so the one refusal names it; the
    types listed are the other API's only."""
    body = _mixed(CAPTURES[own].body(), CAPTURES[foreign].body())
    text = await _refusal(network, reader, body)
    _refused_as_mixed(text, reader, foreign)
    for kind in {_first_type(CAPTURES[own].body())} - {_first_type(CAPTURES[foreign].body())}:
        assert f"{kind}," not in text and f"{kind})" not in text


@pytest.mark.parametrize("foreign", list(CAPTURES))
async def test_another_apis_events_mixed_into_the_ask_stream_are_refused(
    network: Simulator, foreign: str
) -> None:
    """Failed before for all 6: the ask mode folded the other API's events into its
    snapshots and answered (no ask capture is stored: the simulator's own stream)."""
    body = _mixed(await _ask_body(network), CAPTURES[foreign].body())
    text = await _refusal(network, "perplexity-ask", body)
    _refused_as_mixed(text, "perplexity-ask", foreign)


# --- Exa's keyless MCP reader --------------------------------------------------------------

EXA_FRAME: Final = "Failed to parse MCP response"
EXA_EXPECTS: Final = "MCP JSON-RPC"


async def _exa_says(body: str, label: str = "text/event-stream") -> str:
    """What a keyless Exa search gives when the MCP endpoint answers ``body``."""
    async with Simulator(["exa"]) as sim:
        sim["exa"].enqueue(Fault.http(200, body, {"Content-Type": label}))
        async with sim_client(sim, api_keys={}, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="exa")
    assert result.is_error, result.text
    return result.text


async def _exa_own_reply() -> str:
    """The simulator's own MCP reply to a keyless ``tools/call`` (no MCP capture is stored)."""
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
            return (await reply.read()).decode("utf-8")


@pytest.mark.parametrize("capture", list(CAPTURES))
async def test_exas_mcp_reader_names_a_stream_of_another_api(capture: str) -> None:
    """Failed before for all 6: ``Exa MCP search returned unexpected response shape.``,
    naming neither the stream nor the API; now the parse failure, then the one reason."""
    body = CAPTURES[capture].body()
    text = await _exa_says(body)
    head = f"{EXA_FRAME}: {REASON}{CAPTURES[capture].api} events ({_first_type(body)}"
    assert head in text, text
    assert text.rstrip().endswith(f" where {EXA_EXPECTS} events were expected"), text


@pytest.mark.parametrize("capture", list(CAPTURES))
async def test_exas_mcp_reader_names_another_apis_events_before_its_reply(capture: str) -> None:
    """A guard (passes before and after): another API's events ahead of the reply,
    inside the stream, are named. (Streams57
    tested them after the reply; the stream now ends at its reply, as MCP's does
    (``stream_ends.MCP_REPLY_END``), so what follows is no longer read: see
    ``test_exas_mcp_reader_stops_at_its_reply``.)"""
    own = await _exa_own_reply()
    assert own.startswith(("data:", "event:")) and '"jsonrpc"' in own
    body = "".join(f"{block}\n\n" for block in [*_blocks(CAPTURES[capture].body()), *_blocks(own)])
    text = await _exa_says(body)
    assert f"{EXA_FRAME}: {REASON}{CAPTURES[capture].api} events (" in text, text


async def test_exas_mcp_reader_stops_at_its_reply() -> None:
    """Failed before (refused as a mixed stream): the JSON-RPC reply closes an MCP
    stream, so another API's events after it are not read, as the transport drops what
    follows any stream's closing event; the reply is the answer. The reply is the
    simulator's own to this request (a recorded one answers another request's ``id``,
    which no longer ends the stream)."""
    foreign = "".join(f"{block}\n\n" for block in _blocks(CAPTURES["openai"].body()))
    held = Fault.held_open(after=foreign.encode(), framing="declared", seconds=HANG_GUARD_SECONDS)
    async with Simulator(["exa"]) as sim:
        sim["exa"].enqueue(held)
        async with sim_client(sim, api_keys={}, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="exa")
    assert not result.is_error, result.text
    assert result.response is not None and result.response.sources


async def test_guard_exas_mcp_reader_keeps_its_spec_text_for_one_json_object() -> None:
    """A guard (passes before and after): one JSON object of another API (a real chat
    completion, no stream) names no API by its events: the spec's shape text alone."""
    body = read_capture("perplexity/chat_completions_sonar_citations.json").decode("utf-8")
    text = await _exa_says(body, "application/json")
    assert text.rstrip().endswith("Exa MCP search returned unexpected response shape."), text
