"""Reading a Parallel search body and its error envelopes, as pure functions.

Split out of :mod:`websearch_core.providers.parallel`, which keeps the request and the
provider; the fields read are described in that module's docstring.
"""

import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any, Final

from ..errors import ResponseParseError
from ..models import SearchResponse, SearchSource
from ._common import age_seconds_from_date, collapse_whitespace, is_http_url

__all__ = ["DEFAULT_RESULTS", "error_detail", "parse_body"]

PROVIDER_ID: Final = "parallel"
DEFAULT_RESULTS: Final = 10
INVALID_PAYLOAD: Final = "Parallel search returned an invalid response payload."


def _source(item: Any, now: datetime | None) -> SearchSource | None:
    if not isinstance(item, Mapping):
        return None
    url = item.get("url")
    url = url.strip() if isinstance(url, str) else ""
    if not is_http_url(url):
        return None
    title = item.get("title")
    excerpts = item.get("excerpts")
    parts = [
        text.strip()
        for text in (excerpts if isinstance(excerpts, list) else ())
        if isinstance(text, str) and text.strip()
    ]
    published = item.get("publish_date")
    published_date = (published.strip() or None) if isinstance(published, str) else None
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
    sources = [s for s in (_source(item, now) for item in results) if s is not None]
    search_id = data.get("search_id") if isinstance(data, Mapping) else None
    return SearchResponse(
        provider=PROVIDER_ID,
        sources=tuple(sources[:limit]),
        request_id=(search_id.strip() or None) if isinstance(search_id, str) else None,
        auth_mode="api_key",
    )


def _string(value: Any) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None


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
    try:
        data = json.loads(text) if text else None
    except ValueError:
        return text
    if not isinstance(data, Mapping):
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
    return next((found for found in map(_string, candidates) if found), text)
