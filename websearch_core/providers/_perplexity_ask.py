"""Pure parsing of the Perplexity ask endpoint's stream (cookies, OAuth, anonymous).

The endpoint streams JSON snapshots: :func:`merge_ask_events` folds them into one (blocks
merged by ``intended_usage``, markdown chunks placed at their offsets) and :func:`parse_ask`
turns the result into a response. Kept apart from the chat-completions parsing in
:mod:`websearch_core.providers._perplexity_parse`; nothing here does I/O.

Failures: an event with ``error_code`` is ``Perplexity ask stream error: <message>`` (400);
a reply with no body is ``Perplexity ask API returned no response body``
(:class:`~websearch_core.errors.ProviderUnavailableError`) and one that is not an event
stream ``Perplexity ask API returned no event stream``
(:class:`~websearch_core.errors.ResponseParseError`). A stream that ends without its final
event is ``Perplexity ask API stream ended before its final event``
(:class:`~websearch_core.errors.ProviderUnavailableError`, 500), as the API-key, Codex and
Gemini streams that end early are: its body can close cleanly mid-answer.

The end of an ask stream (:func:`ask_finished`): the reference stops at an event with
``final: true`` or ``status: "COMPLETED"``; clients written against the live endpoint read
the last snapshot's ``final_sse_message: true`` (with ``status: "COMPLETED"``) and then an
``event: end_of_stream`` with ``data: {}``, and no ``[DONE]``. Any of these ends it. No
capture of this endpoint is stored in ``fixtures/`` (only the chat-completions API's).

The answer's ``[n]`` markers: with no capture, read as clients of the live endpoint read
them (the n-th entry of ``web_results``), as the API's number its ``citations``; a web
result listed twice or without a web URL makes no source of its own, so the markers are
renumbered to the sources made (:func:`~..filters.markers.as_sources`).
"""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from ..errors import ProviderUnavailableError, ResponseParseError, SearchProviderError
from ..event_stream_body import asked_stream_events
from ..filters.markers import as_sources, cut_to
from ..js_string import js_string
from ..js_trim import is_blank, trim
from ..json_decode import json_loads
from ..models import SearchResponse, SearchSource
from ..sse import SseEvent
from ..stream_apis import PERPLEXITY_ASK, refuse_foreign_stream, sse_payloads
from ..stream_ends import PERPLEXITY_ASK_END
from ..transport import SseResponse
from ._common import age_seconds_from_date, collapse_whitespace, first_items, is_http_url
from ._perplexity_parse import PROVIDER_ID, as_mapping, clean_text, events_json

__all__ = [
    "AskResult",
    "ask_answer",
    "ask_finished",
    "ask_sources",
    "merge_ask_events",
    "parse_ask",
    "parse_ask_answer",
]


NO_STREAM = "Perplexity ask API returned no event stream"
"""A 2xx reply whose body is no event stream (a login page), whatever its label."""
UNEXPECTED_STREAM = "Perplexity ask API returned an unexpected stream"
"""The frame of the refusal of another API's stream (:mod:`..stream_apis` words the rest)."""
STREAM_CUT = "Perplexity ask API stream ended before its final event"
"""A 2xx stream whose body closed without any of the markers :func:`ask_finished` reads."""


def ask_finished(events: Sequence[SseEvent], snapshots: Iterable[Mapping[str, Any]]) -> bool:
    """Whether an ask stream came to its end, not merely to the end of its body.

    Its last snapshot says so (``final: true``, ``final_sse_message: true`` or ``status:
    "COMPLETED"``), or an ``end_of_stream`` event follows it; a server or proxy that gives
    up mid-answer can still close the body cleanly, with none of them.

    Example:
        >>> ask_finished([], [{"status": "PENDING"}, {"final_sse_message": True}])
        True
        >>> ask_finished([], [{"status": "PENDING", "final": False}])
        False
    """
    # One list of the end's markers (the transport stops reading at the same ones).
    if any(event.event in PERPLEXITY_ASK_END.names for event in events):
        return True
    return any(PERPLEXITY_ASK_END.closes(snapshot) for snapshot in snapshots)


def _merge_block(existing: Mapping[str, Any] | None, incoming: Mapping[str, Any]) -> dict[str, Any]:
    merged = dict(existing or {})
    for key, value in incoming.items():
        if key == "markdown_block" and isinstance(value, Mapping):
            merged[key] = _merge_markdown(as_mapping(merged.get(key)), value)
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
    # ``error_message ?? error_code`` in a template literal: JavaScript's String of the code.
    detail = clean_text(event.get("error_message")) or js_string(code)
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
    markdown = as_mapping(block.get("markdown_block"))
    chunks = markdown.get("chunks")
    if isinstance(chunks, list) and chunks:
        return "".join(str(chunk) for chunk in chunks if isinstance(chunk, str)) or None
    return clean_text(markdown.get("answer"))


def _structured_text(value: Any) -> str | None:
    """The answer in the ask stream's JSON ``text``: an object or a list of steps."""
    if isinstance(value, list):
        for step in reversed(value):
            content = as_mapping(as_mapping(step).get("content"))
            inner = content.get("answer")
            if isinstance(inner, str):
                found = _structured_text(_loads(inner)) or clean_text(inner)
                if found:
                    return found
        return None
    data = as_mapping(value)
    structured = data.get("structured_answer")
    if isinstance(structured, list):
        joined = "".join(_raw_text(as_mapping(item)) for item in structured)
        if not is_blank(joined):
            return joined
    chunks = data.get("chunks")
    if isinstance(chunks, list) and chunks:
        return "".join(str(chunk) for chunk in chunks if isinstance(chunk, str)) or None
    return clean_text(data.get("answer")) or clean_text(data.get("text"))


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
        return json_loads(text)
    except ValueError:
        return None


def ask_answer(merged: Mapping[str, Any]) -> str | None:
    """The answer: a ``*markdown*`` block, else the ``ask_text`` block, else ``text``."""
    blocks = [b for b in merged.get("blocks", []) if isinstance(b, Mapping)]
    for block in blocks:
        if "markdown" in str(block.get("intended_usage") or "") and "markdown_block" in block:
            found = _markdown_text(block)
            if found:
                return trim(found)
    for block in blocks:
        if block.get("intended_usage") == "ask_text":
            found = _markdown_text(block)
            if found:
                return trim(found)
    text = merged.get("text")
    if not isinstance(text, str) or is_blank(text):
        return None
    parsed = _loads(text)
    if parsed is None:
        return trim(text)
    found = _structured_text(parsed)
    return trim(found) if found else None


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
    data = as_mapping(item)
    url = clean_text(data.get("url"))
    if url is None or not is_http_url(url):
        return None
    title = clean_text(data.get("name")) or clean_text(data.get("title"))
    published = clean_text(data.get("timestamp")) or clean_text(data.get("date"))
    return SearchSource(
        title=collapse_whitespace(title) if title else url,
        url=url,
        snippet=clean_text(data.get("snippet")),
        published_date=published,
        age_seconds=age_seconds_from_date(published, now=now),
    )


def _text_web_results(text: Any) -> list[Any]:
    parsed = _loads(text) if isinstance(text, str) else None
    steps = parsed if isinstance(parsed, list) else [parsed]
    found: list[Any] = []
    for step in steps:
        data = as_mapping(step)
        for holder in (data, as_mapping(data.get("content"))):
            listed = holder.get("web_results")
            if isinstance(listed, list):
                found.extend(listed)
    return found


def ask_sources(merged: Mapping[str, Any], now: datetime | None = None) -> list[SearchSource]:
    """The ask stream's sources.

    The ``web_results`` block, else ``sources_list``, else the web results in the JSON
    ``text``; de-duplicated by normalised URL (first position, latest fields).
    """
    return _listed_sources(merged, now)[0]


def _listed_sources(
    merged: Mapping[str, Any], now: datetime | None
) -> tuple[list[SearchSource], list[str | None], int]:
    """:func:`ask_sources`, each listed result's source key, and how many were listed.

    The key is ``None`` for a result that made no source; the answer's markers number the
    list, the results past those read too (:func:`~..filters.markers.as_sources`).
    """
    items: list[Any] = []
    for block in merged.get("blocks", []):
        if isinstance(block, Mapping) and block.get("intended_usage") == "web_results":
            listed = as_mapping(block.get("web_result_block")).get("web_results")
            items = listed if isinstance(listed, list) else []
    if not items and isinstance(merged.get("sources_list"), list):
        items = merged["sources_list"]
    if not items:
        items = _text_web_results(merged.get("text"))
    unique: dict[str, SearchSource] = {}
    keys: list[str | None] = []
    for item in first_items(items):
        source = _ask_source(item, now)
        key = None if source is None else _url_key(source.url)
        keys.append(key)
        if source is not None and key is not None:
            unique[key] = source
    return list(unique.values()), keys, len(items)


@dataclass(frozen=True, slots=True)
class AskResult:
    """How an ask request was made, for the response's model and request id."""

    auth_mode: str
    """``"oauth"`` (also for cookies) or ``"anonymous"``."""
    requested_model: str
    request_id: str


def _ask_model(merged: Mapping[str, Any], request: AskResult) -> str:
    for key in ("user_selected_model", "display_model"):
        value = clean_text(merged.get(key))
        if value and value != "turbo":
            return value
    display = clean_text(merged.get("display_model"))
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
    """The response for an ask stream's JSON events (``limit`` cuts as the API's does)."""
    merged = merge_ask_events(events)
    sources, listed, sent = _listed_sources(merged, now)
    answer = as_sources(ask_answer(merged), listed, sent)
    return SearchResponse(
        provider=PROVIDER_ID,
        answer=cut_to(answer, len(sources), limit or None),
        sources=tuple(sources[:limit] if limit else sources),
        model=_ask_model(merged, request),
        request_id=clean_text(merged.get("uuid")) or request.request_id,
        auth_mode=request.auth_mode,
    )


def parse_ask_answer(
    response: SseResponse, request: AskResult, *, limit: int | None = None
) -> SearchResponse:
    """A 2xx ask reply; an empty one, one without events or one cut short is refused.

    The stream is read by its body: a gateway that labels it ``application/json`` or
    ``text/plain`` left it refused as ``no event stream`` (stop 53, streams56); its first
    line tells (:func:`~..event_stream_body.asked_stream_events`), as for the API-key mode.

    Raises:
        ProviderUnavailableError: The reply had no body, or its stream ended before its
            final event (:func:`ask_finished`), so the chain moves on instead of reading a
            cut answer as the whole of it.
        ResponseParseError: The reply was not an event stream (a login page, say), or it
            was another API's (:func:`~..stream_apis.foreign_stream_error`).
    """
    if not response.body.strip():
        raise ProviderUnavailableError(
            PROVIDER_ID, "Perplexity ask API returned no response body", 500
        )
    # The body's first line, not its label, says whether it is the stream asked for.
    events = asked_stream_events(response.events, response.body)
    if not events:
        raise ResponseParseError(PROVIDER_ID, NO_STREAM, 502)
    snapshots = events_json(events)
    # Read first: an error event ends a stream early too, and its own words come first.
    answer = parse_ask(snapshots, request, limit=limit)
    # Another API's stream (no ask end either) or its events among the snapshots: named.
    refuse_foreign_stream(PROVIDER_ID, UNEXPECTED_STREAM, PERPLEXITY_ASK, sse_payloads(events))
    if not ask_finished(events, snapshots):
        raise ProviderUnavailableError(PROVIDER_ID, STREAM_CUT, 500)
    return answer
