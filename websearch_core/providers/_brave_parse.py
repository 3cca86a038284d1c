"""Brave's ``web.results[]`` as sources: pure parsing, no I/O (see ``brave.py`` for the wire).

Only ``http(s)`` URLs of at most 2048 characters are kept. Titles and snippets are plain text:
tags stripped, entities decoded, whitespace collapsed; the title is cut to 300 characters and
falls back to the URL; the snippet is the distinct values of ``description`` and
``extra_snippets`` joined by newlines, cut to 8000 characters. ``published_date`` is ISO 8601
whenever the result carries an absolute date (``page_age``, or ``age`` written as a date).
"""

import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from dateutil import parser as date_parser

from ..errors import ResponseParseError
from ..format import truncate_text
from ..models import SearchSource
from ._common import age_seconds_from_date, is_http_url, normalise_text

__all__ = ["iso_published_date", "parse_results", "parse_source"]

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
_YEAR = re.compile(r"\b\d{4}\b")
_RELATIVE = re.compile(r"\b(?:ago|yesterday|today|now|last|next)\b", re.IGNORECASE)


def _normalise_url(raw: str) -> str | None:
    url = raw.strip()
    if _PLAIN_URL.fullmatch(url):  # already in the form the general path gives
        return url if len(url) <= MAX_URL_LENGTH else None
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
    return normalise_text(value) if isinstance(value, str) else ""


def _snippet(item: Mapping[str, Any]) -> str | None:
    extras = item.get("extra_snippets")
    values = [item.get("description"), *(extras if isinstance(extras, list) else ())]
    unique: list[str] = []
    for value in values:
        text = _text(value)
        if text and text not in unique:
            unique.append(text)
    if not unique:
        return None
    return _fit("\n".join(unique), SNIPPET_LIMIT)


def iso_published_date(text: str | None) -> str | None:
    """``text`` as an ISO 8601 date, or ``None`` when it holds no absolute date.

    Text already in ISO 8601 is returned as written; a written-out date (``May 1, 2023``,
    with a four-digit year) becomes ``YYYY-MM-DD``, or a full timestamp when it carries a
    time. Relative text (``2 days ago``) is not an absolute date.

    Example:
        >>> iso_published_date("May 1, 2023"), iso_published_date("2023-05-01T20:10:05")
        ('2023-05-01', '2023-05-01T20:10:05')
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
        return text
    if not _YEAR.search(text) or _RELATIVE.search(text):
        return None
    try:
        # A missing month or day is January / the 1st, as age_seconds_from_date takes it.
        when = date_parser.parse(text, default=datetime(1970, 1, 1))
    except (ValueError, OverflowError):
        return None
    if when.tzinfo is None and when.time() == datetime.min.time():
        return when.date().isoformat()
    return when.isoformat()


def _published(item: Mapping[str, Any]) -> str | None:
    """ISO 8601 from ``page_age`` or ``age`` when either is absolute, else ``age`` as text."""
    page_age = _text(item.get("page_age"))
    iso = iso_published_date(page_age)
    if iso is not None:  # the usual case: ``age`` is not needed
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
    if not isinstance(item, dict) and not isinstance(item, Mapping):  # dict: no ABC check
        return None
    raw_url = item.get("url")
    url = _normalise_url(raw_url) if isinstance(raw_url, str) else None
    if url is None:
        return None
    title = _text(item.get("title")) or url
    published = _published(item)
    return SearchSource(
        title=_fit(title, TITLE_LIMIT),
        url=url,
        snippet=_snippet(item),
        published_date=published,
        age_seconds=age_seconds_from_date(published, now=now),
    )


def parse_results(data: Any, *, now: datetime | None = None) -> tuple[SearchSource, ...]:
    """Every usable web result of a decoded Brave body, in Brave's order.

    A body without a ``web`` section (Brave's answer when nothing matched) gives ``()``.

    Raises:
        ResponseParseError: The body is not a Brave search response.
    """
    if not isinstance(data, Mapping):
        raise ResponseParseError(
            PROVIDER_ID, "Brave API returned an unexpected response shape", 502
        )
    web = data.get("web")
    if web is None:
        return ()
    results = web.get("results") if isinstance(web, Mapping) else None
    if not isinstance(results, list):
        raise ResponseParseError(
            PROVIDER_ID, "Brave API returned an unexpected response shape", 502
        )
    reference = now or datetime.now(UTC)  # one instant for the whole page
    sources = (parse_source(item, now=reference) for item in results)
    return tuple(source for source in sources if source is not None)
