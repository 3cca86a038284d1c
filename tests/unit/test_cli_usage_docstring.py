"""The ``websearch`` command's module docstring shows every option its search takes.

Its usage block (what ``help(websearch_core.cli)`` and the API docs show) had fallen
behind the parser: ``--deadline`` and ``--refresh-hook`` were missing from it. The options
are read here from ``websearch --help``, so a new option fails until the block shows it.
"""

import re

import pytest

from websearch_core import cli


def _options(argv: list[str], capsys: pytest.CaptureFixture[str]) -> set[str]:
    assert cli.main([*argv, "--help"]) == 0
    shown = capsys.readouterr().out.split("\nother commands:")[0]
    return set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", shown)) - {"--help"}


def _usage_block() -> str:
    assert cli.__doc__ is not None
    return cli.__doc__.split("Usage::", 1)[1].split("\n\n", 2)[1]


def _usage_lines() -> list[str]:
    """The block's commands, a line each: a wrapped one's ``[...]`` lines joined to it."""
    lines: list[str] = []
    for line in _usage_block().splitlines():
        if line.strip().startswith("[") and lines:
            lines[-1] += " " + line.strip()
        else:
            lines.append(line.strip())
    return lines


def test_the_usage_block_shows_every_search_option(capsys: pytest.CaptureFixture[str]) -> None:
    options = _options([], capsys)
    assert {"--deadline", "--limit", "--version"} <= options  # the help was read
    usage = _usage_block()
    missing = sorted(o for o in options if not re.search(rf"{o}(?![\w-])", usage))
    assert missing == []


@pytest.mark.parametrize("command", ["providers", "fetch"])
def test_the_usage_block_shows_each_command_s_options(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    options = _options([command], capsys) - {"--verbose"}  # -v is shown once, for all
    lines = [line for line in _usage_lines() if line.startswith(f"websearch {command}")]
    missing = sorted(
        option
        for option in options
        if not any(re.search(rf"{option}(?![\w-])", line) for line in lines)
    )
    assert missing == []
