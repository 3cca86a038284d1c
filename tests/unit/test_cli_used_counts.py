"""``websearch providers`` says whose requests ``USED`` counts when the state is in memory.

The simulator's pasted lines set ``WEBSEARCH_STATE_BACKEND=memory``: a user searched, listed
the providers and read ``USED 0`` under ``USED counts requests this month``, with no word
that each command starts from an empty memory and so cannot count a search run before.
"""

import pytest

from websearch_core.cli import EXIT_OK, main
from websearch_core.testing import Simulator


def _brave_row_and_footer(capsys: pytest.CaptureFixture[str]) -> tuple[list[str], str]:
    assert main(["providers"]) == EXIT_OK
    out = capsys.readouterr().out
    (row,) = [line.split() for line in out.splitlines() if line.startswith("brave ")]
    (footer,) = [line for line in out.splitlines() if line.startswith("USED ")]
    return row, footer


def test_in_memory_the_footer_says_the_counts_are_this_commands_only(
    brave: Simulator, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEBSEARCH_STATE_BACKEND", "memory")
    assert main(["--no-cache", "python"]) == EXIT_OK
    assert len(brave["brave"].requests) == 1  # a search was made, by another command
    capsys.readouterr()
    row, footer = _brave_row_and_footer(capsys)
    assert row[3] == "0"  # the earlier command's search is not in this one's memory
    assert "this command's requests only" in footer
    assert "state_backend is memory (WEBSEARCH_STATE_BACKEND)" in footer
    assert "requests this month" not in footer


def test_a_store_on_disk_counts_the_month_as_before(
    brave: Simulator, capsys: pytest.CaptureFixture[str]
) -> None:
    """A guard (passes before and after): the SQLite store counts the earlier search."""
    assert main(["--no-cache", "python"]) == EXIT_OK
    capsys.readouterr()
    row, footer = _brave_row_and_footer(capsys)
    assert row[3] == "1"
    assert footer.startswith("USED counts requests this month. ")
