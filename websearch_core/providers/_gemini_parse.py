"""Pure parsing for the Gemini provider: grounded streams and ``loadCodeAssist`` replies.

Kept apart from :mod:`websearch_core.providers.gemini` so the provider module stays small;
nothing here does I/O.

* :func:`parse_chunks` merges ``GenerateContentResponse`` chunks (the SSE events of
  ``streamGenerateContent?alt=sse``, a non-streamed body, or Cloud Code Assist's
  ``{"response": {...}}`` wrappers) into one response.
* Google's error bodies and wait hints are read by
  :mod:`websearch_core.providers._gemini_errors`.
* The newer Interactions API (``steps[]``) is read by
  :mod:`websearch_core.providers._gemini_interactions`.

* **Results:** the text parts are the answer; ``groundingChunks[].web`` are the sources
  (de-duplicated by URI; title or URI; ``domain``, where given, kept for the filters);
  each ``groundingSupports[]`` entry is a citation per grounding chunk it names, with the
  segment text as ``cited_text``; ``webSearchQueries`` are the search queries;
  ``usageMetadata`` the usage; ``modelVersion`` the model; ``responseId`` the request id.
* **Failures:** a stream with no answer and no source is ``Gemini API returned an empty
  grounded response`` (:class:`~websearch_core.errors.EmptyResponseError`, 502); one with
  no readable chunk at all is a :class:`~websearch_core.errors.ResponseParseError`; one
  whose chunks never name a ``finishReason`` was cut short, though its body closed cleanly:
  ``Gemini API stream ended before its last chunk``
  (:class:`~websearch_core.errors.ProviderUnavailableError`, 500), never half an answer.

Captures (``fixtures/gemini/``, real ``gemini-2.5-pro`` responses): the ``.sse`` stream has
ten chunks whose ``groundingMetadata`` is ``{}`` until the last, which carries every
grounding chunk, support and query at once; ``generate_content_google_search_call1.json``
is the same shape unstreamed. Both have grounding URIs on
``vertexaisearch.cloud.google.com/grounding-api-redirect/...`` and one Google search URL with
spaces in it (kept as given). ``interactions_api_google_search.json`` is the newer
Interactions API (``steps[]``); the provider does not call it, but
:func:`~websearch_core.providers._gemini_interactions.parse_interaction` reads it.
"""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..domain_names import domain_name
from ..errors import EmptyResponseError, ProviderUnavailableError, ResponseParseError
from ..event_stream_body import asked_stream_events
from ..js_trim import trim
from ..json_decode import decoded_json, response_json
from ..models import SearchCitation, SearchResponse, SearchSource, SearchUsage
from ..sse import SseEvent
from ..stream_apis import GEMINI_GENERATE_CONTENT, refuse_foreign_stream
from ._common import collapse_whitespace, first_items, is_http_url
from ._finish_reason import names_finish

__all__ = [
    "EMPTY_GROUNDED",
    "GroundedStream",
    "body_chunks",
    "events_chunks",
    "parse_chunks",
    "project_id",
    "response_chunks",
]

PROVIDER_ID = "gemini"
EMPTY_GROUNDED = "Gemini API returned an empty grounded response"
STREAM_CUT = "Gemini API stream ended before its last chunk"
UNREADABLE = "Gemini API returned a stream with no readable chunk"


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _text(value: Any) -> str | None:
    """``value`` trimmed, ``None`` when no string or blank to JavaScript's ``trim()`` (a BOM)."""
    return (trim(value) or None) if isinstance(value, str) else None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


# --- streams ----------------------------------------------------------------------------------


def _finished(chunk: Mapping[str, Any]) -> bool:
    """Whether ``chunk`` (or the Cloud Code Assist response it wraps) names a finish reason.

    The last chunk of a stream says why generation stopped (``finishReason``); in the
    capture it is also the one carrying every grounding source. A reason of another type
    than a string still names one (:func:`._finish_reason.names_finish`). A blocked prompt
    gets no candidate: its one chunk names the ``promptFeedback.blockReason`` instead, and
    is as whole as the stream gets (read as a cut stream, the reply was misnamed, and
    :data:`~..stream_ends.GEMINI_GENERATE_CONTENT_END` ends the read there too).
    """
    data = _mapping(chunk.get("response")) if "response" in chunk else chunk
    if names_finish(_mapping(data.get("promptFeedback")).get("blockReason")):
        return True
    candidates = data.get("candidates")
    first = _mapping(candidates[0]) if isinstance(candidates, list) and candidates else {}
    return names_finish(first.get("finishReason"))


def events_chunks(events: Iterable[SseEvent]) -> tuple[list[Mapping[str, Any]], int]:
    """The JSON objects of a stream and how many events could not be read as JSON."""
    chunks: list[Mapping[str, Any]] = []
    bad = 0
    for event in events:
        try:
            value = decoded_json(event.data)
        except ValueError:
            bad += 1
            continue
        if isinstance(value, Mapping):
            chunks.append(value)
        else:
            bad += 1
    return chunks, bad


@dataclass
class GroundedStream:
    """Everything the chunks of one grounded answer carried."""

    answer: list[str] = field(default_factory=list)
    sources: dict[str, SearchSource] = field(default_factory=dict)
    citations: list[SearchCitation] = field(default_factory=list)
    queries: list[str] = field(default_factory=list)
    usage: SearchUsage | None = None
    model: str | None = None
    response_id: str | None = None
    finished: bool = False
    """Whether a chunk has named a finish reason: text after it is not the answer's."""

    def absorb(self, chunk: Mapping[str, Any]) -> None:
        """Fold one chunk in (a Cloud Code Assist wrapper is unwrapped first).

        Text after the chunk that finished the answer is left out: a chunk replayed or
        spliced on after it added its text to an answer already whole. Usage and grounding
        still read, as a last usage-only chunk may follow.
        """
        data = _mapping(chunk.get("response")) if "response" in chunk else chunk
        self.model = _text(data.get("modelVersion")) or self.model
        self.response_id = _text(data.get("responseId")) or self.response_id
        usage = data.get("usageMetadata")
        if isinstance(usage, Mapping):
            self.usage = SearchUsage(
                input_tokens=_int(usage.get("promptTokenCount")),
                output_tokens=_int(usage.get("candidatesTokenCount")),
                total_tokens=_int(usage.get("totalTokenCount")),
            )
        candidates = data.get("candidates")
        if not isinstance(candidates, list) or not candidates:
            return
        candidate = _mapping(candidates[0])
        parts = _mapping(candidate.get("content")).get("parts")
        for part in parts if isinstance(parts, list) and not self.finished else []:
            part = _mapping(part)
            if isinstance(part.get("text"), str) and part.get("thought") is not True:
                self.answer.append(part["text"])
        self.finished = self.finished or names_finish(candidate.get("finishReason"))
        self._ground(_mapping(candidate.get("groundingMetadata")))

    def _ground(self, metadata: Mapping[str, Any]) -> None:
        chunks = metadata.get("groundingChunks")
        webs = (
            [_mapping(_mapping(c).get("web")) for c in first_items(chunks)]
            if isinstance(chunks, list)
            else []
        )
        for web in webs:
            url = _web_uri(web)
            if url and is_http_url(url) and url not in self.sources:
                title = _text(web.get("title"))
                self.sources[url] = SearchSource(
                    title=collapse_whitespace(title) if title else url,
                    url=url,
                    domain=_web_domain(web),
                )
        supports = metadata.get("groundingSupports")
        for support in first_items(supports) if isinstance(supports, list) else []:
            self._cite(_mapping(support), webs)
        queries = metadata.get("webSearchQueries")
        for query in first_items(queries) if isinstance(queries, list) else []:
            text = _text(query)
            if text and text not in self.queries:
                self.queries.append(text)

    def _cite(self, support: Mapping[str, Any], webs: Sequence[Mapping[str, Any]]) -> None:
        segment = _text(_mapping(support.get("segment")).get("text"))
        indices = support.get("groundingChunkIndices")
        for index in first_items(indices) if isinstance(indices, list) else []:
            if not isinstance(index, int) or not 0 <= index < len(webs):
                continue
            url = _web_uri(webs[index])
            if url and is_http_url(url):
                title = _text(webs[index].get("title")) or ""
                self.citations.append(SearchCitation(url=url, title=title, cited_text=segment))


def _web_uri(web: Mapping[str, Any]) -> str | None:
    """A grounding chunk's URI, its raw spaces percent-encoded.

    Google's own boxes come as ``https://www.google.com/search?q=weather+in+San Francisco,
    CA,+US``: a URL with a space is dropped by the response's cleaning, and with it the
    answer's headline source and every citation of it.

    Example:
        >>> _web_uri({"uri": "https://www.google.com/search?q=weather in Paris"})
        'https://www.google.com/search?q=weather%20in%20Paris'
    """
    uri = _text(web.get("uri"))
    return uri.replace(" ", "%20") if uri else None


def _web_domain(web: Mapping[str, Any]) -> str | None:
    """The page's domain a grounding chunk names (``web.domain``), when it is one.

    Google's types document ``domain`` ("Domain of the (original) URI") beside ``uri`` and
    ``title``, filled on Vertex AI only; no capture has it. Where it is given it names the
    host a grounding redirect hides, so the filters read it before the title; anything
    that is not a domain name is left out rather than trusted.

    Example:
        >>> _web_domain({"domain": "WWW.Weather.gov"}), _web_domain({"domain": "a b"})
        ('weather.gov', None)
    """
    text = _text(web.get("domain"))
    if text is None:
        return None
    try:
        return domain_name(text)
    except ValueError:
        return None


def parse_chunks(
    chunks: Iterable[Mapping[str, Any]],
    *,
    requested_model: str,
    auth_mode: str,
    limit: int | None = None,
) -> SearchResponse:
    """Merge grounded chunks into one response.

    The answer is every ``candidates[0].content.parts[].text`` (thought parts skipped)
    joined with no separator; sources are ``groundingChunks[].web`` de-duplicated by URI
    (title or URI); each ``groundingSupports[]`` entry gives a citation per chunk index
    (the segment text cited, not de-duplicated); ``webSearchQueries`` de-duplicated;
    ``usageMetadata`` from the last chunk; ``modelVersion`` and ``responseId``.

    Raises:
        EmptyResponseError: No answer and no source (``Gemini API returned an empty
            grounded response``, status 502).
    """
    stream = GroundedStream()
    for chunk in chunks:
        stream.absorb(chunk)
    answer = trim("".join(stream.answer)) or None
    sources = list(stream.sources.values())
    if answer is None and not sources:
        raise EmptyResponseError(PROVIDER_ID, EMPTY_GROUNDED, 502)
    return SearchResponse(
        provider=PROVIDER_ID,
        answer=answer,
        sources=tuple(sources[:limit] if limit else sources),
        citations=tuple(stream.citations),
        search_queries=tuple(stream.queries),
        usage=stream.usage,
        model=stream.model or requested_model,
        request_id=stream.response_id,
        auth_mode=auth_mode,
    )


def body_chunks(body: bytes) -> list[Mapping[str, Any]]:
    """A non-SSE 2xx body: one ``GenerateContentResponse`` or a JSON array of them.

    Raises:
        ResponseParseError: The body is not that.
    """
    try:
        data = response_json(body)
    except ValueError:
        raise ResponseParseError(PROVIDER_ID, "Gemini API returned invalid JSON", 502) from None
    items = data if isinstance(data, list) else [data]
    chunks = [item for item in items if isinstance(item, Mapping)]
    if not chunks or len(chunks) != len(items):
        raise ResponseParseError(PROVIDER_ID, "Gemini API returned an unexpected body", 502)
    return chunks


def project_id(data: Any) -> str | None:
    """The Cloud Code Assist project in a ``loadCodeAssist`` reply (a string or ``{id}``)."""
    value = data.get("cloudaicompanionProject") if isinstance(data, Mapping) else None
    if isinstance(value, Mapping):
        value = value.get("id")
    return value.strip() if isinstance(value, str) and value.strip() else None


def response_chunks(events: Sequence[SseEvent], body: bytes) -> list[Mapping[str, Any]]:
    """The chunks of a 2xx reply: its stream events, else a plain JSON body.

    A stream a gateway labelled ``application/json`` is read as the stream it is, by its
    first line (:func:`~..event_stream_body.asked_stream_events`), not refused as JSON.

    Raises:
        ResponseParseError: No event could be read, the body is not JSON chunks, or the
            stream is another API's (:func:`~..stream_apis.foreign_stream_error`).
        ProviderUnavailableError: The reply had no body at all (``Gemini API returned no
            response body``, status 500, as the reference says).
    """
    events = asked_stream_events(events, body)
    if events:
        chunks, unreadable = events_chunks(events)
        # Another API's stream, or its events among Gemini's chunks, is named as one, not
        # as a Gemini stream cut short or read past (one test a chunk: its keys).
        payloads = [(chunk, "") for chunk in chunks]
        refuse_foreign_stream(PROVIDER_ID, UNREADABLE, GEMINI_GENERATE_CONTENT, payloads)
        if not chunks and unreadable:
            raise ResponseParseError(PROVIDER_ID, UNREADABLE, 502)
        if chunks and not any(_finished(chunk) for chunk in chunks):
            raise ProviderUnavailableError(PROVIDER_ID, STREAM_CUT, 500)
        return chunks
    if not body.strip():
        raise ProviderUnavailableError(PROVIDER_ID, "Gemini API returned no response body", 500)
    return body_chunks(body)
