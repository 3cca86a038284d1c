"""Reading a Jina search body, as pure functions: its items, their sources, a failure code.

Kept apart from :mod:`websearch_core.providers.jina`, which states the fields read here
and holds the request and hooks.
"""

from collections.abc import Mapping
from datetime import datetime
from typing import Any, Final

from ..content.models import provided_page
from ..errors import ResponseParseError, SearchProviderError
from ..js_string import js_string
from ..js_trim import trim
from ..models import SearchSource
from ..transport import HttpResponse, error_head
from ._common import age_seconds_from_date, first_items
from ._json_api import error_for_status, item_url, json_object

__all__ = [
    "NO_RESULTS_MESSAGE",
    "parse_items",
    "parse_sources",
    "reported_failure",
    "reports_no_results",
]

PROVIDER_ID: Final = "jina"
NO_RESULTS_STATUS: Final = 422
NO_RESULTS_NAME: Final = "AssertionFailureError"
NO_RESULTS_MESSAGE: Final = "No search results available for query"
"""How s.jina.ai says a search found nothing: a 422 ``AssertionFailureError`` (status
42206) whose message starts with these words (jina-ai/reader ``src/api/searcher-serper.ts``
throws it when the upstream SERP has no organic results; clients of the live service
quote the body ``{"data": null, "code": 422, "name": "AssertionFailureError", "status":
42206, "message": "No search results available for query ..."}``)."""


def _text(value: Any) -> str:
    """``value`` trimmed, ``""`` when it is no string or JavaScript's ``trim()`` leaves nothing.

    A blank here is what falls back (a title to the URL, a summary to the text, then the
    highlights), so it is judged as the spec's reference judges it: a BOM is blank.
    """
    return trim(value) if isinstance(value, str) else ""


def _source(item: Any, now: datetime | None) -> SearchSource | None:
    url = item_url(item)
    if url is None:
        return None
    published = _text(item.get("date")) or _text(item.get("publishedTime")) or None
    title = _text(item.get("title")) or url
    return SearchSource(
        title=title,
        url=url,
        snippet=_text(item.get("description")) or _text(item.get("content")) or None,
        published_date=published,
        age_seconds=age_seconds_from_date(published, now=now),
        content=provided_page(url, title, item.get("content")),
    )


def reported_failure(code: Any, response: HttpResponse) -> SearchProviderError:
    """The error for a 2xx body whose ``code`` is not 200.

    A code that is an HTTP error status types it as that status would; any other is a 502.
    The code is written as the reference's template literal writes it (JavaScript's
    String: ``true``, ``401.0`` as ``401``), where Python's read ``True`` and ``401.0``;
    JSON's ``401.0`` is the number 401 there, so it types the failure as 401 does.
    """
    message = f"Jina API response reported failure ({js_string(code)})"
    if isinstance(code, float) and code.is_integer():
        code = int(code)
    if isinstance(code, int) and not isinstance(code, bool) and 400 <= code < 600:
        return error_for_status(PROVIDER_ID, code, response, message)
    return SearchProviderError(PROVIDER_ID, message, 502)


def reports_no_results(response: HttpResponse) -> bool:
    """Whether ``response`` is Jina's answer to a search that found nothing (pure).

    That answer is an error status, but it reports an empty result list, not a failure:
    read as one, a search whose ``X-Site`` or query matched nothing was told as ``Jina API
    error (422): ...`` instead of the empty answer (204) the chain reports for every other
    provider that found nothing. Only Jina's own envelope with the no-results message
    counts; any other 422 is still an error.

    Example:
        >>> body = b'{"name": "AssertionFailureError", "message": "No search results available'
        >>> reports_no_results(HttpResponse(status=422, body=body + b' for query x"}'))
        True
    """
    if response.status != NO_RESULTS_STATUS:
        return False
    data = json_object(error_head(response).strip())
    if data is None or data.get("name") != NO_RESULTS_NAME:
        return False
    message = data.get("message")
    return isinstance(message, str) and message.startswith(NO_RESULTS_MESSAGE)


def parse_items(data: Any) -> list[Any]:
    """The result items of a decoded body (an array, or ``data`` of an object).

    Raises:
        ResponseParseError: Neither an object nor an array, or ``data`` is not an array.
    """
    if isinstance(data, list):
        return data
    if not isinstance(data, Mapping):
        raise ResponseParseError(
            PROVIDER_ID, "Jina API returned invalid response: expected an object or array", 502
        )
    items = data.get("data")
    if not isinstance(items, list):
        raise ResponseParseError(
            PROVIDER_ID, "Jina API returned invalid response: expected data array", 502
        )
    return items


def parse_sources(
    data: Any, *, limit: int | None = None, now: datetime | None = None
) -> tuple[SearchSource, ...]:
    """The usable items of a decoded body as sources, in Jina's order, cut to ``limit``."""
    found = (_source(item, now) for item in first_items(parse_items(data)))
    sources = [source for source in found if source is not None]
    return tuple(sources[:limit] if limit is not None else sources)
