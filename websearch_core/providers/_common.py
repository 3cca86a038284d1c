"""Small pure helpers shared by provider modules: dates, text clean-up, URL checks, headers.

Nothing here does I/O or knows about a particular provider, so every function can be
tested with plain values.
"""

import html
import math
import re
from collections.abc import Iterator, Mapping
from datetime import UTC, date, datetime, timedelta, timezone
from itertools import islice
from typing import Final, TypeVar
from urllib.parse import urlsplit

from dateutil import parser as date_parser

from ..js_trim import trim
from ..models import Recency

__all__ = [
    "HTTP_STATUS_TEXT",
    "MAX_DATE_TEXT",
    "MAX_RESULT_ITEMS",
    "RECENCY_DAYS",
    "age_seconds_at",
    "age_seconds_from_date",
    "bearer_json_headers",
    "collapse_whitespace",
    "first_entries",
    "first_items",
    "is_http_url",
    "normalise_text",
    "parse_date",
    "recency_start",
    "strip_tags",
]

_Item = TypeVar("_Item")
_Key = TypeVar("_Key")
_Value = TypeVar("_Value")

MAX_RESULT_ITEMS: Final = 200
"""The most result items a reader looks at in one body: a JSON result array's entries, a
page's result blocks. Every reader used to parse and validate each of them before the cap
(at most 100 sources, :func:`websearch_core.sanitize.source_cap`) dropped the rest: a 7 MB
body of one small result repeated 27,000-100,000 times held the event loop for 0.3-3 s and
took up to 130 MB, stalling every concurrent search; now 0.02-0.2 s and at most 25 MB.
Twice the largest count a provider documents for one request (100: Exa, Serper,
Firecrawl), so a full page of those still comes back whole with room for the entries a
reader drops (ads, links off the web, repeats); a real page holds a few dozen at most."""

RECENCY_DAYS: Final[Mapping[Recency, int]] = {"day": 1, "week": 7, "month": 30, "year": 365}
"""How many days each ``recency`` reaches back, for providers that take a start date."""

_TAG = re.compile(r"<[^<>]*>")
"""A tag. Not ``<[^>]*>``: on text of many ``<`` and no ``>`` each start scanned to the end
(120,000 of them: 10 s); a tag never holds ``<`` anyway."""
_URL_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
"""C0 controls and DEL, which no URL may carry (``urlsplit`` would silently drop some)."""


_ISO_DATE = re.compile(
    r"[1-9]\d{3}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?"
)
"""ISO 8601 as providers write it, the shape ``datetime.fromisoformat`` reads like dateutil
(a year below 1000 is left to dateutil, which reads ``0099`` as 1999)."""
_MONTHS: Final[Mapping[str, int]] = {
    name: number
    for number, names in enumerate(
        (
            ("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"),
            ("may",), ("jun", "june"), ("jul", "july"), ("aug", "august"),
            ("sep", "sept", "september"), ("oct", "october"), ("nov", "november"),
            ("dec", "december"),
        ),
        start=1,
    )
    for name in names
}  # fmt: skip
"""English month names and abbreviations, as dateutil knows them."""
_MONTH_DAY_YEAR = re.compile(r"([A-Za-z]{3,9})\.? (\d{1,2}), ([1-9]\d{3})")
"""``Mar 3, 2025`` / ``March 3, 2025`` (Google, Bing, Yahoo, Brave)."""
_DAY_MONTH_YEAR = re.compile(r"(\d{1,2}) ([A-Za-z]{3,9})\.? ([1-9]\d{3})")
"""``14 Oct 2023`` (Startpage, Ecosia)."""
_RFC_2822 = re.compile(
    r"(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), )?(\d{1,2}) ([A-Za-z]{3}) ([1-9]\d{3})"
    r" (\d{2}):(\d{2})(?::(\d{2}))? (GMT|UTC|[+-]\d{4})"
)
"""``Fri, 29 Mar 2024 12:00:00 GMT`` (RSS-fed APIs such as Tavily)."""
_RELATIVE = re.compile(r"\d{1,4} (?:second|minute|hour|day|week|month|year)s? ago")
HTTP_STATUS_TEXT: Final = re.compile(r"[1-5][0-9]{2}")
"""An HTTP status written as text in a body: three ASCII digits. ``str.isdigit`` also takes
``²``, which ``int`` refuses, and runs of any length, past ``int``'s 4,300 digits."""
MAX_DATE_TEXT: Final = 100
"""The longest text read as a date. dateutil reads any length at ~9 us a character (a 2 MB
``publishedDate`` held the loop for seconds); the longest written dates providers send
(``Wednesday, September 10, 2025 at 3:45:12 PM Eastern Daylight Time``) are under 70."""
"""``3 days ago``: relative text, which dateutil (and JavaScript's ``Date``) cannot read."""


def parse_date(text: str, *, default: datetime) -> datetime | None:
    """The instant ``text`` names, or ``None`` when it is no date dateutil can read.

    Most dates providers send are ISO 8601 or one of a few fixed English forms; those are
    read directly (``datetime.fromisoformat`` or a fixed pattern, a few microseconds),
    everything else by ``dateutil.parser.parse`` (tens of microseconds), with the same
    result either way: the fast forms are exactly those whose reading is dateutil's.

    Args:
        text: The date, already stripped.
        default: Supplies the fields ``text`` leaves out (dateutil's ``default``).

    Returns:
        The instant, time-zone aware when ``text`` names a zone, else naive; ``None`` as
        well for text longer than :data:`MAX_DATE_TEXT`.

    Example:
        >>> parse_date("Mar 3, 2025", default=datetime(2026, 1, 1))
        datetime.datetime(2025, 3, 3, 0, 0)
    """
    fast = _parse_fixed_form(text)
    if fast is not None:
        return fast
    if len(text) > MAX_DATE_TEXT or _RELATIVE.fullmatch(text):
        return None
    try:
        return date_parser.parse(text, default=default)
    except (ValueError, OverflowError, TypeError):
        return None


def _parse_fixed_form(text: str) -> datetime | None:
    """``text`` read without dateutil when it has one of the fixed forms, else ``None``."""
    try:
        if _ISO_DATE.fullmatch(text):
            return datetime.fromisoformat(text)
        match = _MONTH_DAY_YEAR.fullmatch(text)
        if match is not None:
            month, day, year = match.groups()
            return _calendar_day(year, month, day)
        match = _DAY_MONTH_YEAR.fullmatch(text)
        if match is not None:
            day, month, year = match.groups()
            return _calendar_day(year, month, day)
        match = _RFC_2822.fullmatch(text)
        if match is not None:
            return _rfc_2822(*match.groups())
    except ValueError:  # a day or hour out of range: dateutil decides
        return None
    return None


def _iso_instant(text: str) -> datetime | None:
    """``text`` read as :func:`_parse_fixed_form` reads ISO 8601, or ``None``."""
    if not _ISO_DATE.fullmatch(text):
        return None
    try:
        return datetime.fromisoformat(text)
    except ValueError:  # out of range: parse_date decides
        return None


def _calendar_day(year: str, month: str, day: str) -> datetime | None:
    number = _MONTHS.get(month.lower())
    return None if number is None else datetime(int(year), number, int(day))


def _rfc_2822(
    day: str, month: str, year: str, hour: str, minute: str, second: str | None, zone: str
) -> datetime | None:
    number = _MONTHS.get(month.lower())
    if number is None:
        return None
    if zone in ("GMT", "UTC"):
        tz = UTC
    else:
        sign = -1 if zone[0] == "-" else 1
        tz = timezone(sign * timedelta(hours=int(zone[1:3]), minutes=int(zone[3:5])))
    return datetime(
        int(year), number, int(day), int(hour), int(minute), int(second or 0), tzinfo=tz
    )


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_NAIVE_EPOCH = datetime(1970, 1, 1)
"""A date without a zone is UTC: its age is measured between the two epochs, without
building the aware copy (``replace(tzinfo=UTC)`` alone costs more than the rest of the
ISO 8601 path). ``timedelta`` arithmetic is exact, so the age is the same to the
microsecond."""


def age_seconds_from_date(text: str | None, *, now: datetime | None = None) -> int | None:
    """Seconds between ``text`` (a date in almost any written form) and ``now``.

    The spec's ``dateToAgeSeconds``: lenient like JavaScript's ``new Date(text)`` (ISO 8601,
    RFC 2822, ``August 1, 2024``), ``None`` for an empty or unparseable string. Relative
    text such as ``3 days ago`` does not parse and gives ``None``. A date without a time
    zone is taken as UTC; a missing month or day is taken as January / the 1st, so
    ``"2024"`` means 2024-01-01 as it does in JavaScript. Reading goes through
    :func:`parse_date`, so the usual forms skip dateutil.

    Args:
        text: The date as the provider wrote it.
        now: The reference instant, time-zone aware (default: the current time, UTC).

    Returns:
        Whole seconds, negative for a date in the future, or ``None``.

    Example:
        >>> age_seconds_from_date("2024-01-01", now=datetime(2024, 1, 2, tzinfo=UTC))
        86400
        >>> age_seconds_from_date("3 days ago") is None
        True
    """
    if not text:
        return None
    stripped = text.strip()
    if not stripped:
        return None
    reference = now or datetime.now(UTC)
    # ISO 8601 first, as parse_date reads it, without building dateutil's default.
    when = _iso_instant(stripped)
    if when is None:
        when = parse_date(stripped, default=datetime(reference.year, 1, 1))
        if when is None:
            return None
    return age_seconds_at(when, reference)


def age_seconds_at(when: datetime, reference: datetime) -> int | None:
    """Whole seconds from ``when`` to ``reference``, as :func:`age_seconds_from_date` counts.

    For a parser that has already read the date (to check it is one), so the text is not
    read twice; a date without a zone is taken as UTC.

    Args:
        when: The instant, naive (UTC) or aware.
        reference: The reference instant, time-zone aware.

    Returns:
        Whole seconds (floored), negative for a date after ``reference``, or ``None`` when
        ``when`` names no instant.

    Example:
        >>> age_seconds_at(datetime(2024, 1, 1), datetime(2024, 1, 2, tzinfo=UTC))
        86400
    """
    try:
        if when.tzinfo is None:  # taken as UTC: both measured from the epoch, exactly
            age = (reference - _EPOCH) - (when - _NAIVE_EPOCH)
        else:
            age = reference - when
        return math.floor(age.total_seconds())
    except ValueError:  # a zone dateutil reads but no instant has (``+24:00``): no date
        return None


def first_items(items: list[_Item]) -> list[_Item]:
    """The first :data:`MAX_RESULT_ITEMS` of ``items`` (``items`` itself when no more).

    Every reader takes its result array through here, before it reads an entry, and so
    every array inside one result it reads entry by entry (Exa's ``highlights``, Brave's
    ``extra_snippets``, Parallel's ``excerpts``, SearXNG's infobox ``attributes``...): one
    result holding a million of them kept the loop as busy as a million results did
    (Brave compared each extra snippet with those kept: quadratic).

    Example:
        >>> len(first_items(list(range(1000)))), first_items([1, 2])
        (200, [1, 2])
    """
    return items if len(items) <= MAX_RESULT_ITEMS else items[:MAX_RESULT_ITEMS]


def first_entries(mapping: Mapping[_Key, _Value]) -> Iterator[tuple[_Key, _Value]]:
    """The first :data:`MAX_RESULT_ITEMS` entries of ``mapping``, in order.

    :func:`first_items` for an object read key by key (Serper's knowledge-graph
    ``attributes``).

    Example:
        >>> sum(1 for _ in first_entries(dict.fromkeys(range(1000)))), list(first_entries({1: 2}))
        (200, [(1, 2)])
    """
    return islice(mapping.items(), MAX_RESULT_ITEMS)


def collapse_whitespace(text: str) -> str:
    r"""Every run of whitespace (newlines, tabs, NBSP) as one space, ends trimmed.

    ``str.split()`` splits on exactly the characters ``\s`` matches (both use Python's
    Unicode whitespace test) and is several times faster than a regex substitution.

    Most text arrives clean, or clean between whitespace at its ends (a cell's text
    between the markup's line breaks and indentation), and is returned trimmed after one
    scan: ``str.strip()`` trims exactly the characters ``str.split()`` splits on (and
    returns clean text itself), and every whitespace character except the ASCII space
    is a control or separator, which ``str.isprintable()`` rejects, so trimmed
    printable text with no doubled space has nothing to collapse. Other text's ends are
    trimmed by the one rule of a field (:func:`~websearch_core.js_trim.trim`), so a BOM
    at them goes as JavaScript's ``trim()`` takes it, and text of only BOMs is blank.

    Example:
        >>> collapse_whitespace("  a\n\t b\xa0\u3000c ")
        'a b c'
    """
    trimmed = text.strip()
    if trimmed.isprintable() and "  " not in trimmed:
        return trimmed  # no U+FEFF (a format character, not printable): trimmed as trim() does
    return trim(" ".join(trimmed.split()))  # the one field trim (:mod:`..js_trim`)


def strip_tags(text: str) -> str:
    """``text`` without HTML tags (``<strong>x</strong>`` gives ``x``); entities kept."""
    return _TAG.sub("", text) if "<" in text else text


def normalise_text(text: str) -> str:
    """Tags stripped, entities decoded, whitespace collapsed: a snippet or title as plain text.

    Example:
        >>> normalise_text("Explore Twitter&#x27;s  <strong>laravel</strong> talk")
        "Explore Twitter's laravel talk"
    """
    return collapse_whitespace(html.unescape(strip_tags(text)))


def is_http_url(url: str) -> bool:
    """Whether ``url`` is an absolute ``http``/``https`` URL with a host and no control bytes.

    ``urlsplit`` strips leading C0 controls and drops tabs and line breaks, so a link
    written with a leading NUL would otherwise pass and be rebuilt clean by a parser:
    a link an upstream mangled is dropped, not repaired.
    """
    if _URL_CONTROL.search(url):
        return False
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        return False
    return parts.scheme.lower() in ("http", "https") and bool(host)


def recency_start(today: date, recency: Recency) -> date:
    """The first day of a ``recency`` window: ``today`` less :data:`RECENCY_DAYS` days.

    Args:
        today: Today's date (in UTC, as the providers compute it).
        recency: The requested period.

    Returns:
        The date that many days before ``today`` (call ``.isoformat()`` for ``YYYY-MM-DD``).

    Example:
        >>> recency_start(date(2026, 1, 8), "week").isoformat()
        '2026-01-01'
        >>> recency_start(date(2024, 3, 1), "month").isoformat()
        '2024-01-31'
    """
    return today - timedelta(days=RECENCY_DAYS[recency])


def bearer_json_headers(key: str, *, accept: str | None = None) -> dict[str, str]:
    """Headers for a JSON ``POST`` authorised by ``Authorization: Bearer <key>``.

    ``accept`` is the provider's own word on what its service answers: a service that
    answers JSON only is told so (``Accept: application/json``, as its own clients send
    it), which also lets the transport judge an unlabelled body by its first line (a
    stream held open is refused there, not at the deadline). Without it no ``Accept`` is
    set and aiohttp sends ``*/*``, for a service whose clients send nothing narrower.

    Args:
        key: The API key or token.
        accept: The ``Accept`` value, or ``None`` to send none of the provider's own.

    Returns:
        A fresh ``dict`` with ``Accept`` (when given), ``Content-Type``, ``Authorization``.

    Example:
        >>> bearer_json_headers("sk-1")
        {'Content-Type': 'application/json', 'Authorization': 'Bearer sk-1'}
        >>> bearer_json_headers("sk-1", accept="application/json")["Accept"]
        'application/json'
    """
    accepted = {"Accept": accept} if accept is not None else {}
    return {**accepted, "Content-Type": "application/json", "Authorization": f"Bearer {key}"}
