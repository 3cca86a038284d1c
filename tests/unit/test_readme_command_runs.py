"""Each search command the README's command-line block shows runs, with its flags, offline.

``tests/unit/test_readme.py`` checks that each option a README command uses is in that
command's ``--help``; whether the command works as written was not checked. Here each
search and listing command of the block runs through the ``websearch`` entry point, its
settings from the environment as a user's would be, the providers on the loopback
simulator, and must exit 0 with an answer. ``--refresh-hook``'s module is written to a
temporary directory on ``sys.path``, as the README says it must be importable. Guards:
every command worked when they were written.
"""

import json
import re
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest

from websearch_core import SEARCH_PROVIDER_ORDER
from websearch_core.cli import main
from websearch_core.testing import SimResult, Simulator

README = Path(__file__).resolve().parents[2] / "README.md"

HOOK = """
async def refresh_codex(entry, token):
    return token
"""
"""The ``my_tokens`` module the README's ``--refresh-hook`` names (never called here)."""

RESULTS = [
    SimResult(
        title="laravel/framework",
        url="https://github.com/laravel/framework",
        snippet="The Laravel framework's core code.",
        published="2025-06-01T00:00:00Z",
    ),
    SimResult(
        title="Tokio: an asynchronous Rust runtime",
        url="https://tokio.example.org/",
        snippet="A runtime for writing reliable asynchronous applications with Rust.",
        published="2026-11-20T00:00:00Z",
    ),
]
"""What both simulated engines answer: one result for the block's ``--site github.com
--after 2025-01-01`` search to keep (the simulator's own are on ``example.org``)."""


def _block_commands() -> list[list[str]]:
    """The commands of the block under "## Command line", comments and redirections cut."""
    section = README.read_text(encoding="utf-8").split("\n## Command line\n", 1)[1]
    block = re.search(r"```bash\n(.*?)```", section, re.S)
    assert block is not None
    commands = []
    for line in block.group(1).splitlines():
        words = shlex.split(line, comments=True)
        assert words[0] == "websearch", line
        commands.append(words[1 : words.index("<")] if "<" in words else words[1:])
    return commands


@pytest.fixture
def simulated_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Simulator]:
    """Brave and DuckDuckGo on loopback; a user's environment pointing at them."""
    (tmp_path / "my_tokens.py").write_text(HOOK, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    with Simulator(["brave", "duckduckgo"]).running_in_thread() as sim:
        for simulated in sim.providers.values():
            simulated.results = RESULTS
        others = [pid for pid in SEARCH_PROVIDER_ORDER if pid not in sim.providers]
        monkeypatch.setenv("WEBSEARCH_BASE_URLS", json.dumps(sim.base_urls()))
        monkeypatch.setenv("WEBSEARCH_EXCLUDE", ",".join(others))
        monkeypatch.setenv("WEBSEARCH_STATE_BACKEND", "memory")
        monkeypatch.setenv("WEBSEARCH_BROWSER", "off")
        monkeypatch.setenv("WEBSEARCH_CREDENTIALS_FILE", str(tmp_path / "credentials.json"))
        monkeypatch.setenv("BRAVE_API_KEY", sim.api_keys()["brave"])
        yield sim


def _searches() -> list[list[str]]:
    return [words for words in _block_commands() if words[0] not in ("auth", "providers")]


def test_the_block_holds_searches_and_listings() -> None:
    """A guard on this file's reading of the block: it found what it runs."""
    assert len(_searches()) >= 8
    assert ["providers", "--json"] in _block_commands()


@pytest.mark.parametrize("words", _searches(), ids=lambda words: " ".join(words[1:]) or "plain")
def test_each_search_command_runs_as_shown(
    words: list[str],
    simulated_environment: Simulator,
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = main(words)
    out, err = capsys.readouterr()
    assert status == 0, err
    if "--json" in words:
        assert json.loads(out)["response"]["provider"] == "brave"
    else:
        assert out.startswith("[1] ") or out.startswith("Answer"), out[:200]


@pytest.mark.parametrize("words", [["providers"], ["providers", "--json"], ["auth", "list"]])
def test_each_listing_command_runs_as_shown(
    words: list[str],
    simulated_environment: Simulator,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert words in _block_commands()
    status = main(words)
    out, err = capsys.readouterr()
    assert status == 0, err
    if "--json" in words:
        assert json.loads(out)
