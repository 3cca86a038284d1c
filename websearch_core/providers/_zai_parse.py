"""Pure parsing for the Z.AI provider: JSON-RPC replies, tool results, result lists.

Kept apart from :mod:`websearch_core.providers.zai` so the provider module stays small;
nothing here does I/O. Every function takes decoded values or raw bodies and either returns
plain data or raises a :mod:`websearch_core.errors` error tagged ``zai``.
"""

import ast
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..errors import (
    ProviderUnavailableError,
    RateLimitedError,
    ResponseParseError,
    SearchProviderError,
)
from ..models import SearchResponse, SearchSource
from ..sse import SseError, SseEvent, parse_sse
from ..transport import classify_http_error
from ._common import age_seconds_from_date, collapse_whitespace, is_http_url

__all__ = [
    "PARSE_FAILURE",
    "ToolPayload",
    "decode_text",
    "parse_messages_stream",
    "parse_payload",
    "parse_tool_result",
    "raise_for_rpc_error",
    "result_items",
    "rpc_message",
    "source_from_item",
    "tool_payload",
]

PROVIDER_ID = "zai"
PARSE_FAILURE = "Failed to parse Z.AI MCP response"
_MCP_ERROR_CODE = re.compile(r"MCP error\s*(-?\d+)")
_LITERAL_LIMIT = 1024 * 1024
"""Longest text handed to :func:`ast.literal_eval` (the Python-repr carrier)."""
_RESULT_LIST_KEYS = ("search_result", "results")


def _parse_failure() -> ResponseParseError:
    return ResponseParseError(PROVIDER_ID, PARSE_FAILURE, 502)


# --- the JSON-RPC envelope --------------------------------------------------------------------


def _json_messages(events: Iterable[SseEvent]) -> list[Any]:
    messages: list[Any] = []
    for event in events:
        try:
            messages.append(json.loads(event.data))
        except ValueError:
            continue
    return messages


def _looks_like_sse(text: str) -> bool:
    return any(line.startswith(("data:", "event:")) for line in text.lstrip().splitlines()[:3])


def _pick(messages: Sequence[Any]) -> Mapping[str, Any]:
    """The reply among the messages: the last one with a ``result``, ``error`` or ``success``.

    Anything else (a progress notification, another API's stream) is not a reply.
    """
    objects = [message for message in messages if isinstance(message, Mapping)]
    replies = [m for m in objects if "result" in m or "error" in m or "success" in m]
    if not replies:
        raise _parse_failure()
    return replies[-1]


def rpc_message(body: bytes, events: Sequence[SseEvent] = ()) -> Mapping[str, Any]:
    """The JSON-RPC reply in a 2xx body, whether it came as SSE or as plain JSON.

    Args:
        body: The raw body (kept by the transport even when it was a stream).
        events: The events the transport parsed, when the body was ``text/event-stream``.

    Raises:
        ResponseParseError: No JSON message could be read (``Failed to parse Z.AI MCP
            response``).
    """
    if events:
        return _pick(_json_messages(events))
    text = body.decode("utf-8", errors="replace")
    if _looks_like_sse(text):
        try:
            parsed = parse_sse(body)
        except SseError:
            raise _parse_failure() from None
        return _pick(_json_messages(parsed))
    try:
        return _pick([json.loads(text)])
    except ValueError:
        raise _parse_failure() from None


def _http_like(code: Any) -> int | None:
    if isinstance(code, int) and not isinstance(code, bool) and 100 <= code <= 599:
        return code
    if isinstance(code, str) and code.isdigit() and 100 <= int(code) <= 599:
        return int(code)
    return None


def _classified(status: int | None, message: str) -> SearchProviderError:
    """A JSON-level failure typed like an HTTP one (quota text, 401/403, 402); else plain."""
    effective = status if status is not None else 400
    found = classify_http_error(PROVIDER_ID, effective, message)
    if found is not None:
        # Keep Z.AI's own words: the chain passes a Z.AI 401/403 message through verbatim.
        return type(found)(PROVIDER_ID, message, effective)
    if effective == 429:
        return RateLimitedError(PROVIDER_ID, message, effective)
    if effective >= 500:
        return ProviderUnavailableError(PROVIDER_ID, message, effective)
    return SearchProviderError(PROVIDER_ID, message, effective)


def _first_text(value: Mapping[str, Any], keys: Iterable[str]) -> str | None:
    for key in keys:
        text = value.get(key)
        if isinstance(text, str) and text.strip():
            return text.strip()
    return None


def _content_texts(result: Mapping[str, Any]) -> list[str]:
    content = result.get("content")
    if not isinstance(content, list):
        return []
    texts = (part.get("text") for part in content if isinstance(part, Mapping))
    return [text for text in texts if isinstance(text, str)]


def raise_for_rpc_error(message: Mapping[str, Any]) -> None:
    """Raise the error a JSON-RPC reply carries, if it carries one.

    Three shapes: Z.AI's own ``{"success": false, "msg", "code"}`` envelope, a JSON-RPC
    ``error`` object and a tool result with ``isError: true``.
    """
    if message.get("success") is False:
        text = _first_text(message, ("msg", "message", "error_message")) or "Unknown error"
        code = message.get("code")
        raise _classified(_http_like(code), f"Z.AI API error ({code}): {text}")
    error = message.get("error")
    if isinstance(error, Mapping):
        code = error.get("code")
        text = _first_text(error, ("message",)) or "Unknown error"
        raise _classified(_http_like(code), f"Z.AI MCP error ({code}): {text}")
    result = message.get("result")
    if isinstance(result, Mapping) and result.get("isError") is True:
        text = "\n".join(_content_texts(result)).strip() or "Z.AI MCP tool call failed"
        found = _MCP_ERROR_CODE.search(text)
        raise _classified(_http_like(abs(int(found.group(1)))) if found else None, text)


# --- the tool result --------------------------------------------------------------------------


def decode_text(text: str) -> Any:
    """A tool text as data: JSON, JSON inside a JSON string, or a Python literal; else ``None``.

    Z.AI double-encodes (a JSON string holding the JSON list); its Anthropic-compatible
    endpoint also emits a Python ``repr`` (``[{'text': [{'title': ...}]}]``), read with
    :func:`ast.literal_eval`, which evaluates literals only.
    """
    stripped = text.strip()
    if not stripped:
        return None
    try:
        value: Any = json.loads(stripped)
    except ValueError:
        return _literal(stripped)
    if isinstance(value, str):
        inner = value.strip()
        try:
            return json.loads(inner)
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
    is the list) or an object with ``search_result[]`` or ``results[]``.
    """
    if isinstance(value, Mapping):
        for key in _RESULT_LIST_KEYS:
            listed = value.get(key)
            if isinstance(listed, list):
                return _flatten(listed)
        return None
    if isinstance(value, list):
        return _flatten(value)
    return None


def _flatten(items: list[Any], depth: int = 0) -> list[Mapping[str, Any]]:
    flat: list[Mapping[str, Any]] = []
    if depth > 4:
        return flat
    for item in items:
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
        raise _parse_failure()
    candidates: list[Any] = [result]
    candidates.extend(result.get(key) for key in ("structuredContent", "data", "result"))
    texts = _content_texts(result)
    decoded = [decode_text(text) for text in texts]
    for candidate in [*candidates, *decoded]:
        items = result_items(candidate)
        if items is not None:
            answer = tuple(
                text.strip()
                for text, value in zip(texts, decoded, strict=True)
                if result_items(value) is None and text.strip()
            )
            return ToolPayload(items=items, payload=candidate, answer_texts=answer)
    return ToolPayload(
        items=None, payload=result, answer_texts=tuple(t.strip() for t in texts if t.strip())
    )


def _text(value: Any) -> str | None:
    return (value.strip() or None) if isinstance(value, str) else None


def source_from_item(item: Mapping[str, Any], now: datetime | None = None) -> SearchSource | None:
    """One result object as a source (``None`` without an ``http(s)`` link).

    url = ``link`` or ``url``; title = ``title`` or the URL; snippet = ``content``;
    published date = ``publish_date`` or ``publishedDate``; author = ``media``.
    """
    url = _text(item.get("link")) or _text(item.get("url"))
    if url is None or not is_http_url(url):
        return None
    title = _text(item.get("title"))
    published = _text(item.get("publish_date")) or _text(item.get("publishedDate"))
    return SearchSource(
        title=collapse_whitespace(title) if title else url,
        url=url,
        snippet=_text(item.get("content")),
        published_date=published,
        age_seconds=age_seconds_from_date(published, now=now),
        author=_text(item.get("media")),
    )


def _request_id(*values: Any) -> str | None:
    for value in values:
        if not isinstance(value, Mapping):
            continue
        for key in ("request_id", "requestId", "id"):
            found = value.get(key)
            if isinstance(found, str) and found.strip():
                return found.strip()
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
        raise _parse_failure()
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
    for value in _json_messages(events):
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
            message_id = _text(started.get("id"))
        block = data.get("content_block")
        delta = data.get("delta")
        if isinstance(delta, Mapping) and delta.get("type") == "text_delta":
            answer.append(str(delta.get("text") or ""))
        if not isinstance(block, Mapping):
            continue
        tool_input = block.get("input")
        if block.get("type") == "server_tool_use" and isinstance(tool_input, Mapping):
            query = _text(tool_input.get("search_query")) or _text(tool_input.get("query"))
            if query and query not in queries:
                queries.append(query)
        content = block.get("content")
        if block.get("type") == "tool_result" and isinstance(content, str):
            items = result_items(decode_text(content)) or []
            sources.extend(s for item in items if (s := source_from_item(item, now)) is not None)
    return SearchResponse(
        provider=PROVIDER_ID,
        answer="".join(answer).strip() or None,
        sources=tuple(sources),
        search_queries=tuple(queries),
        request_id=message_id,
        auth_mode="api_key",
    )
