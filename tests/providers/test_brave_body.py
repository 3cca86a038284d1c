"""Brave's projected decode must give the parser exactly what the whole decode gives it.

``decode_projection`` builds only the keys the parser reads; where it answers at all, its
value must be ``json.loads``'s with every other key removed, and the parser's fields from
it the same. Checked on the real capture, on hand-picked bodies where jiter and
``json.loads`` might part (duplicate keys, ``NaN``, big numbers, a byte-order mark, lone
surrogates, shapes the parser rejects) and on seeded random bodies written as JSON text,
so duplicate keys and odd escapes occur as they would on the wire.
"""

import json
import random
from datetime import UTC, datetime
from typing import Any

import pytest

from tests.conftest import read_capture
from tests.providers._projection_check import agrees
from websearch_core.errors import ResponseParseError
from websearch_core.models import SearchParams
from websearch_core.providers._brave_body import decode_projection
from websearch_core.providers._brave_parse import result_fields
from websearch_core.providers.brave import BraveProvider
from websearch_core.transport import HttpResponse

NOW = datetime(2024, 3, 30, 12, 0, tzinfo=UTC)
READ = ("url", "title", "description", "extra_snippets", "page_age", "age")
SEED = 20261202


def _projection(data: Any) -> Any:
    """What the projected decode should give for ``json.loads``'s ``data``."""
    if not isinstance(data, dict):
        return None
    if "web" not in data:
        return {}
    web = data["web"]
    if web is None:
        return {"web": None}
    if not isinstance(web, dict):
        return None
    if "results" not in web:
        return {"web": {}}
    results = web["results"]
    if not isinstance(results, list) or not all(isinstance(item, dict) for item in results):
        return None
    kept = [{key: item[key] for key in READ if key in item} for item in results]
    return {"web": {"results": kept}}


def _fields(data: Any) -> Any:
    """The parser's fields for ``data``, or the error it raises."""
    try:
        return result_fields(data, now=NOW)
    except ResponseParseError as error:
        return ("error", str(error))


def _check(body: bytes) -> bool:
    """Assert the projection agrees with the whole decode; whether it answered."""
    return agrees(body, decode_projection, _projection, _fields, ordered=True)


def test_the_real_capture_projects_to_what_the_parser_reads() -> None:
    body = read_capture("brave/web_search_laravel_2024.json")
    assert _check(body)
    projected = decode_projection(body)
    assert projected is not None
    assert len(result_fields(projected, now=NOW)) == 17


@pytest.mark.parametrize(
    ("body", "answers"),
    [
        (
            b'{"web": {"results": [{"url": "https://a.example/", "url": "https://b.example/x"}]}}',
            True,
        ),
        (b'{"web": 1, "web": {"results": []}}', True),
        (b'{"web": {"results": [{"url": 1}], "results": [{"url": "https://c.example/"}]}}', True),
        (b'{"web": {"results": [{"url": NaN, "title": 1e400, "age": -Infinity}]}}', True),
        (b'{"web": {"results": [{"url": 123456789012345678901234567890123, "age": 1.0}]}}', True),
        (b'{"web": {"results": [{"title": {"a": 1, "a": [2, {"b": null}]}, "age": -0.0}]}}', True),
        (b'{"web": {"results": [{"url": "https://a.example/\\u00e9\\ud83d\\ude00"}]}}', True),
        (b'{"web": {"results": [{"extra_snippets": ["a", 1, null, "<b>a</b>"]}]}}', True),
        (b'{"web": null}', True),
        (b'{"query": {"original": "x"}}', True),
        (b'{"web": {"type": "search"}}', True),
        (b'\xef\xbb\xbf{"web": {"results": []}}', False),  # byte-order mark: json.loads only
        (b'{"web": {"results": [{"url": "\\ud800"}]}}', False),  # lone surrogate: json.loads only
        (b'{"web": {"results": [{"thumbnail": "\\udc00"}]}}', False),
        (b'{"web": {"results": [{"url": "\\u00e9"}]}} trailing', False),
        (b'{"web": {"results": [{"url": "\xff"}]}}', False),
        (b'[{"web": {"results": []}}]', False),
        (b'{"web": []}', False),
        (b'{"web": {"results": {"0": {"url": "https://a.example/"}}}}', False),
        (b'{"web": {"results": [{"url": "https://a.example/"}, "https://b.example/"]}}', False),
        (b'{"x": "\xed\xa0\x80", "web": {"results": []}}', False),  # UTF-8 of a surrogate
        (b'{"x": ' + b"[" * 300 + b"]" * 300 + b', "web": {"results": []}}', False),  # too deep
        (b'{"x": "\x7f", "web": {"results": [{"url": "https://a.example/\x7f"}]}}', True),
        (b'{"x": "a\tb", "web": {"results": []}}', False),  # a raw tab: no JSON at all
        (b'{"x": -NaN, "web": {"results": []}}', False),
        (b'{"x": 1., "web": {"results": []}}', False),
        (b'{"web": {"results": []}}\x00', False),
        (b' \n{"web": {}}\n ', True),
        (b"", False),
    ],
)
def test_edge_bodies_project_or_step_aside(body: bytes, answers: bool) -> None:
    assert _check(body) is answers


_KEYS = [*READ, "web", "results", "type", "profile", "cluster", "meta_url", "URL", "web "]
_TEXTS = [
    "https://a.example/",
    "HTTPS://A.example",
    " https://a.example/x?y=1#z ",
    "javascript:alert(1)",
    "<strong>Laravel</strong> &amp; PHP",
    "2023-05-01T20:10:05",
    "May 1, 2023",
    "2 days ago",
    "2023-13-01",
    "",
    "x" * 400,
]
_ESCAPES = ["\\u00e9", "\\ud83d\\ude00", "\\ud800", "\\n", '\\"', "\\/", "é", "\\u0000"]


def _json_text(rng: random.Random, depth: int) -> str:
    """A random JSON value as text: duplicate keys, escapes and odd numbers allowed."""
    roll = rng.random()
    if depth > 3 or roll < 0.35:
        if rng.random() < 0.6:
            text = json.dumps(rng.choice(_TEXTS))[1:-1]
            if rng.random() < 0.3:
                text += rng.choice(_ESCAPES)
            return f'"{text}"'
        return rng.choice(["null", "true", "0", "-0.0", "1e400", "NaN", "12345678901234567890123"])
    if roll < 0.7:
        pairs = [
            f'"{rng.choice(_KEYS)}": {_json_text(rng, depth + 1)}' for _ in range(rng.randrange(5))
        ]
        return "{" + ", ".join(pairs) + "}"
    return "[" + ", ".join(_json_text(rng, depth + 1) for _ in range(rng.randrange(4))) + "]"


def _result_text(rng: random.Random) -> str:
    """One result as text: mostly the keys the parser reads, holding text, with a URL."""
    if rng.random() < 0.03:
        return _json_text(rng, 2)  # sometimes no object at all
    keys = ["url", *(rng.choice(_KEYS) for _ in range(rng.randrange(7)))]
    pairs = []
    for key in keys:
        if rng.random() < 0.75:
            value = json.dumps(rng.choice(_TEXTS))[1:-1]
            if rng.random() < 0.1:
                value += rng.choice(_ESCAPES)
            pairs.append(f'"{key}": "{value}"')
        else:
            pairs.append(f'"{key}": {_json_text(rng, 2)}')
    return "{" + ", ".join(pairs) + "}"


def _random_body(rng: random.Random) -> bytes:
    """A body near Brave's shape, so most reach the parser's fields."""
    results = ", ".join(_result_text(rng) for _ in range(rng.randrange(5)))
    extra = "" if rng.random() < 0.7 else f', "{rng.choice(_KEYS)}": {_json_text(rng, 1)}'
    web = f'{{"results": [{results}]{extra}}}' if rng.random() < 0.9 else _json_text(rng, 1)
    body = f'{{"type": "search", "web": {web}}}'
    if rng.random() < 0.05:
        body = "\ufeff" + body
    return body.encode("utf-8", errors="surrogatepass")


def test_random_bodies_project_to_what_the_whole_decode_gives() -> None:
    rng = random.Random(SEED)
    sources = 0
    for _ in range(5000):
        body = _random_body(rng)
        if _check(body):
            projected = decode_projection(body)
            sources += len(fields) if isinstance(fields := _fields(projected), list) else 0
    assert sources > 1000  # the comparison reached the parser's output, not only its errors


def _response(body: bytes) -> HttpResponse:
    return HttpResponse(status=200, body=body, headers={"x-request-id": "req-1"})


def test_parse_response_decodes_a_body_jiter_refuses_as_before() -> None:
    body = '\ufeff{"web": {"results": [{"url": "https://a.example/", "title": "A"}]}}'
    parsed = BraveProvider().parse_response(_response(body.encode()), SearchParams(query="q"))
    assert [(s.title, s.url) for s in parsed.sources] == [("A", "https://a.example/")]
    assert parsed.request_id == "req-1"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b'{"web": {"results": [', "Brave API returned invalid JSON"),
        (b'{"web": {"results": {}}}', "Brave API returned an unexpected response shape"),
        (b'["web"]', "Brave API returned an unexpected response shape"),
    ],
)
def test_parse_response_errors_are_unchanged(body: bytes, message: str) -> None:
    with pytest.raises(ResponseParseError, match=message):
        BraveProvider().parse_response(_response(body), SearchParams(query="q"))
