"""Search with content: the pages behind the first results, for ``include_content=True``.

The building blocks the client, the retrievers and the CLI use to add page content to a
search: :func:`fetch_source_pages` fetches the top results' pages (concurrently, within one
deadline, through the same safe fetcher and cache as :meth:`WebSearch.fetch`), and
:func:`content_text` renders them for the model, each page fenced as untrusted data. A page
that cannot be fetched costs only its own section: the search answer stands.
:func:`add_page_content` is the whole step as the client runs it: pages attached to the
response's sources, and a note for each page that could not be had.

A result whose provider already sent its page (Tavily, Exa, Firecrawl, Jina: see
:func:`~websearch_core.content.models.provided_page`) keeps that page and is not fetched.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from ..note_bound import notes_update
from .errors import FetchError, FetchTimeoutError
from .models import PageContent
from .tool_text import fence_page

if TYPE_CHECKING:
    from ..models import SearchResponse, SearchSource

__all__ = [
    "DEFAULT_CONTENT_CHARS",
    "DEFAULT_CONTENT_SOURCES",
    "MIN_FETCH_SECONDS",
    "PagedResponse",
    "SourcePage",
    "SupportsFetchMany",
    "add_page_content",
    "check_content_limit",
    "content_text",
    "fetch_source_pages",
]

DEFAULT_CONTENT_SOURCES = 3
"""Results whose pages are fetched by default: enough to answer from, cheap enough to wait for."""
DEFAULT_CONTENT_CHARS = 6_000
"""Characters of Markdown shown per page by default, so three pages stay near 5k tokens."""
MIN_FETCH_SECONDS = 0.5
"""Less time than this left in the search's deadline is no time to fetch pages in."""


class SupportsFetchMany(Protocol):
    """What fetching a search's pages needs of the client: its :meth:`WebSearch.fetch_many`.

    Typed by what is used rather than by the client class, so this module, which the
    client imports, imports nothing of the client back.
    """

    async def fetch_many(
        self,
        urls: Sequence[str],
        *,
        concurrency: int = ...,
        timeout_seconds: float | None = ...,
        use_cache: bool = ...,
    ) -> list[PageContent | FetchError]:
        """One page (or why there is none) per URL, in order, within one deadline."""
        ...


@dataclass(frozen=True)
class SourcePage:
    """One search result and what fetching its page gave: the page or the error."""

    source: "SearchSource"
    page: PageContent | None
    error: FetchError | None = None


async def fetch_source_pages(
    web_search: SupportsFetchMany,
    sources: Sequence["SearchSource"],
    *,
    limit: int = DEFAULT_CONTENT_SOURCES,
    timeout_seconds: float | None = None,
    use_cache: bool = True,
) -> list[SourcePage]:
    """Fetch the pages of the first ``limit`` sources (distinct URLs), in result order.

    A source that already holds its page (``content`` from the provider) is not fetched.

    Args:
        web_search: The client (its fetch policy, cache and browser apply).
        sources: The search results, best first.
        limit: How many pages to fetch (1-20).
        timeout_seconds: One deadline for all of them (default: the client's).
        use_cache: Read and write the page cache.

    Raises:
        ValueError: ``limit`` is out of range.
    """
    chosen = _distinct(sources, limit)
    missing = [source for source in chosen if source.content is None]
    fetched: dict[str, PageContent | FetchError] = {}
    if missing:
        results = await web_search.fetch_many(
            [source.url for source in missing],
            concurrency=len(missing),
            timeout_seconds=timeout_seconds,
            use_cache=use_cache,
        )
        fetched = {source.url: result for source, result in zip(missing, results, strict=True)}
    pages: list[SourcePage] = []
    for source in chosen:
        result = source.content if source.content is not None else fetched[source.url]
        if isinstance(result, FetchError):
            pages.append(SourcePage(source, None, result))
        else:
            pages.append(SourcePage(source, result))
    return pages


@dataclass(frozen=True)
class PagedResponse:
    """A search response whose top sources carry their pages, and those pages in order."""

    response: "SearchResponse"
    pages: list[SourcePage]


async def add_page_content(
    web_search: SupportsFetchMany,
    response: "SearchResponse",
    *,
    seconds: float,
    limit: int = DEFAULT_CONTENT_SOURCES,
) -> PagedResponse:
    """Attach the pages of the first ``limit`` sources to ``response``, within ``seconds``.

    ``seconds`` is what remains of the search's deadline: the pages share the call's time
    rather than adding their own. With less than :data:`MIN_FETCH_SECONDS` left nothing is
    fetched (each page then fails with a timeout). Every page that could not be had adds a
    note to ``response.notes`` (``cannot fetch <url>: <reason>``); the sources keep
    ``content=None`` there and the search answer stands.

    Args:
        web_search: The client (its fetch policy, cache and browser apply).
        response: The search response, sources best first.
        seconds: Time left for fetching.
        limit: How many pages (1-20).

    Raises:
        ValueError: ``limit`` is out of range.
    """
    if seconds >= MIN_FETCH_SECONDS:
        pages = await fetch_source_pages(
            web_search, response.sources, limit=limit, timeout_seconds=seconds
        )
    else:
        pages = [
            SourcePage(source, source.content)
            if source.content is not None
            else SourcePage(source, None, FetchTimeoutError(source.url, _NO_TIME))
            for source in _distinct(response.sources, limit)
        ]
    found = {item.source.url: item.page for item in pages if item.page is not None}
    sources = tuple(
        source.model_copy(update={"content": found[source.url]})
        if source.content is None and source.url in found
        else source
        for source in response.sources
    )
    notes = tuple(str(item.error) for item in pages if item.error is not None)
    # Held to the one bound on a response's notes: up to 20 pages after a provider's 20.
    updated = response.model_copy(update={"sources": sources, **notes_update(response, notes)})
    return PagedResponse(updated, pages)


_NO_TIME = "the search's deadline left no time to fetch pages"


def check_content_limit(limit: int, name: str = "limit") -> int:
    """``limit`` when it is a page count this module accepts (1-20).

    The client checks it before searching, so a bad count costs no provider request.

    Args:
        limit: The page count.
        name: The argument it came in, for the error (the client's is ``content_limit``).

    Raises:
        ValueError: It is not an int from 1 to 20.
    """
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 20:
        raise ValueError(f"{name} must be 1..20 pages, got {limit!r}")
    return limit


def _distinct(sources: Sequence["SearchSource"], limit: int) -> list["SearchSource"]:
    """The first ``limit`` sources with distinct URLs, in order."""
    check_content_limit(limit)
    chosen: list[SearchSource] = []
    seen: set[str] = set()
    for source in sources:
        if len(chosen) == limit:
            break
        if source.url not in seen:
            seen.add(source.url)
            chosen.append(source)
    return chosen


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
