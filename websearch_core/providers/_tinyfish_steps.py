"""TinyFish paging between the request loop's calls: whether to fetch another page.

Kept apart from :mod:`websearch_core.providers.tinyfish` (the facts and the hooks) so the
hooks only choose. Each page is one exchange of the flow; pages are parsed from the
exchanges each time they are needed, so nothing is kept in ``flow.state``. Nothing here
sends anything.
"""

from typing import Final

from ..errors import ResponseParseError
from ..models import SearchParams, SearchResponse
from ..provider_types import Flow, ProviderInfo
from ..transport import HttpResponse
from ._tinyfish_parse import PROVIDER_ID, TinyFishPage, merge_pages, parse_page
from ._tinyfish_request import MAX_RESULTS, page_size, wanted_count

__all__ = ["MAX_PAGE", "flow_pages", "next_page", "pages_response"]

MAX_PAGE: Final = 1
"""Pages 0 and 1 cover the maximum of 20 results."""


def flow_pages(flow: Flow, info: ProviderInfo) -> list[TinyFishPage]:
    """Every page the flow fetched, parsed in order (each page is one exchange)."""
    return [
        parse_page(response.json(info.id, info.label))
        for response in flow.responses
        if isinstance(response, HttpResponse)
    ]


def pages_response(pages: list[TinyFishPage], params: SearchParams) -> SearchResponse:
    """The pages' sources, de-duplicated by URL across pages and cut to ``N``."""
    return SearchResponse(
        provider=PROVIDER_ID, sources=merge_pages(pages, wanted_count(params)), auth_mode="api_key"
    )


def next_page(flow: Flow, info: ProviderInfo) -> int | None:
    """The next page while a full page left fewer than ``N`` distinct URLs; else ``None``.

    An error status or an unreadable page ends the flow (``None``); the loop's status check
    and the provider's ``parse`` then raise for it.
    """
    if not 200 <= flow.last.response.status < 300:
        return None
    try:
        pages = flow_pages(flow, info)
    except ResponseParseError:
        return None
    if len(pages) > MAX_PAGE or pages[-1].raw_count < page_size(flow.params):
        return None
    if len(merge_pages(pages, MAX_RESULTS)) >= wanted_count(flow.params):
        return None
    return len(pages)
