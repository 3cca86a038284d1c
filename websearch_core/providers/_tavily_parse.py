"""Reading Tavily bodies, as pure functions: the answer, the results, an error's message.

Kept apart from :mod:`websearch_core.providers.tavily`, which states the fields read here
and holds the request and hooks.
"""

import http
from collections.abc import Mapping
from datetime import datetime
from typing import Any, Final

from ..content.models import provided_page
from ..errors import ResponseParseError
from ..json_decode import decoded_json
from ..models import SearchSource
from ._common import age_seconds_from_date, collapse_whitespace, first_items
from ._field_errors import field_error
from ._json_api import item_url, text_or_none

__all__ = ["error_message", "parse_answer", "parse_results"]

PROVIDER_ID: Final = "tavily"
UNEXPECTED_SHAPE: Final = "Tavily API returned an unexpected response shape"

_MESSAGE_KEYS: Final = ("detail", "error", "message")


def parse_answer(data: Mapping[str, Any]) -> str | None:
    """The trimmed ``answer``, or ``None`` when it is missing, ``null`` or blank."""
    return text_or_none(data.get("answer"))


def _source(item: Any, now: datetime | None) -> SearchSource | None:
    url = item_url(item)
    if url is None:
        return None
    title = item.get("title")
    title = (collapse_whitespace(title) if isinstance(title, str) else "") or url
    published_date = text_or_none(item.get("published_date"))
    return SearchSource(
        title=title,
        url=url,
        snippet=text_or_none(item.get("content")),
        published_date=published_date,
        age_seconds=age_seconds_from_date(published_date, now=now),
        content=provided_page(url, title, item.get("raw_content")),
    )


def parse_results(data: Any, *, now: datetime | None = None) -> tuple[SearchSource, ...]:
    """The ``results[]`` of a decoded Tavily body as sources, in Tavily's order.

    Raises:
        ResponseParseError: The body is not a Tavily search response.
    """
    if not isinstance(data, Mapping):
        raise ResponseParseError(PROVIDER_ID, UNEXPECTED_SHAPE, 502)
    results = data.get("results", [])
    if results is None:
        return ()
    if not isinstance(results, list):
        raise field_error(PROVIDER_ID, UNEXPECTED_SHAPE, data, "results", "a list")
    sources = (_source(item, now) for item in first_items(results))
    return tuple(source for source in sources if source is not None)


def _find_message(value: Any) -> str | None:
    if isinstance(value, list):
        return next((found for found in map(_find_message, value) if found), None)
    if not isinstance(value, Mapping):
        return None
    for key in _MESSAGE_KEYS:
        text = text_or_none(value.get(key))  # the field rule: a lone BOM is no message
        if text is not None:
            return text
    preferred = [value.get(key) for key in _MESSAGE_KEYS]
    others = [item for key, item in value.items() if key not in _MESSAGE_KEYS]
    return next((found for found in map(_find_message, [*preferred, *others]) if found), None)


def error_message(status: int, body: str) -> str:
    """The ``<msg>`` of ``Tavily API error (<status>): <msg>``.

    The first ``detail`` / ``error`` / ``message`` string in a JSON body, searched depth
    first; else the raw body; else the HTTP status phrase.

    Example:
        >>> error_message(401, '{"detail": {"error": "Unauthorized: missing or invalid API key."}}')
        'Unauthorized: missing or invalid API key.'
    """
    text = body.strip()
    try:
        found = _find_message(decoded_json(text)) if text else None
    except ValueError:
        found = None
    if found:
        return found
    if text:
        return text
    try:
        return http.HTTPStatus(status).phrase
    except ValueError:
        return "Unknown error"
