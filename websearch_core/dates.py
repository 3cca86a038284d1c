"""One form for every published date a response carries: ISO 8601 when the date is absolute.

Providers write dates as their upstream does (``May 1, 2023``, ``Mon, 02 Jun 2025 10:00:00
GMT``, ``2024-01-05T10:00:00Z``); a string like that goes stale and unsortable once it is
stored in a vector store. The core rewrites each absolute date to ISO 8601 (a day as
``YYYY-MM-DD``, an instant with its time and zone) for every provider alike: an instant
written without a zone, which the core reads as UTC, is given ``+00:00`` (see
:mod:`.date_zone`). Relative text (``3 days ago``) and a bare year or month (no day to
name) are left as written.

Example:
    >>> iso_date("May 1, 2023"), iso_date("Mon, 02 Jun 2025 10:00:00 GMT")
    ('2023-05-01', '2025-06-02T10:00:00+00:00')
    >>> iso_date("2026-01-01T00:00:00Z"), iso_date("3 days ago"), iso_date("Dec 2025")
    ('2026-01-01T00:00:00Z', None, None)
    >>> iso_date("2023-05-01T20:10:05"), iso_date("May 1, 2023 8:10 pm")
    ('2023-05-01T20:10:05+00:00', '2023-05-01T20:10:00+00:00')
"""

import re
from datetime import UTC, datetime, time

from .date_zone import with_zone
from .models import SearchResponse, SearchSource
from .providers._common import parse_date

__all__ = ["iso_date", "iso_sources", "with_iso_dates"]

_ISO_8601 = re.compile(
    r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?"
)
_FINAL = re.compile(
    r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2}))?"
)
"""ISO 8601 in the form the output owes: a day, or an instant with its zone."""
_ALL_FINAL = re.compile(f"(?:{_FINAL.pattern}\n)*")
"""Dates each followed by a line break, every one already in :data:`_FINAL`'s form."""
_DIGITS_AS_ZERO = str.maketrans("123456789", "000000000")
"""Every ASCII digit as ``0``: a date's shape, to look up in :data:`_ISO_SHAPES`."""
_ISO_SHAPES = frozenset(
    stem + zone
    for stem in ("0000-00-00T00:00:00", "0000-00-00T00:00:00.000", "0000-00-00 00:00:00")
    for zone in ("Z", "+00:00", "-00:00")
) | {"0000-00-00"}
"""The shapes of the ISO 8601 dates providers send most (a day; an instant in seconds or
milliseconds, with a zone), ASCII digits written ``0``: each matches :data:`_FINAL`.
Looking a shape up costs a third of the regular expression's match over a page of dates;
a date of any other shape is matched as before."""
_NO_DAY = re.compile(r"(?:[A-Za-z]+\.?,?\s+)?\d{4}")
"""A year, or a month and a year: no day to put in an ISO date."""
_DEFAULT = datetime(2000, 1, 1)


def iso_date(text: str | None) -> str | None:
    """``text`` as ISO 8601 when it names an absolute day or instant, else ``None``."""
    if not text:
        return None
    text = text.strip()
    if _ISO_8601.fullmatch(text):
        return with_zone(text)  # as the provider wrote it, with the zone the core read
    if _NO_DAY.fullmatch(text):
        return None
    try:
        when = parse_date(text, default=_DEFAULT)
    except (ValueError, OverflowError):
        return None
    if when is None:
        return None
    if when.tzinfo is None and when.time() == time(0):
        return when.date().isoformat()
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)  # as the core reads it (its age, the date filters)
    try:
        return when.isoformat()
    except ValueError:  # an offset of a day or more ("...\n2024-03-30" read as -2024:03)
        return None


def with_iso_dates(response: SearchResponse) -> SearchResponse:
    """``response`` with each source's absolute ``published_date`` in ISO 8601.

    Most sources have no date or one already in ISO 8601 with its zone (with nothing around
    it), which :func:`iso_date` would give back as it is: the response is returned untouched, and
    only a response with a date to rewrite is copied.
    """
    sources = iso_sources(response.sources)
    return response if sources is None else response.model_copy(update={"sources": sources})


def iso_sources(sources: tuple[SearchSource, ...]) -> tuple[SearchSource, ...] | None:
    """``sources`` with each absolute date in ISO 8601, or ``None`` when none changes.

    The chain's attempt uses this rather than :func:`with_iso_dates` so that the sources,
    when some change, ride on the one copy of the response that also attaches the
    attempts, instead of a copy of their own.
    """
    # The usual case first: every date already in the final form, seen by the shapes of
    # the joined dates (one lookup each), else by one match. Exact: the joined text holds
    # one line break a date (none is inside one), so its lines are the dates themselves.
    # Each date read once: a field of a model read twice a source cost ~1 us a page.
    dates = [date for source in sources if (date := source.published_date)]
    if not dates:
        return None
    joined = "\n".join(dates)
    if joined.count("\n") == len(dates) - 1 and (
        _ISO_SHAPES.issuperset(joined.translate(_DIGITS_AS_ZERO).split("\n"))
        or _ALL_FINAL.fullmatch(f"{joined}\n")
    ):
        return None
    final_form = _FINAL.fullmatch
    for index, source in enumerate(sources):
        date = source.published_date
        if not date or final_form(date):
            continue
        iso = iso_date(date)
        if iso is not None and iso != date:
            return _rewritten(sources, index)
    return None


def _rewritten(sources: tuple[SearchSource, ...], start: int) -> tuple[SearchSource, ...]:
    """``sources`` with each date from ``start`` on in ISO 8601 (those before are already)."""
    rewritten = list(sources[:start])
    for source in sources[start:]:
        iso = iso_date(source.published_date)
        if iso is not None and iso != source.published_date:
            source = source.model_copy(update={"published_date": iso})
        rewritten.append(source)
    return tuple(rewritten)
