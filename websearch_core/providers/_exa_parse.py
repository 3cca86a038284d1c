"""Pure parsing for the Exa provider: search bodies, MCP replies, the plain-text listing.

Kept apart from :mod:`websearch_core.providers.exa` so the provider module stays small;
nothing here does I/O.

* **Results:** ``results[]`` with an ``http(s)`` ``url``; title is ``title`` (else the URL);
  the snippet is ``summary``, else ``text``, else the ``highlights`` joined by spaces, cut
  to 500 characters; ``publishedDate`` and ``author`` are kept. The answer is built from the
  first three results that have a summary, each ``**<title>**: <summary>``, separated by a
  blank line. ``request_id`` is ``requestId``. A result's ``text`` (the page text Exa
  returns when asked) is also the source's page ``content``, as is a listing's ``Text:``.
* **MCP payloads:** the result's ``structuredContent``, ``data`` or ``result``, the result
  itself, or a ``content[].text`` that parses as JSON is used when it has ``results``,
  ``statuses``, ``costDollars`` or ``searchTime``; otherwise the text content is read as
  Exa's plain-text listing (sections starting ``Title:``, with ``URL:``, ``Author:``,
  ``Published Date:`` and a ``Text:`` body running to the end of the section).
* **MCP failures:** a JSON-RPC error is ``MCP error: <message>``; a tool error is its
  first text (or ``Exa MCP returned an error``), a
  :class:`~websearch_core.errors.RateLimitedError` (429) when that text is the keyless
  tier's rate limit (:data:`FREE_RATE_LIMIT`); an unreadable body is ``Failed to parse
  MCP response`` and a body with neither a payload nor text is ``Exa MCP search returned
  unexpected response shape.`` (both :class:`~websearch_core.errors.ResponseParseError`).
  A stream with another API's events in it is ``Failed to parse MCP response: another
  API's event stream: ...`` (:mod:`websearch_core.stream_apis`), as for Z.AI's MCP.

Capture vs reference:

* The only capture (``fixtures/exa/search_doc_example_latest_llm_research.json``) is the
  documentation example: one result with ``summary``, ``text``, ``highlights``,
  ``highlightScores``, ``subpages``, ``extras``, ``image``, ``favicon`` and an ``id``, plus
  top-level ``resolvedSearchType``, ``searchType``, ``context`` (a ``"<string>"``
  placeholder) and ``costDollars``; none of those extras are used. Its author has a double
  space (``Humza  Naveed``), kept as given. The capture and the reference agree on every
  field used here.
"""

import json
import re
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from ..content.models import provided_page
from ..errors import RateLimitedError, ResponseParseError, SearchProviderError
from ..event_stream_body import asked_stream_events
from ..format import truncate_text
from ..js_trim import trim
from ..json_decode import json_loads
from ..models import SearchResponse, SearchSource
from ..sanitize import cut_line
from ..sse import SseEvent
from ..stream_apis import MCP_JSON_RPC, refuse_foreign_stream, sse_payloads
from ._common import age_seconds_from_date, first_items, is_http_url
from ._json_api import text_or_none

__all__ = [
    "api_response",
    "build_answer",
    "parse_mcp_body",
    "parse_plain_text",
    "parse_results",
    "request_id_of",
]

PROVIDER_ID = "exa"
UNEXPECTED_MCP_SHAPE = "Exa MCP search returned unexpected response shape."
PARSE_FAILURE = "Failed to parse MCP response"
FREE_RATE_LIMIT = "free MCP rate limit"
"""Words of the tool error Exa's MCP server answers a keyless caller over its rate limit
with: a JSON-RPC *result* (HTTP 200) with ``isError`` and the text ``You've hit Exa's free
MCP rate limit. ...`` (exa-labs/exa-mcp-server ``src/utils/errorHandler.ts``,
``handleRateLimitError``, whose wording after those words changed between versions). Read
as a plain tool error, the limit left no mark, so every later search asked again at once."""
SNIPPET_LIMIT = 500
ANSWER_SUMMARIES = 3
_PAYLOAD_KEYS = ("results", "statuses", "costDollars", "searchTime")
_SECTION_BREAK = re.compile(r"\n[ \t]*\n(?=[ \t]*Title:)")
_FIELD = re.compile(r"^[ \t]*(Title|URL|Author|Published Date|Published|Text):[ \t]?(.*)$")


def _text(value: Any) -> str:
    """``value`` trimmed, ``""`` when it is no string or JavaScript's ``trim()`` leaves nothing.

    A blank here is what falls back (a title to the URL, a summary to the text, then the
    highlights), so it is judged as the spec's reference judges it: a BOM is blank.
    """
    return trim(value) if isinstance(value, str) else ""


def _snippet(item: Mapping[str, Any]) -> str | None:
    text = _text(item.get("summary")) or _text(item.get("text"))
    if not text:
        highlights = item.get("highlights")
        if isinstance(highlights, list):
            text = " ".join(part for part in map(_text, first_items(highlights)) if part)
    return truncate_text(text, SNIPPET_LIMIT) if text else None


def _source(item: Any, now: datetime | None, *, snippet: str | None = None) -> SearchSource | None:
    if not isinstance(item, Mapping):
        return None
    url = _text(item.get("url"))
    if not is_http_url(url):
        return None
    published = _text(item.get("publishedDate")) or None
    title = _text(item.get("title")) or url
    return SearchSource(
        title=title,
        url=url,
        snippet=snippet if snippet is not None else _snippet(item),
        published_date=published,
        age_seconds=age_seconds_from_date(published, now=now),
        author=_text(item.get("author")) or None,
        content=provided_page(url, title, item.get("text")),
    )


def _results_list(data: Any, what: str) -> list[Any]:
    if not isinstance(data, Mapping):
        raise ResponseParseError(PROVIDER_ID, f"{what} returned an unexpected response shape", 502)
    results = data.get("results", [])
    if results is None:
        return []
    if not isinstance(results, list):
        raise ResponseParseError(PROVIDER_ID, f"{what} returned an unexpected response shape", 502)
    return first_items(results)


def parse_results(
    data: Any, *, limit: int | None = None, now: datetime | None = None, what: str = "Exa API"
) -> tuple[SearchSource, ...]:
    """The ``results[]`` of a decoded Exa search body as sources, in Exa's order.

    Args:
        data: The decoded body (or MCP payload).
        limit: Keep at most this many sources.
        now: Reference time for ``age_seconds`` (default: now).
        what: Names the source in the error message.

    Raises:
        ResponseParseError: The body is not an Exa search response.
    """
    sources = [
        source
        for source in (_source(item, now) for item in _results_list(data, what))
        if source is not None
    ]
    return tuple(sources[:limit] if limit is not None else sources)


def build_answer(data: Any, mask: Callable[[str], str] | None = None) -> str | None:
    """Up to three result summaries as ``**<title>**: <summary>``, or ``None``.

    The title is cut as a source's is (:data:`~websearch_core.sanitize.LINE_LIMIT`): the
    answer repeats it, and a title whole here would reach the model whole after all. A
    title that is cut is ``mask``ed first (:func:`~websearch_core.sanitize.cut_line`): a
    key across the cut would leave its head, which the answer's own mask misses.

    Example:
        >>> build_answer({"results": [{"title": " T ", "summary": "S"}, {"summary": ""}]})
        '**T**: S'
    """
    if not isinstance(data, Mapping) or not isinstance(data.get("results"), list):
        return None
    parts: list[str] = []
    for item in first_items(data["results"]):
        if not isinstance(item, Mapping):
            continue
        summary = _text(item.get("summary"))
        if not summary:
            continue
        name = _text(item.get("title")) or _text(item.get("url")) or "Untitled"
        name = cut_line(name, mask)
        parts.append(f"**{name}**: {summary}")
        if len(parts) == ANSWER_SUMMARIES:
            break
    return "\n\n".join(parts) or None


def request_id_of(data: Any) -> str | None:
    """The body's ``requestId`` trimmed by the field rule, when it is a non-blank string.

    Read as every other provider's id is (:func:`text_or_none`): the id is shown in the
    ``--json`` output and the details, where spaces or a byte-order mark around it are noise.
    """
    return text_or_none(data.get("requestId")) if isinstance(data, Mapping) else None


# --- MCP --------------------------------------------------------------------------------------


def _is_reply(message: Any, request_id: str | None) -> bool:
    """Whether ``message`` is the JSON-RPC reply to the request (``request_id``, if known).

    A notification (``notifications/progress``, ``notifications/message``) or a server's
    own request carries a ``method``; a reply never does. A reply's ``id`` is the
    request's, or null (an error to a request the server could not read).
    """
    if not isinstance(message, Mapping) or "method" in message:
        return False
    answered = message.get("id")
    return request_id is None or answered is None or answered == request_id


def _answers_another(message: Any, request_id: str | None) -> bool:
    """Whether ``message`` is a JSON-RPC reply, but to another request than ``request_id``."""
    if request_id is None or not isinstance(message, Mapping) or "method" in message:
        return False
    return "id" in message and not _is_reply(message, request_id)


def _rpc_message(events: Sequence[SseEvent], body: str, request_id: str | None) -> Any:
    """The JSON-RPC reply to the request, among a stream's messages or as the whole body.

    The reader took the first ``data:`` line that held JSON: an MCP notification sent
    before the reply (a server reporting progress) was read as the reply and refused as
    ``unexpected response shape``. The reply is the message with the request's ``id``;
    a reply to another ``id`` is skipped, as JSON-RPC pairs replies with requests by
    ``id`` (read, another request's results or error became this search's), and a stream
    holding only such replies is refused as holding none of its own. A stream with no
    reply at all gives its first message, refused by its shape as before.

    Raises:
        ResponseParseError: No message; or replies to other ids only (``Failed to parse
            MCP response: no reply to this request's id ...``).
    """
    if events:
        messages = [payload for payload, _ in sse_payloads(events)]
        reply = next((m for m in messages if _is_reply(m, request_id)), None)
        if reply is not None:
            return reply
        others = sum(1 for m in messages if _answers_another(m, request_id))
        if others:
            text = (
                f"{PARSE_FAILURE}: no reply to this request's id ({request_id}), only "
                f"{others} to another request's"
            )
            raise ResponseParseError(PROVIDER_ID, text, 502)
        if messages:
            return messages[0]
        raise ResponseParseError(PROVIDER_ID, PARSE_FAILURE, 502)
    try:
        return json_loads(body)
    except ValueError:
        raise ResponseParseError(PROVIDER_ID, PARSE_FAILURE, 502) from None


def _refuse_foreign(events: Sequence[SseEvent]) -> None:
    """Name a stream of another API (a base URL or gateway sent elsewhere) as one.

    Exa's reader took the first ``data:`` line that held JSON, whatever API wrote it: six
    real streams of other APIs were all refused as ``Exa MCP search returned unexpected
    response shape.``, which named neither what came nor what was expected, and another
    API's events after the reply were read past. As Z.AI's MCP reader does, the spec'd
    parse failure is the frame and :mod:`..stream_apis` words the rest. A body that is no
    stream (one JSON object) keeps the spec's texts: it names no API by its events.
    """
    if events:
        refuse_foreign_stream(PROVIDER_ID, PARSE_FAILURE, MCP_JSON_RPC, sse_payloads(events))


def _content_texts(result: Mapping[str, Any]) -> list[str]:
    content = result.get("content")
    if not isinstance(content, list):
        return []
    return [
        item["text"]
        for item in first_items(content)
        if isinstance(item, Mapping) and isinstance(item.get("text"), str)
    ]


def _is_payload(value: Any) -> bool:
    return isinstance(value, Mapping) and any(key in value for key in _PAYLOAD_KEYS)


def _find_payload(message: Mapping[str, Any], result: Mapping[str, Any]) -> Any:
    candidates: list[Any] = [
        result.get("structuredContent"),
        result.get("data"),
        result.get("result"),
        result,
        message,
    ]
    for text in _content_texts(result):
        try:
            candidates.append(json_loads(text))
        except ValueError:
            continue
    return next((candidate for candidate in candidates if _is_payload(candidate)), None)


def _section_source(section: str, now: datetime | None) -> SearchSource | None:
    fields: dict[str, str] = {}
    body: list[str] | None = None
    for line in section.splitlines():
        if body is not None:
            body.append(line)
            continue
        match = _FIELD.match(line)
        if match is None:
            continue
        key, value = match.group(1), trim(match.group(2))
        if key == "Text":
            body = [value]
        else:
            fields.setdefault("Published Date" if key == "Published" else key, value)
    text = trim("\n".join(body)) if body is not None else ""
    item = {
        "title": fields.get("Title"),
        "url": fields.get("URL"),
        "author": fields.get("Author"),
        "publishedDate": fields.get("Published Date"),
        "text": text,
    }
    return _source(item, now, snippet=truncate_text(text, SNIPPET_LIMIT) if text else None)


def parse_plain_text(text: str, *, now: datetime | None = None) -> tuple[SearchSource, ...]:
    """Sources from the MCP tool's plain-text listing (``Title:`` / ``URL:`` / ``Text:``).

    Sections begin at a ``Title:`` line after a blank line; a section without an ``http(s)``
    ``URL:`` is skipped; ``Text:`` runs to the end of its section and is cut to 500
    characters. ``Author:`` and ``Published Date:`` (or ``Published:``) are kept.
    """
    sections = _SECTION_BREAK.split(text.replace("\r\n", "\n"))
    found = (_section_source(section, now) for section in sections)
    return tuple(source for source in found if source is not None)


def parse_mcp_body(
    body: str,
    *,
    limit: int | None = None,
    now: datetime | None = None,
    mask: Callable[[str], str] | None = None,
    events: Sequence[SseEvent] = (),
    request_id: str | None = None,
) -> SearchResponse:
    """The response for a 2xx MCP body (SSE or JSON), in keyless mode.

    Args:
        body: The body as text.
        limit: At most this many sources.
        now: The time ages are counted from (now when ``None``).
        mask: Hides known secrets in the answer.
        events: The events the transport read, up to the stream's end (the reply); none:
            the body's own, when its first line is an SSE field, whatever its label.
        request_id: The ``id`` the ``tools/call`` went with: the reply is the message
            that answers it; ``None``: the first message that is no notification.

    Raises:
        SearchProviderError: A JSON-RPC error or a tool error (a
            :class:`~websearch_core.errors.RateLimitedError` for the keyless rate limit).
        ResponseParseError: The body is not JSON-RPC, or holds neither a payload nor text;
            or it is a stream with another API's events in it, alone or among the replies
            (:func:`~..stream_apis.foreign_stream_error`, after ``Failed to parse MCP
            response``).
    """
    streamed = asked_stream_events(events, body.encode("utf-8"))
    _refuse_foreign(streamed)
    message = _rpc_message(streamed, body, request_id)
    if not isinstance(message, Mapping):
        raise ResponseParseError(PROVIDER_ID, PARSE_FAILURE, 502)
    error = message.get("error")
    if error is not None:
        detail = error.get("message") if isinstance(error, Mapping) else error
        shown = trim(detail) if isinstance(detail, str) else ""  # the field rule's trim
        text = shown or json.dumps(error)
        raise SearchProviderError(PROVIDER_ID, f"MCP error: {text}")
    result = message.get("result")
    if not isinstance(result, Mapping):
        raise ResponseParseError(
            PROVIDER_ID, "Exa MCP search returned unexpected response shape.", 502
        )
    texts = _content_texts(result)
    if result.get("isError"):
        first = next(filter(None, map(trim, texts)), "")
        if FREE_RATE_LIMIT.lower() in first.lower():
            raise RateLimitedError(PROVIDER_ID, first, 429)
        raise SearchProviderError(PROVIDER_ID, first or "Exa MCP returned an error")
    payload = _find_payload(message, result)
    if payload is not None:
        sources = parse_results(payload, limit=limit, now=now, what="Exa MCP search")
        answer = build_answer(payload, mask)
        request_id = request_id_of(payload)
    elif texts:
        parsed = tuple(source for text in texts for source in parse_plain_text(text, now=now))
        sources = parsed[:limit] if limit is not None else parsed
        answer = None
        request_id = None
    else:
        raise ResponseParseError(
            PROVIDER_ID, "Exa MCP search returned unexpected response shape.", 502
        )
    return SearchResponse(
        provider=PROVIDER_ID,
        answer=answer,
        sources=sources,
        request_id=request_id,
        auth_mode="keyless",
    )


def api_response(
    data: Any, *, limit: int, mask: Callable[[str], str] | None = None
) -> SearchResponse:
    """The answer, sources (at most ``limit``) and request id of a decoded 2xx API body.

    ``mask``: the call's mask, for a title the answer repeats that is cut (:func:`build_answer`).
    """
    return SearchResponse(
        provider=PROVIDER_ID,
        answer=build_answer(data, mask),
        sources=parse_results(data, limit=limit),
        request_id=request_id_of(data),
        auth_mode="api_key",
    )
