"""Reading a Parallel search body and its error envelopes, as pure functions.

Split out of :mod:`websearch_core.providers.parallel`, which keeps the request and the
provider; the fields read are described in that module's docstring.
"""

from collections.abc import Mapping
from datetime import datetime
from typing import Any, Final

from ..errors import ResponseParseError
from ..models import SearchResponse, SearchSource
from ._common import age_seconds_from_date, collapse_whitespace, first_items
from ._json_api import item_url, json_object, text_or_none

__all__ = ["DEFAULT_RESULTS", "error_detail", "parse_body"]

PROVIDER_ID: Final = "parallel"
DEFAULT_RESULTS: Final = 10
INVALID_PAYLOAD: Final = "Parallel search returned an invalid response payload."


def _source(item: Any, now: datetime | None) -> SearchSource | None:
    url = item_url(item)
    if url is None:
        return None
    title = item.get("title")
    excerpts = item.get("excerpts")
    parts = [
        text.strip()
        for text in (first_items(excerpts) if isinstance(excerpts, list) else ())
        if isinstance(text, str) and text.strip()
    ]
    published_date = text_or_none(item.get("publish_date"))
    return SearchSource(
        title=(collapse_whitespace(title) if isinstance(title, str) else "") or url,
        url=url,
        snippet="\n\n".join(parts) or None,
        published_date=published_date,
        age_seconds=age_seconds_from_date(published_date, now=now),
    )


def parse_body(
    data: Any, limit: int = DEFAULT_RESULTS, *, now: datetime | None = None
) -> SearchResponse:
    """A decoded 2xx Parallel body as a response (pure).

    Args:
        data: The decoded JSON.
        limit: How many sources to keep.
        now: Reference time for ``age_seconds`` (default: now).

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
