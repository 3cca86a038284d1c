"""Reading Codex (Responses API) answers: the event stream or a plain Responses object.

Pure functions, kept apart from :mod:`websearch_core.providers.codex` (the protocol).

* **Stream:** ``response.created`` / ``response.completed`` give the id, model and usage
  (input tokens exclude cached ones); ``response.output_item.done`` items give the answer
  (``message`` ``output_text`` parts joined by a blank line; else reasoning summaries; else
  the streamed deltas) and the sources: ``web_search_call`` ``action.sources`` /
  ``sources`` / ``results``, every ``url_citation`` annotation (also a citation) and, when
  no ``url_citation`` came, the links in the answer (see :mod:`._codex_text`); sources are
  de-duplicated by URL and cut to ``num_search_results`` or ``limit``.
* **Refusals** (502): no ``web_search_call`` at all gives ``Codex returned a completion
  without running web search ...``; an image placeholder (``see attached image``) with no
  sources gives ``Codex returned image-only response``; no text and no source otherwise
  gives ``Codex returned no answer or sources: <why>``, naming what the message lacked.
* **Error events:** ``error`` / ``response.failed`` give ``Codex error (<code>): <message>``
  / ``Codex request failed (<code>): <message>`` (the code as JavaScript writes it, and
  ``Codex error ()`` with none: the reference's ``code ?? ""``), typed by the shared
  classifier from the status their text implies (rate limit 429, unauthorized 401,
  forbidden 403, timeout 504, else 500), as the text is all a 200 stream has; a code of
  :data:`._codex_errors.SPENT_BALANCE_CODES` is a spent prepaid balance (429), as in an
  error body.
"""

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..errors import CreditsSpentError, ResponseParseError, SearchProviderError
from ..event_stream_body import asked_stream_events
from ..filters.cited import first_cited
from ..js_string import js_string
from ..js_trim import trim
from ..json_decode import decoded_json
from ..models import SearchCitation, SearchParams, SearchResponse, SearchSource, SearchUsage
from ..sse import SseEvent
from ..stream_apis import OPENAI_RESPONSES, refuse_foreign_stream
from ..stream_ends import OPENAI_RESPONSES_END
from ..transport import HttpResponse, SseResponse, raise_for_status
from ._codex_errors import SPENT_BALANCE_CODES
from ._codex_text import is_image_placeholder, links_in_text, snippet_around, strip_openai_utm
from ._common import collapse_whitespace, is_http_url
from ._field_errors import field_error
from ._json_api import list_or_empty, text_or_none

__all__ = ["NoWebSearchError", "parse_body", "parse_response_object", "parse_stream"]

PROVIDER_ID: Final = "codex"
NO_WEB_SEARCH: Final = (
    "Codex returned a completion without running web search (no web_search_call event); "
    "refusing to treat a non-search answer as a search result"
)
IMAGE_ONLY: Final = "Codex returned image-only response"
NO_ANSWER: Final = "Codex returned no answer or sources"
"""The refusal of a searched answer with neither text nor a source and no image placeholder.

The reference gives :data:`IMAGE_ONLY` for every such answer; said of a message item whose
``content`` came broken, or of no message at all, that text was untrue (no image came), so
this one is followed by what the message lacked (:data:`NO_MESSAGE`, :data:`BROKEN_CONTENT`,
:data:`NO_TEXT_PART`).
"""
NO_MESSAGE: Final = "no message item came"
BROKEN_CONTENT: Final = "the message item's content is not a list of parts"
NO_TEXT_PART: Final = "the message item has no output_text part holding text"
EMPTY_BODY: Final = "Codex API returned an empty response"
UNEXPECTED_SHAPE: Final = "Codex API returned an unexpected response shape"
INVALID_JSON: Final = "Codex stream carried invalid JSON"
STREAM_CUT: Final = "the stream ended before the response was completed"
_LAST_EVENTS: Final = frozenset(OPENAI_RESPONSES_END.types)
"""Events that close a response: a stream with none of them (and no error) was cut short."""

_STATUS_FROM_TEXT: Final = (
    (re.compile(r"rate[- ]?limit|too many requests|quota|\b429\b", re.IGNORECASE), 429),
    (re.compile(r"unauthori[sz]ed|\b401\b", re.IGNORECASE), 401),
    (re.compile(r"forbidden|\b403\b", re.IGNORECASE), 403),
    (re.compile(r"timeout|timed out", re.IGNORECASE), 504),
)


class NoWebSearchError(SearchProviderError):
    """The model answered without searching; the next model may search."""

    def __init__(self, provider: str = PROVIDER_ID, message: str = NO_WEB_SEARCH) -> None:
        super().__init__(provider, message, 502)


@dataclass
class _Sources:
    """Sources by URL (first position wins; a real title replaces a URL-only one)."""

    by_url: dict[str, SearchSource] = field(default_factory=dict)

    def add(self, url: Any, title: Any = None, snippet: str | None = None) -> str | None:
        clean = text_or_none(url)
        if clean is None or not is_http_url(clean):
            return None
        clean = strip_openai_utm(clean)
        name = (collapse_whitespace(title) if isinstance(title, str) else "") or clean
        known = self.by_url.get(clean)
        if known is None:
            self.by_url[clean] = SearchSource(title=name, url=clean, snippet=snippet)
            return clean
        update: dict[str, Any] = {}
        if known.title == clean and name != clean:
            update["title"] = name
        if known.snippet is None and snippet:
            update["snippet"] = snippet
        if update:
            self.by_url[clean] = known.model_copy(update=update)
        return clean


@dataclass
class _Reading:
    """What the output items of one response say."""

    sources: _Sources = field(default_factory=_Sources)
    citations: list[SearchCitation] = field(default_factory=list)
    parts: list[str] = field(default_factory=list)
    summaries: list[str] = field(default_factory=list)
    searched: bool = False
    messages: list[str] = field(default_factory=list)
    """For each message item, what it lacked (``""`` when it held text)."""

    def item(self, item: Any) -> None:
        if not isinstance(item, Mapping):
            return
        kind = item.get("type")
        if kind == "web_search_call":
            self.searched = True
            self.search_call(item)
        elif kind == "message":
            self.message(item.get("content"))
        elif kind == "reasoning":
            for summary in list_or_empty(item.get("summary")):
                if isinstance(summary, Mapping) and text_or_none(summary.get("text")):
                    self.summaries.append(trim(str(summary["text"])))

    def message(self, content: Any) -> None:
        """A message item's ``output_text`` parts, and what it lacked when none held text."""
        if not isinstance(content, list):
            self.messages.append(BROKEN_CONTENT)
            return
        before = len(self.parts)
        for part in list_or_empty(content):
            if isinstance(part, Mapping) and part.get("type") == "output_text":
                self.output_text(part)
        self.messages.append("" if len(self.parts) > before else NO_TEXT_PART)

    def why_empty(self) -> str:
        """What the answer lacked, for :data:`NO_ANSWER` (first message item that gave no text).

        Example:
            >>> reading = _Reading()
            >>> reading.why_empty()
            'no message item came'
            >>> reading.message({"text": "a"})
            >>> reading.why_empty()
            "the message item's content is not a list of parts"
        """
        return next((lack for lack in self.messages if lack), NO_MESSAGE)

    def search_call(self, item: Mapping[str, Any]) -> None:
        action = item.get("action")
        action = action if isinstance(action, Mapping) else {}
        for key in ("sources", "results"):
            for holder in (action, item):
                for entry in list_or_empty(holder.get(key)):
                    if isinstance(entry, Mapping):
                        url = entry.get("url") or entry.get("source_website_url")
                        self.sources.add(url, entry.get("title") or entry.get("caption"))
        if action.get("type") == "open_page":
            self.sources.add(action.get("url"))

    def output_text(self, part: Mapping[str, Any]) -> None:
        raw = part.get("text")
        text = raw if isinstance(raw, str) else ""
        if trim(text):
            self.parts.append(trim(text))
        for note in list_or_empty(part.get("annotations")):
            if not isinstance(note, Mapping) or note.get("type") != "url_citation":
                continue
            snippet = snippet_around(text, note.get("start_index"), note.get("end_index"))
            url = self.sources.add(note.get("url"), note.get("title"), snippet)
            if url is not None:
                title = text_or_none(note.get("title")) or ""
                self.citations.append(SearchCitation(url=url, title=title, cited_text=snippet))


def _usage(value: Any) -> SearchUsage | None:
    if not isinstance(value, Mapping):
        return None

    def number(name: str) -> int | None:
        found = value.get(name)
        return found if isinstance(found, int) and not isinstance(found, bool) else None

    details = value.get("input_tokens_details")
    cached = details.get("cached_tokens") if isinstance(details, Mapping) else None
    input_tokens = number("input_tokens")
    if input_tokens is not None and isinstance(cached, int):
        input_tokens = max(0, input_tokens - cached)
    usage = SearchUsage(
        input_tokens=input_tokens,
        output_tokens=number("output_tokens"),
        total_tokens=number("total_tokens"),
    )
    return usage if usage != SearchUsage() else None


def _summarise(
    items: Iterable[Any],
    *,
    response: Mapping[str, Any],
    params: SearchParams | None,
    deltas: str = "",
    searched: bool = False,
) -> SearchResponse:
    reading = _Reading(searched=searched)
    for item in items:
        reading.item(item)
    if not reading.searched:
        raise NoWebSearchError()
    answer = "\n\n".join(reading.parts) or "\n\n".join(reading.summaries) or trim(deltas)
    image_only = bool(answer) and is_image_placeholder(answer)
    if image_only:
        answer = ""
    if not reading.citations and answer:
        for title, url in links_in_text(answer):
            reading.sources.add(url, title or None)
    sources = tuple(reading.sources.by_url.values())
    if not answer and not sources:
        message = IMAGE_ONLY if image_only else f"{NO_ANSWER}: {reading.why_empty()}"
        raise SearchProviderError(PROVIDER_ID, message, 502)
    count = params.result_count if params is not None else None
    # The answer's links to the pages cut off, and their citations, go with them.
    cited, citations = first_cited(
        answer, reading.citations, sources, count, numbers=False, links=True
    )
    return SearchResponse(
        provider=PROVIDER_ID,
        answer=cited or None,
        sources=sources[:count] if count else sources,
        citations=citations,
        usage=_usage(response.get("usage")),
        model=text_or_none(response.get("model")),
        request_id=text_or_none(response.get("id")),
        auth_mode="oauth",
    )


def parse_response_object(data: Any, params: SearchParams | None = None) -> SearchResponse:
    """A complete Responses API object (``{"object": "response", "output": [...]}``), pure.

    Raises:
        ResponseParseError: ``data`` is not a Responses object (a Chat Completions body, say).
        NoWebSearchError: The model answered without a ``web_search_call``.
        SearchProviderError: Neither answer text nor a source came back (502).
    """
    if not isinstance(data, Mapping):
        raise ResponseParseError(PROVIDER_ID, UNEXPECTED_SHAPE, 502)
    if not isinstance(data.get("output"), list):
        raise field_error(PROVIDER_ID, UNEXPECTED_SHAPE, data, "output", "a list")
    return _summarise(data["output"], response=data, params=params)


def _raise_event_error(kind: str, payload: Mapping[str, Any]) -> None:
    holders: list[Mapping[str, Any]] = [payload]
    if isinstance(payload.get("error"), Mapping):
        holders.append(payload["error"])
    response = payload.get("response")
    if isinstance(response, Mapping) and isinstance(response.get("error"), Mapping):
        holders.append(response["error"])
    code = next((h.get("code") for h in holders if h.get("code")), None)
    detail = next((h.get("message") for h in holders if text_or_none(h.get("message"))), None)
    # The reference writes the code into a template literal (``code ?? ""``): JavaScript's
    # String of it, so ``true`` and ``429.0`` read ``true`` and ``429``, not Python's
    # ``True``, ``429.0`` or, with no code, ``None``.
    label = "" if code is None else js_string(code)
    if kind == "error":
        message = f"Codex error ({label}): {detail or 'Unknown error'}"
    elif code:
        message = f"Codex request failed ({label}): {detail or 'Request failed'}"
    else:
        message = f"Codex request failed: {detail or 'Request failed'}"
    if isinstance(code, str) and code in SPENT_BALANCE_CODES:  # a code object is no such word
        raise CreditsSpentError(PROVIDER_ID, message, 429)
    status = next((s for pattern, s in _STATUS_FROM_TEXT if pattern.search(message)), 500)
    raise_for_status(
        PROVIDER_ID, HttpResponse(status=status, body=message.encode("utf-8", "replace")), message
    )
    raise SearchProviderError(PROVIDER_ID, message, status)  # pragma: no cover  (always raised)


@dataclass
class _StreamState:
    response: dict[str, Any] = field(default_factory=dict)
    items: list[Any] = field(default_factory=list)
    deltas: list[str] = field(default_factory=list)
    searched: bool = False
    ended: bool = False
    """Whether an event that closes a response arrived (:data:`_LAST_EVENTS`)."""
    seen: list[tuple[object, str]] = field(default_factory=list)
    """Each event read, decoded, with its SSE name: what :func:`_refuse_foreign` tests."""

    def feed(self, kind: str, payload: Mapping[str, Any]) -> None:
        if kind.startswith("response.web_search_call"):
            self.searched = True
        if kind in ("error", "response.failed"):
            _raise_event_error(kind, payload)
        self.ended = self.ended or kind in _LAST_EVENTS
        if kind in (
            "response.created",
            "response.completed",
            "response.done",
            "response.incomplete",
        ):
            response = payload.get("response")
            if isinstance(response, Mapping):
                self.response.update({k: v for k, v in response.items() if v is not None})
        elif kind == "response.output_text.delta" and isinstance(payload.get("delta"), str):
            self.deltas.append(payload["delta"])
        elif kind == "response.output_item.done":
            self.items.append(payload.get("item"))


def parse_stream(events: Iterable[SseEvent], params: SearchParams | None = None) -> SearchResponse:
    """Fold a Responses event stream (Codex or the public API) into a response (pure).

    Raises:
        ResponseParseError: An event's data is not a JSON object, or the stream is another
            API's (:func:`~..stream_apis.foreign_stream_error`).
        SearchProviderError: An ``error`` / ``response.failed`` event (typed by the shared
            classifier), no web search, or neither answer text nor a source.
    """
    state = _folded(events)
    _refuse_foreign(state)
    return _answer_of(state, params)


def _refuse_foreign(state: "_StreamState") -> None:
    """Name another API's stream as one, not as a Responses stream cut or unsearched.

    Looked for in every stream, since another API's events mixed into a Responses stream
    were read past, unnamed; the events are the fold's own, decoded once.
    """
    refuse_foreign_stream(PROVIDER_ID, UNEXPECTED_SHAPE, OPENAI_RESPONSES, state.seen)


def _folded(events: Iterable[SseEvent]) -> _StreamState:
    """The stream's events read into one state; an error event raises as it is met.

    Reading stops at the event that closes the response (:data:`_LAST_EVENTS`): what comes
    after it belongs to no response this request made. Read on, a ``message`` item repeated
    after ``response.completed`` doubled the answer (the capture: 211 characters, then 424).
    """
    state = _StreamState()
    for event in events:
        if state.ended:
            break
        if event.data.strip() == "[DONE]":
            continue
        try:
            payload = decoded_json(event.data)
        except ValueError:
            raise ResponseParseError(PROVIDER_ID, INVALID_JSON, 502) from None
        if not isinstance(payload, Mapping):
            raise ResponseParseError(PROVIDER_ID, INVALID_JSON, 502)
        state.seen.append((payload, event.event))
        state.feed(_kind(payload, event), payload)
    return state


def _kind(payload: Mapping[str, Any], event: SseEvent) -> str:
    """The event's type: its data's ``type`` when that is a string, else its SSE name.

    ``str(payload["type"])`` made a closing event whose ``type`` came as a number, list or
    object a ``"7"``-named event: the stream read as cut, and the answer already streamed was
    refused as ``the stream ended before the response was completed``, which it had not.
    The SSE ``event:`` line names the same type, so it stands in, as it did for ``null``.
    """
    kind = payload.get("type")
    return kind if isinstance(kind, str) and kind else event.event


def _answer_of(state: _StreamState, params: SearchParams | None) -> SearchResponse:
    items: Sequence[Any] = state.items
    if not items and isinstance(state.response.get("output"), list):
        items = state.response["output"]
    return _summarise(
        items,
        response=state.response,
        params=params,
        deltas="".join(state.deltas),
        searched=state.searched,
    )


def parse_body(response: SseResponse, params: SearchParams | None = None) -> SearchResponse:
    """A 2xx answer: its events, or a plain JSON Responses object when it sent no stream.

    The events are the body's own when a gateway labelled the stream ``application/json``
    (:func:`~..event_stream_body.asked_stream_events`): the request asked for that stream.

    Raises:
        SearchProviderError: What :func:`parse_stream` raises (another API's stream
            included); or the stream ended before an
            event that closes the response (``response.completed`` ...), as a body closed
            cleanly mid-answer does: ``Codex request failed: <why>`` (500), so the chain
            moves on instead of reading a cut answer as the whole of it.
    """
    events = asked_stream_events(response.events, response.body)
    if events:
        state = _folded(events)
        _refuse_foreign(state)
        if not state.ended:
            _raise_event_error("response.failed", {"message": STREAM_CUT})
        return _answer_of(state, params)
    if not response.body.strip():
        raise ResponseParseError(PROVIDER_ID, EMPTY_BODY, 502)
    return parse_response_object(
        response.as_http().json(PROVIDER_ID, "Codex", streamed=True), params
    )
