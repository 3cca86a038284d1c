"""Pure parsing for the Z.AI provider: tool results, result lists, the capture formats.

Kept apart from :mod:`websearch_core.providers.zai` so the provider module stays small (the
JSON-RPC envelope is :mod:`websearch_core.providers._zai_rpc`); nothing here does I/O.
Every function takes decoded values or raw bodies and either returns plain data or raises
a :mod:`websearch_core.errors` error tagged ``zai``.

* **Results:** the candidates are the tool result, its ``structuredContent``, ``data`` and
  ``result``, then each ``content[].text`` decoded as JSON, as JSON inside a JSON string
  (Z.AI double-encodes), or as a Python literal; the first that is a list (nested lists are
  flattened) or has ``search_result[]`` / ``results[]`` supplies the sources. Text parts
  that hold no results become the answer, joined by blank lines. Sources: url = ``link`` or
  ``url``, title = ``title`` or the URL, snippet = ``content``, published date =
  ``publish_date`` or ``publishedDate``, author = ``media``. ``request_id`` is
  ``request_id``, ``requestId`` or ``id``.
"""

import ast
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..js_trim import trim
from ..json_decode import decoded_json, json_loads
from ..models import SearchResponse, SearchSource
from ..sse import SseEvent
from ._common import age_seconds_from_date, collapse_whitespace, first_items, is_http_url
from ._json_api import text_or_none
from ._zai_rpc import content_texts, json_messages, parse_failure

__all__ = [
    "ToolPayload",
    "decode_text",
    "parse_messages_stream",
    "parse_payload",
    "parse_tool_result",
    "result_items",
    "source_from_item",
    "tool_payload",
]

PROVIDER_ID = "zai"
_LITERAL_LIMIT = 1024 * 1024
"""Longest text handed to :func:`ast.literal_eval` (the Python-repr carrier)."""
_RESULT_LIST_KEYS = ("search_result", "results")


# --- the tool result --------------------------------------------------------------------------


def decode_text(text: str, *, decoded: bool = False) -> Any:
    """A tool text as data: JSON, JSON inside a JSON string, or a Python literal; else ``None``.

    Z.AI double-encodes (a JSON string holding the JSON list); its Anthropic-compatible
    endpoint also emits a Python ``repr`` (``[{'text': [{'title': ...}]}]``), read with
    :func:`ast.literal_eval`, which evaluates literals only.

    Args:
        text: A tool text (a string the reply carried), or an error body's head.
        decoded: ``text`` is a head decoded from a body's bytes, its one byte-order mark
            dropped there, so a mark left is refused (:func:`~..json_decode.decoded_json`).
            A tool text's own mark is dropped here, once, as a decode would.
    """
    stripped = text.strip()
    if not stripped:
        return None
    try:
        value: Any = decoded_json(stripped) if decoded else json_loads(stripped)
    except ValueError:
        return _literal(stripped)
    if isinstance(value, str):
        inner = value.strip()
        try:
            return json_loads(inner)
        except ValueError:
            return _literal(inner)
    return value


def _literal(text: str) -> Any:
    if not text.startswith(("[", "{")) or len(text) > _LITERAL_LIMIT:
        return None
    try:
        return ast.literal_eval(text)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


def result_items(value: Any) -> list[Mapping[str, Any]] | None:
    """The result objects a payload holds, or ``None`` when it holds no result list.

    A payload is a list (possibly nested: ``[[{...}]]``, or carrier objects whose ``text``
    is the list) or an object with ``search_result[]`` or ``results[]``. Of each list only
    the first ``MAX_RESULT_ITEMS`` entries are read, and at most that many objects kept.
    """
    if isinstance(value, Mapping):
        for key in _RESULT_LIST_KEYS:
            listed = value.get(key)
            if isinstance(listed, list):
                return first_items(_flatten(listed))
        return None
    if isinstance(value, list):
        return first_items(_flatten(value))
    return None


def _flatten(items: list[Any], depth: int = 0) -> list[Mapping[str, Any]]:
    flat: list[Mapping[str, Any]] = []
    if depth > 4:
        return flat
    for item in first_items(items):
        if isinstance(item, list):
            flat.extend(_flatten(item, depth + 1))
        elif isinstance(item, Mapping) and isinstance(item.get("text"), list):
            flat.extend(_flatten(item["text"], depth + 1))
        elif isinstance(item, Mapping):
            flat.append(item)
    return flat


@dataclass(frozen=True, slots=True)
class ToolPayload:
    """What one ``tools/call`` result carried."""

    items: list[Mapping[str, Any]] | None
    """The result objects, or ``None`` when no candidate held a result list."""
    payload: Any
    """The candidate the items came from (for the request id)."""
    answer_texts: tuple[str, ...]
    """Text parts that are not JSON, or JSON without results."""


def tool_payload(result: Any) -> ToolPayload:
    """Find the results in a ``tools/call`` result.

    Candidates, in order: the result itself, its ``structuredContent``, ``data`` and
    ``result``, then each ``content[].text`` decoded by :func:`decode_text`. The first
    candidate with a result list wins.

    Raises:
        ResponseParseError: The result is not an object.
    """
    if not isinstance(result, Mapping):
        raise parse_failure()
    candidates: list[Any] = [result]
    candidates.extend(result.get(key) for key in ("structuredContent", "data", "result"))
    texts = content_texts(result)
    decoded = [decode_text(text) for text in texts]
    for candidate in [*candidates, *decoded]:
        items = result_items(candidate)
        if items is not None:
            answer = tuple(
                trim(text)
                for text, value in zip(texts, decoded, strict=True)
                if result_items(value) is None and trim(text)
            )
            return ToolPayload(items=items, payload=candidate, answer_texts=answer)
    return ToolPayload(
        items=None, payload=result, answer_texts=tuple(trim(t) for t in texts if trim(t))
    )


def source_from_item(item: Mapping[str, Any], now: datetime | None = None) -> SearchSource | None:
    """One result object as a source (``None`` without an ``http(s)`` link).

    url = ``link`` or ``url``; title = ``title`` or the URL; snippet = ``content``;
    published date = ``publish_date`` or ``publishedDate``; author = ``media``.
    """
    url = text_or_none(item.get("link")) or text_or_none(item.get("url"))
    if url is None or not is_http_url(url):
        return None
    title = text_or_none(item.get("title"))
    published = text_or_none(item.get("publish_date")) or text_or_none(item.get("publishedDate"))
    return SearchSource(
        title=collapse_whitespace(title) if title else url,
        url=url,
        snippet=text_or_none(item.get("content")),
        published_date=published,
        age_seconds=age_seconds_from_date(published, now=now),
        author=text_or_none(item.get("media")),
    )


def _request_id(*values: Any) -> str | None:
    for value in values:
        if not isinstance(value, Mapping):
            continue
        for key in ("request_id", "requestId", "id"):
            found = text_or_none(value.get(key))  # an id of a lone BOM is none
            if found is not None:
                return found
    return None


def parse_payload(
    data: Any, *, limit: int | None = None, now: datetime | None = None
) -> SearchResponse:
    """A decoded result list or ``{search_result[]}`` / ``{results[]}`` object as a response.

    Used for tool results and for Z.AI's REST web-search body (the documentation capture).

    Raises:
        ResponseParseError: ``data`` holds no result list.
    """
    items = result_items(data)
    if items is None:
        raise parse_failure()
    return _response(items, data, (), limit=limit, now=now)


def _response(
    items: Sequence[Mapping[str, Any]],
    payload: Any,
    answer_texts: Sequence[str],
    *,
    limit: int | None,
    now: datetime | None,
    fallback_id: Any = None,
) -> SearchResponse:
    sources = [source for item in items if (source := source_from_item(item, now)) is not None]
    return SearchResponse(
        provider=PROVIDER_ID,
        answer="\n\n".join(answer_texts) or None,
        sources=tuple(sources[:limit] if limit is not None else sources),
        request_id=_request_id(payload, fallback_id),
        auth_mode="api_key",
    )


def parse_tool_result(
    message: Mapping[str, Any], *, limit: int | None = None, now: datetime | None = None
) -> SearchResponse:
    """The response for a successful ``tools/call`` reply (errors already raised).

    Raises:
        ResponseParseError: The reply has no ``result`` object.
    """
    result = message.get("result")
    found = tool_payload(result)
    return _response(
        found.items or [],
        found.payload,
        found.answer_texts,
        limit=limit,
        now=now,
        fallback_id=result,
    )


# --- Z.AI's Anthropic-compatible stream (capture support only) --------------------------------


def _events_json(events: Iterable[SseEvent]) -> Iterable[Mapping[str, Any]]:
    for value in json_messages(events):
        if isinstance(value, Mapping):
            yield value


def parse_messages_stream(
    events: Iterable[SseEvent], *, now: datetime | None = None
) -> SearchResponse:
    """Read a Z.AI Anthropic-compatible Messages stream that used ``web_search_prime``.

    Not called by the provider (which speaks MCP); it reads the same result lists when they
    arrive through ``/api/anthropic``: text deltas are the answer, each ``server_tool_use``
    input's ``search_query`` a search query, and each bare ``tool_result`` block's string
    ``content`` a result list decoded by :func:`decode_text`.
    """
    answer: list[str] = []
    queries: list[str] = []
    sources: list[SearchSource] = []
    message_id: str | None = None
    for data in _events_json(events):
        started = data.get("message")
        if data.get("type") == "message_start" and isinstance(started, Mapping):
            message_id = text_or_none(started.get("id"))
        block = data.get("content_block")
        delta = data.get("delta")
        if isinstance(delta, Mapping) and delta.get("type") == "text_delta":
            # Only a string is text: str() wrote 7, ['x'] or {'k': 'v'} into the answer.
            text = delta.get("text")
            answer.append(text if isinstance(text, str) else "")
        if not isinstance(block, Mapping):
            continue
        tool_input = block.get("input")
        if block.get("type") == "server_tool_use" and isinstance(tool_input, Mapping):
            query = text_or_none(tool_input.get("search_query")) or text_or_none(
                tool_input.get("query")
            )
            if query and query not in queries:
                queries.append(query)
        content = block.get("content")
        if block.get("type") == "tool_result" and isinstance(content, str):
            items = result_items(decode_text(content)) or []
            sources.extend(s for item in items if (s := source_from_item(item, now)) is not None)
    return SearchResponse(
        provider=PROVIDER_ID,
        answer=trim("".join(answer)) or None,
        sources=tuple(sources),
        search_queries=tuple(queries),
        request_id=message_id,
        auth_mode="api_key",
    )
