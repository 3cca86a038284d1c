"""xAI's real stream, folded with one event broken: the answer its deltas carried is kept.

The provider asks for no stream, but :func:`response_from_events` is public and folds one.
Stop 52's sweep (audit53) of ``../shared/fixtures/xai/responses_web_search_tool_stream
.chunks.txt`` (read there, not copied; one event a line) lost the answer in two ways: the
closing ``response.completed`` snapshot with its message ``content`` broken dropped the text
259 ``response.output_text.delta`` events had streamed, and a ``response.created`` met after
the closing event replaced the whole response with its empty start. Both were refused as
``xAI web_search returned no answer or sources``.
"""

import copy
import json
from typing import Any, Final

import pytest

from tests.conftest import read_capture
from websearch_core.models import SearchParams, SearchResponse
from websearch_core.providers.xai import parse_response_object, response_from_events

STREAM: Final = "xai/responses_web_search_tool_stream.chunks.txt"
PARAMS: Final = SearchParams(query="what is xAI")


def _events() -> list[dict[str, Any]]:
    lines = read_capture(STREAM).decode("utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _read(events: list[dict[str, Any]]) -> SearchResponse:
    return parse_response_object(response_from_events(events), PARAMS)


def _streamed_text(events: list[dict[str, Any]]) -> str:
    return "".join(e["delta"] for e in events if e["type"] == "response.output_text.delta")


@pytest.mark.parametrize("broken", [None, 7, ["x"], {"k": "v"}, "gone"])
def test_a_broken_closing_message_keeps_the_streamed_answer(broken: object) -> None:
    """Failed before: refused, though every delta of the answer had arrived."""
    events = _events()
    closing = events[-1]
    assert closing["type"] == "response.completed"
    (message,) = [i for i in closing["response"]["output"] if i["type"] == "message"]
    if broken == "gone":
        del message["content"]
    else:
        message["content"] = copy.deepcopy(broken)
    response = _read(events)
    assert response.answer == _streamed_text(events).strip()
    assert response.request_id == _read(_events()).request_id


def test_a_start_event_after_the_close_does_not_undo_it() -> None:
    """Failed before: the late ``response.created`` emptied the response."""
    events = _events()
    whole = _read(events)
    late = [*events[1:], events[0]]
    assert late[-1]["type"] == "response.created"
    assert _read(late) == whole


def test_the_whole_stream_reads_as_before() -> None:
    """A guard: with nothing broken the closing message's text is the answer, not the deltas."""
    events = _events()
    response = _read(events)
    assert response.answer is not None
    assert response.answer == _streamed_text(events).strip()
    (message,) = [i for i in events[-1]["response"]["output"] if i["type"] == "message"]
    cited = [n["url"] for part in message["content"] for n in part["annotations"]]
    assert [s.url for s in response.sources] == list(dict.fromkeys(cited))


def _delta_broken(events: list[dict[str, Any]], how: str, at: int) -> list[dict[str, Any]]:
    """``events`` with the ``at``-th delta dropped, doubled or swapped with the next event."""
    index = [i for i, e in enumerate(events) if e["type"] == "response.output_text.delta"][at]
    if how == "drop":
        del events[index]
    elif how == "double":
        events.insert(index, copy.deepcopy(events[index]))
    else:
        events[index], events[index + 1] = events[index + 1], events[index]
    return events


def _closing_message_broken(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    (message,) = [i for i in events[-1]["response"]["output"] if i["type"] == "message"]
    message["content"] = None
    return events


@pytest.mark.parametrize("broken", [None, 7, ["x"], {"k": "v"}, "gone"])
def test_a_broken_closing_message_is_read_from_the_done_item_sources_and_all(
    broken: object,
) -> None:
    """Failed before: the deltas gave the text but no source (their events carry none)."""
    events = _events()
    (message,) = [i for i in events[-1]["response"]["output"] if i["type"] == "message"]
    if broken == "gone":
        del message["content"]
    else:
        message["content"] = copy.deepcopy(broken)
    whole = _read(_events())
    assert whole.sources
    assert _read(events) == whole


@pytest.mark.parametrize("how", ["drop", "double", "swap"])
@pytest.mark.parametrize("at", [0, 128, -1])
def test_a_broken_closing_message_and_a_broken_delta_keep_the_whole_answer(
    how: str, at: int
) -> None:
    """Failed before: the joined deltas, one lost, doubled or out of place, were the answer.

    The done message item holds the whole text, as the closing snapshot would have.
    """
    events = _closing_message_broken(_delta_broken(_events(), how, at))
    assert _streamed_text(events) != _streamed_text(_events()) or how == "swap"
    assert _read(events) == _read(_events())


@pytest.mark.parametrize("how", ["drop", "double", "swap"])
@pytest.mark.parametrize("at", [0, 128, -1])
def test_a_whole_closing_snapshot_wins_over_broken_deltas(how: str, at: int) -> None:
    """A guard: where the snapshot's text and the deltas differ, the snapshot is the answer.

    In the real stream they are one text; a lost, doubled or reordered delta is the likelier
    fault (259 events against one), and the snapshot's sources belong to its own text.
    """
    events = _delta_broken(_events(), how, at)
    assert _read(events) == _read(_events())
