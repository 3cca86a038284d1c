"""Every field of every real JSON capture, given the wrong type, one field at a time.

An upstream that changes one field's type (a list become a string, an object become
``null``, a key gone) must not end the search with a ``TypeError`` or ``KeyError``: the
chain would lose the answer the next provider could give. Nor may a refusal be mute about
why. For each API and answer-engine provider with a real capture in ``../shared/fixtures``
(JSON, or an SSE stream whose events are JSON), every key of the capture (every key of
every event for a stream; of a list, one item of each ``type``, as the parsers read them by
kind) is replaced by each of :data:`VARIANTS` or deleted, and the body goes through the
provider's whole protocol over :class:`~websearch_core.testing.MockTransport`, then through
``clean_response`` and the model's text. Every key of the capture is a superset of the
fields a parser reads, so none is missed.

The outcome must be sources or an answer (the item skipped, the field left out), or a
:class:`SearchProviderError` of the provider: a ``ResponseParseError`` names the field (a
key on its path), another class is one of the spec's texts for what the body lacks (no
answer, no web search, a stream cut short). Anything else, or no end within the bound, is a
failure, reported with its capture, path and variant.
"""

import asyncio
import copy
import dataclasses
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest

from tests.contract.hostile import STREAMED, read_body
from tests.contract.test_hostile_bodies import (
    SCRIPTS,
    _context,
    _scripted_handler,
    _zai_handler,
)
from websearch_core import SearchProviderError
from websearch_core.errors import ResponseParseError
from websearch_core.format import format_for_llm, format_provider_failure
from websearch_core.models import SearchParams, SearchResponse
from websearch_core.provider_types import ProviderContext
from websearch_core.providers import get_provider
from websearch_core.sanitize import clean_response
from websearch_core.testing import MockTransport

REAL_CAPTURES: Final = frozenset(
    {
        "anthropic",
        "brave",
        "codex",
        "firecrawl",
        "gemini",
        "perplexity",
        "searxng",
        "serper",
        "tavily",
        "xai",
        "zai",
    }
)
"""The API and answer-engine providers whose captures are real (``fixtures/SOURCES.md``);
Exa, Kagi, Jina, Parallel and TinyFish have documentation examples only, Kimi none of its
own API, Synthetic none at all."""

_TEXT_CAPTURES: Final = frozenset(
    {
        "zai/web_search_prime_tool_result_content_json_shape_2026-10.txt",
        "streamed/perplexity/chat_completions_sonar_citations_stream.chunks.txt",
    }
)
"""Captures in text files that are JSON (Z.AI's tool result) or JSON events (Perplexity's);
Z.AI's other text file is a placeholder in Python's repr, not a capture."""

DELETE: Final = object()
"""Stands for the key removed rather than given a value."""
VARIANTS: Final[dict[str, Any]] = {
    "null": None,
    "number": 7,
    "boolean": True,
    "list": ["x"],
    "object": {"k": "v"},
    "empty string": "",
    "100 KB string": "x" * 100_000,
    "controls and a lone surrogate": "a\x00\x1b\x7f\ud800b",
    "deleted": DELETE,
}
"""What each field is replaced by: every JSON type, the strings a reader trips on, and none."""
BOUND_SECONDS: Final = 30.0
"""A search that has not ended by then hangs (each takes milliseconds); a bound, not a timing."""

Path_ = tuple[Any, ...]
Case = tuple[str, tuple[str, ...], int]


def _cases() -> Iterator[Case]:
    """``(provider, script, step)`` for every real JSON or stream capture in a script."""
    for provider_id in sorted(REAL_CAPTURES):
        for script in SCRIPTS[provider_id]:
            for step, relative in enumerate(script):
                if relative.endswith((".json", ".sse")) or relative in _TEXT_CAPTURES:
                    yield provider_id, script, step


def _kind(value: Any) -> Any:
    return value.get("type") if isinstance(value, dict) else type(value).__name__


def field_paths(value: Any, at: Path_ = ()) -> Iterator[Path_]:
    """Every key under ``value`` (and one list item of each kind), parents first."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield (*at, key)
            yield from field_paths(inner, (*at, key))
    elif isinstance(value, list):
        seen: set[Any] = set()
        for index, item in enumerate(value):
            if _kind(item) not in seen:
                seen.add(_kind(item))
                yield (*at, index)
                yield from field_paths(item, (*at, index))


def with_field(document: Any, path: Path_, variant: Any) -> Any:
    """``document`` with its field at ``path`` set to ``variant`` (or gone).

    Only the containers on the path are copied (shallow): the rest is shared, unchanged.
    """
    changed = copy.copy(document)
    if len(path) == 1 and variant is DELETE:
        del changed[path[0]]
    else:
        changed[path[0]] = (
            variant if len(path) == 1 else with_field(document[path[0]], path[1:], variant)
        )
    return changed


def _dump(document: Any) -> str:
    return json.dumps(document, ensure_ascii=True)  # a lone surrogate as its \ud800 escape


def _shape(value: Any) -> frozenset[Path_]:
    """An event's key paths, list positions left out: events alike read alike."""
    return frozenset(tuple(s for s in p if isinstance(s, str)) for p in field_paths(value))


def variant_bodies(relative: str) -> Iterator[tuple[str, Path_, str, bytes]]:
    """``(where, path, variant name, body)`` for every field of the capture and every variant.

    A stream's events are mutated one at a time, one event of each shape.
    """
    raw = read_body(relative)
    if not (relative.endswith(".sse") or relative.startswith(STREAMED)):
        document = json.loads(raw)
        for path in field_paths(document):
            for name, variant in VARIANTS.items():
                yield repr(path), path, name, _dump(with_field(document, path, variant)).encode()
        return
    lines = raw.decode("utf-8").splitlines(keepends=True)
    shapes: set[frozenset[Path_]] = set()
    for number, line in enumerate(lines):
        if not line.startswith("data:"):
            continue
        event = json.loads(line.removeprefix("data:"))
        if _shape(event) in shapes:
            continue
        shapes.add(_shape(event))
        ending = line[len(line.rstrip("\r\n")) :]
        for path in field_paths(event):
            for name, variant in VARIANTS.items():
                changed = f"data: {_dump(with_field(event, path, variant))}{ending}"
                body = "".join([*lines[:number], changed, *lines[number + 1 :]])
                yield f"event {number} {path!r}", path, name, body.encode()


_NAMED: Final = re.compile(r"\(([\w.]+) is (?:null|missing|a \w+|an \w+), not [\w ]+\)$")
"""The end of a parse error that names its field: ``(web.results is a string, not a list)``."""


def _unnamed(message: str, path: Path_) -> str:
    """``""`` when a parse error names the field changed, one holding it or one inside it.

    ``web`` turned into ``{"k": "v"}`` is refused for what it lacks: ``web.results``.
    """
    named = _NAMED.search(message)
    keys = [step for step in path if isinstance(step, str)]
    if named:
        field = named.group(1).split(".")
        if field[: len(keys)] == keys or keys[: len(field)] == field:
            return ""
    return f"a parse error not naming {path!r}: {message!r}"


async def outcome(
    provider_id: str,
    shared: ProviderContext,
    where: tuple[tuple[str, ...], int],
    changed: tuple[Path_, bytes],
) -> str:
    """One search over a body at ``step``: ``""`` when it met the contract, else why not.

    ``shared`` is the provider's context (its transport replaced per search), ``where``
    the script and the step the body answers, ``changed`` the path of the field changed
    and the body with it changed.
    """
    script, step = where
    path, body = changed
    if provider_id == "zai":
        handler = _zai_handler(lambda: body, raw=False)
    else:
        handler = _scripted_handler(script, step, body)
    context = dataclasses.replace(shared, transport=MockTransport(handler, timeout_seconds=30))
    search = get_provider(provider_id).search(SearchParams(query="fields"), context)
    try:
        response = await asyncio.wait_for(search, BOUND_SECONDS)
    except SearchProviderError as error:
        format_provider_failure(error, provider_id).encode("utf-8")
        if error.provider != provider_id:
            return f"an error of {error.provider}"
        if isinstance(error, ResponseParseError):
            return _unnamed(error.message, path)
        return ""
    except Exception as error:  # the contract's breach: report it, do not stop at it
        return f"{type(error).__name__}: {str(error)[:120]}"
    assert isinstance(response, SearchResponse)
    format_for_llm(clean_response(response, cap=10)).encode("utf-8")
    return ""


@pytest.mark.parametrize(
    ("provider_id", "script", "step"),
    list(_cases()),
    ids=lambda value: value if isinstance(value, str) else None,
)
async def test_every_field_of_a_wrong_type_is_skipped_or_named(
    provider_id: str, script: tuple[str, ...], step: int, tmp_path: Path
) -> None:
    shared = _context(provider_id, MockTransport(lambda request: None), tmp_path)
    failures: list[str] = []
    for where, path, name, body in variant_bodies(script[step]):
        problem = await outcome(provider_id, shared, (script, step), (path, body))
        if problem:
            failures.append(f"{script[step]} {where} = {name}: {problem}")
    assert not failures, f"{len(failures)} breaches, first:\n" + "\n".join(failures[:15])
