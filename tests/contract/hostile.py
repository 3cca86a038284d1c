"""Hostile 200 bodies derived from the real captures, as Hypothesis strategies.

A provider's parser meets what the network sends, not what its documentation promises: a
key missing or of another type, a string of a megabyte, a list nested past the recursion
limit, a lone surrogate, ``NaN``, an integer of four hundred digits, a control character,
broken markup, a body cut short, an empty body, JSON where HTML belongs and the reverse.
Each strategy here starts from a real capture (so the mutation lands where a parser looks)
and changes it in one of those ways; the contract tests feed the result to every provider.
"""

import copy
import json
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any, Final

from hypothesis import strategies as st

from tests.conftest import read_capture

DOCUMENTED: Final = {
    "documented/kimi_search.json": json.dumps(
        {
            "search_results": [
                {
                    "title": f"Result {i}",
                    "url": f"https://site{i}.example.org/page",
                    "snippet": f"Snippet {i}.",
                    "content": f"Content {i}.",
                    "date": "2026-01-02",
                    "site_name": f"Site {i}",
                }
                for i in range(1, 4)
            ]
        }
    ).encode()
}
"""Bodies in a provider's documented shape, for a provider with no capture of its API
(Kimi's captures are of another Moonshot API, which its parser refuses)."""

DEEP: Final = "@@hostile-deep-nesting@@"
"""A placeholder string replaced, after serialising, by lists nested :data:`DEEP_LEVELS`."""
DEEP_LEVELS: Final = 100_000
MODERATE: Final = "@@hostile-moderate-nesting@@"
"""A placeholder for lists nested deeper than jiter takes but shallow enough for ``json``."""
MODERATE_LEVELS: Final = 900

HOSTILE_STRINGS: Final = (
    "",
    " ",
    "\ud800",
    "a\udfffb",
    "\x00\x01\x07\x1b\x7f",
    "\u202e\u200b\ufeff",
    "x" * 200_000,
    "javascript:alert(1)",
    "http://",
    "https://[::1",
    "https://exa\x00mple.org/",
    "//evil.example/\ud800",
    "2026-13-45T99:99:99Z",
    "999999999999 years ago",
    "NaN",
    "<b>unclosed",
    "&#xD800;&#0;&bogus;",
)
"""Strings a parser might trip on: surrogates, controls, huge, not-quite URLs and dates."""


def _scalars() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.none(),
        st.booleans(),
        st.sampled_from([0, -1, 2**31, 2**63, -(2**63) - 1, 10**30, 10**400, -(10**400)]),
        st.sampled_from([float("nan"), float("inf"), float("-inf"), -0.0, 1e308, 5e-324]),
        st.sampled_from(HOSTILE_STRINGS),
        st.text(max_size=20),
    )


def hostile_values() -> st.SearchStrategy[Any]:
    """One value to put where a capture had another: a scalar, a container, deep nesting."""
    containers = st.recursive(
        _scalars(),
        lambda inner: st.one_of(
            st.lists(inner, max_size=3),
            st.dictionaries(st.sampled_from(["url", "title", "text", "", "0"]), inner, max_size=3),
        ),
        max_leaves=6,
    )
    return st.one_of(
        _scalars(), containers, st.just(DEEP), st.just(MODERATE), st.just([]), st.just({})
    )


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path under ``node`` (keys and indexes), the node's own first."""
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _paths(value, (*prefix, index))


STREAMED: Final = "streamed/"
"""A prefix: ``streamed/<capture>.chunks.txt`` is that capture (one JSON chunk per line) sent
as the server-sent event stream it was received as."""


def read_body(relative: str) -> bytes:
    """A capture from ../shared/fixtures, a capture's chunks as SSE, or a documented body."""
    documented = DOCUMENTED.get(relative)
    if documented is not None:
        return documented
    if relative.startswith(STREAMED):
        lines = read_capture(relative.removeprefix(STREAMED)).decode("utf-8").splitlines()
        return "".join(f"data: {line}\n\n" for line in lines if line.strip()).encode()
    return read_capture(relative)


Paths = tuple[tuple[Any, ...], ...]


@cache
def capture_json(relative: str) -> tuple[Any, Paths, Paths]:
    """The capture's JSON value, every path in it, and the paths to its arrays and objects.

    Read once per session. Mutations favour the containers: a parser walks them, and most
    paths in a capture lead to strings, where a wrong type is rarely where it breaks.
    """
    document = json.loads(read_body(relative))
    paths = tuple(_paths(document))
    containers = tuple(path for path in paths if isinstance(_at(document, path), (list, dict)))
    return document, paths, containers


def _at(document: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        document = document[step]
    return document


def _mutate(document: Any, path: tuple[Any, ...], delete: bool, value: Any) -> Any:
    """``document`` with the node at ``path`` deleted (from its parent) or replaced."""
    if not path:
        return value
    parent = document
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if delete:
        del parent[last]
    else:
        parent[last] = value
    return document


def serialise(document: Any, *, ascii_only: bool) -> bytes:
    """``document`` as JSON bytes, placeholders expanded, lone surrogates kept as they are.

    With ``ascii_only`` a lone surrogate is a ``\\ud800`` escape; without, it is written raw
    (``surrogatepass``), which makes the body invalid UTF-8.
    """
    text = json.dumps(document, ensure_ascii=ascii_only, allow_nan=True)
    text = text.replace(json.dumps(DEEP), "[" * DEEP_LEVELS + "]" * DEEP_LEVELS)
    text = text.replace(json.dumps(MODERATE), "[" * MODERATE_LEVELS + "]" * MODERATE_LEVELS)
    return text.encode("utf-8", "surrogatepass")


@st.composite
def mutated_json(draw: st.DrawFn, relative: str) -> bytes:
    """The capture ``relative`` with one to three nodes deleted or replaced by hostile values."""
    original, paths, containers = capture_json(relative)
    document = copy.deepcopy(original)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(containers) | st.sampled_from(paths))
        try:
            document = _mutate(document, path, draw(st.booleans()), draw(hostile_values()))
        except (KeyError, IndexError, TypeError):
            continue  # an earlier mutation removed or replaced this path's parent
    return serialise(document, ascii_only=draw(st.booleans()))


HTML_SNIPPETS: Final = (
    "<",
    "</div></div></div></span></a>",
    "<div>" * 5_000,
    '<a href="javascript:alert(1)">x</a>',
    '<a href="\ud800">\udfff</a>',
    '<a href="//%zz%">bad escape</a>',
    '<a href="https://[::1/x">bad host</a>',
    "&#0;&#xD800;&#x110000;&bogus",
    "<![CDATA[",
    "<!--",
    "\x00\x01\x0b\x0c\x1b",
    "<script>",
    "<h3><a href=''></a></h3>",
    "<table><tr><td>",
    "x" * 100_000,
)
"""Markup that breaks the page's structure where it lands."""


def _replace_attribute(text: str, start: int, value: str) -> str:
    """``text`` with the first ``href``/``src``/``class`` value at or after ``start`` replaced.

    Where a result's link, image or class is, a parser reads it: a hostile value there is
    what an engine serving odd links would send.
    """
    found = [text.find(f'{name}="', start) for name in ("href", "src", "class")]
    begins = [index for index in found if index >= 0]
    if not begins:
        return text
    begin = text.index('"', min(begins)) + 1
    end = text.find('"', begin)
    return text if end < 0 else text[:begin] + value.replace('"', "&quot;") + text[end:]


@st.composite
def mutated_text(draw: st.DrawFn, relative: str) -> bytes:
    """The capture ``relative`` (HTML, an event stream) with slices cut, copied or broken."""
    text = read_body(relative).decode("utf-8", "replace")
    for _ in range(draw(st.integers(1, 3))):
        start = draw(st.integers(0, len(text)))
        end = draw(st.integers(start, min(len(text), start + 4_000)))
        operation = draw(st.sampled_from(["cut", "copy", "insert", "attribute"]))
        if operation == "attribute":
            text = _replace_attribute(text, start, draw(st.sampled_from(HOSTILE_STRINGS)))
        elif operation == "cut":
            text = text[:start] + text[end:]
        elif operation == "copy":
            text = text[:end] + text[start:end] * draw(st.integers(1, 20)) + text[end:]
        else:
            text = text[:start] + draw(st.sampled_from(HTML_SNIPPETS)) + text[start:]
    return text.encode("utf-8", "surrogatepass")


@st.composite
def mutated_stream(draw: st.DrawFn, relative: str) -> bytes:
    """The event stream ``relative`` with one event's JSON ``data`` mutated like a body."""
    text = read_body(relative).decode("utf-8")
    events = text.split("\n\n")
    index = draw(st.integers(0, len(events) - 1))
    lines = events[index].split("\n")
    data = [i for i, line in enumerate(lines) if line.startswith("data:")]
    if not data:
        return text.encode()
    line = draw(st.sampled_from(data))
    try:
        document = json.loads(lines[line][5:])
    except ValueError:
        return text.encode()
    paths = tuple(_paths(document))
    path = draw(st.sampled_from(paths))
    document = _mutate(document, path, draw(st.booleans()) and bool(path), draw(hostile_values()))
    lines[line] = "data: " + serialise(document, ascii_only=True).decode()
    events[index] = "\n".join(lines)
    return "\n\n".join(events).encode("utf-8", "surrogatepass")


def whole_body(relatives: tuple[str, ...], foreign: str) -> st.SearchStrategy[bytes]:
    """Whole-body faults: cut short, empty, a foreign format, a bare JSON scalar, bytes."""
    originals = [read_body(relative) for relative in relatives]
    truncated = st.sampled_from(originals).flatmap(
        lambda body: st.integers(0, max(0, len(body) - 1)).map(lambda cut: body[:cut])
    )
    return st.one_of(
        truncated,
        st.sampled_from(
            [
                b"",
                b" ",
                b"null",
                b"[]",
                b"{}",
                b'"\\ud800"',
                b"NaN",
                b"1e999",
                b"1" * 5_000,
                b"\xff\xfe\x00garbage",
                b"\xef\xbb\xbf{}",
                b"\x00" * 64,
                read_capture(foreign),
            ]
        ),
    )


Mutator = Callable[[str], st.SearchStrategy[bytes]]


def mutator_for(relative: str) -> Mutator:
    """How a capture of this kind is mutated: JSON by its nodes, anything else by text."""
    if relative.endswith(".json"):
        return mutated_json
    if relative.endswith(".sse") or relative.startswith(STREAMED):
        return mutated_stream
    return mutated_text
