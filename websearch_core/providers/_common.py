"""Small pure helpers shared by provider modules: dates, text clean-up, URL checks, headers.

Nothing here does I/O or knows about a particular provider, so every function can be
tested with plain values.
"""

import html
import math
import re
from collections.abc import Mapping
from datetime import UTC, date, datetime, timedelta
from typing import Final
from urllib.parse import urlsplit

from dateutil import parser as date_parser

from ..models import Recency

__all__ = [
    "RECENCY_DAYS",
    "age_seconds_from_date",
    "bearer_json_headers",
    "collapse_whitespace",
    "is_http_url",
    "normalise_text",
    "recency_start",
    "strip_tags",
]

RECENCY_DAYS: Final[Mapping[Recency, int]] = {"day": 1, "week": 7, "month": 30, "year": 365}
"""How many days each ``recency`` reaches back, for providers that take a start date."""

_WHITESPACE = re.compile(r"\s+")
_TAG = re.compile(r"<[^>]*>")


def age_seconds_from_date(text: str | None, *, now: datetime | None = None) -> int | None:
    """Seconds between ``text`` (a date in almost any written form) and ``now``.

    The spec's ``dateToAgeSeconds``: lenient like JavaScript's ``new Date(text)`` (ISO 8601,
    RFC 2822, ``August 1, 2024``), ``None`` for an empty or unparseable string. Relative
    text such as ``3 days ago`` does not parse and gives ``None``. A date without a time
    zone is taken as UTC; a missing month or day is taken as January / the 1st, so
    ``"2024"`` means 2024-01-01 as it does in JavaScript.

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
    if not text or not text.strip():
        return None
    reference = now or datetime.now(UTC)
    try:
        when = date_parser.parse(text.strip(), default=datetime(reference.year, 1, 1))
    except (ValueError, OverflowError, TypeError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return math.floor((reference - when).total_seconds())


def collapse_whitespace(text: str) -> str:
    """Every run of whitespace (newlines, tabs, NBSP) as one space, ends trimmed."""
    return _WHITESPACE.sub(" ", text).strip()


def strip_tags(text: str) -> str:
    """``text`` without HTML tags (``<strong>x</strong>`` gives ``x``); entities kept."""
    return _TAG.sub("", text)


def normalise_text(text: str) -> str:
    """Tags stripped, entities decoded, whitespace collapsed: a snippet or title as plain text.

    Example:
        >>> normalise_text("Explore Twitter&#x27;s  <strong>laravel</strong> talk")
        "Explore Twitter's laravel talk"
    """
    return collapse_whitespace(html.unescape(strip_tags(text)))


def is_http_url(url: str) -> bool:
    """Whether ``url`` is an absolute ``http``/``https`` URL with a host."""
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


def bearer_json_headers(key: str) -> dict[str, str]:
    """Headers for a JSON ``POST`` authorised by ``Authorization: Bearer <key>``.

    Args:
        key: The API key or token.

    Returns:
        A fresh ``dict`` with ``Content-Type`` then ``Authorization``.

    Example:
        >>> bearer_json_headers("sk-1")
        {'Content-Type': 'application/json', 'Authorization': 'Bearer sk-1'}
    """
    return {"Content-Type": "application/json", "Authorization": f"Bearer {key}"}
