"""The Kagi v1 request body, as pure functions: the count and the ``filters`` object.

Kept apart from :mod:`websearch_core.providers.kagi`, which states the wire facts these
functions follow and holds the hooks.
"""

from collections.abc import Mapping
from datetime import date, timedelta
from typing import Any, Final

from dateutil.relativedelta import relativedelta

from ..models import Recency, SearchParams
from ._kagi_parse import DEFAULT_RESULTS
from .base import clamp_count

__all__ = ["MAX_RESULTS", "after_date", "request_body", "search_filters"]

MAX_RESULTS: Final = 40

_RECENCY_STEP: Final[Mapping[Recency, timedelta | relativedelta]] = {
    "day": timedelta(days=1),
    "week": timedelta(days=7),
    "month": relativedelta(months=1),
    "year": relativedelta(years=1),
}


def after_date(params: SearchParams, today: date) -> date | None:
    """The ``filters.after`` date for ``params``, or ``None`` for no time filter.

    Args:
        params: The request; ``date_after`` wins over ``recency``.
        today: Today's date in UTC.

    Example:
        >>> after_date(SearchParams(query="x", recency="month"), date(2024, 3, 31))
        datetime.date(2024, 2, 29)
    """
    if params.date_after is not None:
        return params.date_after
    if params.recency is None:
        return None
    result: date = today - _RECENCY_STEP[params.recency]
    return result


def search_filters(params: SearchParams, today: date) -> dict[str, str]:
    """The ``filters`` object for ``params``: ``after``, ``before`` and ``region``, when asked.

    Kagi's v1 OpenAPI description (``search_request_filters``) has all three: the two
    dates as ``YYYY-MM-DD`` and ``region`` as an ISO 3166-1 alpha-2 code, written here in
    ISO's upper case (the description does not say which case it reads).

    Example:
        >>> search_filters(SearchParams(query="x", country="de"), date(2026, 1, 1))
        {'region': 'DE'}
    """
    filters: dict[str, str] = {}
    after = after_date(params, today)
    if after is not None:
        filters["after"] = after.isoformat()
    if params.date_before is not None:
        filters["before"] = params.date_before.isoformat()
    if params.country is not None:
        filters["region"] = params.country.upper()
    return filters


def request_body(params: SearchParams, today: date) -> dict[str, Any]:
    """The JSON body Kagi receives for ``params`` (pure); ``filters`` only when one is asked.

    Example:
        >>> request_body(SearchParams(query="x", limit=50), date(2026, 1, 1))
        {'query': 'x', 'workflow': 'search', 'limit': 40}
    """
    body: dict[str, Any] = {
        "query": params.query,
        "workflow": "search",
        "limit": clamp_count(params.result_count, DEFAULT_RESULTS, MAX_RESULTS),
    }
    filters = search_filters(params, today)
    if filters:
        body["filters"] = filters
    return body
