"""Reading TinyFish result pages, as pure functions: one page, then the pages merged.

Kept apart from :mod:`websearch_core.providers.tinyfish`, which holds the protocol facts,
the request and the paging hook.

``results[]`` of ``{position, site_name, title, snippet, url}``. Title is ``title``, else
``site_name``, else the URL; the snippet has its whitespace collapsed; ``author`` is
``site_name``. Only ``http(s)`` URLs are kept. A body whose ``results`` is not a list
raises ``TinyFish Search API returned an unexpected response shape``. URLs are trimmed and
de-duplicated across pages, and the merged result is cut to ``N``.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from ..errors import ResponseParseError
from ..models import SearchSource
from ._common import collapse_whitespace, first_items
from ._json_api import item_url

__all__ = ["TinyFishPage", "merge_pages", "parse_page"]

PROVIDER_ID: Final = "tinyfish"
SHAPE_ERROR: Final = "TinyFish Search API returned an unexpected response shape"


@dataclass(frozen=True, slots=True, repr=False)
class TinyFishPage:
    """One parsed page: its usable sources and how many raw results it held.

    The raw count, not the usable one, says whether the page was full (so whether a next
    page can exist).
    """

    sources: tuple[SearchSource, ...]
    raw_count: int

    def __repr__(self) -> str:
        return f"TinyFishPage(sources={len(self.sources)}, raw_count={self.raw_count})"


def _text(value: Any) -> str:
    return collapse_whitespace(value) if isinstance(value, str) else ""


def _source(item: Any) -> SearchSource | None:
    url = item_url(item)
    if url is None:
        return None
    site_name = _text(item.get("site_name"))
    return SearchSource(
        title=_text(item.get("title")) or site_name or url,
        url=url,
        snippet=_text(item.get("snippet")) or None,
        author=site_name or None,
    )


def parse_page(data: Any) -> TinyFishPage:
    """A decoded TinyFish body as a page (pure).

    Raises:
        ResponseParseError: The body is not an object with a ``results`` list.
    """
    results = data.get("results") if isinstance(data, Mapping) else None
    if not isinstance(results, list):
        raise ResponseParseError(PROVIDER_ID, SHAPE_ERROR, 502)
    sources = (_source(item) for item in first_items(results))
    return TinyFishPage(tuple(s for s in sources if s is not None), len(results))


def merge_pages(pages: list[TinyFishPage], count: int) -> tuple[SearchSource, ...]:
    """The sources of ``pages`` in order, first occurrence of each URL only, cut to ``count``."""
    seen: set[str] = set()
    merged: list[SearchSource] = []
    for page in pages:
        for source in page.sources:
            if source.url not in seen:
                seen.add(source.url)
                merged.append(source)
    return tuple(merged[:count])
