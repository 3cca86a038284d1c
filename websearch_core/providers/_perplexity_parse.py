"""Pure parsing for the Perplexity provider: chat-completion streams and the ask stream.

Kept apart from :mod:`websearch_core.providers.perplexity` so the provider module stays
small; nothing here does I/O.

* :func:`parse_chat_chunks` merges ``chat.completion.chunk`` objects (one per SSE event, or
  one per line in a recorded ``.chunks.txt``) and :func:`parse_chat_completion` reads a
  non-streamed ``chat.completion``; both end in :func:`chat_response`. OpenRouter's
  OpenAI-style ``annotations[].url_citation`` are read as well as Perplexity's own
  ``citations`` and ``search_results``.
* :func:`merge_ask_events` folds the ask endpoint's JSON snapshots into one, and
  :func:`parse_ask` turns the result into a response.
"""

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from ..errors import ResponseParseError, SearchProviderError
from ..models import SearchCitation, SearchResponse, SearchSource, SearchUsage
from ..sse import SseEvent
from ._common import age_seconds_from_date, collapse_whitespace, is_http_url

__all__ = [
    "AskResult",
    "ChatStream",
    "ask_answer",
    "ask_sources",
    "chat_response",
    "events_json",
    "merge_ask_events",
    "parse_ask",
    "parse_chat_chunks",
    "parse_chat_completion",
]

PROVIDER_ID = "perplexity"
STREAM_FAILED = "Perplexity API stream failed"


def _text(value: Any) -> str | None:
    return (value.strip() or None) if isinstance(value, str) else None


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def events_json(events: Iterable[SseEvent]) -> list[Mapping[str, Any]]:
    """The JSON objects of a stream's events; ``[DONE]`` and non-JSON events are skipped."""
    objects: list[Mapping[str, Any]] = []
    for event in events:
        data = event.data.strip()
        if not data or data == "[DONE]":
            continue
        try:
            value = json.loads(data)
        except ValueError:
            continue
        if isinstance(value, Mapping):
            objects.append(value)
    return objects


# --- chat completions (API-key mode, direct or through OpenRouter) ----------------------------


@dataclass
class ChatStream:
    """What a chat-completion stream (or a whole completion) carried."""

    answer: str = ""
    request_id: str | None = None
    model: str | None = None
    citations: list[str] = field(default_factory=list)
    search_results: list[Mapping[str, Any]] = field(default_factory=list)
    related_questions: list[str] = field(default_factory=list)
    annotations: list[Mapping[str, Any]] = field(default_factory=list)
    usage: Mapping[str, Any] | None = None

    def absorb(self, data: Mapping[str, Any], *, delta_key: str) -> None:
        """Fold one chunk (``delta_key="delta"``) or one completion (``"message"``) in."""
        self.request_id = _text(data.get("id")) or self.request_id
        self.model = _text(data.get("model")) or self.model
        for key, target in (("citations", "citations"), ("related_questions", "related")):
            listed = data.get(key)
            if isinstance(listed, list) and listed:
                texts = [item.strip() for item in listed if isinstance(item, str) and item.strip()]
                if target == "citations":
                    self.citations = texts
                else:
                    self.related_questions = texts
        results = data.get("search_results")
        if isinstance(results, list) and results:
            self.search_results = [item for item in results if isinstance(item, Mapping)]
        if isinstance(data.get("usage"), Mapping):
            self.usage = data["usage"]
        choices = data.get("choices")
        first = _mapping(choices[0]) if isinstance(choices, list) and choices else {}
        part = _mapping(first.get(delta_key))
        content = part.get("content")
        if isinstance(content, str):
            self.answer += content
        annotations = part.get("annotations")
        if isinstance(annotations, list):
            self.annotations.extend(item for item in annotations if isinstance(item, Mapping))


def _stream_error(data: Mapping[str, Any]) -> SearchProviderError | None:
    error = data.get("error")
    if error is None:
        return None
    details = _mapping(error)
    message = _text(details.get("message")) or _text(error) or STREAM_FAILED
    code = details.get("code")
    status = code if isinstance(code, int) and 100 <= code <= 599 else 500
    return SearchProviderError(PROVIDER_ID, f"Perplexity API error ({status}): {message}", status)


def parse_chat_chunks(
    chunks: Iterable[Mapping[str, Any]],
    *,
    requested_model: str,
    limit: int | None = None,
    now: datetime | None = None,
) -> SearchResponse:
    """Merge streamed chunks into one response.

    Text deltas are concatenated; the last ``id``, ``model``, ``citations``,
    ``search_results`` and ``related_questions`` seen win; usage comes from the last chunk
    that has it.

    Raises:
        SearchProviderError: A chunk carried an ``error`` (``Perplexity API error
            (<status>): <details>``, status 500 unless the error gives one).
    """
    stream = ChatStream()
    for chunk in chunks:
        failure = _stream_error(chunk)
        if failure is not None:
            raise failure
        stream.absorb(chunk, delta_key="delta")
    return chat_response(stream, requested_model=requested_model, limit=limit, now=now)


def parse_chat_completion(
    data: Any, *, requested_model: str, limit: int | None = None, now: datetime | None = None
) -> SearchResponse:
    """Read a non-streamed ``chat.completion`` (what a server sends when it ignores ``stream``).

    Raises:
        ResponseParseError: The body is not a chat completion.
        SearchProviderError: The body is an error object.
    """
    if not isinstance(data, Mapping):
        raise ResponseParseError(PROVIDER_ID, "Perplexity API returned an unexpected body", 502)
    failure = _stream_error(data)
    if failure is not None:
        raise failure
    if not isinstance(data.get("choices"), list):
        raise ResponseParseError(PROVIDER_ID, "Perplexity API returned an unexpected body", 502)
    stream = ChatStream()
    stream.absorb(data, delta_key="message")
    return chat_response(stream, requested_model=requested_model, limit=limit, now=now)


def _result_source(item: Mapping[str, Any], now: datetime | None) -> SearchSource | None:
    url = _text(item.get("url"))
    if url is None or not is_http_url(url):
        return None
    title = _text(item.get("title"))
    published = _text(item.get("date")) or _text(item.get("last_updated"))
    return SearchSource(
        title=collapse_whitespace(title) if title else url,
        url=url,
        snippet=_text(item.get("snippet")),
        published_date=published,
        age_seconds=age_seconds_from_date(published, now=now),
    )


def _snippet(value: Any) -> str | None:
    text = _text(value)
    return collapse_whitespace(text) if text else None


def _annotation_sources(
    annotations: Sequence[Mapping[str, Any]],
) -> tuple[list[SearchSource], list[SearchCitation]]:
    sources: dict[str, SearchSource] = {}
    for annotation in annotations:
        cited = _mapping(annotation.get("url_citation"))
        url = _text(cited.get("url"))
        if url is None or not is_http_url(url) or url in sources:
            continue
        title = _text(cited.get("title"))
        sources[url] = SearchSource(
            title=collapse_whitespace(title) if title else url,
            url=url,
            snippet=_snippet(cited.get("content")),
        )
    citations = [
        SearchCitation(url=s.url, title="" if s.title == s.url else s.title)
        for s in sources.values()
    ]
    return list(sources.values()), citations


def _chat_sources(
    stream: ChatStream, now: datetime | None
) -> tuple[list[SearchSource], list[SearchCitation]]:
    results = [s for item in stream.search_results if (s := _result_source(item, now))]
    if stream.citations:
        by_url = {source.url: source for source in results}
        sources: list[SearchSource] = []
        for url in dict.fromkeys(u for u in stream.citations if is_http_url(u)):
            sources.append(by_url.get(url) or SearchSource(title=url, url=url))
        citations = [
            SearchCitation(url=s.url, title="" if s.title == s.url else s.title) for s in sources
        ]
        return sources, citations
    if results:
        return results, []
    return _annotation_sources(stream.annotations)


def _usage(usage: Mapping[str, Any] | None) -> SearchUsage | None:
    if usage is None:
        return None
    counts = [usage.get(key) for key in ("prompt_tokens", "completion_tokens", "total_tokens")]
    numbers = [
        value if isinstance(value, int) and not isinstance(value, bool) else None
        for value in counts
    ]
    if not any(numbers):
        return None
    return SearchUsage(input_tokens=numbers[0], output_tokens=numbers[1], total_tokens=numbers[2])


def chat_response(
    stream: ChatStream,
    *,
    requested_model: str,
    limit: int | None = None,
    now: datetime | None = None,
) -> SearchResponse:
    """The response for merged chat output.

    Sources: one per ``citations`` URL, enriched from the ``search_results`` entry with the
    same URL (the citations are those URLs with their titles); else the ``search_results``;
    else OpenRouter's ``url_citation`` annotations. ``limit`` cuts the sources only.
    """
    sources, citations = _chat_sources(stream, now)
    return SearchResponse(
        provider=PROVIDER_ID,
        answer=stream.answer.strip() or None,
        sources=tuple(sources[:limit] if limit else sources),
        citations=tuple(citations),
        related_questions=tuple(stream.related_questions),
        usage=_usage(stream.usage),
        model=stream.model or requested_model,
        request_id=stream.request_id,
        auth_mode="api_key",
    )


# --- the ask endpoint (cookies, OAuth, anonymous) ---------------------------------------------


def _merge_block(existing: Mapping[str, Any] | None, incoming: Mapping[str, Any]) -> dict[str, Any]:
    merged = dict(existing or {})
    for key, value in incoming.items():
        if key == "markdown_block" and isinstance(value, Mapping):
            merged[key] = _merge_markdown(_mapping(merged.get(key)), value)
        else:
            merged[key] = value
    return merged


def _merge_markdown(existing: Mapping[str, Any], incoming: Mapping[str, Any]) -> dict[str, Any]:
    merged = {**existing, **incoming}
    chunks = incoming.get("chunks")
    if isinstance(chunks, list):
        offset = incoming.get("chunk_starting_offset")
        previous = existing.get("chunks")
        previous_list = previous if isinstance(previous, list) else []
        if isinstance(offset, int) and offset > 0:
            merged["chunks"] = previous_list[:offset] + chunks
        else:
            merged["chunks"] = list(chunks)
    return merged


def _ask_error(event: Mapping[str, Any]) -> SearchProviderError | None:
    code = event.get("error_code")
    if code is None:
        return None
    detail = _text(event.get("error_message")) or str(code)
    return SearchProviderError(PROVIDER_ID, f"Perplexity ask stream error: {detail}", 400)


def merge_ask_events(events: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Fold the ask stream's snapshots into one.

    Top-level fields are shallow-merged; ``blocks`` are merged per ``intended_usage`` (a
    ``markdown_block``'s ``chunks`` from ``chunk_starting_offset`` on: 0 replaces them); an
    earlier ``sources_list`` survives an event without one. Events after one marked
    ``final: true`` or ``status: "COMPLETED"`` are ignored.

    Raises:
        SearchProviderError: An event carried an ``error_code`` (status 400).
    """
    merged: dict[str, Any] = {}
    blocks: dict[str, dict[str, Any]] = {}
    for event in events:
        failure = _ask_error(event)
        if failure is not None:
            raise failure
        for key, value in event.items():
            if key != "blocks":
                merged[key] = value
        incoming = event.get("blocks")
        for block in incoming if isinstance(incoming, list) else []:
            if isinstance(block, Mapping):
                usage = str(block.get("intended_usage") or "")
                blocks[usage] = _merge_block(blocks.get(usage), block)
        if event.get("final") is True or event.get("status") == "COMPLETED":
            break
    merged["blocks"] = list(blocks.values())
    return merged


def _markdown_text(block: Mapping[str, Any]) -> str | None:
    markdown = _mapping(block.get("markdown_block"))
    chunks = markdown.get("chunks")
    if isinstance(chunks, list) and chunks:
        return "".join(str(chunk) for chunk in chunks if isinstance(chunk, str)) or None
    return _text(markdown.get("answer"))


def _structured_text(value: Any) -> str | None:
    """The answer in the ask stream's JSON ``text``: an object or a list of steps."""
    if isinstance(value, list):
        for step in reversed(value):
            content = _mapping(_mapping(step).get("content"))
            inner = content.get("answer")
            if isinstance(inner, str):
                found = _structured_text(_loads(inner)) or _text(inner)
                if found:
                    return found
        return None
    data = _mapping(value)
    structured = data.get("structured_answer")
    if isinstance(structured, list):
        joined = "".join(_raw_text(_mapping(item)) for item in structured)
        if joined.strip():
            return joined
    chunks = data.get("chunks")
    if isinstance(chunks, list) and chunks:
        return "".join(str(chunk) for chunk in chunks if isinstance(chunk, str)) or None
    return _text(data.get("answer")) or _text(data.get("text"))


def _raw_text(item: Mapping[str, Any]) -> str:
    """An answer piece as written: its ``text``, else its ``chunks`` joined."""
    text = item.get("text")
    if isinstance(text, str):
        return text
    chunks = item.get("chunks")
    if isinstance(chunks, list):
        return "".join(chunk for chunk in chunks if isinstance(chunk, str))
    return ""


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def ask_answer(merged: Mapping[str, Any]) -> str | None:
    """The answer: a ``*markdown*`` block, else the ``ask_text`` block, else ``text``."""
    blocks = [b for b in merged.get("blocks", []) if isinstance(b, Mapping)]
    for block in blocks:
        if "markdown" in str(block.get("intended_usage") or "") and "markdown_block" in block:
            found = _markdown_text(block)
            if found:
                return found.strip()
    for block in blocks:
        if block.get("intended_usage") == "ask_text":
            found = _markdown_text(block)
            if found:
                return found.strip()
    text = merged.get("text")
    if not isinstance(text, str) or not text.strip():
        return None
    parsed = _loads(text)
    if parsed is None:
        return text.strip()
    found = _structured_text(parsed)
    return found.strip() if found else None


def _url_key(url: str) -> str:
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        return url.rstrip("/").lower()
    path = parts.path.rstrip("/")
    return urlunsplit((parts.scheme.lower(), host + port, path, parts.query, ""))


def _ask_source(item: Any, now: datetime | None) -> SearchSource | None:
    data = _mapping(item)
    url = _text(data.get("url"))
    if url is None or not is_http_url(url):
        return None
    title = _text(data.get("name")) or _text(data.get("title"))
    published = _text(data.get("timestamp")) or _text(data.get("date"))
    return SearchSource(
        title=collapse_whitespace(title) if title else url,
        url=url,
        snippet=_text(data.get("snippet")),
        published_date=published,
        age_seconds=age_seconds_from_date(published, now=now),
    )


def _text_web_results(text: Any) -> list[Any]:
    parsed = _loads(text) if isinstance(text, str) else None
    steps = parsed if isinstance(parsed, list) else [parsed]
    found: list[Any] = []
    for step in steps:
        data = _mapping(step)
        for holder in (data, _mapping(data.get("content"))):
            listed = holder.get("web_results")
            if isinstance(listed, list):
                found.extend(listed)
    return found


def ask_sources(merged: Mapping[str, Any], now: datetime | None = None) -> list[SearchSource]:
    """The ask stream's sources.

    The ``web_results`` block, else ``sources_list``, else the web results in the JSON
    ``text``; de-duplicated by normalised URL (first position, latest fields).
    """
    items: list[Any] = []
    for block in merged.get("blocks", []):
        if isinstance(block, Mapping) and block.get("intended_usage") == "web_results":
            listed = _mapping(block.get("web_result_block")).get("web_results")
            items = listed if isinstance(listed, list) else []
    if not items and isinstance(merged.get("sources_list"), list):
        items = merged["sources_list"]
    if not items:
        items = _text_web_results(merged.get("text"))
    unique: dict[str, SearchSource] = {}
    for item in items:
        source = _ask_source(item, now)
        if source is not None:
            unique[_url_key(source.url)] = source
    return list(unique.values())


@dataclass(frozen=True, slots=True)
class AskResult:
    """How an ask request was made, for the response's model and request id."""

    auth_mode: str
    """``"oauth"`` (also for cookies) or ``"anonymous"``."""
    requested_model: str
    request_id: str


def _ask_model(merged: Mapping[str, Any], request: AskResult) -> str:
    for key in ("user_selected_model", "display_model"):
        value = _text(merged.get(key))
        if value and value != "turbo":
            return value
    display = _text(merged.get("display_model"))
    if request.auth_mode == "anonymous" and display:
        return display
    return request.requested_model


def parse_ask(
    events: Iterable[Mapping[str, Any]],
    request: AskResult,
    *,
    limit: int | None = None,
    now: datetime | None = None,
) -> SearchResponse:
    """The response for an ask stream's JSON events."""
    merged = merge_ask_events(events)
    sources = ask_sources(merged, now)
    return SearchResponse(
        provider=PROVIDER_ID,
        answer=ask_answer(merged),
        sources=tuple(sources[:limit] if limit else sources),
        model=_ask_model(merged, request),
        request_id=_text(merged.get("uuid")) or request.request_id,
        auth_mode=request.auth_mode,
    )
