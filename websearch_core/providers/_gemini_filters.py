"""Which filters each Gemini mode sends as a parameter, and the time window it sends.

Google documents ``google_search.timeRangeFilter`` (an ``Interval``: ``startTime`` and
``endTime``, RFC 3339 timestamps, both or neither, the start inclusive and not after the
end, the end exclusive) for the Gemini API only, and says it is not supported in Vertex AI
(the Gen AI SDKs' ``GoogleSearch`` type,
https://googleapis.github.io/js-genai/release_docs/interfaces/types.GoogleSearch.html, and
the API's own ``GoogleSearch`` reference,
https://docs.cloud.google.com/nodejs/docs/reference/generativelanguage/latest/generativelanguage/protos.google.ai.generativelanguage.v1beta.tool.igooglesearch;
Vertex AI's ``Tool.GoogleSearch`` has ``excludeDomains`` and ``blockingConfidence`` and
no time filter,
https://docs.cloud.google.com/ruby/docs/reference/google-cloud-ai_platform-v1/latest/Google-Cloud-AIPlatform-V1-Tool-GoogleSearch).
Cloud Code Assist, where both OAuth sign-ins go, documents no body of its own: the Gemini
CLI sends it a Vertex-shaped request (``VertexGenerateContentRequest`` in its
``packages/core/src/code_assist/converter.ts``), so nothing says the field is read there
and it is not sent. The OAuth modes keep what they did: a date typed or given stays in
the question, and a recency is ignored (the spec does not list Gemini among the providers
that implement it).

What a mode carries is this module's record (:data:`MODE_FILTERS`); the filter plan reads
the same record (:meth:`GeminiProvider.filter_support`), so a date the body carries leaves
the question and one it does not carry stays in it.
"""

from collections.abc import Mapping
from datetime import UTC, date, datetime, time, timedelta
from types import MappingProxyType
from typing import Any, Final, Literal

from ..filters.support import FilterSupport
from ..models import SearchParams
from ._common import RECENCY_DAYS

__all__ = [
    "CLOUD_CODE_FILTERS",
    "DEVELOPER_FILTERS",
    "MODE_FILTERS",
    "GeminiMode",
    "google_search_tool",
    "time_range_filter",
]

GeminiMode = Literal["api_key", "oauth"]
"""The mode a search runs in: a key (the Developer API) or a sign-in (Cloud Code Assist)."""

DEVELOPER_FILTERS: Final = FilterSupport.language_model(
    frozenset({"date_after", "date_before", "recency"}), google_syntax=True
)
"""The Developer API: the dates and the recency go as ``google_search.timeRangeFilter``."""
CLOUD_CODE_FILTERS: Final = FilterSupport.language_model(google_syntax=True)
"""Cloud Code Assist (both OAuth sign-ins): no filter parameter is documented there."""
MODE_FILTERS: Final[Mapping[GeminiMode, FilterSupport]] = MappingProxyType(
    {"api_key": DEVELOPER_FILTERS, "oauth": CLOUD_CODE_FILTERS}
)
"""Each mode's filter support, for the plan and for the body alike."""

_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)
"""The start sent when only an end is asked: the API takes both times or neither."""


def _stamp(moment: datetime) -> str:
    """``moment`` as an RFC 3339 UTC timestamp to the second (``2026-01-08T00:00:00Z``)."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _day_end(day: date) -> datetime:
    """The exclusive end of ``day``: the next midnight UTC, or the last second RFC 3339 has.

    ``date_before=9999-12-31`` (a "no end" a program may write) has no next day:
    ``date + timedelta`` raised ``OverflowError``, which failed the search with
    ``date value out of range``. RFC 3339 ends at ``9999-12-31T23:59:59Z``, so that is sent.
    """
    if day == date.max:
        return datetime.combine(day, time(23, 59, 59), UTC)
    return datetime.combine(day + timedelta(days=1), time(), UTC)


def time_range_filter(
    params: SearchParams, filters: FilterSupport, now: datetime
) -> dict[str, str] | None:
    """The ``timeRangeFilter`` for the date filters ``filters`` carries natively, if any.

    The window every asked filter allows: from the latest start (``date_after`` at
    midnight UTC; ``now`` less the recency's days, as the other providers count them) to
    the earliest end (the day after ``date_before``, since the end is exclusive and the
    day itself is asked for; ``now`` for a recency). A missing start is the Unix epoch
    and a missing end ``now``. Filters that contradict each other give an empty window
    (start equal to end), which the API reads as matching no time.

    Args:
        params: The search as planned (directives already moved into the date fields).
        filters: The mode's filter support: only its native date filters are read.
        now: The current time (aware).

    Returns:
        ``{"startTime": ..., "endTime": ...}``, or ``None`` when no native date filter is
        asked.

    Example:
        >>> from datetime import date
        >>> time_range_filter(SearchParams(query="x", recency="week"), DEVELOPER_FILTERS,
        ...     datetime(2026, 1, 8, 9, 30, tzinfo=UTC))
        {'startTime': '2026-01-01T09:30:00Z', 'endTime': '2026-01-08T09:30:00Z'}
        >>> time_range_filter(SearchParams(query="x", date_before=date(2025, 3, 1)),
        ...     DEVELOPER_FILTERS, datetime(2026, 1, 8, tzinfo=UTC))
        {'startTime': '1970-01-01T00:00:00Z', 'endTime': '2025-03-02T00:00:00Z'}
        >>> time_range_filter(SearchParams(query="x", recency="day"), CLOUD_CODE_FILTERS,
        ...     datetime(2026, 1, 8, tzinfo=UTC)) is None
        True
    """
    native = filters.native
    now = now.replace(microsecond=0)
    starts: list[datetime] = []
    ends: list[datetime] = []
    if "date_after" in native and params.date_after is not None:
        starts.append(datetime.combine(params.date_after, time(), UTC))
    if "date_before" in native and params.date_before is not None:
        ends.append(_day_end(params.date_before))
    if "recency" in native and params.recency is not None:
        starts.append(now - timedelta(days=RECENCY_DAYS[params.recency]))
        ends.append(now)
    if not starts and not ends:
        return None
    start = max(starts, default=_EPOCH)
    end = max(min(ends, default=now), start)
    return {"startTime": _stamp(start), "endTime": _stamp(end)}


def google_search_tool(
    params: SearchParams, filters: FilterSupport, now: datetime | None = None
) -> dict[str, Any]:
    """The ``google_search`` tool entry, with the time window the mode carries, if any.

    Args:
        params: The search as planned.
        filters: The mode's filter support (:data:`MODE_FILTERS`).
        now: The current time (default: the clock, in UTC).

    Example:
        >>> google_search_tool(SearchParams(query="x", recency="day"), CLOUD_CODE_FILTERS)
        {'google_search': {}}
    """
    window = time_range_filter(params, filters, now or datetime.now(UTC))
    return {"google_search": {} if window is None else {"timeRangeFilter": window}}
