"""Page content for RAG and agents: decode, extract, fetch safely.

- :func:`extract_content` turns HTML into main text, Markdown and metadata (pure, no I/O).
- :func:`decode_html` turns bytes into text using the declared or sniffed charset.
"""

from .decode import declared_charset, decode_html
from .extract import extract_content, html_to_markdown
from .models import FetchMethod, PageContent

__all__ = [
    "FetchMethod",
    "PageContent",
    "declared_charset",
    "decode_html",
    "extract_content",
    "html_to_markdown",
]
