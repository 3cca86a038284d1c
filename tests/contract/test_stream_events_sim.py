"""The answer engines' real streams, served by the simulator, with one event's field changed.

``test_wrong_typed_fields.py`` changes a capture's fields over ``MockTransport``; this file
serves the captured streams themselves from the loopback simulator, so the transport's SSE
reader and the provider's whole call path run as they do against the network. The three
providers that stream in use (Codex, Gemini, Perplexity's chat completions) each get their
capture from ``../shared/fixtures`` (read there, not copied).

The sweep gives every field of one event of each kind and shape ``null``, a number, a list,
an object, or takes it away. Nothing may crash or hang; an answer keeps the text streamed
around the changed event (at most that event's own piece is gone); a refusal names the
field, except the one a stream's last chunk earns when it no longer says why generation
stopped: that chunk is then no different from a stream cut before it, and the spec's
cut-stream text is the right one. The other tests pin the two things the sweep found: a
closing event or finish reason of another type than a string read as a cut stream (the
answer already streamed thrown away), and events after a stream's end added to its answer.
"""

import asyncio
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final

import pytest

from tests.contract.conftest import contract_client, contract_clients
from tests.contract.hostile import read_body
from tests.contract.test_wrong_typed_fields import DELETE, _shape, _unnamed, field_paths, with_field
from websearch_core import AllProvidersFailedError, SearchProviderError, WebSearch
from websearch_core.errors import ResponseParseError
from websearch_core.format import format_for_llm
from websearch_core.models import SearchResponse
from websearch_core.providers._gemini_parse import STREAM_CUT as GEMINI_CUT
from websearch_core.providers._perplexity_parse import STREAM_FAILED
from websearch_core.sanitize import clean_response
from websearch_core.testing import Fault, Simulator

QUERY: Final = "python asyncio"
EVENT_STREAM: Final = {"Content-Type": "text/event-stream"}
CAPTURES: Final = {
    "codex": "openai/responses_web_search_tool_stream.sse",
    "gemini": "gemini/stream_generate_content_google_search.sse",
    "perplexity": "streamed/perplexity/chat_completions_sonar_citations_stream.chunks.txt",
}
"""Each streaming provider's real stream (Perplexity's chunks sent as the SSE they were)."""
FINISH_PATHS: Final = {
    "gemini": ("candidates", 0, "finishReason"),
    "perplexity": ("choices", 0, "finish_reason"),
}
"""Where the last chunk says why generation stopped; Codex closes with an event instead."""
CUT_TEXTS: Final = {
    "gemini": GEMINI_CUT,
    "perplexity": f"Perplexity API error (500): {STREAM_FAILED}",
}
WRONG: Final[dict[str, Any]] = {"number": 7, "list": ["x"], "object": {"k": "v"}}
"""A value of another type than a string, where the stream has a string."""
VARIANTS: Final[dict[str, Any]] = {"null": None, **WRONG, "missing": DELETE}
BOUND_SECONDS: Final = 30.0
"""A search not ended by then hangs (each takes milliseconds): a bound, not a timing."""


def _lines(provider_id: str) -> list[str]:
    return read_body(CAPTURES[provider_id]).decode("utf-8").splitlines(keepends=True)


def _data_lines(lines: list[str]) -> list[int]:
    return [number for number, line in enumerate(lines) if line.startswith("data:")]


def _event(line: str) -> Any:
    return json.loads(line.removeprefix("data:"))


def _changed(lines: list[str], number: int, path: tuple[Any, ...], value: Any) -> str:
    """The stream with the field at ``path`` of the event on line ``number`` set to ``value``."""
    line = lines[number]
    ending = line[len(line.rstrip("\r\n")) :]
    event = with_field(_event(line), path, value)
    changed = f"data: {json.dumps(event, ensure_ascii=True)}{ending}"
    return "".join([*lines[:number], changed, *lines[number + 1 :]])


async def _search(
    sim: Simulator,
    provider_id: str,
    tmp_path: Path,
    body: str,
    client: Callable[[], WebSearch] | None = None,
) -> Any:
    """The response to one search served ``body``, or the provider's failure.

    The search runs on a client of its own: ``client()`` (a sweep's, its settings made once)
    or :func:`contract_client`'s.
    """
    sim[provider_id].always(Fault.http(200, body, EVENT_STREAM))
    ws = contract_client(sim, provider_id, tmp_path) if client is None else client()
    async with ws:
        try:
            response = await asyncio.wait_for(ws.search(QUERY, provider=provider_id), BOUND_SECONDS)
        except AllProvidersFailedError as caught:
            failure = caught.failures[-1]
            assert isinstance(failure, SearchProviderError)
            return failure
    assert isinstance(response, SearchResponse)
    format_for_llm(clean_response(response, cap=10)).encode("utf-8")
    return response


def _one_piece_gone(whole: str, part: str) -> bool:
    """Whether ``part`` is ``whole`` with at most one stretch of it left out."""
    return len(part) <= len(whole) and any(
        whole.startswith(part[:cut]) and whole.endswith(part[cut:]) for cut in range(len(part) + 1)
    )


_MARKER: Final = re.compile(r"\[\d{1,4}\]")


def _unmarked(path: tuple[Any, ...], whole: str, part: str) -> tuple[str, str]:
    """``whole`` and ``part``, without their ``[n]`` markers when ``path`` is a citation's.

    Perplexity's markers number its ``citations``: an entry broken makes no source, and
    every marker is renumbered to the sources made (the entry's own go, stop 54 filters56),
    so a changed entry rightly touches every marker; the words must still all be there.
    """
    if path[:1] != ("citations",):
        return whole, part
    return _MARKER.sub("", whole), _MARKER.sub("", part)


def _swept_events(lines: list[str]) -> Iterator[int]:
    """One event of each kind and shape (the SSE name and data type kept apart)."""
    seen: set[Any] = set()
    for number in _data_lines(lines):
        event = _event(lines[number])
        name = lines[number - 1] if number and lines[number - 1].startswith("event:") else ""
        kind = (name, event.get("type") if isinstance(event, dict) else None, _shape(event))
        if kind not in seen:
            seen.add(kind)
            yield number


@pytest.fixture(params=sorted(CAPTURES))
def stream_provider(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
async def stream_sim(stream_provider: str) -> Any:
    async with Simulator([stream_provider]) as simulator:
        yield simulator


async def test_every_field_of_a_streamed_event_is_skipped_or_named(
    stream_sim: Simulator, stream_provider: str, tmp_path: Path
) -> None:
    lines = _lines(stream_provider)
    client = contract_clients(stream_sim, stream_provider, tmp_path)
    whole = await _search(stream_sim, stream_provider, tmp_path, "".join(lines), client)
    assert isinstance(whole, SearchResponse) and whole.answer
    last = _data_lines(lines)[-1]
    failures: list[str] = []
    for number in _swept_events(lines):
        for path in field_paths(_event(lines[number])):
            for name, value in VARIANTS.items():
                body = _changed(lines, number, path, value)
                outcome = await _search(stream_sim, stream_provider, tmp_path, body, client)
                where = f"line {number} {path!r} = {name}"
                if isinstance(outcome, SearchResponse):
                    if not outcome.answer or not _one_piece_gone(
                        *_unmarked(path, whole.answer, outcome.answer)
                    ):
                        failures.append(f"{where}: the text streamed around it lost")
                    continue
                finish = FINISH_PATHS.get(stream_provider, ())
                at_the_finish = number == last and finish[: len(path)] == path
                if at_the_finish and (name in ("null", "missing") or path != finish):
                    # The last chunk no longer says it finished: a cut stream, as spec'd.
                    if outcome.message != CUT_TEXTS[stream_provider]:
                        failures.append(f"{where}: {outcome.message!r}")
                elif not isinstance(outcome, ResponseParseError):
                    failures.append(f"{where}: refused, {type(outcome).__name__}")
                elif problem := _unnamed(outcome.message, path):
                    failures.append(f"{where}: {problem}")
    assert not failures, f"{len(failures)} breaches, first:\n" + "\n".join(failures[:15])


@pytest.mark.parametrize("name", sorted(WRONG))
async def test_a_closing_event_whose_type_is_not_a_string_still_closes(
    tmp_path: Path, name: str
) -> None:
    """Codex's ``response.completed`` with ``type`` a number was read as a cut stream.

    Its SSE ``event:`` line names it all the same (as it did when ``type`` was ``null``).
    """
    lines = _lines("codex")
    closing = next(n for n in _data_lines(lines) if '"response.completed"' in lines[n])
    async with Simulator(["codex"]) as sim:
        whole = await _search(sim, "codex", tmp_path, "".join(lines))
        body = _changed(lines, closing, ("type",), WRONG[name])
        changed = await _search(sim, "codex", tmp_path, body)
    assert isinstance(changed, SearchResponse), changed
    assert changed.answer == whole.answer and changed.answer


@pytest.mark.parametrize("name", sorted(WRONG))
@pytest.mark.parametrize("provider_id", sorted(FINISH_PATHS))
async def test_a_finish_reason_of_another_type_still_finishes(
    tmp_path: Path, provider_id: str, name: str
) -> None:
    """A last chunk whose finish reason is a number, list or object is not a cut stream."""
    lines = _lines(provider_id)
    last = _data_lines(lines)[-1]
    async with Simulator([provider_id]) as sim:
        whole = await _search(sim, provider_id, tmp_path, "".join(lines))
        body = _changed(lines, last, FINISH_PATHS[provider_id], WRONG[name])
        changed = await _search(sim, provider_id, tmp_path, body)
    assert isinstance(changed, SearchResponse), changed
    assert (changed.answer, changed.sources) == (whole.answer, whole.sources)


@pytest.mark.parametrize("name", ["null", "missing"])
@pytest.mark.parametrize("provider_id", sorted(FINISH_PATHS))
async def test_a_finish_reason_null_or_missing_is_still_a_cut_stream(
    tmp_path: Path, provider_id: str, name: str
) -> None:
    """A guard (passes before and after): a last chunk with no reason reads as a cut stream.

    Widening "names a finish reason" to other types must not widen it to no reason at all.
    """
    lines = _lines(provider_id)
    last = _data_lines(lines)[-1]
    async with Simulator([provider_id]) as sim:
        body = _changed(lines, last, FINISH_PATHS[provider_id], VARIANTS[name])
        changed = await _search(sim, provider_id, tmp_path, body)
    assert isinstance(changed, SearchProviderError)
    assert changed.message == CUT_TEXTS[provider_id]


def _after_the_end(provider_id: str, lines: list[str]) -> Iterator[tuple[str, str]]:
    """``(what, body)``: the capture with a real event of its own sent after its end."""
    data = _data_lines(lines)
    whole = "".join(lines)
    if provider_id == "codex":
        message = next(
            n for n in data if '"response.output_item.done"' in lines[n] and '"message"' in lines[n]
        )
        yield (
            "the message item after response.completed",
            whole + lines[message - 1] + lines[message] + "\n",
        )
        return
    middle = lines[data[len(data) // 2]]
    yield "a middle chunk after the finishing one", whole + middle + "\n"
    if provider_id == "perplexity":
        yield "a middle chunk after [DONE]", whole + "data: [DONE]\n\n" + middle + "\n"


@pytest.mark.parametrize("provider_id", sorted(CAPTURES))
async def test_events_after_the_end_are_not_the_answers(tmp_path: Path, provider_id: str) -> None:
    """A chunk replayed after the stream's end was added to the answer (Codex's doubled)."""
    lines = _lines(provider_id)
    async with Simulator([provider_id]) as sim:
        whole = await _search(sim, provider_id, tmp_path, "".join(lines))
        for what, body in _after_the_end(provider_id, lines):
            changed = await _search(sim, provider_id, tmp_path, body)
            assert isinstance(changed, SearchResponse), (what, changed)
            assert changed.answer == whole.answer, what
