"""Reading a Parallel search body and its error envelopes, as pure functions.

Split out of :mod:`websearch_core.providers.parallel`, which keeps the request and the
provider; the fields read are described in that module's docstring.
"""

from collections.abc import Mapping
from datetime import datetime
from typing import Any, Final

from ..errors import ResponseParseError
from ..js_trim import trim
from ..models import SearchResponse, SearchSource
from ..sanitize import clean_text
from ._common import age_seconds_from_date, collapse_whitespace, first_items
from ._json_api import item_url, json_object, text_or_none

__all__ = ["DEFAULT_RESULTS", "MAX_WARNINGS", "error_detail", "parse_body", "warning_notes"]

PROVIDER_ID: Final = "parallel"
DEFAULT_RESULTS: Final = 10
INVALID_PAYLOAD: Final = "Parallel search returned an invalid response payload."
WARNING_PREFIX: Final = "Parallel warning: "
MAX_WARNINGS: Final = 5
"""Warnings kept as notes: Parallel sends one per problem with the request (a location it
does not serve), so a few say everything; an upstream sending thousands fills no log."""
MAX_WARNING_CHARS: Final = 500
"""Characters of one warning's message kept (the rest is cut with an ellipsis)."""


def _source(item: Any, now: datetime | None) -> SearchSource | None:
    url = item_url(item)
    if url is None:
        return None
    title = item.get("title")
    excerpts = item.get("excerpts")
    parts = [
        trim(text)
        for text in (first_items(excerpts) if isinstance(excerpts, list) else ())
        if isinstance(text, str) and trim(text)
    ]
    published_date = text_or_none(item.get("publish_date"))
    return SearchSource(
        title=(collapse_whitespace(title) if isinstance(title, str) else "") or url,
        url=url,
        snippet="\n\n".join(parts) or None,
        published_date=published_date,
        age_seconds=age_seconds_from_date(published_date, now=now),
    )


def warning_notes(value: Any) -> tuple[str, ...]:
    """Parallel's ``warnings`` as notes, ``Parallel warning: <message>`` each (pure).

    Each warning is ``{"type", "message", "detail"}`` (``type`` one of
    ``spec_validation_warning``, ``input_validation_warning``, ``warning``; ``detail`` an
    optional object): the ``message`` is the part written for a person, so it alone is
    kept, on one line, without control characters, cut at :data:`MAX_WARNING_CHARS`. A
    warning without a message, a repeated one and those after :data:`MAX_WARNINGS` are
    left out; anything but a list reads as no warnings.

    Example:
        >>> warning_notes([{"type": "warning", "message": "Location 'zz' is not supported."}])
        ("Parallel warning: Location 'zz' is not supported.",)
    """
    if not isinstance(value, list):
        return ()
    messages: dict[str, None] = {}
    for warning in first_items(value):
        message = text_or_none(warning.get("message")) if isinstance(warning, Mapping) else None
        if message is None:
            continue
        text = collapse_whitespace(clean_text(message))
        if len(text) > MAX_WARNING_CHARS:
            text = text[: MAX_WARNING_CHARS - 1] + "\u2026"
        if text:
            messages[WARNING_PREFIX + text] = None
        if len(messages) == MAX_WARNINGS:
            break
    return tuple(messages)


def parse_body(
    data: Any, limit: int = DEFAULT_RESULTS, *, now: datetime | None = None
) -> SearchResponse:
    """A decoded 2xx Parallel body as a response (pure).

    Args:
        data: The decoded JSON.
        limit: How many sources to keep.
        now: Reference time for ``age_seconds`` (default: now).

    Returns:
        The sources, and Parallel's ``warnings`` as ``notes`` (:func:`warning_notes`):
        a warning never costs a result.

    Raises:
        ResponseParseError: The body has no ``results`` list.
    """
    results = data.get("results") if isinstance(data, Mapping) else None
    if not isinstance(results, list):
        raise ResponseParseError(PROVIDER_ID, INVALID_PAYLOAD, 502)
    sources = [s for s in (_source(item, now) for item in first_items(results)) if s is not None]
    search_id = data.get("search_id") if isinstance(data, Mapping) else None
    return SearchResponse(
        provider=PROVIDER_ID,
        sources=tuple(sources[:limit]),
        request_id=text_or_none(search_id),
        auth_mode="api_key",
        notes=warning_notes(data.get("warnings")),
    )


def error_detail(status: int, body: str) -> str:
    """The ``<detail>`` of ``Parallel API error (<status>): <detail>`` ("" for an empty body).

    Args:
        status: The HTTP status (unused: Parallel's detail lives in the body alone).
        body: The head of the error body.

    Example:
        >>> error_detail(422, '{"type": "error", "error": {"ref_id": "r", "message": "Bad"}}')
        'Bad'
    """
    text = body.strip()
    data = json_object(text)
    if data is None:
        return text
    error = data.get("error")
    nested = error if isinstance(error, Mapping) else {}
    candidates = (
        data.get("message"),
        data.get("detail"),
        error,
        nested.get("message"),
        nested.get("detail"),
    )
    return next((found for found in map(text_or_none, candidates) if found), text)
