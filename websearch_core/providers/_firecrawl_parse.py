"""Reading a Firecrawl search body (v2, v1 or ``results``), as pure functions.

Kept apart from :mod:`websearch_core.providers.firecrawl`, which holds the protocol facts,
the request and the hooks; the fields read are described there.
"""

from collections.abc import Mapping
from typing import Any, Final

from ..content.models import provided_page
from ..errors import ResponseParseError, SearchProviderError
from ..js_trim import trim
from ..models import SearchSource
from ._common import collapse_whitespace, first_items
from ._field_errors import field_error
from ._json_api import item_url, text_or_none

__all__ = ["REQUEST_FAILED", "UNEXPECTED_SHAPE", "parse_results"]

PROVIDER_ID: Final = "firecrawl"
REQUEST_FAILED: Final = "Firecrawl request failed"
UNEXPECTED_SHAPE: Final = "Firecrawl API returned an unexpected response shape"

_SNIPPET_KEYS: Final = ("description", "snippet", "markdown")


def _items(data: Any) -> list[Any]:
    if not isinstance(data, Mapping):
        raise ResponseParseError(PROVIDER_ID, UNEXPECTED_SHAPE, 502)
    if data.get("success") is False:
        error = data.get("error")
        message = text_or_none(error) or REQUEST_FAILED  # trimmed by the field rule
        raise SearchProviderError(PROVIDER_ID, message)
    payload = data.get("data")
    if isinstance(payload, list):  # v1
        return payload
    if isinstance(payload, Mapping):  # v2: one list per requested source type
        web = payload.get("web")
        if web is None:
            return []
        if isinstance(web, list):
            return web
        raise field_error(PROVIDER_ID, UNEXPECTED_SHAPE, payload, "web", "a list", parent="data")
    results = data.get("results")
    if payload is None and isinstance(results, list):
        return results
    raise field_error(PROVIDER_ID, UNEXPECTED_SHAPE, data, "data", "a list or an object")


def _first_text(item: Mapping[str, Any]) -> str | None:
    for key in _SNIPPET_KEYS:
        value = item.get(key)
        if isinstance(value, str) and trim(value):
            return trim(value)
    return None


def _source(item: Any) -> SearchSource | None:
    url = item_url(item)
    if url is None:
        return None
    raw_title = item.get("title")
    title = (collapse_whitespace(raw_title) if isinstance(raw_title, str) else "") or url
    return SearchSource(
        title=title,
        url=url,
        snippet=_first_text(item),
        content=provided_page(url, title, item.get("markdown")),
    )


def parse_results(data: Any) -> tuple[SearchSource, ...]:
    """The web results of a decoded Firecrawl body (v2, v1 or ``results``), in order.

    Raises:
        SearchProviderError: The body says ``success: false``.
        ResponseParseError: The body is not a Firecrawl search response.
    """
    sources = (_source(item) for item in first_items(_items(data)))
    return tuple(source for source in sources if source is not None)
