"""``websearch providers`` says whose requests ``USED`` counts when the state is in memory.

The simulator's pasted lines set ``WEBSEARCH_STATE_BACKEND=memory``: a user searched, listed
the providers and read ``USED 0`` under ``USED counts requests this month``, with no word
that each command starts from an empty memory and so cannot count a search run before.
"""

import json
from typing import Any

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


def _json_listing(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(["providers", "--json"]) == EXIT_OK
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def test_the_json_says_whose_requests_the_counts_are_as_the_footer_does(
    brave: Simulator, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Failed before: ``--json`` had no field for the footer's in-memory note.

    A script reading ``used_this_month`` 0 after a search could not tell one command's
    count from a month's; ``used_counts`` says which, from the same store the rows read.
    """
    assert main(["--no-cache", "python"]) == EXIT_OK
    capsys.readouterr()
    on_disk = _json_listing(capsys)
    (row,) = [row for row in on_disk["providers"] if row["id"] == "brave"]
    assert (on_disk["used_counts"], row["used_this_month"]) == ("month", 1)
    monkeypatch.setenv("WEBSEARCH_STATE_BACKEND", "memory")
    in_memory = _json_listing(capsys)
    (row,) = [row for row in in_memory["providers"] if row["id"] == "brave"]
    assert (in_memory["used_counts"], row["used_this_month"]) == ("this_command", 0)
