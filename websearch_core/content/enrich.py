"""Search with content: the pages behind the first results, for ``include_content=True``.

The building blocks the client, the retrievers and the CLI use to add page content to a
search: :func:`fetch_source_pages` fetches the top results' pages (concurrently, within one
deadline, through the same safe fetcher and cache as :meth:`WebSearch.fetch`), and
:func:`content_text` renders them for the model, each page fenced as untrusted data. A page
that cannot be fetched costs only its own section: the search answer stands.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .errors import FetchError
from .models import PageContent
from .tool_text import fence_page

if TYPE_CHECKING:
    from ..client import WebSearch
    from ..models import SearchSource

__all__ = [
    "DEFAULT_CONTENT_CHARS",
    "DEFAULT_CONTENT_SOURCES",
    "SourcePage",
    "content_text",
    "fetch_source_pages",
]

DEFAULT_CONTENT_SOURCES = 3
"""Results whose pages are fetched by default: enough to answer from, cheap enough to wait for."""
DEFAULT_CONTENT_CHARS = 6_000
"""Characters of Markdown shown per page by default, so three pages stay near 5k tokens."""


@dataclass(frozen=True)
class SourcePage:
    """One search result and what fetching its page gave: the page or the error."""

    source: "SearchSource"
    page: PageContent | None
    error: FetchError | None = None


async def fetch_source_pages(
    web_search: "WebSearch",
    sources: Sequence["SearchSource"],
    *,
    limit: int = DEFAULT_CONTENT_SOURCES,
    timeout_seconds: float | None = None,
    use_cache: bool = True,
) -> list[SourcePage]:
    """Fetch the pages of the first ``limit`` sources (distinct URLs), in result order.

    Args:
        web_search: The client (its fetch policy, cache and browser apply).
        sources: The search results, best first.
        limit: How many pages to fetch (1-20).
        timeout_seconds: One deadline for all of them (default: the client's).
        use_cache: Read and write the page cache.

    Raises:
        ValueError: ``limit`` is out of range.
    """
    if not 1 <= limit <= 20:
        raise ValueError(f"limit must be 1..20 pages, got {limit}")
    chosen: list[SearchSource] = []
    seen: set[str] = set()
    for source in sources:
        if source.url not in seen:
            seen.add(source.url)
            chosen.append(source)
        if len(chosen) == limit:
            break
    if not chosen:
        return []
    results = await web_search.fetch_many(
        [source.url for source in chosen],
        concurrency=len(chosen),
        timeout_seconds=timeout_seconds,
        use_cache=use_cache,
    )
    return [
        SourcePage(source, None, result)
        if isinstance(result, FetchError)
        else SourcePage(source, result)
        for source, result in zip(chosen, results, strict=True)
    ]


def content_text(pages: Sequence[SourcePage], *, max_chars: int = DEFAULT_CONTENT_CHARS) -> str:
    """The fetched pages for the model, to follow the search text.

    Each page is fenced with its own random token (:func:`fence_page`); a page that could
    not be fetched is one line saying why, outside any fence (the reason is ours).

    Example:
        >>> from websearch_core.models import SearchSource
        >>> source = SearchSource(title="A", url="https://a.example/")
        >>> print(content_text([SourcePage(source, None, FetchError(source.url, "HTTP 404"))]))
        Page content of the top results:
        [1] https://a.example/: not fetched (cannot fetch https://a.example/: HTTP 404)
    """
    if not pages:
        return ""
    sections = ["Page content of the top results:"]
    for number, item in enumerate(pages, start=1):
        if item.page is None:
            sections.append(f"[{number}] {item.source.url}: not fetched ({item.error})")
        else:
            sections.append(f"[{number}]\n{fence_page(item.page, max_chars)}")
    return "\n".join(sections)
