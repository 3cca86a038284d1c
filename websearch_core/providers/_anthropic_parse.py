r"""Pure parsing for the Anthropic provider: Messages API bodies, streams and ``page_age``.

Kept apart from :mod:`websearch_core.providers.anthropic` so the provider module holds only
its wire facts and protocol hooks; nothing here does I/O.

* **Results:** ``text`` blocks make the answer: consecutive blocks are concatenated as they
  are (the API splits one paragraph around each citation) and runs of text separated by tool
  blocks are joined by a blank line. ``web_search_tool_result`` blocks give the sources
  (title, URL, ``page_age`` as the published date; no snippet), de-duplicated by URL and cut
  to ``num_search_results`` or ``limit`` when given. Each text block's
  ``web_search_result_location`` citations become citations (URL, title, ``cited_text``;
  exact repeats dropped). ``server_tool_use`` inputs give the search queries; ``usage``
  gives the tokens and ``server_tool_use.web_search_requests``; ``model``; the request id
  is the ``request-id`` header, else the message ``id``.
* **Age:** ``page_age`` is either relative (``6 days ago``, ``29 minutes ago``: months are
  30 days, years 365) or a date (``August 12, 2025``), parsed leniently; anything else
  gives no age.
* **Streams:** the provider does not stream, but
  :func:`~websearch_core.providers._anthropic_stream.message_from_stream` folds a Messages
  SSE stream into the message a JSON call returns, so both parse alike.

Quirks of the captures:

* The reference joins text blocks with a blank line; the captures
  (``fixtures/anthropic/messages_web_search_tool_call*.json``) show the API cutting one
  sentence into blocks around each citation (``"...\n- "``, ``"Temperature: 66°F"``,
  ``"\n- "``), so a blank line between them would break the list. The captures win.
* The pause_turn capture (``messages_web_search_pause_turn_call1.json``) ends with a
  ``server_tool_use`` that has no result yet; its continuation supplies it.
* Captured ``web_search_tool_result`` items carry ``encrypted_content`` (unused) and
  ``page_age: null`` for many results.
"""

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final

from ..errors import ResponseParseError
from ..js_trim import trim
from ..json_decode import response_json
from ..models import SearchCitation, SearchParams, SearchResponse, SearchSource, SearchUsage
from ..transport import HttpResponse, SseResponse
from ._common import age_seconds_from_date, collapse_whitespace, first_items, is_http_url
from ._field_errors import field_error
from ._json_api import list_or_empty, text_or_none

__all__ = [
    "UNEXPECTED_SHAPE",
    "message_content",
    "page_age_seconds",
    "parse_messages",
    "turn_so_far",
]

PROVIDER_ID: Final = "anthropic"
UNEXPECTED_SHAPE: Final = "Anthropic API returned an unexpected response shape"

_RELATIVE_AGE = re.compile(
    r"^([0-9]{1,9})\s*(s|sec|second|m|min|minute|h|hour|d|day|w|week|mo|month|y|year)s?\s*(?:ago)?$",
    re.IGNORECASE,
)
_UNIT_SECONDS: Final = {
    "s": 1,
    "sec": 1,
    "second": 1,
    "m": 60,
    "min": 60,
    "minute": 60,
    "h": 3600,
    "hour": 3600,
    "d": 86_400,
    "day": 86_400,
    "w": 7 * 86_400,
    "week": 7 * 86_400,
    "mo": 30 * 86_400,
    "month": 30 * 86_400,
    "y": 365 * 86_400,
    "year": 365 * 86_400,
}


def page_age_seconds(text: str | None, *, now: datetime | None = None) -> int | None:
    """Age in seconds of a ``page_age``: relative (``6 days ago``) or a written date.

    Example:
        >>> page_age_seconds("2 weeks ago"), page_age_seconds("soon")
        (1209600, None)
    """
    if not text or not text.strip():
        return None
    match = _RELATIVE_AGE.match(text.strip())
    if match:
        return int(match.group(1)) * _UNIT_SECONDS[match.group(2).lower()]
    return age_seconds_from_date(text, now=now)


def _tool_name(name: Any) -> str:
    """``web_search`` from ``web_search`` or a prefixed ``mcp__x__web_search``."""
    if not isinstance(name, str):
        return ""
    return re.split(r"__|\.|/", name)[-1]


@dataclass
class _Collected:
    groups: list[list[str]] = field(default_factory=lambda: [[]])
    sources: dict[str, SearchSource] = field(default_factory=dict)
    citations: dict[tuple[str, str, str | None], SearchCitation] = field(default_factory=dict)
    queries: list[str] = field(default_factory=list)

    def text(self, block: Mapping[str, Any]) -> None:
        value = block.get("text")
        if isinstance(value, str):
            self.groups[-1].append(value)
        for citation in list_or_empty(block.get("citations")):
            self.citation(citation)

    def citation(self, item: Any) -> None:
        if not isinstance(item, Mapping) or item.get("type") != "web_search_result_location":
            return
        url = text_or_none(item.get("url"))
        if url is None or not is_http_url(url):
            return
        title = collapse_whitespace(item["title"]) if isinstance(item.get("title"), str) else ""
        cited = text_or_none(item.get("cited_text"))
        key = (url, title, cited)
        self.citations.setdefault(key, SearchCitation(url=url, title=title, cited_text=cited))

    def results(self, block: Mapping[str, Any], now: datetime | None) -> None:
        content = block.get("content")
        if not isinstance(content, list):  # an error object: the search failed, no results
            return
        for item in first_items(content):
            if not isinstance(item, Mapping) or item.get("type") != "web_search_result":
                continue
            url = text_or_none(item.get("url"))
            if url is None or not is_http_url(url) or url in self.sources:
                continue
            title = text_or_none(item.get("title"))
            age = text_or_none(item.get("page_age"))
            self.sources[url] = SearchSource(
                title=collapse_whitespace(title) if title else url,
                url=url,
                published_date=age,
                age_seconds=page_age_seconds(age, now=now),
            )

    def tool_use(self, block: Mapping[str, Any]) -> None:
        self.groups.append([])
        if _tool_name(block.get("name")) != "web_search":
            return
        tool_input = block.get("input")
        query = text_or_none(tool_input.get("query")) if isinstance(tool_input, Mapping) else None
        if query:
            self.queries.append(query)

    def answer(self) -> str | None:
        runs = (trim("".join(group)) for group in self.groups)
        return "\n\n".join(run for run in runs if run) or None


def _collect(content: Iterable[Any], now: datetime | None) -> _Collected:
    collected = _Collected()
    for block in content:
        if not isinstance(block, Mapping):
            continue
        kind = block.get("type")
        if kind == "text":
            collected.text(block)
        elif kind == "web_search_tool_result":
            collected.groups.append([])
            collected.results(block, now)
        elif kind in ("server_tool_use", "tool_use"):
            collected.tool_use(block)
    return collected


def _usage(messages: Sequence[Mapping[str, Any]]) -> SearchUsage | None:
    totals: dict[str, int] = {}
    for message in messages:
        usage = message.get("usage")
        if not isinstance(usage, Mapping):
            continue
        server = usage.get("server_tool_use")
        values = {
            "input_tokens": usage.get("input_tokens"),
            "output_tokens": usage.get("output_tokens"),
            "search_requests": server.get("web_search_requests")
            if isinstance(server, Mapping)
            else None,
        }
        for name, value in values.items():
            if isinstance(value, int) and not isinstance(value, bool):
                totals[name] = totals.get(name, 0) + value
    return SearchUsage(**totals) if totals else None


def message_content(message: Any) -> list[Any]:
    """The ``content`` list of a decoded Messages API response.

    Raises:
        ResponseParseError: ``message`` is not a Messages API response.
    """
    if not isinstance(message, Mapping):
        raise ResponseParseError(PROVIDER_ID, UNEXPECTED_SHAPE, 502)
    if not isinstance(message.get("content"), list):
        raise field_error(PROVIDER_ID, UNEXPECTED_SHAPE, message, "content", "a list")
    content: list[Any] = message["content"]
    return content


def turn_so_far(responses: Iterable[HttpResponse | SseResponse]) -> list[Mapping[str, Any]]:
    """The decoded 2xx messages of a turn, stopping at the first response that is not one.

    A paused turn is continued only while every reply so far is a readable message; an
    error status or an unreadable body ends it, for the loop's check or the parser to raise.
    """
    found: list[Mapping[str, Any]] = []
    for response in responses:
        if not 200 <= response.status < 300:
            break
        try:
            data = response_json(response.body)
        except ValueError:
            break
        if not isinstance(data, Mapping) or not isinstance(data.get("content"), list):
            break
        found.append(data)
    return found


def parse_messages(
    messages: Sequence[Any],
    params: SearchParams | None = None,
    *,
    request_id: str | None = None,
    now: datetime | None = None,
) -> SearchResponse:
    """One assistant turn, possibly spread over paused messages, as a response (pure).

    Args:
        messages: Decoded Messages API responses, in order (one, or a paused turn and its
            continuations).
        params: The search; ``num_search_results`` or ``limit`` cuts the sources.
        request_id: The ``request-id`` header, preferred over the message id.
        now: Reference time for dated ``page_age`` values.

    Raises:
        ResponseParseError: A message is not a Messages API response.
    """
    content = [block for message in messages for block in message_content(message)]
    collected = _collect(content, now)
    last: Mapping[str, Any] = messages[-1]
    sources = tuple(collected.sources.values())
    count = params.result_count if params is not None else None
    if count:
        sources = sources[:count]
    model = text_or_none(last.get("model"))
    return SearchResponse(
        provider=PROVIDER_ID,
        answer=collected.answer(),
        sources=sources,
        citations=tuple(collected.citations.values()),
        search_queries=tuple(collected.queries),
        usage=_usage(messages),
        model=model,
        request_id=request_id or text_or_none(last.get("id")),
    )
