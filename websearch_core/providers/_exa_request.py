"""Exa's two requests, built from the search alone: the search API call and the MCP tool call.

Kept apart from :mod:`websearch_core.providers.exa` (the facts, error maps and hooks) so
each module has one job; nothing here sends anything. Endpoints, headers and modes are
stated in the provider module's docstring; the bodies are:

* **API:** ``query``, ``numResults``, ``type: "auto"``, ``contents: {"summary": {"query":
  <query>}}`` and, when asked, ``includeDomains``, ``excludeDomains``,
  ``startPublishedDate`` (``date_after`` at ``00:00:00.000Z``) and ``endPublishedDate``
  (``date_before`` at ``23:59:59.999Z``, so the day itself is included), and
  ``userLocation`` (``country`` upper case: Exa's reference, docs.exa.ai/reference/search,
  takes "the two-letter ISO country code of the user, e.g. US").
* **MCP** (``tools/call`` of ``web_search_exa``): ``query`` (with ``site:``, ``-site:``,
  ``after:`` and ``before:`` directives appended for the domain and date filters, which the
  tool has no fields for) and ``numResults`` when a count was asked. The tool has no field
  for a country either (exa-labs/exa-mcp-server ``src/tools/webSearch.ts``), so none goes.
"""

import secrets
from collections.abc import Mapping
from typing import Any, Final

from ..models import SearchParams
from ..stream_ends import MCP_REPLY_END
from ..transport import HttpRequest
from .base import clamp_count

__all__ = [
    "DEFAULT_RESULTS",
    "EXA_API_ENDPOINT",
    "EXA_MCP_ENDPOINT",
    "MAX_RESULTS",
    "api_request",
    "api_request_body",
    "mcp_query",
    "mcp_request",
    "mcp_request_body",
    "result_count",
    "rpc_id",
    "rpc_id_of",
]

EXA_API_ENDPOINT: Final = "https://api.exa.ai/search"
EXA_MCP_ENDPOINT: Final = "https://mcp.exa.ai/mcp"
MCP_TOOL: Final = "web_search_exa"
SOURCE_HEADER: Final = "websearch-tools"
DEFAULT_RESULTS: Final = 10
MAX_RESULTS: Final = 100

_BASE36: Final = "0123456789abcdefghijklmnopqrstuvwxyz"


def result_count(params: SearchParams) -> int:
    """``numResults``, which also cuts the sources: the asked count within 1..100, else 10."""
    return clamp_count(params.result_count, DEFAULT_RESULTS, MAX_RESULTS)


def api_request_body(params: SearchParams) -> dict[str, Any]:
    """The JSON body ``POST /search`` receives for ``params`` (pure).

    Example:
        >>> api_request_body(SearchParams(query="x", limit=3))["numResults"]
        3
    """
    body: dict[str, Any] = {
        "query": params.query,
        "numResults": result_count(params),
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
    if params.country is not None:
        body["userLocation"] = params.country.upper()
    return body


def mcp_query(params: SearchParams) -> str:
    """The query text for the MCP tool: the query plus search directives for the filters.

    The tool has no fields for domains or dates, so they travel in the query's own syntax.

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
        arguments["numResults"] = result_count(params)
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": MCP_TOOL, "arguments": arguments},
    }


def rpc_id_of(request: HttpRequest) -> str | None:
    """The JSON-RPC ``id`` a ``tools/call`` request went with, if it has one (pure).

    Example:
        >>> rpc_id_of(mcp_request(SearchParams(query="llm"), "k3x"))
        'k3x'
    """
    body = request.json
    value = body.get("id") if isinstance(body, Mapping) else None
    return value if isinstance(value, str) else None


def rpc_id() -> str:
    """A fresh JSON-RPC id: 48 random bits written in base 36."""
    value = secrets.randbits(48)
    digits: list[str] = []
    while value:
        value, digit = divmod(value, 36)
        digits.append(_BASE36[digit])
    return "".join(reversed(digits)) or "0"


def api_request(params: SearchParams, key: str) -> HttpRequest:
    """``POST /search`` for ``params`` with the key in ``x-api-key``."""
    return HttpRequest(
        method="POST",
        url=EXA_API_ENDPOINT,
        headers={"Content-Type": "application/json", "x-api-key": key},
        json=api_request_body(params),
    )


def mcp_request(params: SearchParams, request_id: str) -> HttpRequest:
    """The keyless JSON-RPC ``tools/call`` request for ``params`` (it carries no key).

    Streamed, and ended at the JSON-RPC reply to ``request_id``
    (:data:`~..stream_ends.MCP_REPLY_END`): read as one body, the server's SSE reply was
    read to the socket's close, which a server or proxy holding the connection never
    sends; ended at any reply, one to another ``id`` ahead of it cut the stream there.
    """
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
        stream=True,
        stream_end=MCP_REPLY_END.answering(request_id),
    )
