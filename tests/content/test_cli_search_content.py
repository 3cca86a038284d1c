"""``websearch QUERY --content``: the search text, then the top results' pages, fenced."""

import json
from collections.abc import Iterator

import pytest

from tests.content._server import serve_in_thread
from tests.simulated_environment import allow_only, route_to_simulator
from websearch_core.cli import main
from websearch_core.testing import Simulator
from websearch_core.testing.simulator import SimResult

_BODY = "The command line prints the pages behind the results, in full sentences. " * 6
_PAGE = (
    "<html><head><title>CLI page</title></head><body><article><h1>CLI page</h1>"
    f"<p>{_BODY}</p></article></body></html>"
)


@pytest.fixture
def brave(monkeypatch: pytest.MonkeyPatch) -> Iterator[Simulator]:
    """A simulated Brave whose one result is a loopback page; nothing else may run."""
    monkeypatch.setenv("WEBSEARCH_FETCH_ALLOW_PRIVATE", "1")  # the page is on loopback
    monkeypatch.setenv("WEBSEARCH_STATE_BACKEND", "memory")
    pages = serve_in_thread({"/a": _PAGE})
    base = next(pages)
    try:
        with Simulator(["brave"]).running_in_thread() as sim:
            sim["brave"].results = [SimResult(title="A", url=f"{base}/a", snippet="About A.")]
            route_to_simulator(monkeypatch, sim)
            monkeypatch.setenv("BRAVE_API_KEY", "sim-key-brave")
            allow_only(monkeypatch, "brave")
            yield sim
    finally:
        next(pages, None)  # stops the page server


def test_content_appends_the_fenced_pages(
    brave: Simulator, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["python", "asyncio"]) == 0
    plain = capsys.readouterr().out
    assert "Page content of the top results:" not in plain

    assert main(["python", "asyncio", "--content", "--no-cache"]) == 0
    out = capsys.readouterr().out
    search_text, pages = out.split("\n\nPage content of the top results:\n")
    assert search_text + "\n" == plain
    lines = pages.splitlines()
    assert lines[0] == "[1]"
    assert lines[1].startswith("The text between the PAGE-")
    assert "The command line prints the pages behind the results" in pages
    assert lines[-1].startswith("<<<END PAGE-")


def test_content_with_json_carries_the_page(
    brave: Simulator, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["python", "--content", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    (source,) = data["response"]["sources"]
    assert source["content"]["title"] == "CLI page"
    assert source["content"]["fetched_with"] == "http"
