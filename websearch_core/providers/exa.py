"""Exa: neural web search with per-result summaries, by API key or keyless remote MCP.

* **API mode** (a key is configured): ``POST https://api.exa.ai/search`` with headers
  ``Content-Type: application/json`` and ``x-api-key: <key>`` and a JSON body ``query``,
  ``numResults``, ``type: "auto"``, ``contents: {"summary": {"query": <query>}}`` and, when
  asked, ``includeDomains``, ``excludeDomains``, ``startPublishedDate`` (``date_after`` at
  ``00:00:00.000Z``) and ``endPublishedDate`` (``date_before`` at ``23:59:59.999Z``, so the
  day itself is included). ``auth_mode`` is ``"api_key"``.
* **Keyless mode** (no key, Exa selected explicitly): a JSON-RPC ``tools/call`` of the remote
  MCP tool ``web_search_exa`` at ``POST https://mcp.exa.ai/mcp?tools=web_search_exa`` with
  headers ``Content-Type: application/json``, ``Accept: application/json, text/event-stream``
  and ``x-exa-source: websearch-tools``. The arguments are ``query`` (with ``site:``,
  ``-site:``, ``after:`` and ``before:`` directives appended for the domain and date
  filters, which the tool has no fields for) and ``numResults`` when a count was asked.
  The answer is either SSE (the first ``data:`` line that holds JSON) or plain JSON.
  ``auth_mode`` is ``"keyless"``.
* **Auth and availability:** the key comes from ``EXA_API_KEY`` (or code, the config file,
  the credential store). The auto chain uses Exa only with a key; an explicit selection
  (``provider="exa"``) always may, falling back to the keyless MCP tool.
* **Limits:** ``numResults`` is ``num_search_results`` or ``limit``, default 10, at most
  100 (the largest count :class:`~websearch_core.models.SearchParams` accepts, and Exa's
  own ceiling); sources are cut to the same number. ``recency``, ``max_tokens`` and
  ``temperature`` are ignored, as in the reference.
* **Results:** ``results[]`` with an ``http(s)`` ``url``; title is ``title`` (else the URL);
  the snippet is ``summary``, else ``text``, else the ``highlights`` joined by spaces, cut
  to 500 characters; ``publishedDate`` and ``author`` are kept. The answer is built from the
  first three results that have a summary, each ``**<title>**: <summary>``, separated by a
  blank line. ``request_id`` is ``requestId``.
* **MCP payloads:** the result's ``structuredContent``, ``data`` or ``result``, the result
  itself, or a ``content[].text`` that parses as JSON is used when it has ``results``,
  ``statuses``, ``costDollars`` or ``searchTime``; otherwise the text content is read as
  Exa's plain-text listing (sections starting ``Title:``, with ``URL:``, ``Author:``,
  ``Published Date:`` and a ``Text:`` body running to the end of the section).
* **Errors:** API: ``Exa API error (<status>): <body>`` after the shared classifier. MCP:
  a 429 is ``exa: MCP rate limit reached (429); configure an Exa API key for higher
  limits`` (a :class:`~websearch_core.errors.RateLimitedError` with ``Retry-After``), other
  statuses ``Exa MCP request failed (<status>): <body>``; a JSON-RPC error is
  ``MCP error: <message>``; a tool error is its first text (or ``Exa MCP returned an
  error``); an unreadable body is ``Failed to parse MCP response`` and a body with neither
  a payload nor text is ``Exa MCP search returned unexpected response shape.`` (both
  :class:`~websearch_core.errors.ResponseParseError`).

Quirks and differences from the reference:

* The only capture (``fixtures/exa/search_doc_example_latest_llm_research.json``) is the
  documentation example: one result with ``summary``, ``text``, ``highlights``,
  ``highlightScores``, ``subpages``, ``extras``, ``image``, ``favicon`` and an ``id``, plus
  top-level ``resolvedSearchType``, ``searchType``, ``context`` (a ``"<string>"``
  placeholder) and ``costDollars``; none of those extras are used. Its author has a double
  space (``Humza  Naveed``), kept as given. The capture and the reference agree on every
  field used here.
* The reference paces requests (1000 ms between starts, process-wide). There is no setting
  for it here, and tests could not turn it off, so no pacing is done.
* The reference sends ``exaApiKey`` to the MCP endpoint when ``EXA_API_KEY`` is set; here
  a key always selects API mode, so the MCP request never carries one. The reference's
  ``exa.enabled`` setting does not exist here either.

Docs: https://docs.exa.ai/reference/search
"""

import json
import re
import secrets
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from ..errors import ResponseParseError, SearchProviderError
from ..format import truncate_text
from ..models import SearchParams, SearchResponse, SearchSource
from ..transport import HttpRequest, HttpResponse, raise_for_api_status, raise_for_status
from ._common import age_seconds_from_date, is_http_url
from .base import ProviderContext, ProviderInfo, SearchProvider, clamp_count

__all__ = [
    "EXA_API_ENDPOINT",
    "EXA_MCP_ENDPOINT",
    "INFO",
    "MCP_RATE_LIMIT_MESSAGE",
    "ExaProvider",
    "api_request_body",
    "build_answer",
    "mcp_query",
    "mcp_request_body",
    "parse_mcp_body",
    "parse_plain_text",
    "parse_results",
]

EXA_API_ENDPOINT = "https://api.exa.ai/search"
EXA_MCP_ENDPOINT = "https://mcp.exa.ai/mcp"
MCP_TOOL = "web_search_exa"
SOURCE_HEADER = "websearch-tools"
DEFAULT_RESULTS = 10
MAX_RESULTS = 100
SNIPPET_LIMIT = 500
ANSWER_SUMMARIES = 3
MCP_RATE_LIMIT_MESSAGE = (
    "exa: MCP rate limit reached (429); configure an Exa API key for higher limits"
)

_PAYLOAD_KEYS = ("results", "statuses", "costDollars", "searchTime")
_SECTION_BREAK = re.compile(r"\n[ \t]*\n(?=[ \t]*Title:)")
_FIELD = re.compile(r"^[ \t]*(Title|URL|Author|Published Date|Published|Text):[ \t]?(.*)$")
_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"

INFO = ProviderInfo(
    id="exa",
    label="Exa",
    kind="api",
    description="Uses EXA_API_KEY; explicit selection falls back to Exa's keyless MCP search",
    docs_url="https://docs.exa.ai/reference/search",
    env_vars=("EXA_API_KEY",),
    honours=frozenset(
        {
            "query",
            "limit",
            "num_search_results",
            "include_domains",
            "exclude_domains",
            "date_after",
            "date_before",
        }
    ),
    default_results=DEFAULT_RESULTS,
    max_results=MAX_RESULTS,
    index="exa",
)


def _count(params: SearchParams) -> int:
    return clamp_count(params.result_count, DEFAULT_RESULTS, MAX_RESULTS)


def api_request_body(params: SearchParams) -> dict[str, Any]:
    """The JSON body ``POST /search`` receives for ``params`` (pure).

    Example:
        >>> api_request_body(SearchParams(query="x", limit=3))["numResults"]
        3
    """
    body: dict[str, Any] = {
        "query": params.query,
        "numResults": _count(params),
        "type": "auto",
        "contents": {"summary": {"query": params.query}},
    }
    if params.include_domains:
        body["includeDomains"] = list(params.include_domains)
    if params.exclude_domains:
        body["excludeDomains"] = list(params.exclude_domains)
    if params.date_after is not None:
        body["startPublishedDate"] = f"{params.date_after.isoformat()}T00:00:00.000Z"
    if params.date_before is not None:
        body["endPublishedDate"] = f"{params.date_before.isoformat()}T23:59:59.999Z"
    return body


def mcp_query(params: SearchParams) -> str:
    """The query text for the MCP tool: the query plus search directives for the filters.

    Example:
        >>> mcp_query(SearchParams(query="llm", include_domains=("arxiv.org",)))
        'llm site:arxiv.org'
    """
    parts = [params.query]
    parts.extend(f"site:{domain}" for domain in params.include_domains)
    parts.extend(f"-site:{domain}" for domain in params.exclude_domains)
    if params.date_after is not None:
        parts.append(f"after:{params.date_after.isoformat()}")
    if params.date_before is not None:
        parts.append(f"before:{params.date_before.isoformat()}")
    return " ".join(parts)


def mcp_request_body(params: SearchParams, request_id: str) -> dict[str, Any]:
    """The JSON-RPC ``tools/call`` body for ``params`` (pure; ``request_id`` is given)."""
    arguments: dict[str, Any] = {"query": mcp_query(params)}
    if params.result_count is not None:
        arguments["numResults"] = _count(params)
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": MCP_TOOL, "arguments": arguments},
    }


def _rpc_id() -> str:
    value = secrets.randbits(48)
    digits: list[str] = []
    while value:
        value, digit = divmod(value, 36)
        digits.append(_BASE36[digit])
    return "".join(reversed(digits)) or "0"


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _snippet(item: Mapping[str, Any]) -> str | None:
    text = _text(item.get("summary")) or _text(item.get("text"))
    if not text:
        highlights = item.get("highlights")
        if isinstance(highlights, list):
            text = " ".join(part for part in map(_text, highlights) if part)
    return truncate_text(text, SNIPPET_LIMIT) if text else None


def _source(item: Any, now: datetime | None, *, snippet: str | None = None) -> SearchSource | None:
    if not isinstance(item, Mapping):
        return None
    url = _text(item.get("url"))
    if not is_http_url(url):
        return None
    published = _text(item.get("publishedDate")) or None
    return SearchSource(
        title=_text(item.get("title")) or url,
        url=url,
        snippet=snippet if snippet is not None else _snippet(item),
        published_date=published,
        age_seconds=age_seconds_from_date(published, now=now),
        author=_text(item.get("author")) or None,
    )


def _results_list(data: Any, what: str) -> list[Any]:
    if not isinstance(data, Mapping):
        raise ResponseParseError(INFO.id, f"{what} returned an unexpected response shape", 502)
    results = data.get("results", [])
    if results is None:
        return []
    if not isinstance(results, list):
        raise ResponseParseError(INFO.id, f"{what} returned an unexpected response shape", 502)
    return results


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


def build_answer(data: Any) -> str | None:
    """Up to three result summaries as ``**<title>**: <summary>``, or ``None``.

    Example:
        >>> build_answer({"results": [{"title": " T ", "summary": "S"}, {"summary": ""}]})
        '**T**: S'
    """
    if not isinstance(data, Mapping) or not isinstance(data.get("results"), list):
        return None
    parts: list[str] = []
    for item in data["results"]:
        if not isinstance(item, Mapping):
            continue
        summary = _text(item.get("summary"))
        if not summary:
            continue
        name = _text(item.get("title")) or _text(item.get("url")) or "Untitled"
        parts.append(f"**{name}**: {summary}")
        if len(parts) == ANSWER_SUMMARIES:
            break
    return "\n\n".join(parts) or None


def _request_id(data: Any) -> str | None:
    value = data.get("requestId") if isinstance(data, Mapping) else None
    return value if isinstance(value, str) and value else None


# --- MCP --------------------------------------------------------------------------------------


def _rpc_message(body: str) -> Any:
    for line in body.splitlines():
        if not line.startswith("data:"):
            continue
        try:
            return json.loads(line[5:].strip())
        except ValueError:
            continue
    try:
        return json.loads(body)
    except ValueError:
        raise ResponseParseError(INFO.id, "Failed to parse MCP response", 502) from None


def _content_texts(result: Mapping[str, Any]) -> list[str]:
    content = result.get("content")
    if not isinstance(content, list):
        return []
    return [
        item["text"]
        for item in content
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
            candidates.append(json.loads(text))
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
        key, value = match.group(1), match.group(2).strip()
        if key == "Text":
            body = [value]
        else:
            fields.setdefault("Published Date" if key == "Published" else key, value)
    text = "\n".join(body).strip() if body is not None else ""
    item = {
        "title": fields.get("Title"),
        "url": fields.get("URL"),
        "author": fields.get("Author"),
        "publishedDate": fields.get("Published Date"),
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
    body: str, *, limit: int | None = None, now: datetime | None = None
) -> SearchResponse:
    """The response for a 2xx MCP body (SSE or JSON), in keyless mode.

    Raises:
        SearchProviderError: A JSON-RPC error or a tool error.
        ResponseParseError: The body is not JSON-RPC, or holds neither a payload nor text.
    """
    message = _rpc_message(body)
    if not isinstance(message, Mapping):
        raise ResponseParseError(INFO.id, "Failed to parse MCP response", 502)
    error = message.get("error")
    if error is not None:
        detail = error.get("message") if isinstance(error, Mapping) else error
        text = detail if isinstance(detail, str) and detail.strip() else json.dumps(error)
        raise SearchProviderError(INFO.id, f"MCP error: {text}")
    result = message.get("result")
    if not isinstance(result, Mapping):
        raise ResponseParseError(INFO.id, "Exa MCP search returned unexpected response shape.", 502)
    texts = _content_texts(result)
    if result.get("isError"):
        first = next((text.strip() for text in texts if text.strip()), "")
        raise SearchProviderError(INFO.id, first or "Exa MCP returned an error")
    payload = _find_payload(message, result)
    if payload is not None:
        sources = parse_results(payload, limit=limit, now=now, what="Exa MCP search")
        answer = build_answer(payload)
        request_id = _request_id(payload)
    elif texts:
        parsed = tuple(source for text in texts for source in parse_plain_text(text, now=now))
        sources = parsed[:limit] if limit is not None else parsed
        answer = None
        request_id = None
    else:
        raise ResponseParseError(INFO.id, "Exa MCP search returned unexpected response shape.", 502)
    return SearchResponse(
        provider=INFO.id,
        answer=answer,
        sources=sources,
        request_id=request_id,
        auth_mode="keyless",
    )


class ExaProvider(SearchProvider):
    """The Exa provider: the search API with a key, the keyless MCP tool without one."""

    info = INFO

    def is_explicitly_available(self, context: ProviderContext) -> bool:
        """Always: without a key an explicit selection uses the keyless MCP tool."""
        return True

    async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
        """Search through the API when a key is configured, else through the MCP tool."""
        key = self.api_key(context)
        transport = context.transport
        if key is not None:
            request = self.build_api_request(params, key)
            response = await transport.send(self.info.id, self.info.label, request)
            self.check_api_response(response)
            return self.parse_api_response(response, params)
        request = self.build_mcp_request(params, _rpc_id())
        response = await transport.send(self.info.id, self.info.label, request)
        self.check_mcp_response(response)
        return parse_mcp_body(response.text(), limit=_count(params))

    def build_api_request(self, params: SearchParams, key: str) -> HttpRequest:
        """``POST /search`` for ``params`` with the key in ``x-api-key`` (pure)."""
        return HttpRequest(
            method="POST",
            url=EXA_API_ENDPOINT,
            headers={"Content-Type": "application/json", "x-api-key": key},
            json=api_request_body(params),
        )

    def build_mcp_request(self, params: SearchParams, request_id: str) -> HttpRequest:
        """The keyless JSON-RPC ``tools/call`` request for ``params`` (pure)."""
        return HttpRequest(
            method="POST",
            url=EXA_MCP_ENDPOINT,
            params=(("tools", MCP_TOOL),),
            headers={
                "Content-Type": "application/json",
                "Accept": "application/json, text/event-stream",
                "x-exa-source": SOURCE_HEADER,
            },
            json=mcp_request_body(params, request_id),
        )

    def check_api_response(self, response: HttpResponse) -> None:
        """Raise ``Exa API error (<status>): <body>`` typed by the shared classifier."""
        raise_for_api_status(self.info.id, response, "Exa API error")

    def check_mcp_response(self, response: HttpResponse) -> None:
        """Raise for a non-2xx MCP status; a 429 names the keyless rate limit."""
        if response.status == 429:
            raise_for_status(self.info.id, response, MCP_RATE_LIMIT_MESSAGE)
        raise_for_api_status(self.info.id, response, "Exa MCP request failed")

    def parse_api_response(self, response: HttpResponse, params: SearchParams) -> SearchResponse:
        """The answer, sources and request id of a 2xx API body."""
        data = response.json(self.info.id, self.info.label)
        return SearchResponse(
            provider=self.info.id,
            answer=build_answer(data),
            sources=parse_results(data, limit=_count(params)),
            request_id=_request_id(data),
            auth_mode="api_key",
        )
