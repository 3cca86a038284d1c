"""Z.AI's Anthropic-compatible stream with a ``text_delta`` whose text is not a string.

:func:`parse_messages_stream` (capture support; the provider speaks MCP) joined
``str(text)``: a number, list or object in one delta put ``7``, ``['x']`` or
``{'k': 'v'}`` into the answer. The capture is read from ``../shared/fixtures``.
"""

import json
from typing import Any, Final

import pytest

from tests.conftest import read_capture
from websearch_core.providers._zai_parse import parse_messages_stream
from websearch_core.sse import parse_sse

CAPTURE: Final = "zai/anthropic_compat_messages_stream_web_search_prime_2026-10.sse"
WRONG: Final[dict[str, Any]] = {"number": 7, "list": ["x"], "object": {"k": "v"}}


@pytest.mark.parametrize("name", sorted(WRONG))
def test_a_text_delta_of_another_type_adds_no_text(name: str) -> None:
    raw = read_capture(CAPTURE).decode("utf-8")
    lines = raw.splitlines(keepends=True)
    number = next(n for n, line in enumerate(lines) if '"text_delta"' in line)
    event = json.loads(lines[number].removeprefix("data:"))
    piece = event["delta"]["text"]
    event["delta"]["text"] = WRONG[name]
    lines[number] = f"data: {json.dumps(event)}\n"
    whole = parse_messages_stream(parse_sse(raw.encode())).answer or ""
    changed = parse_messages_stream(parse_sse("".join(lines).encode())).answer or ""
    assert changed == whole.replace(piece, "", 1).strip()
