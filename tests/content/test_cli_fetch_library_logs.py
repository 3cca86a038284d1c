"""``websearch fetch`` of a PDF it cannot read prints its one line, not pypdf's records too.

With no handler on pypdf's logger, Python's last-resort handler printed its warnings to
stderr above the command's own line (``invalid pdf header: b'<html'``, ``EOF marker not
found``), and a page served as a PDF is said to be none. Run in a fresh interpreter:
pytest's own log capture, a handler on the root logger, would keep the last-resort handler
from printing here.
"""

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.content._server import PageServer, server_in_thread

NOT_A_PDF = b"<html><body><p>Sign in to read this paper.</p></body></html>"
CUT_SHORT = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n"


@pytest.fixture
def server() -> Iterator[PageServer]:
    for serving in server_in_thread({}):
        serving.page("/login.pdf", NOT_A_PDF, "application/pdf")
        serving.page("/cut.pdf", CUT_SHORT, "application/pdf")
        yield serving


def _fetch(url: str, home: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_STATE_HOME": str(home / "state"),
        "XDG_CACHE_HOME": str(home / "cache"),
    }
    command = [sys.executable, "-m", "websearch_core", "fetch", url, "--allow-private"]
    return subprocess.run(
        [*command, "--no-browser", *flags],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


def test_an_unreadable_pdf_prints_the_commands_line_alone(
    server: PageServer, tmp_path: Path
) -> None:
    url = server.url("/cut.pdf")
    completed = _fetch(url, tmp_path)
    assert completed.returncode == 1
    assert completed.stderr.splitlines() == [
        f"websearch: cannot fetch {url}: the PDF could not be read (PdfStreamError)"
    ]


def test_a_page_typed_as_a_pdf_is_said_to_be_no_pdf(server: PageServer, tmp_path: Path) -> None:
    # pypdf is not asked: the body has no PDF header (it printed 'invalid pdf header' too).
    url = server.url("/login.pdf")
    completed = _fetch(url, tmp_path)
    assert completed.returncode == 1
    assert completed.stderr.splitlines() == [
        f"websearch: cannot fetch {url}: the body is not a PDF: it has no %PDF- header, it "
        "begins as an HTML or XML document"
    ]


def test_verbose_shows_pypdfs_records_as_the_cores(server: PageServer, tmp_path: Path) -> None:
    # --verbose still shows them, now worded as the core's own (they had no prefix).
    url = server.url("/cut.pdf")
    lines = _fetch(url, tmp_path, "--verbose").stderr.splitlines()
    assert "websearch: EOF marker not found" in lines
    assert lines[-1] == f"websearch: cannot fetch {url}: the PDF could not be read (PdfStreamError)"
