"""The xAI Responses request body, as pure functions: the search and its Live-Search-free retry.

Kept apart from :mod:`websearch_core.providers.xai`, which states the wire facts these
functions follow and holds the hooks.
"""

from collections.abc import Mapping
from datetime import UTC, date, datetime
from typing import Any, Final

from ..models import SearchParams
from ._common import recency_start
from .base import clamp_count

__all__ = [
    "DEFAULT_MODEL",
    "DEFAULT_RESULTS",
    "MAX_RESULTS",
    "request_body",
    "response_cap",
    "without_search_parameters",
]

DEFAULT_MODEL: Final = "grok-4.3"
DEFAULT_RESULTS: Final = 10
MAX_RESULTS: Final = 30


def response_cap(params: SearchParams) -> int:
    """The local cap on sources and citations: the collapsed count, default 10, at most 30."""
    return clamp_count(params.result_count, DEFAULT_RESULTS, MAX_RESULTS)


def _search_parameters(params: SearchParams, today: date) -> dict[str, Any]:
    parameters: dict[str, Any] = {}
    if params.result_count:
        parameters["max_search_results"] = response_cap(params)
    start, end = params.date_after, params.date_before
    if start is None and end is None and params.recency is not None:
        start, end = recency_start(today, params.recency), today
    if start is not None:
        parameters["from_date"] = start.isoformat()
    if end is not None:
        parameters["to_date"] = end.isoformat()
    return parameters


def request_body(
    params: SearchParams,
    *,
    model: str = DEFAULT_MODEL,
    system_prompt: str = "",
    today: date | None = None,
) -> dict[str, Any]:
    """The Responses API body for ``params`` (pure).

    Args:
        params: The search.
        model: The Grok model.
        system_prompt: Sent as the first input item, role ``system``, when not blank.
        today: The UTC date ``recency`` counts back from (default: today).

    Example:
        >>> request_body(SearchParams(query="x", limit=50))["search_parameters"]
        {'max_search_results': 30}
    """
    items: list[dict[str, str]] = []
    if system_prompt.strip():
        items.append({"role": "system", "content": system_prompt})
    items.append({"role": "user", "content": params.query})
    body: dict[str, Any] = {"model": model, "input": items, "tools": [{"type": "web_search"}]}
    if params.max_tokens is not None:
        body["max_output_tokens"] = params.max_tokens
    if params.temperature is not None:
        body["temperature"] = params.temperature
    parameters = _search_parameters(params, today or datetime.now(UTC).date())
    if parameters:
        body["search_parameters"] = parameters
    return body


def without_search_parameters(body: Mapping[str, Any]) -> dict[str, Any] | None:
    """``body`` minus ``search_parameters``, or ``None`` when it had none (nothing to retry)."""
    if "search_parameters" not in body:
        return None
    return {key: value for key, value in body.items() if key != "search_parameters"}
