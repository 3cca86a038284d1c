"""Each row of the README's Troubleshooting table: what you see is what the command says.

``test_readme_layout`` holds that each row links to a section; nothing held the "you see"
column to the command's output or its exit status. Each row's symptom is played here with
``websearch``'s ``main`` (the brave rows on the loopback simulator) and its quote matched,
``...`` standing for what it leaves out. One failed before: the stale row said "an answer
marked `stale`", but the text a user and a model read says ``Note: every provider failed;
this cached answer is from ...`` and the word ``stale`` is only ``--json``'s field. The
rest are guards.
"""

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from websearch_core.cli import EXIT_OK, EXIT_USAGE, main
from websearch_core.format import OFFLINE_HINT
from websearch_core.testing import Simulator
from websearch_core.testing.faults import Fault

README = Path(__file__).resolve().parents[2] / "README.md"


def _rows() -> dict[str, str]:
    """The table's "you see" cells (their code span's text) to the row's "it means" cell."""
    section = README.read_text(encoding="utf-8").split("\n## Troubleshooting\n", 1)[1]
    section = section.split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip("|").split(" | ")]
        if len(cells) == 3 and cells[0] not in {"you see", "---"}:
            rows[cells[0]] = cells[1]
    return rows


def _quote(start: str) -> str:
    """The one row's "you see" quote that begins with ``start``, without its backquotes."""
    (cell,) = [cell for cell in _rows() if cell.startswith(f"`{start}")]
    found = re.match(r"`(?P<quote>[^`]+)`", cell)
    assert found
    return found["quote"]


def _matches(quote: str, said: str) -> bool:
    pattern = ".*?".join(re.escape(part) for part in quote.split("..."))
    return re.search(pattern, said, re.S) is not None


@pytest.fixture
def brave(monkeypatch: pytest.MonkeyPatch) -> Iterator[Simulator]:
    """Brave alone on loopback, its key set, every other provider left out."""
    with Simulator(["brave"]).running_in_thread() as sim:
        monkeypatch.setenv("WEBSEARCH_BRAVE_BASE_URL", sim["brave"].base_url)
        monkeypatch.setenv("WEBSEARCH_PROVIDERS", "brave")
        monkeypatch.setenv("BRAVE_API_KEY", sim.api_keys()["brave"])
        yield sim


def test_the_table_has_the_rows_checked_here() -> None:
    """A guard on this file: seven rows, each symptom below played."""
    assert len(_rows()) == 7


def test_the_offline_row_quotes_the_offline_hint() -> None:
    """A guard: the row's words begin the hint the command prints."""
    assert _matches(_quote("Not one provider's host name"), OFFLINE_HINT)


def test_nothing_to_ask_ends_with_exit_status_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A guard: Brave chosen alone without its key leaves nothing to ask."""
    monkeypatch.setenv("WEBSEARCH_PROVIDERS", "brave")
    assert main(["python"]) == EXIT_USAGE == 2
    out, err = capsys.readouterr()
    assert _matches(_quote("No web search provider configured."), out + err)
    assert "'websearch providers' shows which can run" in err  # "says why"


def test_a_bad_value_is_named_by_where_it_was_set_with_exit_status_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A guard: ``websearch: <where>: <problem>``."""
    monkeypatch.setenv("WEBSEARCH_DEADLINE_SECONDS", "soon")
    assert main(["python"]) == EXIT_USAGE
    (line,) = capsys.readouterr().err.splitlines()
    assert _quote("websearch: <where>") == "websearch: <where>: <problem>"
    assert line.startswith("websearch: WEBSEARCH_DEADLINE_SECONDS: ")


def test_misconfigured_shows_in_the_listing_naming_where_it_is_set(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A guard: a key that cannot be sent, its variable named, never its value."""
    monkeypatch.setenv("BRAVE_API_KEY", "BSA key with spaces 1234567890")
    assert main(["providers"]) == EXIT_OK
    (row,) = [r for r in capsys.readouterr().out.splitlines() if r.startswith("brave ")]
    assert _quote("misconfigured:") in row and "BRAVE_API_KEY" in row
    assert "spaces" not in row


def test_a_skipped_provider_is_forgotten_by_the_reset_the_row_names(
    brave: Simulator, capsys: pytest.CaptureFixture[str]
) -> None:
    """A guard: a refused key leaves Brave skipped; ``websearch providers reset brave``
    forgets that, and the next search asks it again."""
    (means,) = [m for m in _rows().values() if "providers reset <id>" in m]
    assert "forgets that" in means
    brave["brave"].always(Fault.unauthorized())
    main(["python"])
    brave["brave"].always(None)
    asked = len(brave["brave"].requests)
    main(["python"])
    assert len(brave["brave"].requests) == asked  # skipped while it cools down
    assert main(["providers", "reset", "brave"]) == EXIT_OK
    capsys.readouterr()
    assert main(["python"]) == EXIT_OK
    assert len(brave["brave"].requests) == asked + 1
    assert capsys.readouterr().out.startswith("[1] ")


def test_a_cached_answer_served_when_every_provider_failed_says_so(
    brave: Simulator, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Failed before on the README: the row showed ``stale``, a word only ``--json`` has;
    the text says the note the row now quotes."""
    monkeypatch.setenv("WEBSEARCH_CACHE_TTL_SECONDS", "0.001")  # fresh for a millisecond
    assert main(["python"]) == EXIT_OK
    brave["brave"].always(Fault(kind="status", status=500))
    capsys.readouterr()
    assert main(["python"]) == EXIT_OK
    out = capsys.readouterr().out
    quote = _quote("Note: every provider failed")
    assert _matches(quote, out.splitlines()[0]) and "stale" not in out
    assert main(["python", "--json"]) == EXIT_OK
    assert json.loads(capsys.readouterr().out)["response"]["stale"] is True
    assert '`"stale": true` in `--json`' in _rows()[f"`{quote}`"]
    # The failures section's table says the same, by the note's first words.
    failures = re.search(r"\| `All web search providers failed:`, or `(?P<q>[^`]+)` \|", _text())
    assert failures and _matches(failures["q"], out.splitlines()[0])


def _text() -> str:
    return README.read_text(encoding="utf-8")
