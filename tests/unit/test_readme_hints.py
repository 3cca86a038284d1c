"""The network hints the README quotes are the code's, and the offline one is quoted once.

A newcomer whose first search runs on a machine without a network reads the offline hint
in the quick start; the Python section quoted it whole a second time, two copies to keep in
step with ``websearch_core.format``. Each hint the README still quotes whole is compared
with its constant here (functional tests hold the constants to what a search says), so a
reworded hint fails until the README follows.
"""

import re
from pathlib import Path

from websearch_core.cli_output import _ALL_FAILED
from websearch_core.format import LOOPBACK_HINT, NOT_CONNECTED_HINT, OFFLINE_HINT

README = Path(__file__).resolve().parents[2] / "README.md"


def _joined(text: str) -> str:
    """``text`` with its line breaks and runs of spaces as single spaces."""
    return " ".join(text.split())


def _section(name: str) -> str:
    """One ``##`` section of the README, its lines joined."""
    text = README.read_text(encoding="utf-8")
    return _joined(text.split(f"\n## {name}\n", 1)[1].split("\n## ", 1)[0])


def test_the_quick_start_quotes_the_offline_output_as_the_command_prints_it() -> None:
    """Failed before: the quick start gave the hint but not the header the command prints."""
    quick = _section("Quick start")
    assert f"`Error: {_ALL_FAILED}`" in quick
    assert f"`{OFFLINE_HINT}`" in quick


def test_the_offline_hint_is_quoted_whole_once() -> None:
    """Failed before: the Python section repeated the quick start's whole quote."""
    assert _joined(README.read_text(encoding="utf-8")).count(OFFLINE_HINT) == 1


def test_the_other_network_hints_quoted_are_the_code_s() -> None:
    """A guard: the blocked-network hint whole, the loopback one up to its quoted stop."""
    text = _joined(README.read_text(encoding="utf-8"))
    assert f"`{NOT_CONNECTED_HINT}`" in text
    quoted = re.search(
        r"`(Not one provider's host accepted a connection, and each [^`]*) \.\.\.`", text
    )
    assert quoted is not None
    assert LOOPBACK_HINT.startswith(quoted[1])
