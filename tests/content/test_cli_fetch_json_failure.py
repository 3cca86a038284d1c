"""``websearch fetch --json`` prints JSON when the page is not fetched, as a search does.

A failed fetch printed nothing on stdout, where a failed ``websearch --json`` search prints
its details with ``"failed": true``: ``websearch fetch --json URL | jq .error`` had no
document to read. Run against a loopback page server and a loopback port nothing listens on.
"""

import json
from collections.abc import Iterator

import pytest

from tests.content._server import serve_in_thread
from tests.refused_port import refused_port
from websearch_core.cli import main
from websearch_core.cli_status import EXIT_FAILED, EXIT_OK, EXIT_USAGE


@pytest.fixture
def base() -> Iterator[str]:
    yield from serve_in_thread({"/a": "<html><body><p>here is the page</p></body></html>"})


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, list[str]]:
    status = main(["fetch", "--json", "--no-browser", "--no-cache", *argv])
    out, err = capsys.readouterr()
    return status, out, err.splitlines()


@pytest.mark.parametrize("allow", [True, False], ids=["refused-connection", "private-address"])
def test_a_page_not_fetched_prints_its_url_and_why(
    capsys: pytest.CaptureFixture[str], allow: bool
) -> None:
    url = f"http://127.0.0.1:{refused_port()}/a"
    status, out, err = _run(capsys, url, *(["--allow-private"] if allow else []))
    assert status == EXIT_FAILED
    data = json.loads(out)
    assert data == {"url": url, "error": err[0].removeprefix("websearch: "), "failed": True}


def test_a_fetched_page_prints_its_fields_as_before(
    base: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A guard (passes before and after): an answer's JSON has no ``failed`` key."""
    status, out, err = _run(capsys, f"{base}/a", "--allow-private")
    assert status == EXIT_OK and err == []
    data = json.loads(out)
    assert "failed" not in data and "here is the page" in data["text"]


def test_a_url_refused_as_written_prints_its_refusal_as_json(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Invalid input (status 2) printed nothing on stdout (cli_refusals): now the same keys
    say it, and the one line on stderr is unchanged."""
    status, out, err = _run(capsys, "example.com")
    assert status == EXIT_USAGE and len(err) == 1
    error = err[0].removeprefix("websearch: ")
    assert json.loads(out) == {"url": "example.com", "error": error, "failed": True}
