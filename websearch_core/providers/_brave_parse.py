"""Brave's ``web.results[]`` as sources: pure parsing, no I/O (see ``brave.py`` for the wire).

Only ``http(s)`` URLs of at most 2048 characters are kept. Titles and snippets are plain text:
tags stripped, entities decoded, whitespace collapsed; the title is cut to 300 characters and
falls back to the URL; the snippet is the distinct values of ``description`` and
``extra_snippets`` joined by newlines, cut to 8000 characters. ``published_date`` is ISO 8601
whenever the result carries an absolute date (``page_age``, or ``age`` written as a date),
an instant with its zone: ``page_age`` carries none, and is UTC as the age read from it is.
"""

import html
import math
import re
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from dateutil import parser as date_parser

from ..date_zone import UTC_OFFSET, with_zone
from ..errors import ResponseParseError
from ..format import truncate_text
from ..js_trim import trim
from ..models import SearchSource
from ._common import (
    MAX_DATE_TEXT,
    age_seconds_at,
    age_seconds_from_date,
    collapse_whitespace,
    first_items,
    is_http_url,
    strip_tags,
)
from ._field_errors import field_error

__all__ = ["iso_published_date", "parse_results", "parse_source", "result_fields", "source_fields"]

PROVIDER_ID = "brave"
UNEXPECTED_SHAPE = "Brave API returned an unexpected response shape"
MAX_URL_LENGTH = 2048
TITLE_LIMIT = 300
SNIPPET_LIMIT = 8000
PUBLISHED_LIMIT = 100
_ISO_8601 = re.compile(
    r"^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$"
)
_PLAIN_URL = re.compile(
    r"https?://[a-z0-9.\-_~!$&'()*+,;=%]+(?::[0-9]*)?/[\x21\x22\x24-\x3e\x40-\x7e]*"
    r"(?:\?[\x21\x22\x24-\x7e]+)?(?:#[\x21-\x7e]+)?"
)
"""A URL that ``urlsplit`` and ``urlunsplit`` give back unchanged: lower-case ``http(s)``, a
lower-case ASCII host without userinfo or brackets, a path, printable ASCII only, and no
empty ``?`` or ``#`` (which ``urlunsplit`` would drop)."""
_PLAIN_HOST = re.compile(r"https?://[a-z0-9.\-_~!$&'()*+,;=%]+(?::[0-9]*)?")
"""A URL of :data:`_PLAIN_URL`'s form without the path (``https://laracasts.com``): the
general path gives it back with ``/`` appended."""
_ISO_BOTH = re.compile(
    r"[1-9]\d{3}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?"
)
"""ISO 8601 that both readers take the same way: :func:`iso_published_date` keeps it as
written and ``age_seconds_from_date`` reads it with ``datetime.fromisoformat``, so one
reading serves both. It admits no space, tag, entity or control, so normalising it is a
no-op."""
_INSTANT_SEPARATORS = "--T::"
"""Every third character from the fifth of ``YYYY-MM-DDTHH:MM:SS``, Brave's usual ``page_age``
(``text[4::3]``): with its length, a slice comparison tells the form where the pattern
above takes a scan of the engine (see :func:`_plain_instant`)."""
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_NAIVE_EPOCH = datetime(1970, 1, 1)
_YEAR = re.compile(r"\b\d{4}\b")
_RELATIVE = re.compile(r"\b(?:ago|yesterday|today|now|last|next)\b", re.IGNORECASE)


def _normalise_url(raw: str) -> str | None:
    url = trim(raw)  # the one field rule: a BOM at the ends goes, as ``url.trim()`` takes it
    if _PLAIN_URL.fullmatch(url):  # already in the form the general path gives
        return url if len(url) <= MAX_URL_LENGTH else None
    if _PLAIN_HOST.fullmatch(url):  # that form but for the empty path
        return url + "/" if len(url) < MAX_URL_LENGTH else None
    return _split_and_join(url)


def _split_and_join(url: str) -> str | None:
    """The general path: scheme and host lower-cased, an empty path as ``/``."""
    if not is_http_url(url):
        return None
    parts = urlsplit(url)
    netloc = parts.netloc if "@" in parts.netloc else parts.netloc.lower()
    path = parts.path or "/"
    normalised = urlunsplit((parts.scheme.lower(), netloc, path, parts.query, parts.fragment))
    return normalised if len(normalised) <= MAX_URL_LENGTH else None


def _fit(text: str, limit: int) -> str:
    """``truncate_text`` without its UTF-16 encoding when ``text`` fits whatever it holds.

    A character is at most two UTF-16 units, so ``limit // 2`` characters always fit.
    """
    return text if len(text) * 2 <= limit else truncate_text(text, limit)


def _text(value: Any) -> str:
    """``normalise_text(value)`` for a string, ``""`` for anything else.

    ``normalise_text``'s three steps spelled out, each taken only when it can act:
    ``strip_tags`` and ``html.unescape`` only change text with ``<`` or ``&``, and
    ``collapse_whitespace`` returns printable text with no doubled or outer space as it
    is (its own shortcut, tested here without the call). Most of Brave's titles and
    dates, and many snippets, are already plain and pass with one scan.
    """
    if not isinstance(value, str):
        return ""
    text: str = value
    if "<" in text:
        text = strip_tags(text)
    if "&" in text:
        text = html.unescape(text)
    if text.isprintable() and "  " not in text and text.strip(" ") == text:
        return text
    return collapse_whitespace(text)


def _snippet(description: Any, extras: Any) -> str | None:
    """The distinct texts of ``description`` and ``extra_snippets``, one a line."""
    text = _text(description)
    if not isinstance(extras, list) or not extras:  # the usual case: the description alone
        return _fit(text, SNIPPET_LIMIT) if text else None
    unique = [text] if text else []
    for value in first_items(extras):  # each is compared with those kept: never thousands
        extra = _text(value)
        if extra and extra not in unique:
            unique.append(extra)
    if not unique:
        return None
    return _fit("\n".join(unique), SNIPPET_LIMIT)


def iso_published_date(text: str | None) -> str | None:
    """``text`` as an ISO 8601 date, or ``None`` when it holds no absolute date.

    Text already in ISO 8601 is returned as written, an instant without a zone given
    ``+00:00`` (Brave's ``page_age`` is UTC, and the age is read from it so); a written-out
    date (``May 1, 2023``, with a four-digit year) becomes ``YYYY-MM-DD``, or a full
    timestamp with its zone when it carries a time. Relative text (``2 days ago``) is not an
    absolute date.

    Example:
        >>> iso_published_date("May 1, 2023"), iso_published_date("2023-05-01T20:10:05")
        ('2023-05-01', '2023-05-01T20:10:05+00:00')
        >>> iso_published_date("2 days ago") is None
        True
    """
    if not text:
        return None
    if _ISO_8601.match(text):
        try:
            datetime.fromisoformat(text)
        except ValueError:
            return None  # shaped like ISO but no real date (month 13): nothing to trust
        return with_zone(text)
    if len(text) > MAX_DATE_TEXT or not _YEAR.search(text) or _RELATIVE.search(text):
        return None
    try:
        # A missing month or day is January / the 1st, as age_seconds_from_date takes it.
        when = date_parser.parse(text, default=datetime(1970, 1, 1))
    except (ValueError, OverflowError):
        return None
    if when.tzinfo is None and when.time() == datetime.min.time():
        return when.date().isoformat()
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)  # as age_seconds_from_date reads it
    try:
        return when.isoformat()
    except ValueError:  # a zone dateutil reads but no instant has (``+24:00``): no date
        return None


def _published(
    item: Mapping[str, Any], now: datetime | None, since_epoch: timedelta | None = None
) -> tuple[str | None, int | None]:
    """``published_date`` and ``age_seconds`` of one result.

    ``published_date`` is ISO 8601 from ``page_age`` or ``age`` when either is absolute,
    else ``age`` as text (with no age). The usual ``page_age`` (ISO 8601 that
    :data:`_ISO_BOTH` matches) is read once for both fields; anything else takes
    :func:`iso_published_date` and ``age_seconds_from_date``.

    Args:
        item: The result.
        now: The reference instant (default: now).
        since_epoch: ``now`` less the epoch, when the caller reads a page against one
            instant (:func:`result_fields`): taken once a page, not once a result.
    """
    page_age = item.get("page_age")
    if isinstance(page_age, str):
        if since_epoch is not None and (instant := _plain_instant(page_age)) is not None:
            # ``with_zone`` and ``age_seconds_at`` of a zone-less instant, as one subtraction
            # from the page's distance to the epoch (exact: ``timedelta`` arithmetic).
            distance = since_epoch - (instant - _NAIVE_EPOCH)
            return page_age + UTC_OFFSET, math.floor(distance.total_seconds())
        if _ISO_BOTH.fullmatch(page_age):
            try:
                when = datetime.fromisoformat(page_age)
            except ValueError:
                pass  # shaped like ISO but no real date (month 13): the general path decides
            else:
                return with_zone(page_age), age_seconds_at(when, now or datetime.now(UTC))
    age = item.get("age")
    if not isinstance(page_age, str) and not isinstance(age, str):
        return None, None  # no date at all (what the general path gives, without its calls)
    published = _published_text(_text(page_age), item)
    return published, age_seconds_from_date(published, now=now)


def _plain_instant(text: str) -> datetime | None:
    """``text`` read when it is ``YYYY-MM-DDTHH:MM:SS`` (no zone, a year from 1000), else ``None``.

    Brave's usual ``page_age``, told by its length, its separators (one slice compared)
    and ASCII, without the pattern's scan: ``datetime.fromisoformat`` then reads the
    digits, and refuses any other character where one stands (it reads ASCII digits
    only). Every text it gives a date for is one :data:`_ISO_BOTH` matches and
    ``fromisoformat`` reads with no zone, so the caller's answer is the general path's;
    anything else (``None``) goes that way.
    """
    if len(text) != 19 or text[4::3] != _INSTANT_SEPARATORS or text[0] == "0":
        return None
    if not text.isascii():
        return None
    try:
        return datetime.fromisoformat(text)
    except ValueError:  # shaped so, but no date (month 13, hour 24): the general path's call
        return None


def _published_text(page_age: str, item: Mapping[str, Any]) -> str | None:
    """ISO 8601 from ``page_age`` or ``age`` when either is absolute, else ``age`` as text."""
    iso = iso_published_date(page_age)
    if iso is not None:
        return iso
    age = _text(item.get("age"))
    iso = iso_published_date(age)
    if iso is not None:
        return iso
    text = age or page_age
    return _fit(text, PUBLISHED_LIMIT) if text else None


def parse_source(item: Any, *, now: datetime | None = None) -> SearchSource | None:
    """One ``web.results[]`` entry as a source, or ``None`` when it has no usable URL.

    Args:
        item: The decoded JSON object.
        now: Reference time for ``age_seconds`` (default: now).
    """
    fields = source_fields(item, now or datetime.now(UTC))
    return None if fields is None else SearchSource(**fields)


def source_fields(item: Any, now: datetime) -> dict[str, Any] | None:
    """:func:`parse_source`'s fields, not yet validated (``None``: no usable URL).

    A page's fields are validated in one step with the response that holds them
    (:func:`result_fields`), which costs less than a ``SearchSource`` per result.
    """
    return _source_fields(item, now, _since_epoch(now))


def _since_epoch(now: datetime) -> timedelta | None:
    """``now`` less the epoch, or ``None`` for a naive ``now`` (the general path's error)."""
    return None if now.tzinfo is None else now - _EPOCH


def _source_fields(
    item: Any, now: datetime, since_epoch: timedelta | None
) -> dict[str, Any] | None:
    """:func:`source_fields`, with ``now``'s distance to the epoch taken once a page."""
    if not isinstance(item, dict) and not isinstance(item, Mapping):  # dict: no ABC check
        return None
    get = item.get
    raw_url = get("url")
    if not isinstance(raw_url, str):
        return None
    if len(raw_url) <= MAX_URL_LENGTH and _PLAIN_URL.fullmatch(raw_url):
        url = raw_url  # no space around it either: what _normalise_url gives
    else:
        normalised = _normalise_url(raw_url)
        if normalised is None:
            return None
        url = normalised
    title = _text(get("title")) or url
    if len(title) * 2 > TITLE_LIMIT:
        title = truncate_text(title, TITLE_LIMIT)
    published, age_seconds = _published(item, now, since_epoch)
    extras = get("extra_snippets")
    if extras:  # only when asked for, and then seldom there
        snippet = _snippet(get("description"), extras)
    else:
        snippet = _fit(_text(get("description")), SNIPPET_LIMIT) or None
    return {
        "title": title,
        "url": url,
        "snippet": snippet,
        "published_date": published,
        "age_seconds": age_seconds,
    }


def result_fields(data: Any, *, now: datetime | None = None) -> list[dict[str, Any]]:
    """The fields of every usable web result of a decoded Brave body, in Brave's order.

    A body without a ``web`` section (Brave's answer when nothing matched) gives ``[]``.

    Raises:
        ResponseParseError: The body is not a Brave search response.
    """
    if not isinstance(data, Mapping):
        raise ResponseParseError(PROVIDER_ID, UNEXPECTED_SHAPE, 502)
    web = data.get("web")
    if web is None:
        return []
    if not isinstance(web, Mapping):
        raise field_error(PROVIDER_ID, UNEXPECTED_SHAPE, data, "web", "an object")
    results = web.get("results")
    if not isinstance(results, list):
        raise field_error(PROVIDER_ID, UNEXPECTED_SHAPE, web, "results", "a list", parent="web")
    reference = now or datetime.now(UTC)  # one instant for the whole page
    since_epoch = _since_epoch(reference)
    kept: list[dict[str, Any]] = []  # one pass: no list of every entry, then the kept ones
    for item in first_items(results):
        if (fields := _source_fields(item, reference, since_epoch)) is not None:
            kept.append(fields)
    return kept


def parse_results(data: Any, *, now: datetime | None = None) -> tuple[SearchSource, ...]:
    """Every usable web result of a decoded Brave body, in Brave's order.

    A body without a ``web`` section (Brave's answer when nothing matched) gives ``()``.

    Raises:
        ResponseParseError: The body is not a Brave search response.
    """
    return tuple(SearchSource(**fields) for fields in result_fields(data, now=now))
