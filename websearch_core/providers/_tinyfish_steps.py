"""TinyFish paging between the request loop's calls: whether to fetch another page.

Kept apart from :mod:`websearch_core.providers.tinyfish` (the facts and the hooks) so the
hooks only choose. Each page is one exchange of the flow, read once and kept in
``flow.state`` beside its response. Nothing here sends anything.
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


_READ_PAGES: Final = "tinyfish_read_pages"
"""``flow.state``'s key for the pages read so far: each response's page, by its identity."""


def flow_pages(flow: Flow, info: ProviderInfo) -> list[TinyFishPage]:
    """Every page the flow fetched, parsed in order (each page is one exchange).

    The decision after each page and the final parse read the same pages: decoded anew
    each time, two pages took five decodes (84 against 16 ms for a large answer). A page
    read is kept with its response (held by the flow anyway); one that fails to read is
    not, so it raises again wherever it is read, as before.
    """
    read: dict[int, tuple[HttpResponse, TinyFishPage]] = flow.state.setdefault(_READ_PAGES, {})
    pages: list[TinyFishPage] = []
    for response in flow.responses:
        if not isinstance(response, HttpResponse):
            continue
        kept = read.get(id(response))
        if kept is None or kept[0] is not response:
            kept = (response, parse_page(response.json(info.id, info.label)))
            read[id(response)] = kept
        pages.append(kept[1])
    return pages


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
