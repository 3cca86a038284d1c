"""Page content for RAG and agents: decode, extract, fetch safely.

- :func:`extract_content` turns HTML into main text, Markdown and metadata (pure, no I/O);
  :func:`pdf_content` and :func:`text_content` do the same for PDF and plain text.
- :func:`decode_html` turns bytes into text using the declared or sniffed charset.
- :class:`PageFetcher` fetches pages under a safety policy (:class:`FetchOptions`):
  public http(s) addresses only by default, checked at connection time and on every
  redirect, with a size cap, a content-type check, a page cache and browser escalation.
  :meth:`websearch_core.WebSearch.fetch` is the usual entry point.
- :func:`fetch_source_pages` and :func:`content_text` add the pages behind search results
  to a search (the pieces ``include_content`` is built from).
"""

from .decode import declared_charset, decode_html
from .documents import pdf_content, text_content
from .enrich import SourcePage, content_text, fetch_source_pages
from .errors import (
    FetchError,
    FetchFailedError,
    FetchRefusedError,
    FetchTimeoutError,
    RefusalReason,
)
from .extract import extract_content, html_to_markdown
from .fetch import DEFAULT_MAX_PAGE_BYTES, MAX_REDIRECTS, FetchOptions, PageFetcher
from .models import FetchMethod, PageContent
from .safety import ALLOW_PRIVATE_ENV, SafeResolver, check_url, private_allowed

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
    "RefusalReason",
    "SafeResolver",
    "SourcePage",
    "check_url",
    "content_text",
    "declared_charset",
    "decode_html",
    "extract_content",
    "fetch_source_pages",
    "html_to_markdown",
    "pdf_content",
    "private_allowed",
    "text_content",
]
