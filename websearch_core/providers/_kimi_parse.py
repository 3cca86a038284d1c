"""Reading a Kimi Code search body, as a pure function.

Kept apart from :mod:`websearch_core.providers.kimi`, which states the fields read here
(and why the ``fixtures/kimi`` captures are refused) and holds the request and hooks.
"""

from collections.abc import Mapping
from datetime import datetime
from typing import Any, Final

from ..errors import ResponseParseError
from ..models import SearchSource
from ._common import age_seconds_from_date, collapse_whitespace, first_items
from ._json_api import item_url, text_or_none

__all__ = ["UNEXPECTED_SHAPE", "parse_results"]

PROVIDER_ID: Final = "kimi"
UNEXPECTED_SHAPE: Final = "Kimi search API returned an unexpected response shape"


def _source(item: Any, now: datetime | None) -> SearchSource | None:
    url = item_url(item)
    if url is None:
        return None
    title = text_or_none(item.get("title"))
    published = text_or_none(item.get("date"))
    site_name = text_or_none(item.get("site_name"))
    return SearchSource(
        title=collapse_whitespace(title) if title else url,
        url=url,
        snippet=text_or_none(item.get("snippet")) or text_or_none(item.get("content")),
        published_date=published,
        age_seconds=age_seconds_from_date(published, now=now),
        author=collapse_whitespace(site_name) if site_name else None,
    )


def parse_results(data: Any, *, now: datetime | None = None) -> tuple[SearchSource, ...]:
    """The ``search_results[]`` of a decoded body as sources, in the service's order.

    Args:
        data: The decoded JSON body.
        now: Reference time for ``age_seconds`` (default: now).

    Raises:
        ResponseParseError: The body has no ``search_results`` list (a chat-completions
            body, an error envelope, anything else).
    """
    results = data.get("search_results") if isinstance(data, Mapping) else None
    if not isinstance(results, list):
        raise ResponseParseError(PROVIDER_ID, UNEXPECTED_SHAPE, 502)
    sources = (_source(item, now) for item in first_items(results))
    return tuple(source for source in sources if source is not None)
