"""Which command a command line names: read from the options we gave each parser.

The dispatcher read argparse's private option table (``_option_string_actions``), which any
Python release may rename or reshape; it now reads the table :class:`CommandParser` keeps
as options are added. The tests compare that table with argparse's own (the test may look
at argparse's insides, the package must not) and check what the command line does.
"""

import argparse
import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import websearch_core
from websearch_core.cli import _PARSERS, EXIT_OK, EXIT_USAGE, main
from websearch_core.cli_dispatch import CommandLineError, CommandParser, split_command

_PRIVATE_ARGPARSE = frozenset(
    {"_option_string_actions", "_actions", "_subparsers", "_get_option_tuples", "_registries"}
)
"""argparse's private parts a parser's options could be read from."""


def _every_parser() -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """Each command's parser and its subcommands' (``auth set``), by name."""
    waiting: list[tuple[str, argparse.ArgumentParser]] = [(n, b()) for n, b in _PARSERS.items()]
    while waiting:
        name, parser = waiting.pop()
        yield name, parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                waiting.extend((f"{name} {n}", p) for n, p in action.choices.items())


def test_the_package_reads_no_private_part_of_argparse() -> None:
    root = Path(websearch_core.__file__).parent
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in _PRIVATE_ARGPARSE:
                found.append(f"{path.relative_to(root)}:{node.lineno}: {node.attr}")
    assert found == []


def test_each_parser_keeps_every_option_argparse_reads() -> None:
    """An option added to a group without ``record`` would be missing from the table."""
    for name, parser in _every_parser():
        assert isinstance(parser, CommandParser), name
        assert parser.options == parser._option_string_actions, name


def _split(args: list[str]) -> tuple[str | None, list[str]]:
    search = _PARSERS["search"]()
    assert isinstance(search, CommandParser)
    others = {name: build for name, build in _PARSERS.items() if name != "search"}
    command, _, rest = split_command(args, search, others)
    return command, rest


@pytest.mark.parametrize(
    ("args", "command", "rest"),
    [
        (["-v", "fetch", "https://example.com"], "fetch", ["-v", "https://example.com"]),
        (["--json", "providers"], "providers", ["--json"]),
        (["--js", "providers"], "providers", ["--js"]),  # argparse's unique abbreviation
        (["--help", "fetch"], "fetch", ["--help"]),
        (["--limit=5", "--", "providers"], None, ["--limit=5", "--", "providers"]),
        (["--version", "providers"], None, ["--version", "providers"]),  # prints, then ends
        (["--vers", "auth", "list"], None, ["--vers", "auth", "list"]),
        (["rust", "fetch"], None, ["rust", "fetch"]),  # a query's word
    ],
)
def test_options_before_a_command_go_to_it(
    args: list[str], command: str | None, rest: list[str]
) -> None:
    assert _split(args) == (command, rest)


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--no-cache", "providers"], "--no-cache does not apply to providers"),
        (["--limit=5", "providers"], "--limit does not apply to providers"),
        (["--limit", "5", "providers"], "--limit does not apply to providers"),  # 5: a value
        (["--markdown", "providers"], "--markdown does not apply to providers"),
    ],
)
def test_an_option_the_command_does_not_take_is_refused(args: list[str], named: str) -> None:
    with pytest.raises(CommandLineError, match=named):
        _split(args)


def test_help_and_version_before_a_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help", "fetch"]) == EXIT_OK
    assert capsys.readouterr().out.startswith("usage: websearch fetch")
    assert main(["--version", "fetch"]) == EXIT_OK
    assert capsys.readouterr().out == f"websearch {websearch_core.__version__}\n"
    assert main(["--no-cache", "auth", "list"]) == EXIT_USAGE
    assert "--no-cache does not apply to auth" in capsys.readouterr().err
