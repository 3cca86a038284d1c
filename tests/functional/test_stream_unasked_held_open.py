"""A stream answering a request for one JSON object is refused at its first line.

Every provider that asks for one JSON object (Anthropic, xAI, Kimi, the search APIs)
refuses an event stream (a gateway streaming for it) by its first line, naming it
(``<frame>: an event stream ...``). But :meth:`~websearch_core.transport.Transport.send`
read the body to the socket's close first: a real stream served and then held open (a
proxy's keep-alive) left the search waiting for the deadline and failing as timed out,
its refusal known at the first line. The read of a body labelled ``text/event-stream``
now stops once its first line is an SSE field; a JSON body under that label is read whole.
A stream relabelled ``application/json`` (a gateway that streams and rewrites the label) is
told the same way (streams61): no JSON text starts with an SSE field (``data:``,
``event:``, ``id:``, ``retry:``) or comment (``:``), so a JSON-labelled body whose first
line is one is no JSON whatever follows. Any other label (a page) is read whole, unless
the request's ``Accept`` names JSON and nothing else (streams62): a stream sent with no
``Content-Type`` or as ``text/plain`` to such a request, then held open, waited for the
close; its server was told only JSON is read and its reader refuses anything else, so its
body is judged by its first line too. xAI and Tavily sent no ``Accept`` (aiohttp's ``*/*``)
and so still waited; they now ask for JSON as their own clients do (streams63). A request
that accepts anything (an HTML engine's, Synthetic's, or one with no ``Accept``) still reads
its body whole.

The streams are real captures, read from ``../shared/fixtures`` (never copied). The bound
is an event, not a clock: the refusal must come while the simulator still holds the
socket (``holding == 1``); the hold lets go by itself after
:data:`~tests.fault_release.HANG_GUARD_SECONDS`.
"""

from typing import Final

import pytest

from tests.conftest import read_capture
from tests.fault_release import HANG_GUARD_SECONDS
from tests.functional._sim_helpers import sim_client
from tests.stream_bodies import captured, framed_chunks
from websearch_core.testing import Fault, Simulator

QUERY: Final = "what is an event stream"
STREAM_REASON: Final = (
    "an event stream (text/event-stream), where the request asked for one JSON object and no stream"
)
FRAMES: Final = {
    "anthropic": "Anthropic API returned invalid JSON",
    "brave": "Brave API returned invalid JSON",
    "kimi": "Kimi API returned invalid JSON",
    "tavily": "Tavily API returned invalid JSON",
    "xai": "xAI Responses API returned invalid JSON",
}
"""Providers asking for one JSON object, with their invalid-JSON frame (the reference's)."""
ANTHROPIC: Final = captured("anthropic/messages_web_search_tool_stream.sse")
STREAM_LABEL: Final = "text/event-stream; charset=utf-8"
XAI: Final = framed_chunks("xai/responses_web_search_tool_stream.chunks.txt")
CASES: Final = [
    ("anthropic", STREAM_LABEL, ANTHROPIC),
    ("anthropic", STREAM_LABEL, captured("openai/responses_web_search_tool_stream.sse")),
    ("xai", STREAM_LABEL, XAI),
    ("brave", STREAM_LABEL, ANTHROPIC),
    ("kimi", STREAM_LABEL, ANTHROPIC),
    ("tavily", STREAM_LABEL, ANTHROPIC),
    ("anthropic", "application/json", ANTHROPIC),
    ("xai", "application/json; charset=utf-8", XAI),
    ("brave", "application/problem+json", ANTHROPIC),
]
"""Each provider's own real stream where one is captured (Anthropic's; xAI's chunks framed
as the ``data:`` events they came as), and another API's (a gateway joining the wrong
upstream), under the stream label and relabelled JSON (plain, with a charset, a ``+json``
one)."""


@pytest.mark.parametrize(
    ("provider", "content_type", "stream"),
    CASES,
    ids=[
        "anthropic-own",
        "anthropic-openai",
        "xai-own",
        "brave",
        "kimi",
        "tavily",
        "relabelled-anthropic",
        "relabelled-xai",
        "relabelled-brave-plus-json",
    ],
)
async def test_a_real_stream_held_open_is_refused_at_its_first_line(
    provider: str, content_type: str, stream: object
) -> None:
    """Failed before for each (``<label> request timed out``): the body was read on to
    the close, past the first line that refuses it (the JSON labels until streams61)."""
    assert callable(stream)
    head = f"HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\n\r\n".encode()
    async with Simulator([provider]) as sim:
        sim[provider].enqueue(Fault.stall(head + stream().encode(), seconds=HANG_GUARD_SECONDS))
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider=provider)
        assert sim[provider].holding == 1, "the refusal waited for the socket to close"
    assert result.is_error
    assert f"{FRAMES[provider]}: {STREAM_REASON}" in result.text, result.text


@pytest.mark.parametrize(
    ("provider", "label"),
    [
        ("anthropic", None),
        ("anthropic", "text/plain"),
        ("anthropic", "text/plain; charset=utf-8"),
        ("brave", "text/plain"),
        ("kimi", None),
        ("kimi", "application/octet-stream"),
        ("xai", None),
        ("xai", "text/plain"),
        ("tavily", None),
        ("tavily", "text/plain; charset=utf-8"),
    ],
    ids=[
        "anthropic-none",
        "anthropic-plain",
        "anthropic-charset",
        "brave",
        "kimi",
        "kimi-octet",
        "xai",
        "xai-plain",
        "tavily",
        "tavily-plain",
    ],
)
async def test_a_stream_with_no_json_label_held_open_is_refused_at_its_first_line(
    provider: str, label: str | None
) -> None:
    """Failed before streams62 for each (``<label> request timed out``): only a stream or
    JSON label was judged by its first line; these were read on to the close. Each of these
    providers sends ``Accept: application/json`` (xAI and Tavily since streams63: before,
    they sent none and timed out, as the two rows each of theirs did)."""
    header = f"Content-Type: {label}\r\n" if label else ""
    head = f"HTTP/1.1 200 OK\r\n{header}\r\n".encode()
    async with Simulator([provider]) as sim:
        sim[provider].enqueue(Fault.stall(head + ANTHROPIC().encode(), seconds=HANG_GUARD_SECONDS))
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider=provider)
        assert sim[provider].holding == 1, "the refusal waited for the socket to close"
        assert sim[provider].requests[-1].header("Accept") == "application/json"
    assert result.is_error
    assert f"{FRAMES[provider]}: {STREAM_REASON}" in result.text, result.text


async def test_guard_a_json_body_labelled_a_stream_is_read_whole() -> None:
    """A guard (passes before and after): a JSON body under the stream label is no
    stream by its first line, so it is read whole (its length ends it, the socket held
    after) and answered."""
    body = read_capture("brave/web_search_laravel_2024.json")
    head = (
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode()
    async with Simulator(["brave"]) as sim:
        sim["brave"].enqueue(Fault.stall(head + body, seconds=HANG_GUARD_SECONDS))
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="brave")
        assert sim["brave"].holding == 1, "the answer waited for the socket to close"
    assert not result.is_error, result.text
    assert result.response is not None and result.response.sources


async def test_guard_openrouters_stream_held_open_ends_at_its_end() -> None:
    """A guard (passes before and after; OpenRouter had no such test): Perplexity through
    OpenRouter is the same chat-completion stream, ended by the same marker: the real
    capture's chunks, held open after their ``chat.completion.done``, are answered."""
    body = framed_chunks("perplexity/chat_completions_sonar_citations_stream.chunks.txt")()
    assert '"chat.completion.done"' in body.rstrip().rsplit("\n\n", 1)[-1]
    head = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n"
    async with Simulator(["perplexity"]) as sim:
        sim["perplexity"].enqueue(Fault.stall(head + body.encode(), seconds=HANG_GUARD_SECONDS))
        async with sim_client(
            sim, api_keys={"openrouter": "or-key"}, rate_limit_wait_seconds=0, cache=False
        ) as ws:
            result = await ws.run(QUERY, provider="perplexity")
        assert sim["perplexity"].holding == 1, "the answer waited for the socket to close"
        assert sim["perplexity"].requests[-1].path.endswith("/api/v1/chat/completions")
    assert not result.is_error, result.text
    assert result.response is not None and result.response.sources


@pytest.mark.parametrize("label", ["Content-Type: application/json\r\n", ""], ids=["json", "none"])
async def test_guard_a_json_reply_held_open_after_its_length_is_answered(label: str) -> None:
    """A guard (passes before and after): a real JSON reply under its JSON label, or with
    no label to a request for JSON, is no stream by its first line, so it is read whole
    (its length ends it, the socket held after) and answered."""
    body = read_capture("brave/web_search_laravel_2024.json")
    raw = f"HTTP/1.1 200 OK\r\n{label}Content-Length: {len(body)}\r\n\r\n".encode() + body
    async with Simulator(["brave"]) as sim:
        sim["brave"].enqueue(Fault.stall(raw, seconds=HANG_GUARD_SECONDS))
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="brave")
        assert sim["brave"].holding == 1, "the answer waited for the socket to close"
    assert not result.is_error, result.text
    assert result.response is not None and result.response.sources


@pytest.mark.parametrize("label", ["Content-Type: text/html\r\n", ""], ids=["html", "none"])
async def test_guard_a_page_starting_like_a_field_is_read_to_its_close(label: str) -> None:
    """A guard (passes before and after): an HTML engine accepts pages, so its page,
    labelled or not, is read whole whatever its first line, as a page may say anything
    (here a line ``data: ...`` before the real page, which Mojeek still parses)."""
    page = read_capture("mojeek/serp_javascript_tutorial_2026.html")
    head = f"HTTP/1.1 200 OK\r\n{label}Connection: close\r\n\r\n".encode()
    raw = head + b"data: not a stream\n" + page
    async with Simulator(["mojeek"]) as sim:
        sim["mojeek"].enqueue(Fault.not_http(raw))
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run(QUERY, provider="mojeek")
        assert "application/json" not in (sim["mojeek"].requests[-1].header("Accept") or "")
    assert not result.is_error, result.text
    assert result.response is not None and result.response.sources
