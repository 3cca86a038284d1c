"""The publication dates a simulated engine's own date filter lets through.

A real engine asked for the past week (DuckDuckGo's ``df=w``, Google's ``tbs=qdr:w``)
leaves older pages out itself, and the core trusts it: a filter applied upstream is not
checked again. A simulator that ignored the parameter served dated results the real
engine would not have, so a search with ``recency`` answered where the real one finds
nothing. Each protocol reads its own parameter into a :class:`DateWindow`; the simulator
applies it when a test asks (:attr:`~websearch_core.testing.simulator.SimulatedProvider.
honour_dates`). A result without a readable ``published`` is always served: nothing
tells the simulator its date, and the core keeps such results unchecked.
"""

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Final

from ..simulator import SimResult
from ._common import parse_timestamp

__all__ = ["ANY_DATE", "DateWindow", "between_days", "past"]

_SPANS: Final[dict[str, timedelta]] = {
    "d": timedelta(days=1),
    "w": timedelta(days=7),
    "m": timedelta(days=31),
    "y": timedelta(days=366),
}
"""The engines' one-letter spans (``d``/``w``/``m``/``y``, as DuckDuckGo, Yahoo, Startpage
and Google write them), a month and a year at their longest, as the core's own check."""


@dataclass(frozen=True, slots=True)
class DateWindow:
    """The instants a result's ``published`` may fall between (``None``: unbounded)."""

    earliest: datetime | None = None
    latest: datetime | None = None

    def admits(self, result: SimResult) -> bool:
        """Whether ``result`` is served: undated, unreadable, or dated inside the window."""
        when = parse_timestamp(result.published) if result.published else None
        if when is None:
            return True
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        if self.earliest is not None and when < self.earliest:
            return False
        return self.latest is None or when <= self.latest


ANY_DATE: Final = DateWindow()
"""No date parameter, or one the simulator does not know: every result is served."""


def past(letter: str, now: datetime | None = None) -> DateWindow:
    """The window of a one-letter span counted back from ``now``; any date if unknown.

    Example:
        >>> past("w", datetime(2026, 12, 8, tzinfo=UTC)).earliest
        datetime.datetime(2026, 12, 1, 0, 0, tzinfo=datetime.timezone.utc)
        >>> past("x") is ANY_DATE
        True
    """
    span = _SPANS.get(letter)
    if span is None:
        return ANY_DATE
    return DateWindow(earliest=(now or datetime.now(UTC)) - span)


def between_days(first: date | None, last: date | None) -> DateWindow:
    """The window from the start of day ``first`` to the end of day ``last`` (UTC).

    Example:
        >>> between_days(date(2025, 1, 1), None).earliest
        datetime.datetime(2025, 1, 1, 0, 0, tzinfo=datetime.timezone.utc)
    """
    return DateWindow(
        earliest=None if first is None else datetime.combine(first, time.min, UTC),
        latest=None if last is None else datetime.combine(last, time.max, UTC),
    )
