"""Serper's projected decode must give the parser exactly what the whole decode gives it.

``decode_projection`` builds only the keys the parser reads; where it answers at all, its
value must be ``json.loads``'s with every other key removed, and the answer, sources and
related questions read from it the same. Checked on every real capture, on bodies where
jiter and ``json.loads`` or the two shapes might part (duplicate keys, ``NaN``, big
numbers, a byte-order mark, lone surrogates, shapes the parser rejects), and on the body
that made it worth doing: one organic result holding an object of 300,000 keys.
"""

import json
import tracemalloc
from datetime import UTC, datetime
from typing import Any

import pytest

from tests.conftest import SHARED_FIXTURES, read_capture
from tests.providers._projection_check import agrees
from websearch_core.errors import ResponseParseError
from websearch_core.models import SearchParams
from websearch_core.providers._serper_body import decode_projection
from websearch_core.providers.serper import (
    SerperProvider,
    parse_answer,
    parse_related,
    parse_sources,
)
from websearch_core.transport import HttpResponse

NOW = datetime(2023, 3, 12, tzinfo=UTC)
CAPTURE = "serper/search_amazon_knowledge_graph_2023.json"
CAPTURES = sorted(
    f"serper/{path.name}" for path in (SHARED_FIXTURES / "serper").glob("*.json")
) or [CAPTURE]  # none found: read_capture skips locally and fails in CI
"""Every Serper capture there is, so one added later is compared too."""

_OBJECTS = {
    "answerBox": ("answer", "snippet", "snippetHighlighted", "title", "link"),
    "knowledgeGraph": ("description", "attributes", "descriptionLink", "website", "title"),
}
_LISTS = {
    "organic": ("link", "title", "snippet", "date"),
    "peopleAlsoAsk": ("question",),
    "relatedSearches": ("query",),
}


def _projection(data: Any) -> Any:
    """What the projected decode should give for ``json.loads``'s ``data``, or ``None``."""
    if not isinstance(data, dict):
        return None
    kept: dict[str, Any] = {}
    for key, read in (*_OBJECTS.items(), *_LISTS.items()):
        if key not in data:
            continue
        value = data[key]
        if value is None:
            kept[key] = None
        elif key in _OBJECTS and isinstance(value, dict):
            kept[key] = {name: value[name] for name in read if name in value}
        elif key in _LISTS and isinstance(value, list):
            if not all(isinstance(item, dict) for item in value):
                return None
            kept[key] = [{name: item[name] for name in read if name in item} for item in value]
        else:
            return None
    return kept


def _read(data: Any) -> Any:
    """Everything the parser makes of ``data``, or the error it raises."""
    try:
        return (parse_sources(data, now=NOW), parse_answer(data), parse_related(data))
    except ResponseParseError as error:
        return ("error", str(error))


def _check(body: bytes) -> bool:
    """Assert the projection agrees with the whole decode; whether it answered."""
    return agrees(body, decode_projection, _projection, _read, ordered=False)


@pytest.mark.parametrize("capture", CAPTURES)
def test_every_real_capture_projects_to_what_the_parser_reads(capture: str) -> None:
    body = read_capture(capture)
    assert _check(body)
    projected = decode_projection(body)
    sources, answer, related = _read(projected)
    assert sources and answer and related  # the capture has all three: none was lost


@pytest.mark.parametrize(
    ("body", "answers"),
    [
        (b'{"organic": [{"link": "https://a.example/", "link": "https://b.example/x"}]}', True),
        (b'{"organic": 1, "organic": [{"link": "https://c.example/"}]}', True),
        (b'{"organic": [{"link": "https://c.example/"}], "organic": 1}', False),
        (b'{"organic": [{"link": NaN, "title": 1e400, "date": -Infinity}]}', True),
        (b'{"organic": [{"link": 123456789012345678901234567890123, "snippet": 1.0}]}', True),
        (b'{"organic": [{"title": {"a": 1, "a": [2, {"b": null}]}, "date": -0.0}]}', True),
        (b'{"organic": [{"link": "https://a.example/\\u00e9\\ud83d\\ude00"}]}', True),
        (b'{"organic": [{"link": "https://a.example/", "attributes": {"k": 1, "k": 2}}]}', True),
        (b'{"knowledgeGraph": {"description": "d", "attributes": {"A": "1", "A": "2"}}}', True),
        (b'{"knowledgeGraph": {"description": "d", "attributes": ["A", "1"]}}', True),
        (
            b'{"knowledgeGraph": {"title": "X", "website": "https://x.example/", "type": "Co"}}',
            True,
        ),
        (
            b'{"answerBox": {"snippetHighlighted": ["a", 1, null], "link": "https://a.example/"}}',
            True,
        ),
        (b'{"answerBox": {"answer": "330 m", "title": "Height", "position": 1}}', True),
        (b'{"answerBox": {"unread": 1}, "knowledgeGraph": {"unread": 2}}', True),
        (b'{"peopleAlsoAsk": [{"question": "Why?", "snippet": "x"}, {"title": "y"}]}', True),
        (b'{"relatedSearches": [{"query": "a"}, {"query": "a"}, {"query": 1}]}', True),
        (
            b'{"organic": null, "answerBox": null, "knowledgeGraph": null, "peopleAlsoAsk": null}',
            True,
        ),
        (b'{"searchParameters": {"q": "x"}}', True),
        (b" \n{}\n ", True),
        (b'{"organic": [{"link": "https://a.example/"}, "https://b.example/"]}', False),
        (b'{"organic": {"0": {"link": "https://a.example/"}}}', False),
        (b'{"answerBox": "330 m"}', False),
        (b'{"knowledgeGraph": []}', False),
        (b'{"peopleAlsoAsk": ["Why?"]}', False),
        (b'{"relatedSearches": {"query": "a"}}', False),
        (b'[{"organic": []}]', False),
        (b'\xef\xbb\xbf{"organic": []}', False),  # byte-order mark: json.loads only
        (b'{"organic": [{"link": "\\ud800"}]}', False),  # lone surrogate: json.loads only
        (b'{"organic": [{"position": "\\udc00"}]}', False),
        (b'{"x": "\xed\xa0\x80", "organic": []}', False),  # UTF-8 of a surrogate
        (b'{"organic": [{"link": "\xff"}]}', False),
        (b'{"x": ' + b"[" * 300 + b"]" * 300 + b', "organic": []}', False),  # too deep
        (b'{"organic": []} trailing', False),
        (b'{"x": "a\tb", "organic": []}', False),  # a raw tab: no JSON at all
        (b"", False),
    ],
)
def test_edge_bodies_project_or_step_aside(body: bytes, answers: bool) -> None:
    assert _check(body) is answers


def test_an_unread_object_of_300000_keys_in_a_result_is_never_built() -> None:
    # Decoded whole, the object's 300,000 keys became Python strings in a dict (tens of
    # megabytes, 0.3 s of an event loop) only for the parser to read four other keys.
    capture = read_capture(CAPTURE)
    document = json.loads(capture)
    document["organic"][0]["attributes"] = {f"filler {n:07d}": None for n in range(300_000)}
    body = json.dumps(document).encode()
    assert len(body) < 8 << 20  # within the default response-size cap
    provider, params = SerperProvider(), SearchParams(query="amazon")
    expected = provider.parse_response(HttpResponse(status=200, body=capture), params)
    tracemalloc.start()
    try:
        got = provider.parse_response(HttpResponse(status=200, body=body), params)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert got == expected
    assert peak < 1 << 20, peak  # what the capture's own fields cost, not the object's
