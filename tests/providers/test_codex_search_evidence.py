"""What counts as proof that Codex searched: the documented events and items, nothing near them.

Codex refuses an answer given without a web search (the spec's ``Codex returned a
completion without running web search ...``). The proof is a ``web_search_call`` output
item or an event under ``response.web_search_call``; the real capture carries both, so the
mutation audit's one survivor (stop 50, audit50) was the event prefix widened to
``response.web_search``: no real event tells the two apart. These tests take the capture
from ``../shared/fixtures`` (read there, not copied) with its search evidence removed, then
add back one event at a time.

A guard (each passes before and after; each fails with the prefix widened): the event
:data:`OURS` is **ours, not OpenAI's**. No service is known to send it; it stands for any
event the Responses documentation does not list whose name merely begins like a search's.
It proves the rule "an unlisted event is no proof of a search", not a fact of the wire.
"""

import json
from typing import Any, Final

import pytest

from tests.conftest import read_capture
from websearch_core.providers._codex_parse import NoWebSearchError, parse_stream
from websearch_core.sse import SseEvent, parse_sse

CAPTURE: Final = "openai/responses_web_search_tool_stream.sse"
SEARCH_EVENT: Final = "response.web_search_call."
OURS: Final = "response.web_search_preview.completed"
"""An invented event name (see the module docstring): not in the capture or OpenAI's list."""


def _is_search(payload: Any) -> bool:
    item = payload.get("item") if isinstance(payload, dict) else None
    kind = payload.get("type", "") if isinstance(payload, dict) else ""
    return kind.startswith(SEARCH_EVENT) or (
        isinstance(item, dict) and item.get("type") == "web_search_call"
    )


def _without_search(events: list[SseEvent]) -> list[SseEvent]:
    """The capture's events less every search event and item (the closing output too)."""
    kept: list[SseEvent] = []
    for event in events:
        payload = json.loads(event.data)
        if _is_search(payload):
            continue
        response = payload.get("response")
        if isinstance(response, dict) and isinstance(response.get("output"), list):
            output = [i for i in response["output"] if i.get("type") != "web_search_call"]
            payload = {**payload, "response": {**response, "output": output}}
        kept.append(SseEvent(data=json.dumps(payload), event=event.event))
    return kept


def _event(name: str, events: list[SseEvent]) -> SseEvent:
    """An event of the capture's own kind renamed ``name`` (its item id kept)."""
    real = next(e for e in events if json.loads(e.data).get("type", "").startswith(SEARCH_EVENT))
    payload = {**json.loads(real.data), "type": name}
    return SseEvent(data=json.dumps(payload), event=name)


@pytest.fixture
def events() -> list[SseEvent]:
    return parse_sse(read_capture(CAPTURE))


def test_the_capture_without_its_search_is_refused(events: list[SseEvent]) -> None:
    """A guard: the evidence removed is all the capture's evidence."""
    with pytest.raises(NoWebSearchError):
        parse_stream(_without_search(events))


def test_a_search_event_alone_is_proof(events: list[SseEvent]) -> None:
    """A guard: the real ``response.web_search_call.completed``, with no item, suffices."""
    stripped = _without_search(events)
    response = parse_stream(
        [stripped[0], _event(f"{SEARCH_EVENT}completed", events), *stripped[1:]]
    )
    assert response.answer


def test_an_unlisted_event_named_like_a_search_is_no_proof(events: list[SseEvent]) -> None:
    """A guard over our invented :data:`OURS`: it must not turn the refusal into an answer."""
    stripped = _without_search(events)
    with pytest.raises(NoWebSearchError):
        parse_stream([stripped[0], _event(OURS, events), *stripped[1:]])


def _real_search_events(events: list[SseEvent]) -> list[SseEvent]:
    """The capture's own ``response.web_search_call.*`` events, as captured."""
    return [e for e in events if json.loads(e.data).get("type", "").startswith(SEARCH_EVENT)]


def test_the_capture_holds_three_search_event_types(events: list[SseEvent]) -> None:
    """A guard: the only search events of any capture (stop 52, audit53, looked at all).

    The OpenAI stream is the one capture with ``response.web_search*`` events, and all three
    are ``response.web_search_call.*``; xAI's real stream has none. So no real event begins
    like a search without being one, and :data:`OURS` stays the only guard against widening
    the prefix.
    """
    kinds = [json.loads(e.data)["type"] for e in _real_search_events(events)]
    assert kinds == [f"{SEARCH_EVENT}{step}" for step in ("in_progress", "searching", "completed")]


@pytest.mark.parametrize("position", [0, 1, 2])
def test_each_real_search_event_alone_is_proof(events: list[SseEvent], position: int) -> None:
    """A guard: each real search event, unrenamed, is proof alone (a narrowed prefix fails)."""
    real = _real_search_events(events)[position]
    stripped = _without_search(events)
    assert parse_stream([stripped[0], real, *stripped[1:]]).answer
