"""Page content for RAG and agents: decode, extract, fetch safely.

- :func:`extract_content` turns HTML into main text, Markdown and metadata (pure, no I/O);
  :func:`pdf_content`, :func:`text_content` and :func:`data_content` do the same for PDF,
  plain text and data files (JSON, XML feeds, CSV).
- :func:`decode_html` turns bytes into text using the declared or sniffed charset.
- :class:`PageFetcher` fetches pages under a safety policy (:class:`FetchOptions`):
  public http(s) addresses only by default, checked at connection time and on every
  redirect, with a size cap, a content-type check, a page cache and browser escalation.
  :meth:`websearch_core.WebSearch.fetch` is the usual entry point.
- :func:`fetch_source_pages` and :func:`content_text` add the pages behind search results
  to a search; :func:`add_page_content` is the whole ``include_content`` step of
  :meth:`websearch_core.WebSearch.search`. :func:`provided_page` maps the page text a
  provider sends with a result; :func:`fence_results` fences search text
  (``fence_results`` setting).
"""

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

if TYPE_CHECKING:
    from .decode import declared_charset, decode_html
    from .documents import data_content, pdf_content, text_content
    from .enrich import (
        PagedResponse,
        SourcePage,
        add_page_content,
        content_text,
        fetch_source_pages,
    )
    from .errors import (
        FetchError,
        FetchFailedError,
        FetchRefusedError,
        FetchTimeoutError,
        RefusalReason,
    )
    from .extract import extract_content, html_to_markdown
    from .fetch import DEFAULT_MAX_PAGE_BYTES, MAX_REDIRECTS, FetchOptions, PageFetcher
    from .models import FetchMethod, PageContent, provided_page
    from .resolver import SafeResolver
    from .safety import ALLOW_PRIVATE_ENV, check_url, private_allowed
    from .tool_text import fence_results

# Each public name and the submodule that defines it, imported on first use (PEP 562). The
# search models need only ``content.models``; loading the package must not bring in the
# fetcher (aiohttp) and the extractor (lxml) with it, or every ``import`` of the core would.
_EXPORTS: dict[str, str] = {
    "declared_charset": "decode",
    "decode_html": "decode",
    "data_content": "documents",
    "pdf_content": "documents",
    "text_content": "documents",
    **dict.fromkeys(
        ("PagedResponse", "SourcePage", "add_page_content", "content_text", "fetch_source_pages"),
        "enrich",
    ),
    **dict.fromkeys(
        (
            "FetchError",
            "FetchFailedError",
            "FetchRefusedError",
            "FetchTimeoutError",
            "RefusalReason",
        ),
        "errors",
    ),
    "extract_content": "extract",
    "html_to_markdown": "extract",
    **dict.fromkeys(
        ("DEFAULT_MAX_PAGE_BYTES", "MAX_REDIRECTS", "FetchOptions", "PageFetcher"), "fetch"
    ),
    **dict.fromkeys(("FetchMethod", "PageContent", "provided_page"), "models"),
    "SafeResolver": "resolver",
    **dict.fromkeys(("ALLOW_PRIVATE_ENV", "check_url", "private_allowed"), "safety"),
    "fence_results": "tool_text",
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals(), submodules=True)

__all__ = [
    "ALLOW_PRIVATE_ENV",
    "DEFAULT_MAX_PAGE_BYTES",
    "MAX_REDIRECTS",
    "FetchError",
    "FetchFailedError",
    "FetchMethod",
    "FetchOptions",
    "FetchRefusedError",
    "FetchTimeoutError",
    "PageContent",
    "PageFetcher",
    "PagedResponse",
    "RefusalReason",
    "SafeResolver",
    "SourcePage",
    "add_page_content",
    "check_url",
    "content_text",
    "data_content",
    "declared_charset",
    "decode_html",
    "extract_content",
    "fence_results",
    "fetch_source_pages",
    "html_to_markdown",
    "pdf_content",
    "private_allowed",
    "provided_page",
    "text_content",
]
