"""The value a page fetch or an extraction returns.

Kept apart from :mod:`websearch_core.models` (the search request/response values) because
page content has its own life cycle: it is produced by :func:`extract_content` with no I/O,
and filled in further by the fetcher (where the bytes came from, how they were fetched).
"""

from typing import Final, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    FieldSerializationInfo,
    ValidationInfo,
    field_serializer,
    field_validator,
)

from ..js_trim import is_blank, trim

__all__ = ["STORED_ROW", "FetchMethod", "PageContent", "provided_page"]

STORED_ROW: Final = "stored_row"
"""The serialization and validation context key (``context={STORED_ROW: True}``) of a row
a store keeps (the result cache's, the page cache's): there a page whose Markdown is its
text (every page a provider sends, a PDF, a plain-text document) holds that text once.
Nowhere else: ``model_dump``, ``--json`` and a tool's details keep both fields."""

FetchMethod = Literal["http", "browser"]
"""How the bytes were obtained: a plain HTTP request, or the headless browser."""


class PageContent(BaseModel):
    """The main content of one web page (or PDF / plain-text document).

    Every field but ``text`` and ``markdown`` may be ``None``: pages often lack an author or a
    date, and a caller can tell "unknown" from "empty" that way.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    url: str | None = None
    """The address the content came from (after redirects, when fetched)."""
    title: str | None = None
    """The page's title: its headline where one is marked up, else ``<title>``."""
    text: str = ""
    """Main text as plain text, paragraphs separated by blank lines."""
    markdown: str = ""
    """Main text as Markdown: headings, lists, tables, code blocks and links kept."""
    published_date: str | None = None
    """Publication date, ISO 8601 (``YYYY-MM-DD``), when the page states one."""
    author: str | None = None
    """Author(s) as the page names them."""
    site_name: str | None = None
    """The publishing site's name (``og:site_name`` and the like)."""
    language: str | None = None
    """Language tag the page declares (``en``, ``pt-BR``), when it declares one."""
    content_type: str | None = None
    """Media type of the fetched document (``text/html``, ``application/pdf``)."""
    status: int | None = None
    """HTTP status of the final response, when fetched."""
    fetched_with: FetchMethod | None = None
    """``http`` or ``browser`` when fetched; ``None`` for a bare extraction."""
    cached: bool = False
    """True when a fetch was answered from the page cache."""

    @field_serializer("markdown")
    def _markdown_once(self, markdown: str, info: FieldSerializationInfo) -> str | None:
        """In a stored row, ``null`` for Markdown that is the text: the text is stored once.

        A 10 MiB page a provider sent made a 20 MiB cache row, and 20 MiB in memory once
        read back (two strings), for one text. ``null`` rather than leaving the field out:
        a release before this one reads such a row as unreadable (a miss it overwrites),
        never as a page with empty Markdown.
        """
        if _in_stored_row(info.context) and markdown == self.text:
            return None
        return markdown

    @field_validator("markdown", mode="before")
    @classmethod
    def _markdown_from_text(cls, markdown: object, info: ValidationInfo) -> object:
        """A stored row's ``null`` Markdown read back as the text: the same string, once."""
        if markdown is None and _in_stored_row(info.context):
            return info.data.get("text", "")
        return markdown


def _in_stored_row(context: object) -> bool:
    """Whether a (de)serialization ``context`` is a stored row's (:data:`STORED_ROW`)."""
    return isinstance(context, dict) and context.get(STORED_ROW) is True


def provided_page(url: str, title: str | None, body: object) -> PageContent | None:
    r"""The page text a search provider sent with a result, as :class:`PageContent`.

    Tavily (``raw_content``), Exa (``text``), Firecrawl (``markdown``) and Jina
    (``content``) can return the page itself; using it saves fetching the page again for
    ``include_content``. Their text is Markdown or plain text (which reads as Markdown),
    so it fills both ``text`` and ``markdown``; nothing else about the page is known.

    Args:
        url: The result's URL.
        title: The result's title.
        body: The provider's field as decoded from JSON (anything but a non-blank string
            gives ``None``).

    Example:
        >>> provided_page("https://a.example/", "A", "# A\n\nBody.").markdown
        '# A\n\nBody.'
        >>> provided_page("https://a.example/", "A", None) is None
        True
    """
    if not isinstance(body, str) or is_blank(body):
        return None
    text = trim(body)  # the one trim of a field (:mod:`websearch_core.js_trim`)
    return PageContent(url=url, title=title or None, text=text, markdown=text)
