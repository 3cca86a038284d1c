"""The instants the package writes itself: UTC, clamped to what a calendar can hold.

A mark, an expiry or a reset time is kept as a Unix epoch. Written for a person it reads
``2026-01-01 00:00:00 UTC`` (:func:`~.orchestration.quota.utc_text`); written for a
program it is ISO 8601 with ``+00:00`` (:func:`utc_iso`), the form ``datetime.isoformat``
gives and the one the core gives a published instant sent without a zone
(:mod:`.date_zone`), so a script reading our output meets one spelling of UTC, never
``Z`` beside ``+00:00``. A date a provider wrote with ``Z`` is its own, and kept.

A mark an older version stored with ``auth_cooldown_seconds = 1e300`` lies past any date
Python can write: ``websearch providers`` showed it as the year 9999 while
``websearch providers --json`` ended in an ``OverflowError`` traceback. Both clamp here.

Example:
    >>> utc_iso(1767225600.0), utc_iso(1e300)
    ('2026-01-01T00:00:00+00:00', '9999-12-31T23:59:59+00:00')
"""

from datetime import UTC, datetime

__all__ = ["utc_iso", "utc_moment"]


def utc_moment(epoch: float) -> datetime:
    """``epoch`` in UTC, to the second; past year 9999 (or before year 1) the calendar's end."""
    try:
        moment = datetime.fromtimestamp(epoch, UTC)
    except (OverflowError, OSError, ValueError):
        moment = (datetime.max if epoch > 0 else datetime.min).replace(tzinfo=UTC)
    return moment.replace(microsecond=0)


def utc_iso(epoch: float) -> str:
    """``epoch`` as ISO 8601 in seconds with ``+00:00``: how our JSON writes an instant."""
    return utc_moment(epoch).isoformat()
