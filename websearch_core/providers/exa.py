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
* **Results and MCP payloads:** read by :mod:`websearch_core.providers._exa_parse`.
* **Errors:** API: ``Exa API error (<status>): <body>`` after the shared classifier. MCP:
  a 429 is ``exa: MCP rate limit reached (429); configure an Exa API key for higher
  limits`` (a :class:`~websearch_core.errors.RateLimitedError` with ``Retry-After``), other
  statuses ``Exa MCP request failed (<status>): <body>``; a JSON-RPC error is
  ``MCP error: <message>``; a tool error is its first text (or ``Exa MCP returned an
  error``); an unreadable body is ``Failed to parse MCP response`` and a body with neither
  a payload nor text is ``Exa MCP search returned unexpected response shape.`` (both
  :class:`~websearch_core.errors.ResponseParseError`).

Quirks and differences from the reference:

* The reference paces requests (1000 ms between starts, process-wide). There is no setting
  for it here, and tests could not turn it off, so no pacing is done.
* The reference sends ``exaApiKey`` to the MCP endpoint when ``EXA_API_KEY`` is set; here
  a key always selects API mode, so the MCP request never carries one. The reference's
  ``exa.enabled`` setting does not exist here either.

Docs: https://docs.exa.ai/reference/search
"""

import secrets
from typing import Any

from ..filters import FilterSupport
from ..models import SearchParams, SearchResponse
from ..transport import HttpRequest, HttpResponse
from ._exa_parse import (
    build_answer,
    parse_mcp_body,
    parse_plain_text,
    parse_results,
    request_id_of,
)
from .base import (
    ErrorMap,
    Flow,
    ProtocolProvider,
    ProviderContext,
    ProviderInfo,
    clamp_count,
)

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
MCP_RATE_LIMIT_MESSAGE = (
    "exa: MCP rate limit reached (429); configure an Exa API key for higher limits"
)

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
    filters=FilterSupport(
        native=frozenset({"include_domains", "exclude_domains", "date_after", "date_before"})
    ),
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


API_ERRORS = ErrorMap(prefix="Exa API error")
"""How the search API's error statuses read (``Exa API error (<status>): <body>``)."""
MCP_ERRORS = ErrorMap(prefix="Exa MCP request failed", messages={429: MCP_RATE_LIMIT_MESSAGE})
"""How the MCP endpoint's error statuses read; its 429 names the keyless limit (still a
rate limit with the ``Retry-After`` wait)."""
_MODE = "mode"
"""The :attr:`Flow.state` key that says which endpoint this call chose."""


class ExaProvider(ProtocolProvider):
    """The Exa provider: the search API with a key, the keyless MCP tool without one.

    The core's loop sends the one request :meth:`first_request` chooses and reads an error
    status through the map :meth:`error_map` picks for that endpoint.
    """

    info = INFO
    errors = API_ERRORS

    def is_explicitly_available(self, context: ProviderContext) -> bool:
        """Always: without a key an explicit selection uses the keyless MCP tool."""
        return True

    def first_request(self, flow: Flow) -> HttpRequest:
        """The search API request when a key is configured, else the MCP tool call."""
        key = self.api_key(flow.context)
        flow.state[_MODE] = "api_key" if key is not None else "keyless"
        if key is not None:
            return self.build_api_request(flow.params, key)
        return self.build_mcp_request(flow.params, _rpc_id())

    def error_map(self, flow: Flow) -> ErrorMap:
        """The MCP endpoint's texts in keyless mode, the API's otherwise."""
        return MCP_ERRORS if flow.state[_MODE] == "keyless" else API_ERRORS

    def parse(self, flow: Flow) -> SearchResponse:
        """The API body, or the MCP reply (SSE or JSON), as a response."""
        response = flow.last.response
        http = response if isinstance(response, HttpResponse) else response.as_http()
        if flow.state[_MODE] == "api_key":
            return self.parse_api_response(http, flow.params)
        return parse_mcp_body(http.text(), limit=_count(flow.params))

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
        self.check(response)

    def check_mcp_response(self, response: HttpResponse) -> None:
        """Raise for a non-2xx MCP status; a 429 names the keyless rate limit."""
        self.check(response, MCP_ERRORS)

    def parse_api_response(self, response: HttpResponse, params: SearchParams) -> SearchResponse:
        """The answer, sources and request id of a 2xx API body."""
        data = response.json(self.info.id, self.info.label)
        return SearchResponse(
            provider=self.info.id,
            answer=build_answer(data),
            sources=parse_results(data, limit=_count(params)),
            request_id=request_id_of(data),
            auth_mode="api_key",
        )
