"""Pure parsing for the Gemini provider: grounded streams, errors and retry hints.

Kept apart from :mod:`websearch_core.providers.gemini` so the provider module stays small;
nothing here does I/O.

* :func:`parse_chunks` merges ``GenerateContentResponse`` chunks (the SSE events of
  ``streamGenerateContent?alt=sse``, a non-streamed body, or Cloud Code Assist's
  ``{"response": {...}}`` wrappers) into one response.
* :func:`error_text`, :func:`is_invalid_auth`, :func:`auth_error_code` and
  :func:`retry_delay_hint` read Google's error bodies (``{"error": {"code", "message",
  "status", "details"}}``) for the provider's error map, refresh and retry hooks;
  :func:`with_hint` puts the body's wait hint on the final error.
* The newer Interactions API (``steps[]``) is read by
  :mod:`websearch_core.providers._gemini_interactions`.
"""

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from ..errors import (
    EmptyResponseError,
    QuotaExhaustedError,
    RateLimitedError,
    ResponseParseError,
    SearchProviderError,
)
from ..models import SearchCitation, SearchResponse, SearchSource, SearchUsage
from ..sse import SseEvent
from ..transport import parse_retry_after
from ._common import collapse_whitespace, is_http_url

__all__ = [
    "EMPTY_GROUNDED",
    "GroundedStream",
    "auth_error_code",
    "body_chunks",
    "error_text",
    "events_chunks",
    "is_invalid_auth",
    "parse_chunks",
    "project_id",
    "retry_delay_hint",
    "with_hint",
]

PROVIDER_ID = "gemini"
EMPTY_GROUNDED = "Gemini API returned an empty grounded response"
UNREADABLE = "Gemini API returned a stream with no readable chunk"
_INVALID_AUTH = re.compile(
    r"API_KEY_INVALID|API key not valid|UNAUTHENTICATED|invalid authentication credentials"
    r"|invalid[_ ]auth",
    re.IGNORECASE,
)
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(ms|s)?\s*$")
_RETRY_IN = re.compile(r"(?:retry|try again) in\s+(\d+(?:\.\d+)?)\s*(ms|s|seconds?)\b", re.I)
_RESET_AFTER = re.compile(r"reset after\s+(?:(\d+)h)?(?:(\d+)m(?!s))?(?:(\d+(?:\.\d+)?)s)?", re.I)


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _text(value: Any) -> str | None:
    return (value.strip() or None) if isinstance(value, str) else None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


# --- streams ----------------------------------------------------------------------------------


def events_chunks(events: Iterable[SseEvent]) -> tuple[list[Mapping[str, Any]], int]:
    """The JSON objects of a stream and how many events could not be read as JSON."""
    chunks: list[Mapping[str, Any]] = []
    bad = 0
    for event in events:
        try:
            value = json.loads(event.data)
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

    def absorb(self, chunk: Mapping[str, Any]) -> None:
        """Fold one chunk in (a Cloud Code Assist wrapper is unwrapped first)."""
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
        for part in parts if isinstance(parts, list) else []:
            part = _mapping(part)
            if isinstance(part.get("text"), str) and part.get("thought") is not True:
                self.answer.append(part["text"])
        self._ground(_mapping(candidate.get("groundingMetadata")))

    def _ground(self, metadata: Mapping[str, Any]) -> None:
        chunks = metadata.get("groundingChunks")
        webs = (
            [_mapping(_mapping(c).get("web")) for c in chunks] if isinstance(chunks, list) else []
        )
        for web in webs:
            url = _text(web.get("uri"))
            if url and is_http_url(url) and url not in self.sources:
                title = _text(web.get("title"))
                self.sources[url] = SearchSource(
                    title=collapse_whitespace(title) if title else url, url=url
                )
        supports = metadata.get("groundingSupports")
        for support in supports if isinstance(supports, list) else []:
            self._cite(_mapping(support), webs)
        queries = metadata.get("webSearchQueries")
        for query in queries if isinstance(queries, list) else []:
            text = _text(query)
            if text and text not in self.queries:
                self.queries.append(text)

    def _cite(self, support: Mapping[str, Any], webs: Sequence[Mapping[str, Any]]) -> None:
        segment = _text(_mapping(support.get("segment")).get("text"))
        indices = support.get("groundingChunkIndices")
        for index in indices if isinstance(indices, list) else []:
            if not isinstance(index, int) or not 0 <= index < len(webs):
                continue
            url = _text(webs[index].get("uri"))
            if url and is_http_url(url):
                title = _text(webs[index].get("title")) or ""
                self.citations.append(SearchCitation(url=url, title=title, cited_text=segment))


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
    answer = "".join(stream.answer).strip() or None
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
        data = json.loads(body)
    except ValueError:
        raise ResponseParseError(PROVIDER_ID, "Gemini API returned invalid JSON", 502) from None
    items = data if isinstance(data, list) else [data]
    chunks = [item for item in items if isinstance(item, Mapping)]
    if not chunks or len(chunks) != len(items):
        raise ResponseParseError(PROVIDER_ID, "Gemini API returned an unexpected body", 502)
    return chunks


# --- errors and retry hints -------------------------------------------------------------------


def _error(body: str) -> Mapping[str, Any]:
    try:
        data = json.loads(body)
    except ValueError:
        return {}
    if isinstance(data, list) and data:
        data = data[0]
    return _mapping(_mapping(data).get("error"))


def error_text(body: str) -> str:
    """Google's ``error.message`` from an error body, else the body itself."""
    return _text(_error(body).get("message")) or body.strip()


def is_invalid_auth(status: int, body: str) -> bool:
    """A 400 that really means bad credentials (``API_KEY_INVALID``, ``UNAUTHENTICATED``)."""
    return status == 400 and bool(_INVALID_AUTH.search(body))


def _duration(value: Any) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    match = _DURATION.match(value) if isinstance(value, str) else None
    if match is None:
        return None
    number = float(match.group(1))
    return number / 1000 if match.group(2) == "ms" else number


def retry_delay_hint(headers: Mapping[str, str], body: str) -> float | None:
    """Seconds the server asked us to wait, from headers or the error body; else ``None``.

    Honoured, first match wins: ``retry-after-ms``, ``Retry-After``,
    ``x-ratelimit-reset-after`` headers; a ``RetryInfo`` ``retryDelay`` (``"34s"``) in
    ``error.details``; ``retry in 12s`` / ``try again in 500ms`` or ``reset after 1h2m3s``
    in the text.
    """
    lowered = {key.lower(): value for key, value in headers.items()}
    milliseconds = _duration(lowered.get("retry-after-ms"))
    if milliseconds is not None:
        return milliseconds / 1000
    header = parse_retry_after(lowered.get("retry-after"))
    if header is not None:
        return header
    reset = _duration(lowered.get("x-ratelimit-reset-after"))
    if reset is not None:
        return reset
    details = _error(body).get("details")
    for detail in details if isinstance(details, list) else []:
        delay = _duration(_mapping(detail).get("retryDelay"))
        if delay is not None:
            return delay
    return _text_hint(body)


def _text_hint(body: str) -> float | None:
    match = _RETRY_IN.search(body)
    if match:
        number = float(match.group(1))
        return number / 1000 if match.group(2).lower() == "ms" else number
    reset = _RESET_AFTER.search(body)
    if reset and any(reset.groups()):
        hours, minutes, seconds = (float(group) if group else 0.0 for group in reset.groups())
        return hours * 3600 + minutes * 60 + seconds
    return None


# --- typed errors ------------------------------------------------------------------------------


def auth_error_code(body: str) -> str | None:
    """``INVALID_AUTH`` when an error body says the credentials are bad, else ``None``.

    Google answers a bad key with a 400 (``API_KEY_INVALID``, ``UNAUTHENTICATED``); a body
    whose ``error.code`` is another status is left to the status (a 401 is already an
    authorization failure, and says so in the shared classifier's words).

    Example:
        >>> auth_error_code('{"error": {"code": 400, "message": "API key not valid."}}')
        'INVALID_AUTH'
    """
    code = _int(_error(body).get("code"))
    if code is not None and code != 400:
        return None
    return "INVALID_AUTH" if _INVALID_AUTH.search(body) else None


def with_hint(error: SearchProviderError, hint: float | None) -> SearchProviderError:
    """``error`` carrying the server's wait hint when it is a rate limit or quota without one.

    Google puts its hint in the body (``RetryInfo.retryDelay``), where the shared
    classifier does not look; without it a spent quota would count as spent until next
    month rather than for the seconds the server named.
    """
    if hint is None:
        return error
    if isinstance(error, RateLimitedError) and error.retry_after is None:
        return RateLimitedError(error.provider, error.message, error.status, retry_after=hint)
    if isinstance(error, QuotaExhaustedError) and error.reset_at is None:
        reset_at = datetime.now(UTC) + timedelta(seconds=hint)
        return QuotaExhaustedError(error.provider, error.message, error.status, reset_at=reset_at)
    return error


def project_id(data: Any) -> str | None:
    """The Cloud Code Assist project in a ``loadCodeAssist`` reply (a string or ``{id}``)."""
    value = data.get("cloudaicompanionProject") if isinstance(data, Mapping) else None
    if isinstance(value, Mapping):
        value = value.get("id")
    return value.strip() if isinstance(value, str) and value.strip() else None
