"""Pure parsing for the Perplexity provider: chat-completion streams and completions.

Kept apart from :mod:`websearch_core.providers.perplexity` so the provider module stays
small; nothing here does I/O.

* :func:`parse_chat_chunks` merges ``chat.completion.chunk`` objects (one per SSE event, or
  one per line in a recorded ``.chunks.txt``) and :func:`parse_chat_completion` reads a
  non-streamed ``chat.completion``; both end in :func:`chat_response`. OpenRouter's
  OpenAI-style ``annotations[].url_citation`` are read as well as Perplexity's own
  ``citations`` and ``search_results``.
* The stream's text deltas are the answer; the last ``id``, ``model``, ``citations``,
  ``search_results`` and ``related_questions`` win; usage comes from the last chunk.
* **Results:** sources are one per ``citations`` URL, enriched from the ``search_results``
  entry with the same URL (title, snippet, ``date``), and the same URLs are the citations;
  without citations the ``search_results`` are the sources; through OpenRouter the
  ``url_citation`` annotations are (snippet = the annotation's ``content``).
* The ask endpoint's stream is read by :mod:`websearch_core.providers._perplexity_ask`.
* **Stream errors:** an error inside the stream is ``Perplexity API error (<status>):
  <details>`` (default 500, ``Perplexity API stream failed``).

Captures (``fixtures/perplexity/``, real ``sonar`` responses from 2026): the completion and
the recorded stream (one JSON chunk per line, ``data:`` stripped by the recorder) carry
top-level ``citations`` but **no** ``search_results``, so their sources are titled by URL.
The stream's last object is ``chat.completion.done`` (not ``chunk``); its usage repeats.
The usage capture adds ``usage.cost`` and ``search_context_size``, which are not used.
``fixtures/openrouter/chat_completions_web_search_url_citation.json`` is an OpenRouter
completion with ``message.annotations[].url_citation``, read by the OpenRouter fallback.
"""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final

from ..errors import ResponseParseError, SearchProviderError
from ..event_stream_body import asked_stream_events
from ..filters.cited import first_cited
from ..filters.markers import as_sources
from ..js_trim import trim
from ..json_decode import decoded_json
from ..models import SearchCitation, SearchResponse, SearchSource, SearchUsage
from ..sse import SseEvent
from ..stream_apis import CHAT_COMPLETIONS, refuse_foreign_stream
from ..transport import SseResponse
from ._common import (
    MAX_RESULT_ITEMS,
    age_seconds_from_date,
    collapse_whitespace,
    first_items,
    is_http_url,
)
from ._field_errors import field_error
from ._finish_reason import names_finish

__all__ = [
    "ChatStream",
    "as_mapping",
    "chat_response",
    "clean_text",
    "events_json",
    "parse_api_answer",
    "parse_chat_chunks",
    "parse_chat_completion",
    "stream_finished",
]

UNEXPECTED_BODY: Final = "Perplexity API returned an unexpected body"

PROVIDER_ID = "perplexity"
STREAM_FAILED = "Perplexity API stream failed"


def clean_text(value: Any) -> str | None:
    """``value`` stripped when it is a non-blank string (as ``trim()`` judges), else ``None``."""
    return (trim(value) or None) if isinstance(value, str) else None


def as_mapping(value: Any) -> Mapping[str, Any]:
    """``value`` when it is a mapping, else an empty one (JSON fields may hold anything)."""
    return value if isinstance(value, Mapping) else {}


def events_json(events: Iterable[SseEvent]) -> list[Mapping[str, Any]]:
    """The JSON objects of a stream's events, up to ``[DONE]``; non-JSON events are skipped.

    ``[DONE]`` ends the stream: a chunk after it (a proxy replaying one, a second stream
    spliced on) is not part of the answer. Read on, its delta was added to an answer already
    complete (the capture with one chunk repeated after ``[DONE]`` ended in `` **``).
    """
    objects: list[Mapping[str, Any]] = []
    for event in events:
        data = event.data.strip()
        if data == "[DONE]":
            break
        if not data:
            continue
        try:
            value = decoded_json(data)
        except ValueError:
            continue
        if isinstance(value, Mapping):
            objects.append(value)
    return objects


def stream_finished(events: Sequence[SseEvent], chunks: Iterable[Mapping[str, Any]]) -> bool:
    """Whether a chat-completion stream came to its end, not merely to the end of its body.

    The last chunk of a finished stream names why generation stopped (``finish_reason``, as
    the capture's ``chat.completion.done`` does) and ``data: [DONE]`` follows it; a proxy or
    server that gives up mid-answer can still close the body cleanly, with neither. A reason
    of another type than a string still names one (:func:`._finish_reason.names_finish`).
    """
    if any(event.data.strip() == "[DONE]" for event in events):
        return True
    for chunk in chunks:
        choices = chunk.get("choices")
        for choice in choices if isinstance(choices, list) else ():
            if names_finish(as_mapping(choice).get("finish_reason")):
                return True
    return False


# --- chat completions (API-key mode, direct or through OpenRouter) ----------------------------


@dataclass
class ChatStream:
    """What a chat-completion stream (or a whole completion) carried."""

    answer: str = ""
    request_id: str | None = None
    model: str | None = None
    citations: list[str] = field(default_factory=list)
    listed: list[str | None] = field(default_factory=list)
    """Each ``citations`` entry read, stripped, ``None`` for one holding no text: the
    answer's markers number the entries, these too (:func:`~..filters.markers.as_sources`)."""
    citations_sent: int = 0
    """How many entries the last ``citations`` list held, those past the ones read too."""
    search_results: list[Mapping[str, Any]] = field(default_factory=list)
    related_questions: list[str] = field(default_factory=list)
    annotations: list[Mapping[str, Any]] = field(default_factory=list)
    usage: Mapping[str, Any] | None = None
    finished: bool = False
    """Whether a chunk has named a finish reason: content after it is not the answer's."""

    def absorb(self, data: Mapping[str, Any], *, delta_key: str) -> None:
        """Fold one chunk (``delta_key="delta"``) or one completion (``"message"``) in.

        Content after the chunk naming a ``finish_reason`` is left out (a chunk replayed
        after it added its delta to an answer already whole); usage, citations and
        results still read, as a last usage-only chunk may follow.
        """
        self.request_id = clean_text(data.get("id")) or self.request_id
        self.model = clean_text(data.get("model")) or self.model
        for key, target in (("citations", "citations"), ("related_questions", "related")):
            listed = data.get(key)
            if isinstance(listed, list) and listed:
                entries = [
                    (trim(item) or None) if isinstance(item, str) else None
                    for item in first_items(listed)
                ]
                texts = [entry for entry in entries if entry is not None]
                if target == "citations":
                    self.citations, self.citations_sent = texts, len(listed)
                    self.listed = entries
                else:
                    self.related_questions = texts
        results = data.get("search_results")
        if isinstance(results, list) and results:
            self.search_results = [
                item for item in first_items(results) if isinstance(item, Mapping)
            ]
        if isinstance(data.get("usage"), Mapping):
            self.usage = data["usage"]
        choices = data.get("choices")
        first = as_mapping(choices[0]) if isinstance(choices, list) and choices else {}
        part = as_mapping(first.get(delta_key))
        content = part.get("content")
        if isinstance(content, str) and not self.finished:
            self.answer += content
        self.finished = self.finished or names_finish(first.get("finish_reason"))
        annotations = part.get("annotations")
        if isinstance(annotations, list) and len(self.annotations) < MAX_RESULT_ITEMS:
            # Chunks may each carry some: the ones read stop at the bound, across the stream.
            found = (item for item in first_items(annotations) if isinstance(item, Mapping))
            self.annotations.extend(found)


def _stream_error(data: Mapping[str, Any]) -> SearchProviderError | None:
    error = data.get("error")
    if error is None:
        return None
    details = as_mapping(error)
    message = clean_text(details.get("message")) or clean_text(error) or STREAM_FAILED
    code = details.get("code")
    if isinstance(code, float) and code.is_integer():
        code = int(code)  # JSON's 429.0 is the number 429 to the reference's reader
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
        raise ResponseParseError(PROVIDER_ID, UNEXPECTED_BODY, 502)
    failure = _stream_error(data)
    if failure is not None:
        raise failure
    if not isinstance(data.get("choices"), list):
        raise field_error(PROVIDER_ID, UNEXPECTED_BODY, data, "choices", "a list")
    stream = ChatStream()
    stream.absorb(data, delta_key="message")
    return chat_response(stream, requested_model=requested_model, limit=limit, now=now)


def _result_source(item: Mapping[str, Any], now: datetime | None) -> SearchSource | None:
    url = clean_text(item.get("url"))
    if url is None or not is_http_url(url):
        return None
    title = clean_text(item.get("title"))
    published = clean_text(item.get("date")) or clean_text(item.get("last_updated"))
    return SearchSource(
        title=collapse_whitespace(title) if title else url,
        url=url,
        snippet=clean_text(item.get("snippet")),
        published_date=published,
        age_seconds=age_seconds_from_date(published, now=now),
    )


def _snippet(value: Any) -> str | None:
    text = clean_text(value)
    return collapse_whitespace(text) if text else None


def _annotation_sources(
    annotations: Sequence[Mapping[str, Any]],
) -> tuple[list[SearchSource], list[SearchCitation]]:
    sources: dict[str, SearchSource] = {}
    for annotation in annotations:
        cited = as_mapping(annotation.get("url_citation"))
        url = clean_text(cited.get("url"))
        if url is None or not is_http_url(url) or url in sources:
            continue
        title = clean_text(cited.get("title"))
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
    else OpenRouter's ``url_citation`` annotations. ``limit`` cuts the sources, the
    answer's ``[n]`` markers of those cut off, its links to their pages (OpenRouter's
    answers cite by link or bare URL) and their citations
    (:func:`~..filters.cited.first_cited`).
    """
    sources, citations = _chat_sources(stream, now)
    answer = trim(stream.answer) or None
    if stream.citations:  # the markers number the list, the sources its web URLs once each
        listed = [url if url and is_http_url(url) else None for url in stream.listed]
        answer = as_sources(answer, listed, stream.citations_sent)
    answer, cited = first_cited(answer, citations, sources, limit, numbers=True, links=True)
    return SearchResponse(
        provider=PROVIDER_ID,
        answer=answer,
        sources=tuple(sources[:limit] if limit else sources),
        citations=cited,
        related_questions=tuple(stream.related_questions),
        usage=_usage(stream.usage),
        model=stream.model or requested_model,
        request_id=stream.request_id,
        auth_mode="api_key",
    )


def parse_api_answer(
    response: SseResponse, *, requested_model: str, limit: int | None = None
) -> SearchResponse:
    """A 2xx chat-completions answer: its stream, or one JSON completion when it sent none.

    Raises:
        ResponseParseError: The stream is another API's
            (:func:`~..stream_apis.foreign_stream_error`).
        SearchProviderError: The stream ended before its last chunk (:func:`stream_finished`):
            the spec's ``Perplexity API error (500): Perplexity API stream failed``, so the
            chain moves on instead of reading a cut answer as the whole of it.
    """
    # A stream labelled JSON by a gateway is still the stream asked for: its first line tells.
    events = asked_stream_events(response.events, response.body)
    if events:
        chunks = events_json(events)
        # Another API's stream, or its events among the chat chunks, is named as one, not
        # as this stream failing or read past (one test a chunk: its ``object``).
        payloads = [(chunk, "") for chunk in chunks]
        refuse_foreign_stream(PROVIDER_ID, UNEXPECTED_BODY, CHAT_COMPLETIONS, payloads)
        # Read first: an error chunk ends a stream early too, and its own words come first.
        answer = parse_chat_chunks(chunks, requested_model=requested_model, limit=limit)
        if not stream_finished(events, chunks):
            message = f"Perplexity API error (500): {STREAM_FAILED}"
            raise SearchProviderError(PROVIDER_ID, message, 500)
        return answer
    data = response.as_http().json(PROVIDER_ID, "Perplexity", streamed=True)
    return parse_chat_completion(data, requested_model=requested_model, limit=limit)
