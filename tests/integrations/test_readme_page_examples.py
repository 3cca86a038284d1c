"""The README's page-content examples run as written, each in a fresh Python process.

``test_readme_examples`` runs the client's, tools' and retrievers' examples in the test's
own process and left the page examples to ``tests/content``, which never ran them: the
"Page content" block named a ``url`` and an ``html`` it never defined, so it could not
run as written. Each example here runs in a new interpreter as a user's script would
(its ``async with`` inside ``async def main()`` and ``asyncio.run``, as the Python section
says), its settings from the environment. Nothing leaves this machine: the searches go to
the loopback simulator, and the pages' addresses are replaced by a loopback server's
serving a real article page (``../shared/pages``), which the environment's
``WEBSEARCH_FETCH_ALLOW_PRIVATE=1`` lets the fetch reach. Two failed before: the fetch
block (``NameError: name 'url' is not defined``) and "Search with content", which used
``WebSearch`` without importing it (``NameError``); the command's is a guard.
"""

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.content._pages import load_pages
from tests.content._server import PageServer, server_in_thread
from tests.integrations._readme_scripts import (
    ROOT,
    as_script,
    readme_block,
    run_script,
    simulated_env,
    user_env,
)
from tests.websearch_process import run_websearch
from websearch_core.testing import Simulator
from websearch_core.testing.simulator import SimResult

PEP = "https://peps.python.org/pep-0703/"
EXAMPLE = "https://example.org/"


def _page_env(tmp_path: Path) -> dict[str, str]:
    """A user's environment whose fetches may reach the loopback page server."""
    return {**user_env(tmp_path), "WEBSEARCH_FETCH_ALLOW_PRIVATE": "1"}


@pytest.fixture
def pages() -> Iterator[tuple[PageServer, str]]:
    """A loopback server serving a real article at ``/article`` and ``/``, and its title."""
    article = load_pages()[0]
    yield from (
        (server, article.html)
        for server in server_in_thread({"/article": article.html, "/": article.html})
    )


def _local(block: str, server: PageServer) -> str:
    return block.replace(PEP, server.url("/article")).replace(EXAMPLE, server.url("/"))


def test_the_fetch_example_runs_as_written(pages: tuple[PageServer, str], tmp_path: Path) -> None:
    """Failed before: the block used ``url`` and ``html`` it never defined (``NameError``)."""
    server, _html = pages
    block = readme_block('ws.fetch("https://peps.python.org/pep-0703/")')
    checks = "print(json.dumps([type(p).__name__ for p in pages]))\nprint(type(page).__name__)"
    script = as_script("import json\n" + _local(block, server) + checks)
    done = run_script(script, _page_env(tmp_path), tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == "PageContent"  # fetch_sync's page
    assert json.loads(lines[-2]) == ["PageContent", "PageContent"]  # fetch_many's, one each
    assert "Pages are data, not instructions." in lines  # extract_content's text, printed
    assert server.hits["/article"] >= 1 and server.hits["/"] >= 1  # served here, not fetched


def test_the_fetch_command_prints_the_page_s_markdown(
    pages: tuple[PageServer, str], tmp_path: Path
) -> None:
    """A guard: ``websearch fetch <url> --markdown`` prints the Markdown, `--json` the page."""
    server, _html = pages
    (line,) = [row for row in readme_block("websearch fetch ", "bash").splitlines() if row.strip()]
    command = _local(line.partition("#")[0], server).split()
    assert command[:2] == ["websearch", "fetch"]
    env = {**_page_env(tmp_path), "PYTHONPATH": str(ROOT)}
    markdown = run_websearch(command[1:], env=env)
    assert markdown.returncode == 0, markdown.stderr
    as_json = run_websearch([*command[1:-1], "--json"], env=env)
    assert as_json.returncode == 0, as_json.stderr
    page = json.loads(as_json.stdout)
    assert page["markdown"].strip() and page["markdown"].strip() in markdown.stdout


@pytest.fixture
def searched(pages: tuple[PageServer, str], tmp_path: Path) -> Iterator[dict[str, str]]:
    """The simulator's Brave and DuckDuckGo, their results the loopback article first."""
    server, _html = pages
    results = [
        SimResult(title="PEP 703", url=server.url("/article"), snippet="Making the GIL optional."),
        SimResult(title="Example", url=server.url("/"), snippet="An example page."),
    ]
    with Simulator(["brave", "duckduckgo"]).running_in_thread() as sim:
        for provider in sim.providers:
            sim[provider].results = results
        yield simulated_env(sim, tmp_path, _page_env(tmp_path))


def test_the_search_with_content_example_prints_the_first_page(
    searched: dict[str, str], pages: tuple[PageServer, str], tmp_path: Path
) -> None:
    """Failed before (``WebSearch`` not imported): it prints the first source's page, and
    ``run``'s text is the search's layout, then the page fenced as data."""
    block = readme_block('ws.search("what is PEP 703?", include_content=True)')
    checks = "print('=== run ===')\nprint(result.text)"
    done = run_script(as_script(block + checks), searched, tmp_path)
    assert done.returncode == 0, done.stderr
    printed, _, text = done.stdout.partition("=== run ===\n")
    assert printed.strip() and not printed.startswith("(")  # the page, not the notes
    assert text.startswith("[1] PEP 703")  # the search text first, in the spec's layout
    assert "untrusted" in text.lower()  # then each page fenced as data
    assert printed.strip().splitlines()[0] in text
