"""A PDF is read as one whatever type its server gives it, when its bytes begin as one.

Served as ``application/octet-stream`` (object storage's default for a file uploaded with no
type) or ``application/x-pdf`` it was refused as an unsupported content type, and served as
``text/plain`` its raw bytes were the page's text (``%PDF-1.3`` and the rest). Served and
fetched over loopback; the PDF is written with pypdf (``tests/content/_pdf.py``).
"""

import pytest

from tests.content._pdf import text_pdf
from tests.content._server import PageServer
from websearch_core import WebSearch
from websearch_core.content import FetchFailedError, FetchRefusedError

PDF = text_pdf(["Quarterly report.", "Revenue grew."], title="Report", author="Ann Lee")


async def _fetch(ws: WebSearch, url: str) -> object:
    return await ws.fetch(url, allow_private_addresses=True, use_browser=False)


@pytest.mark.parametrize(
    "content_type",
    [
        "application/octet-stream",
        "binary/octet-stream",
        "application/x-pdf",
        "text/plain; charset=utf-8",
        "application/octet-stream; name=report.pdf",
    ],
)
async def test_a_pdf_under_another_type_is_read_as_a_pdf(
    ws: WebSearch, server: PageServer, content_type: str
) -> None:
    server.page("/report", PDF, content_type)
    page = await ws.fetch(server.url("/report"), allow_private_addresses=True, use_browser=False)
    assert page.text == "Quarterly report.\nRevenue grew."
    assert (page.title, page.author, page.content_type) == ("Report", "Ann Lee", "application/pdf")


async def test_guard_other_bytes_are_still_refused_in_the_same_words(
    ws: WebSearch, server: PageServer
) -> None:
    """Guard: bytes that do not begin as a PDF stay refused, once read."""
    server.page("/archive", b"PK\x03\x04 a zip archive", "application/octet-stream")
    with pytest.raises(FetchRefusedError) as caught:
        await _fetch(ws, server.url("/archive"))
    assert caught.value.kind == "content_type"
    assert caught.value.reason == (
        "unsupported content type application/octet-stream (HTML, text, JSON, XML, CSV and "
        "PDF only)"
    )


async def test_guard_plain_text_stays_text(ws: WebSearch, server: PageServer) -> None:
    """Guard: a text that mentions a PDF header later on is still text."""
    server.page("/notes.txt", "Notes.\n%PDF-1.7 begins every PDF file.\n", "text/plain")
    page = await ws.fetch(server.url("/notes.txt"), allow_private_addresses=True, use_browser=False)
    assert (page.content_type, page.text) == (
        "text/plain",
        "Notes.\n%PDF-1.7 begins every PDF file.",
    )


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (b"<!doctype html><html><p>Sign in to read this paper.</p></html>", "an HTML or XML"),
        (b"\x89PNG\r\n\x1a\n an image", "something else"),
    ],
)
async def test_a_body_typed_as_a_pdf_that_is_none_says_so(
    ws: WebSearch, server: PageServer, body: bytes, said: str
) -> None:
    # It read "the PDF could not be read (PdfStreamError)", as if a broken PDF had come.
    server.page("/paper.pdf", body, "application/pdf")
    with pytest.raises(FetchFailedError) as caught:
        await _fetch(ws, server.url("/paper.pdf"))
    assert caught.value.reason == (
        f"the body is not a PDF: it has no %PDF- header, it begins as {said} document"
        if said == "an HTML or XML"
        else f"the body is not a PDF: it has no %PDF- header, it begins as {said}"
    )


async def test_guard_a_header_after_other_bytes_is_still_read(
    ws: WebSearch, server: PageServer
) -> None:
    """Guard: a PDF whose header follows a few other bytes is read as before."""
    server.page("/late.pdf", b"\r\n" + PDF, "application/pdf")
    page = await ws.fetch(server.url("/late.pdf"), allow_private_addresses=True, use_browser=False)
    assert page.text == "Quarterly report.\nRevenue grew."
