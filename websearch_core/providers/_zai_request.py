"""The Z.AI MCP requests, as pure functions: the JSON-RPC bodies and the argument shapes.

Kept apart from :mod:`websearch_core.providers.zai`, which states the session's steps and
holds the hooks that send these bodies in order.
"""

import uuid
from collections.abc import Mapping
from typing import Any, Final

from .. import __version__
from ..models import SearchParams

__all__ = [
    "DEFAULT_COUNT",
    "PROTOCOL_VERSION",
    "TOOL_NAME",
    "argument_shapes",
    "call_body",
    "initialize_body",
    "initialized_body",
    "result_count",
    "rpc_id",
]

TOOL_NAME: Final = "webSearchPrime"
PROTOCOL_VERSION: Final = "2025-03-26"
CLIENT_INFO: Final = {"name": "websearch-tools", "version": __version__}
DEFAULT_COUNT: Final = 10


def result_count(params: SearchParams) -> int:
    """``num_search_results``, else ``limit``, else 10 (not clamped)."""
    return params.result_count or DEFAULT_COUNT


def argument_shapes(query: str, count: int) -> tuple[dict[str, Any], ...]:
    """The tool arguments, in the order they are tried.

    ``search_query`` is the argument the live tool takes (a ``query`` is refused), so it
    comes first and a search costs one call; ``{query, count}``, the reference's first
    shape, is kept last in case a server ever wants it.

    Example:
        >>> [sorted(shape) for shape in argument_shapes("q", 3)][0]
        ['count', 'search_query']
    """
    return (
        {"search_query": query, "count": count},
        {"search_query": query, "search_engine": "search-prime", "count": count},
        {"query": query, "count": count},
    )


def rpc_id() -> str:
    """A fresh JSON-RPC request id."""
    return str(uuid.uuid4())


def initialize_body(request_id: str) -> dict[str, Any]:
    """The ``initialize`` request."""
    return {
        "jsonrpc": "2.0",
        "method": "initialize",
        "params": {
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": {},
            "clientInfo": dict(CLIENT_INFO),
        },
        "id": request_id,
    }


def initialized_body() -> dict[str, Any]:
    """The ``notifications/initialized`` notification (no id: nothing answers it)."""
    return {"jsonrpc": "2.0", "method": "notifications/initialized", "params": {}}


def call_body(arguments: Mapping[str, Any], request_id: str) -> dict[str, Any]:
    """The ``tools/call`` request for ``arguments``."""
    return {
        "jsonrpc": "2.0",
        "method": "tools/call",
        "params": {"name": TOOL_NAME, "arguments": dict(arguments)},
        "id": request_id,
    }
