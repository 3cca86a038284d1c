"""Anthropic's real Messages stream, one event's field wrong-typed, folded into a message.

The provider asks for JSON; :func:`message_from_stream` is public for a streamed answer (a
gateway that streams), so it meets the same streams. It is pure: the capture from
``../shared/fixtures`` (read there, not copied) is folded as the transport would hand it
over, then parsed. A sweep gave every field of one event of each kind and shape ``null``,
a number, a list, an object, or took it away: one ``TypeError`` (a ``message_start`` usage
that was no object, then merged) and 192 answers with ``None``, ``7``, ``['x']`` or
``{'k': 'v'}`` written into their text (``str()`` of a wrong-typed ``text_delta``);
refusals of tool input and a bad ``message_start`` named neither block nor field.
"""

import json
from collections.abc import Iterator
from typing import Any, Final

import pytest

from tests.conftest import read_capture
from tests.contract.test_wrong_typed_fields import DELETE, _shape, _unnamed, field_paths, with_field
from websearch_core.errors import ResponseParseError, SearchProviderError
from websearch_core.models import SearchResponse
from websearch_core.providers.anthropic import message_from_stream, parse_messages
from websearch_core.sse import parse_sse

CAPTURE: Final = "anthropic/messages_web_search_tool_stream.sse"
VARIANTS: Final[dict[str, Any]] = {
    "null": None,
    "number": 7,
    "list": ["x"],
    "object": {"k": "v"},
    "missing": DELETE,
}
BLOCK_NAMED: Final = "Anthropic stream carried invalid tool input (content block "
"""A tool input's pieces that do not make JSON: the refusal names the block they were for."""


def _lines() -> list[str]:
    return read_capture(CAPTURE).decode("utf-8").splitlines(keepends=True)


def _changed(lines: list[str], number: int, path: tuple[Any, ...], value: Any) -> bytes:
    line = lines[number]
    ending = line[len(line.rstrip("\r\n")) :]
    event = with_field(json.loads(line.removeprefix("data:")), path, value)
    changed = f"data: {json.dumps(event)}{ending}"
    return "".join([*lines[:number], changed, *lines[number + 1 :]]).encode()


def _read(body: bytes) -> SearchResponse:
    return parse_messages([message_from_stream(parse_sse(body))])


def _line_of(lines: list[str], kind: str, contains: str = "") -> int:
    return next(
        n
        for n, line in enumerate(lines)
        if line.startswith("data:") and f'"type": "{kind}"' in line.replace('":"', '": "')
        if contains in line
    )


def _swept(lines: list[str]) -> Iterator[int]:
    seen: set[Any] = set()
    for number, line in enumerate(lines):
        if line.startswith("data:"):
            event = json.loads(line.removeprefix("data:"))
            kind = (event.get("type"), _shape(event))
            if kind not in seen:
                seen.add(kind)
                yield number


def _one_piece_gone(whole: str, part: str) -> bool:
    return len(part) <= len(whole) and any(
        whole.startswith(part[:cut]) and whole.endswith(part[cut:]) for cut in range(len(part) + 1)
    )


def _problem(whole: str, body: bytes, path: tuple[Any, ...], kind: Any) -> str:
    """``""`` when one changed stream met the contract, else what went wrong."""
    try:
        answer = _read(body).answer or ""
    except ResponseParseError as error:
        # A field named from its event (``message_start.message``) is named.
        message = error.message.replace(f"({kind}.", "(")
        return "" if message.startswith(BLOCK_NAMED) else _unnamed(message, path)
    except SearchProviderError:
        return ""  # the event became an error event, classified by its type
    except Exception as error:  # the breach: report it, do not stop at it
        return f"{type(error).__name__}: {error}"
    if not answer or not _one_piece_gone(whole, answer):
        return f"the answer is not the stream's: {answer[:80]!r}"
    return ""


def test_every_field_of_a_streamed_event_is_skipped_or_named() -> None:
    lines = _lines()
    whole = _read("".join(lines).encode()).answer or ""
    assert whole
    failures: list[str] = []
    for number in _swept(lines):
        event = json.loads(lines[number].removeprefix("data:"))
        for path in field_paths(event):
            if path == ("index",):
                continue  # a number there is the right type: another block, not confusion
            for name, value in VARIANTS.items():
                body = _changed(lines, number, path, value)
                if problem := _problem(whole, body, path, event.get("type")):
                    failures.append(f"line {number} {path!r} = {name}: {problem}")
    assert not failures, f"{len(failures)} breaches, first:\n" + "\n".join(failures[:15])


@pytest.mark.parametrize("name", ["null", "number", "list", "object"])
def test_a_wrong_typed_text_delta_adds_nothing_to_the_answer(name: str) -> None:
    lines = _lines()
    whole = _read("".join(lines).encode()).answer or ""
    number = _line_of(lines, "text_delta")
    answer = _read(_changed(lines, number, ("delta", "text"), VARIANTS[name])).answer or ""
    piece = json.loads(lines[number].removeprefix("data:"))["delta"]["text"]
    assert answer == whole.replace(piece, "", 1).strip()


@pytest.mark.parametrize("name", ["number", "list"])
def test_a_start_usage_of_another_type_is_replaced_by_the_delta_usage(name: str) -> None:
    lines = _lines()
    start = _line_of(lines, "message_start")
    message = message_from_stream(
        parse_sse(_changed(lines, start, ("message", "usage"), VARIANTS[name]))
    )
    assert isinstance(message["usage"], dict) and message["usage"]


@pytest.mark.parametrize("name", ["number", "list", "object"])
def test_a_message_start_whose_type_is_not_a_string_is_read_by_its_event_name(
    name: str,
) -> None:
    lines = _lines()
    start = _line_of(lines, "message_start")
    changed = _read(_changed(lines, start, ("type",), VARIANTS[name]))
    assert changed == _read("".join(lines).encode())


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_tool_input_piece_of_another_type_is_refused_by_block_and_field(name: str) -> None:
    lines = _lines()
    number = _line_of(lines, "input_json_delta")
    with pytest.raises(ResponseParseError) as caught:
        _read(_changed(lines, number, ("delta", "partial_json"), VARIANTS[name]))
    found = "missing" if name == "missing" else ("an " if name == "object" else "a ") + name
    found = "null" if name == "null" else found
    assert caught.value.message.startswith(BLOCK_NAMED)
    assert caught.value.message.endswith(f"(delta.partial_json is {found}, not a string)")


@pytest.mark.parametrize("name", ["list", "missing", "null", "number"])
def test_a_message_start_without_its_message_object_names_it(name: str) -> None:
    lines = _lines()
    start = _line_of(lines, "message_start")
    with pytest.raises(ResponseParseError) as caught:
        _read(_changed(lines, start, ("message",), VARIANTS[name]))
    assert "(message_start.message is " in caught.value.message
