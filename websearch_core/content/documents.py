"""Page content from documents that are not HTML: PDF, plain text, and data files.

Pure (bytes in, :class:`PageContent` out), like :func:`extract_content`; the fetcher picks
one by the response's media type.
"""

import html
import io
import logging
import re
from datetime import datetime

from .decode import decode_html
from .models import PageContent

__all__ = ["data_content", "pdf_content", "text_content"]

_log = logging.getLogger(__name__)
_BLANK_LINES = re.compile(r"\n\s*\n+")
_TITLE_OPEN = re.compile(r"<title(?=[\s>])", re.IGNORECASE)
_TITLE_CLOSE = re.compile(r"</title\s*>", re.IGNORECASE)
"""A title's tags, found one after the other: one lazy pattern tried again at each of
thousands of unclosed ``<title>`` read the rest of the text each time (64 KiB: seconds)."""
_CDATA = re.compile(r"<!\[CDATA\[(.*?)\]\]>", re.DOTALL)
_CDATA_END = "]]>"
_TITLE_SCAN_CHARS = 65536
"""A feed's own title comes before its items; no need to look further."""
_BACKTICKS = re.compile(r"`{3,}")
_PDF_HEADER = b"%PDF-"
_HEADER_SCAN_BYTES = 1024
"""How far into a file its PDF header may come: other bytes may precede it, and readers
accept it within the first kilobyte."""


def pdf_content(data: bytes, url: str | None = None) -> PageContent:
    """The text and metadata of a PDF, read with pypdf.

    Pages are joined with blank lines; the document-info title, author and creation date
    fill the metadata. Scanned PDFs (images only) give empty text: there is no OCR here.

    Args:
        data: The PDF file.
        url: Where it came from.

    Returns:
        The content; ``markdown`` is the same text (a PDF has no reliable structure).

    Raises:
        ValueError: The bytes are not a readable PDF, or it is encrypted with a password.
            Bytes with no PDF header say so, and what they begin as: a sign-in page or an
            error page served under ``application/pdf`` was "the PDF could not be read
            (PdfStreamError)", as if a PDF had come, broken.
    """
    if _PDF_HEADER not in data[:_HEADER_SCAN_BYTES]:
        if not data.strip():
            raise ValueError("the body is empty, not a PDF")
        begins = "an HTML or XML document" if data.lstrip()[:1] == b"<" else "something else"
        raise ValueError(f"the body is not a PDF: it has no %PDF- header, it begins as {begins}")
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError, PyPdfError

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise ValueError("the PDF is encrypted with a password")
        pages = [page.extract_text() or "" for page in reader.pages]
        info = reader.metadata
    except (PdfReadError, PyPdfError, KeyError, TypeError) as error:
        raise ValueError(f"the PDF could not be read ({type(error).__name__})") from error
    text = _paragraphs("\n\n".join(pages))
    title = _clean(info.title) if info is not None else None
    author = _clean(info.author) if info is not None else None
    created = _creation_date(info)
    return PageContent(
        url=url,
        title=title,
        text=text,
        markdown=text,
        published_date=created,
        author=author,
        content_type="application/pdf",
    )


def text_content(data: bytes, content_type: str, url: str | None = None) -> PageContent:
    """Plain text or Markdown as it is: decoded, line endings normalised, blank lines tidied.

    Args:
        data: The body.
        content_type: The response's ``Content-Type`` (for its charset).
        url: Where it came from.
    """
    text = _paragraphs(
        decode_html(data, content_type, url=url).replace("\r\n", "\n").replace("\r", "\n")
    )
    media = content_type.split(";", 1)[0].strip().lower() or "text/plain"
    return PageContent(url=url, text=text, markdown=text, content_type=media)


def data_content(data: bytes, content_type: str, url: str | None = None) -> PageContent:
    """A JSON, XML (RSS and Atom feeds too) or CSV document as it is, decoded.

    A model that asks for a feed or an API's JSON wants the document itself, not a summary
    of it: ``text`` is the document, ``markdown`` the same in a code block (so that nothing
    in it is read as Markdown), and an XML document's title is its first ``<title>`` (a
    feed's own). The charset is the header's, else the XML declaration's ``encoding``, else
    sniffed.

    Args:
        data: The body.
        content_type: The response's ``Content-Type`` (``application/rss+xml``, ...).
        url: Where it came from.
    """
    media = content_type.split(";", 1)[0].strip().lower()
    text = (
        decode_html(data, content_type, url=url).replace("\r\n", "\n").replace("\r", "\n").strip()
    )
    syntax = next((name for name in ("json", "xml", "csv") if name in media), "")
    return PageContent(
        url=url,
        title=_feed_title(text) if syntax == "xml" else None,
        text=text,
        markdown=_code_block(text, syntax) if text else "",
        content_type=media,
    )


def _feed_title(text: str) -> str | None:
    """The first ``<title>`` of an XML document: a feed's or a channel's own."""
    opened = _TITLE_OPEN.search(text, 0, _TITLE_SCAN_CHARS)
    if opened is None:
        return None
    # The open tag ends at the first ">"; a later "<title" would end there or after it, so
    # if this one has no close, none has.
    content = text.find(">", opened.end(), _TITLE_SCAN_CHARS) + 1
    closed = _TITLE_CLOSE.search(text, content, _TITLE_SCAN_CHARS) if content else None
    if closed is None:
        return None
    title = " ".join(html.unescape(_unwrap_cdata(text[content : closed.start()])).split())
    return title or None


def _unwrap_cdata(text: str) -> str:
    """``text`` with each CDATA section's markers dropped, its content kept.

    Only the text up to the last ``]]>`` is searched: a section opened after it has no end,
    and each such opening read the rest of the text again.
    """
    end = text.rfind(_CDATA_END) + len(_CDATA_END)
    return _CDATA.sub(r"\1", text[:end]) + text[end:] if end >= len(_CDATA_END) else text


def _code_block(text: str, syntax: str) -> str:
    """``text`` as a fenced Markdown code block, fenced longer than any backtick run in it."""
    fence = "`" * max([3, *(len(run) + 1 for run in _BACKTICKS.findall(text))])
    return f"{fence}{syntax}\n{text}\n{fence}"


def _paragraphs(text: str) -> str:
    lines = "\n".join(line.rstrip() for line in text.splitlines())
    return _BLANK_LINES.sub("\n\n", lines).strip()


def _clean(value: object) -> str | None:
    return value.strip() or None if isinstance(value, str) else None


def _creation_date(info: object) -> str | None:
    try:
        created = getattr(info, "creation_date", None)
    except (ValueError, TypeError):  # a malformed date string in the document info
        _log.debug("unreadable PDF creation date")
        return None
    return created.date().isoformat() if isinstance(created, datetime) else None
