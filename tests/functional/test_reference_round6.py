"""Outputs against the reference, round 6: JSON's words, Kagi's 2xx error, Z.AI, Anthropic.

1. ``NaN``, ``Infinity`` and ``-Infinity`` are no JSON to ``JSON.parse``, the reference's
   reader of every body and every event's data; ``json.loads`` and jiter read them by
   default, so a body holding one answered here where the reference reports invalid JSON.
   A body (Kagi's, Tavily's, Jina's real captures with one word put in) and an event
   stream (Codex's, Gemini's, Perplexity's real streams) now read exactly as the same
   body with ``Nan`` there, a word neither decoder reads.
2. Kagi's 2xx check reads the body as the reference's ``extractKagiErrorMessage``: the
   top-level ``message`` / ``detail`` first, then the entries; ``errors`` not beside an
   ``error`` list.
3. Z.AI's ``{"success": false}`` envelope writes a code in parentheses only when it is a
   number (``typeof code === "number"`` in oh-my-pi's ``zai.ts``): ``"1113"`` is left out.
4. Anthropic's stream error writes a non-string ``message`` as JavaScript's template
   literal does (``String``), not Python's ``str``.

Bodies are served by the loopback simulator and read through ``WebSearch``; captures are
read from ``../shared/fixtures``. Anthropic's stream reader is read directly: the provider
asks for JSON and never streams, so no search reaches it.
"""

import json
import re
import time
from typing import Any, Final

import pytest

from tests.conftest import read_capture
from tests.fault_release import HANG_GUARD_SECONDS
from tests.functional._sim_helpers import failure_after, sim_client
from tests.stream_bodies import captured, framed_chunks
from websearch_core.credentials import CredentialStore, OAuthToken
from websearch_core.errors import QuotaExhaustedError, SearchProviderError
from websearch_core.providers.anthropic import message_from_stream
from websearch_core.sse import parse_sse
from websearch_core.testing import Fault, Simulator

JSON: Final = {"Content-Type": "application/json"}
STREAM: Final = {"Content-Type": "text/event-stream"}
WORDS: Final = ("NaN", "Infinity", "-Infinity")
NOT_A_WORD: Final = "Nan"
"""Refused by ``json.loads``, jiter and ``JSON.parse`` alike: what the three must read as."""

BODIES: Final = {
    "kagi": "kagi/v0_search_doc_example_steve_jobs_2024.json",
    "tavily": "tavily/search_basic_pydantic_ai.json",
    "jina": "jina/s_jina_ai_search_doc_example.json",
}
"""A real body of each provider that reads one with ``response_json``."""


def _with_word(body: str, word: str) -> str:
    """``body`` with ``"x": <word>`` put first in its top-level object."""
    place = body.index("{") + 1
    return f'{body[:place]}"x": {word}, {body[place:]}'


async def _text(provider: str, body: str, headers: dict[str, str]) -> str:
    async with Simulator([provider]) as sim:
        if provider == "codex":
            CredentialStore(sim.settings().resolved_credentials_file()).set_oauth(
                "codex", OAuthToken(access_token="sim-token", expires_at=time.time() + 3600)
            )
        sim[provider].always(Fault.http(200, body, headers))
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            return (await ws.run("steve jobs", provider=provider)).text


@pytest.mark.parametrize("word", WORDS)
@pytest.mark.parametrize("provider", sorted(BODIES))
async def test_a_body_holding_a_word_json_parse_refuses_is_invalid_json(
    provider: str, word: str
) -> None:
    """Failed before (all nine): the body was read and its sources answered."""
    body = read_capture(BODIES[provider]).decode("utf-8")

    text = await _text(provider, _with_word(body, word), JSON)

    assert text == await _text(provider, _with_word(body, NOT_A_WORD), JSON)
    assert text.startswith("Error: ") and "invalid" in text, text


async def test_guard_the_words_as_text_and_a_huge_number_still_read() -> None:
    """A guard (held before): ``"NaN"`` in a string is text, and ``1e400`` is a number
    (``JSON.parse`` gives ``Infinity`` for it too): the body answers as without them."""
    body = read_capture(BODIES["kagi"]).decode("utf-8")
    plain = await _text("kagi", body, JSON)

    text = await _text("kagi", _with_word(_with_word(body, '"NaN -Infinity"'), "1e400"), JSON)

    assert text == plain
    assert "Steve Jobs" in text


STREAMS: Final = {
    "codex": captured("openai/responses_web_search_tool_stream.sse"),
    "gemini": captured("gemini/stream_generate_content_google_search.sse"),
    "perplexity": framed_chunks("perplexity/chat_completions_sonar_citations_stream.chunks.txt"),
}
"""A real stream of each provider that reads one, each event's data read as JSON."""


def _each_event_with(body: str, word: str) -> str:
    """``body`` with ``"x": <word>`` put first in each event's JSON object."""
    return re.sub(r"(?m)^(data: ?)\{", lambda found: f'{found.group(1)}{{"x": {word}, ', body)


@pytest.mark.parametrize("word", WORDS)
@pytest.mark.parametrize("provider", sorted(STREAMS))
async def test_an_event_holding_a_word_json_parse_refuses_is_no_json(
    provider: str, word: str, no_gemini_variables: None
) -> None:
    """Failed before (all nine): each event was read and the stream answered."""
    body = STREAMS[provider]()
    assert body.count('{"x": ') == 0

    text = await _text(provider, _each_event_with(body, word), STREAM)

    assert text == await _text(provider, _each_event_with(body, NOT_A_WORD), STREAM)
    assert text != await _text(provider, body, STREAM)


def _anthropic_reading(body: str) -> str:
    try:
        return str(message_from_stream(parse_sse(body.encode("utf-8")))["id"])
    except SearchProviderError as refused:
        return refused.message


def test_anthropic_s_reader_refuses_an_event_holding_a_word() -> None:
    """Failed before: the capture with ``NaN`` in each event folded into its message."""
    body = captured("anthropic/messages_web_search_tool_stream.sse")()

    assert _anthropic_reading(body).startswith("msg_")
    for word in WORDS:
        reading = _anthropic_reading(_each_event_with(body, word))
        assert reading == "Anthropic stream carried invalid JSON", word


async def _kagi_failure(body: dict[str, Any]) -> SearchProviderError:
    async with Simulator(["kagi"]) as sim:
        fault = Fault.http(200, json.dumps(body), JSON)
        return await failure_after(sim, "kagi", "kagi 2xx", fault, always=True, cache=False)


@pytest.mark.parametrize(
    ("body", "text"),
    [
        pytest.param(
            {"message": "Search failed", "error": [{"code": 5, "msg": "internal"}]},
            "Kagi API error (5): Search failed",
            id="message-first",
        ),
        pytest.param(
            {"detail": "Bad query", "error": [{"code": 1, "location": "query"}]},
            "Kagi API error (1): Bad query",
            id="detail-beside-an-entry-without-words",
        ),
        pytest.param(
            {"message": "  Query refused ", "error": "unused"},
            "Kagi API error (200): Query refused",
            id="message-beside-a-string",
        ),
    ],
)
async def test_kagi_s_2xx_error_is_told_by_its_top_level_message_first(
    body: dict[str, Any], text: str
) -> None:
    """Failed before: the entries' words were the message (``internal``, ``unused``, and
    for an entry without words its code: ``Kagi API error (1): 1``); the reference reads
    ``message`` / ``detail`` first."""
    failure = await _kagi_failure({"data": None, **body})

    assert failure.message == text


async def test_kagi_reads_no_errors_beside_an_error_list() -> None:
    """Failed before (``errors``' words made it an error): beside an ``error`` list the
    reference reads no ``errors``, so a list without words reports nothing and the
    body reads as its ``data``."""
    body = {
        "error": [{"location": "query"}],
        "errors": [{"msg": "Bad query"}],
        "data": {"search": [{"url": "https://a.example/", "title": "A"}]},
    }
    async with Simulator(["kagi"]) as sim:
        sim["kagi"].always(Fault.http(200, json.dumps(body), JSON))
        async with sim_client(sim, cache=False) as ws:
            response = await ws.search("errors", provider="kagi")

    assert [source.url for source in response.sources] == ["https://a.example/"]


@pytest.mark.parametrize(
    ("body", "text"),
    [
        pytest.param({"errors": [{"msg": "Bad query"}]}, "Kagi API error (200): Bad query"),
        pytest.param({"error": [{"code": 2, "msg": "Bad key"}]}, "Kagi API error (2): Bad key"),
    ],
)
async def test_guard_kagi_s_entries_without_a_top_level_message(
    body: dict[str, Any], text: str
) -> None:
    """Guards (held before): without a top-level message the entries tell the error,
    ``errors`` too when no ``error`` list stands beside it."""
    failure = await _kagi_failure({"data": None, **body})

    assert failure.message == text


async def _zai_failure(message: dict[str, Any]) -> SearchProviderError:
    body = f"event: message\ndata: {json.dumps(message)}\n\n"
    async with Simulator(["zai"]) as sim:
        fault = Fault.http(200, body, STREAM)
        return await failure_after(sim, "zai", "zai", None, None, fault, fault, fault)


async def test_zai_s_envelope_leaves_a_code_in_text_out() -> None:
    """Failed before: ``Z.AI API error (1113): ...``. The code still types the failure
    (1113 is Z.AI's spent balance), as before."""
    failure = await _zai_failure({"success": False, "code": "1113", "msg": "Insufficient"})

    assert failure.message == "Z.AI API error: Insufficient"
    assert isinstance(failure, QuotaExhaustedError)


async def test_guard_zai_s_envelope_shows_a_numeric_code() -> None:
    """A guard (held before): a number is shown, and types the failure alike."""
    failure = await _zai_failure({"success": False, "code": 1113, "msg": "Insufficient"})

    assert failure.message == "Z.AI API error (1113): Insufficient"
    assert isinstance(failure, QuotaExhaustedError)


def _anthropic_error(error: dict[str, Any]) -> str:
    body = f"event: error\ndata: {json.dumps({'type': 'error', 'error': error})}\n\n"
    return _anthropic_reading(body)


@pytest.mark.parametrize(
    ("message", "shown"),
    [
        pytest.param(True, "true", id="true"),
        pytest.param(429.0, "429", id="429.0"),
        pytest.param({"k": "v"}, "[object Object]", id="object"),
        pytest.param(["a", "b"], "a,b", id="array"),
        pytest.param({}, "[object Object]", id="empty-object"),
    ],
)
def test_anthropic_s_stream_error_writes_its_message_as_javascript(
    message: Any, shown: str
) -> None:
    """Failed before: ``True``, ``429.0``, ``{'k': 'v'}``, ``['a', 'b']``, and ``{}``
    taken for no message (``api_error: api_error``), where JavaScript finds it truthy."""
    text = _anthropic_error({"type": "api_error", "message": message})

    assert text == f"Anthropic API error (500): api_error: {shown}"


def test_guard_anthropic_s_stream_error_with_text_or_none() -> None:
    """Guards (held before): a text message as sent; none, ``null`` or ``""`` gives the
    kind, and a missing kind ``api_error``."""
    assert _anthropic_error({"type": "overloaded_error", "message": "busy"}) == (
        "Anthropic API error (529): overloaded_error: busy"
    )
    for missing in ({}, {"message": None}, {"message": ""}):
        assert _anthropic_error({"type": "rate_limit_error", **missing}) == (
            "Anthropic API error (429): rate_limit_error: rate_limit_error"
        )
    assert _anthropic_error({}) == "Anthropic API error (500): api_error: api_error"


async def test_a_closing_event_holding_a_word_still_ends_a_stream_held_open() -> None:
    """Failed before: on main the event was read and answered; with the words refused and
    no more, the closing event was no longer told as one and the search waited for the
    socket to close. Where a stream ends is read with the words (that is all it says);
    the reader then refuses the event, at once."""
    body = framed_chunks("perplexity/chat_completions_sonar_citations_stream.chunks.txt")()
    place = body.rindex('data: {"') + len("data: {")
    closing = f'{body[:place]}"x": NaN, {body[place:]}'
    assert '"chat.completion.done"' in closing[place:]
    head = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n"
    held = Fault.stall(head + closing.encode("utf-8"), seconds=HANG_GUARD_SECONDS)
    async with Simulator(["perplexity"]) as sim:
        sim["perplexity"].enqueue(held)
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            result = await ws.run("population of san francisco", provider="perplexity")
        assert sim["perplexity"].holding == 1, "the answer waited for the socket to close"
    assert result.is_error, result.text
    assert "timed out" not in result.text, result.text
