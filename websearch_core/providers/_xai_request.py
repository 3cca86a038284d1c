"""The xAI Responses request body and its filter declaration, as pure functions and data.

Kept apart from :mod:`websearch_core.providers.xai`, which states the wire facts these
functions follow and holds the hooks. The declaration lives here, beside the body, because
both read the same rule (:meth:`FilterSupport.sent_domains`): a domain list is in the body
exactly when the filter record calls it ``native``.
"""

from typing import Any, Final

from ..filters import FilterSupport
from ..models import SearchParams
from .base import clamp_count

__all__ = [
    "DEFAULT_MODEL",
    "DEFAULT_RESULTS",
    "DOMAIN_LIMIT",
    "FILTERS",
    "MAX_RESULTS",
    "request_body",
    "response_cap",
    "web_search_tool",
]

DEFAULT_MODEL: Final = "grok-4.3"
DEFAULT_RESULTS: Final = 10
MAX_RESULTS: Final = 30
DOMAIN_LIMIT: Final = 5
"""``filters.allowed_domains`` and ``filters.excluded_domains`` each take at most five domains
(xAI docs)."""

FILTERS: Final = FilterSupport.language_model(
    native=frozenset({"include_domains", "exclude_domains"}),
    domain_limit=DOMAIN_LIMIT,
    one_domain_list=True,
)
"""The ``web_search`` tool's domain lists, one per request; no date or recency parameter."""

_FILTER_FIELDS: Final = (
    ("include_domains", "allowed_domains"),
    ("exclude_domains", "excluded_domains"),
)
"""Which field of the tool's ``filters`` object carries which filter."""


def response_cap(params: SearchParams) -> int:
    """The local cap on sources and citations: the collapsed count, default 10, at most 30."""
    return clamp_count(params.result_count, DEFAULT_RESULTS, MAX_RESULTS)


def web_search_tool(params: SearchParams) -> dict[str, Any]:
    """The ``web_search`` tool with the domain list :data:`FILTERS` says it carries (pure).

    The list goes in the tool's ``filters`` object, as xAI's REST and OpenAI-SDK examples
    write it; without a list there is no ``filters``.

    Examples:
        >>> web_search_tool(SearchParams(query="q", include_domains=("x.ai",),
        ...     exclude_domains=("a.com",)))
        {'type': 'web_search', 'filters': {'allowed_domains': ['x.ai']}}
        >>> web_search_tool(SearchParams(query="q", include_domains=tuple(
        ...     f"s{i}.com" for i in range(6)), exclude_domains=("a.com",)))
        {'type': 'web_search', 'filters': {'excluded_domains': ['a.com']}}
        >>> web_search_tool(SearchParams(query="q"))
        {'type': 'web_search'}
    """
    sent = FILTERS.sent_domains(params.include_domains, params.exclude_domains)
    filters = {field: list(getattr(params, name)) for name, field in _FILTER_FIELDS if name in sent}
    tool: dict[str, Any] = {"type": "web_search"}
    if filters:
        tool["filters"] = filters
    return tool


def request_body(
    params: SearchParams, *, model: str = DEFAULT_MODEL, system_prompt: str = ""
) -> dict[str, Any]:
    """The Responses API body for ``params`` (pure).

    Args:
        params: The search, as the filter plan rewrote it.
        model: The Grok model.
        system_prompt: Sent as the first input item, role ``system``, when not blank.

    Example:
        >>> sorted(request_body(SearchParams(query="x", limit=50, recency="day")))
        ['input', 'model', 'tools']
    """
    items: list[dict[str, str]] = []
    if system_prompt.strip():
        items.append({"role": "system", "content": system_prompt})
    items.append({"role": "user", "content": params.query})
    body: dict[str, Any] = {"model": model, "input": items, "tools": [web_search_tool(params)]}
    if params.max_tokens is not None:
        body["max_output_tokens"] = params.max_tokens
    if params.temperature is not None:
        body["temperature"] = params.temperature
    return body
