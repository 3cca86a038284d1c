"""``websearch fetch`` of a PDF it cannot read prints its one line, not pypdf's records too.

With no handler on pypdf's logger, Python's last-resort handler printed its warnings to
stderr above the command's own line (``invalid pdf header: b'<html'``, ``EOF marker not
found``), and a page served as a PDF is said to be none. Run outside pytest (forked from
one interpreter, :mod:`tests.cli_runs`): pytest's own log capture, a handler on the root
logger, would keep the last-resort handler from printing here.
"""

import os
from collections.abc import Iterator
from typing import Any

import pytest

from tests.cli_runs import run_all
from tests.content._server import server_in_thread

NOT_A_PDF = b"<html><body><p>Sign in to read this paper.</p></body></html>"
CUT_SHORT = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n"


RUNS = {
    "cut": ("/cut.pdf", []),
    "login": ("/login.pdf", []),
    "cut-verbose": ("/cut.pdf", ["--verbose"]),
}
"""Each ``websearch fetch URL --allow-private --no-browser FLAGS`` run, by id."""


@pytest.fixture(scope="module")
def fetched(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, dict[str, Any]]]:
    """Each of :data:`RUNS` against one page server, forked from one interpreter: no
    handler of pytest's is on the root logger there, as in a fresh one. Each run's outcome
    and its URL."""
    home = tmp_path_factory.mktemp("fetch-logs")
    env = {
        **os.environ,
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_STATE_HOME": str(home / "state"),
        "XDG_CACHE_HOME": str(home / "cache"),
    }
    for serving in server_in_thread({}):
        serving.page("/login.pdf", NOT_A_PDF, "application/pdf")
        serving.page("/cut.pdf", CUT_SHORT, "application/pdf")
        runs = [
            {
                "id": name,
                "args": ["fetch", serving.url(path), "--allow-private", "--no-browser", *flags],
                "env": env,
                "stdin": "",
                "stdout": "pipe",
            }
            for name, (path, flags) in RUNS.items()
        ]
        ran = run_all(runs, home, env)
        for name, (path, _) in RUNS.items():
            ran[name]["url"] = serving.url(path)
        yield ran


def test_an_unreadable_pdf_prints_the_commands_line_alone(
    fetched: dict[str, dict[str, Any]],
) -> None:
    completed = fetched["cut"]
    url = completed["url"]
    assert completed["status"] == 1
    assert completed["stderr"].splitlines() == [
        f"websearch: cannot fetch {url}: the PDF could not be read (PdfStreamError)"
    ]


def test_a_page_typed_as_a_pdf_is_said_to_be_no_pdf(fetched: dict[str, dict[str, Any]]) -> None:
    # pypdf is not asked: the body has no PDF header (it printed 'invalid pdf header' too).
    completed = fetched["login"]
    url = completed["url"]
    assert completed["status"] == 1
    assert completed["stderr"].splitlines() == [
        f"websearch: cannot fetch {url}: the body is not a PDF: it has no %PDF- header, it "
        "begins as an HTML or XML document"
    ]


def test_verbose_shows_pypdfs_records_as_the_cores(fetched: dict[str, dict[str, Any]]) -> None:
    # --verbose still shows them, now worded as the core's own (they had no prefix).
    completed = fetched["cut-verbose"]
    url = completed["url"]
    lines = completed["stderr"].splitlines()
    assert "websearch: EOF marker not found" in lines
    assert lines[-1] == f"websearch: cannot fetch {url}: the PDF could not be read (PdfStreamError)"
