"""A published instant states its zone: one without, which the core reads as UTC, says so.

An ISO 8601 instant without a zone (Brave's ``page_age`` ``2023-05-01T20:10:05``,
DuckDuckGo's ``2025-06-23T00:00:00.0000000``) means local time to every reader but ours:
``datetime.fromisoformat`` gives a naive value, and a vector store or a model cannot tell
it from a time in its own zone. The core already takes such a date as UTC (its age, the
date filters), and writes every date it reads from another form with ``+00:00``, so the
same search through Brave and through the Public Web aggregate gave the same instant in
two forms. Appending ``+00:00`` says what the core meant; a day (``2024-05-01``) names no
instant and stays as it is, and a zone already written (``Z``, ``+02:00``) is kept.

Example:
    >>> with_zone("2023-05-01T20:10:05"), with_zone("2023-05-01"), with_zone("2026-01-01T00:00Z")
    ('2023-05-01T20:10:05+00:00', '2023-05-01', '2026-01-01T00:00Z')
"""

from typing import Final

__all__ = ["UTC_OFFSET", "has_zone", "with_zone"]

UTC_OFFSET: Final = "+00:00"
"""The zone written for an instant without one: the form ``datetime.isoformat`` gives."""
_DAY_LENGTH: Final = len("2024-05-01")


def has_zone(iso: str) -> bool:
    """Whether ``iso`` (ISO 8601, as the callers have checked) is a day or a zoned instant.

    Read by position, as it is asked of every dated result: a zone ends the text (``Z``,
    ``+HH:MM``, ``+HHMM``), and a time before it is at least ``HH:MM``, so the sign of an
    offset is the only ``+`` or ``-`` among the last six characters of an instant.
    """
    if len(iso) <= _DAY_LENGTH:
        return True  # a day: no instant, so no zone owed
    return iso[-1] == "Z" or iso[-6] in "+-" or iso[-5] in "+-"


def with_zone(iso: str) -> str:
    """``iso`` (ISO 8601) with ``+00:00`` after an instant that names no zone."""
    return iso if has_zone(iso) else iso + UTC_OFFSET
