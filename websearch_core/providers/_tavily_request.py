"""The Tavily request body, as pure functions: the search and its filter-free retry.

Kept apart from :mod:`websearch_core.providers.tavily`, which states the wire facts these
functions follow and holds the hooks.
"""

from collections.abc import Mapping
from typing import Any, Final

from ..models import SearchParams
from ._tavily_countries import tavily_country
from .base import clamp_count

__all__ = ["DEFAULT_RESULTS", "MAX_RESULTS", "MIN_RESULTS", "request_body", "without_time_filter"]

DEFAULT_RESULTS: Final = 5
MIN_RESULTS: Final = 5
"""The spec's lower bound; the reference's upstream code uses 1."""
MAX_RESULTS: Final = 20

_TIME_FILTER_KEYS: Final = ("time_range", "start_date", "end_date")


def request_body(params: SearchParams) -> dict[str, Any]:
    """The JSON body Tavily receives for ``params`` (pure).

    Example:
        >>> request_body(SearchParams(query="x", recency="week"))["time_range"]
        'week'
    """
    body: dict[str, Any] = {
        "query": params.query,
        "search_depth": "basic",
        "max_results": clamp_count(
            params.result_count, DEFAULT_RESULTS, MAX_RESULTS, minimum=MIN_RESULTS
        ),
        "include_answer": "advanced",
        "include_raw_content": False,
    }
    if params.include_domains:
        body["include_domains"] = list(params.include_domains)
    if params.exclude_domains:
        body["exclude_domains"] = list(params.exclude_domains)
    if params.date_after is not None:
        body["start_date"] = params.date_after.isoformat()
    if params.date_before is not None:
        body["end_date"] = params.date_before.isoformat()
    if params.recency is not None and params.date_after is None and params.date_before is None:
        body["time_range"] = params.recency
    country = tavily_country(params.country) if params.country is not None else None
    if country is not None:
        body["country"] = country
    return body


def without_time_filter(body: Mapping[str, Any]) -> dict[str, Any] | None:
    """``body`` minus its time filter, or ``None`` when it had none (nothing to retry)."""
    if not any(key in body for key in _TIME_FILTER_KEYS):
        return None
    return {key: value for key, value in body.items() if key not in _TIME_FILTER_KEYS}
