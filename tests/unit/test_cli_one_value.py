"""An option that takes one value, given two different ones, is refused naming both.

argparse keeps the last value of an option given twice, so ``websearch --limit 5 ... --limit
20`` (a shell alias and an option typed after it) searched for 20 results and never said the
5 was dropped. Stop 43 refused it for ``--provider`` and ``--prefer``; every option taking
one value now does. The options are read from the parsers themselves (every command's and
subcommand's, and the simulator's), so an option added later is tested without being listed
here; only the options meant to repeat are named, and they must still add up.
"""

import argparse
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest

from websearch_core.cli import _PARSERS, EXIT_USAGE, main
from websearch_core.cli_parser import CommandLineError, CommandParser
from websearch_core.testing import serve

APPENDING = frozenset({"--site", "--exclude-site", "--refresh-hook"})
"""The options meant to be given more than once, each value added to the others."""


@dataclass(frozen=True)
class _Option:
    """One option of one command, with what that command needs to parse a line."""

    command: str
    parser: CommandParser
    action: argparse.Action

    @property
    def name(self) -> str:
        """The option's long name (``--verbose`` of ``-v/--verbose``)."""
        return max(self.action.option_strings, key=len)

    def values(self) -> tuple[str, str]:
        """Two different values the option takes: two of its choices, or two numbers."""
        choices = self.action.choices
        if choices is not None:
            first, second = list(choices)[:2]
            return str(first), str(second)
        return "1", "2"  # text for a text option, a number for a number (--port)

    def line(self, *given: str) -> list[str]:
        """``given`` and a word for each argument the command requires (a query, a URL)."""
        required = [
            "x"
            for action in self.parser.arguments
            if not action.option_strings
            and action is not self.parser.subcommands
            and action.nargs not in ("?", "*")
        ]
        return [*given, *required]


def _parsers() -> Iterator[tuple[str, CommandParser]]:
    """Every parser by its command (``auth set`` included), the simulator's too."""
    waiting = [(name, build()) for name, build in _PARSERS.items()]
    waiting.append(("serve", serve.serve_parser()))
    while waiting:
        name, parser = waiting.pop(0)
        yield name, parser
        subcommands = parser.subcommands
        if subcommands is not None and isinstance(subcommands.choices, dict):
            waiting.extend((f"{name} {sub}", child) for sub, child in subcommands.choices.items())


def _options_taking_a_value() -> list[_Option]:
    found = []
    for command, parser in _parsers():
        for action in dict.fromkeys(parser.options.values()):
            if action.nargs != 0:  # not a flag (--json), --help or --version
                found.append(_Option(command, parser, action))
    return found


_TAKING_A_VALUE = _options_taking_a_value()
_ONE_VALUE = [option for option in _TAKING_A_VALUE if option.name not in APPENDING]


def _ids(options: list[_Option]) -> list[str]:
    return [f"{option.command} {option.name}" for option in options]


def test_the_options_are_found_in_every_command() -> None:
    """Guard: the reading of the parsers finds the options these tests are about."""
    found = set(_ids(_TAKING_A_VALUE))
    assert {"search --limit", "search --site", "fetch --timeout", "serve --port"} <= found
    assert {f"search {name}" for name in APPENDING} <= found


@pytest.mark.parametrize("option", _ONE_VALUE, ids=_ids(_ONE_VALUE))
def test_a_second_different_value_is_refused_naming_both(option: _Option) -> None:
    """argparse kept the last value and said nothing (all but --provider and --prefer)."""
    first, second = option.values()
    with pytest.raises(CommandLineError) as refused:
        option.parser.parse_command(option.line(option.name, first, option.name, second))
    line = str(refused.value)
    assert "\n" not in line
    where, _, rest = line.partition(": ")
    assert where in (option.name, f"{option.parser.fields.get(option.name)} ({option.name})")
    assert rest.startswith(f"given twice ({first}, then {second}); it takes one ")
    assert rest.endswith(f"; see {option.parser.prog} --help")


@pytest.mark.parametrize("option", _ONE_VALUE, ids=_ids(_ONE_VALUE))
def test_the_same_value_twice_is_kept(option: _Option) -> None:
    """Guard (passes before and after): a repeat of the same value loses nothing."""
    first, _ = option.values()
    namespace = option.parser.parse_command(option.line(option.name, first, option.name, first))
    assert str(getattr(namespace, option.action.dest)) == first


@pytest.mark.parametrize("name", sorted(APPENDING))
def test_the_options_meant_to_repeat_still_add_up(name: str) -> None:
    """Guard (passes before and after): ``--site a --site b`` asks both, in order."""
    (option,) = [found for found in _TAKING_A_VALUE if found.name == name]
    values = ["example.com", "example.org"] if name != "--refresh-hook" else ["a=m:f", "b=m:g"]
    namespace = option.parser.parse_command(
        option.line(name, values[0], name, values[1], name, values[0])
    )
    assert getattr(namespace, option.action.dest) == [*values, values[0]]


Run = Callable[[list[str]], int]


@pytest.mark.parametrize(
    ("run", "argv", "line"),
    [
        (
            # A loopback URL: before the refusal, it was refused unfetched as a private address.
            main,
            ["fetch", "--timeout", "5", "--timeout", "20", "http://127.0.0.1:9/"],
            "websearch: timeout_seconds (--timeout): given twice (5, then 20); it takes one "
            "value: keep one of the two (a shell alias may add the other); see websearch "
            "fetch --help",
        ),
        (
            # An option written before the command is the command's: given twice all the same.
            main,
            ["--timeout", "5", "fetch", "--timeout", "20", "http://127.0.0.1:9/"],
            "websearch: timeout_seconds (--timeout): given twice (5, then 20); it takes one "
            "value: keep one of the two (a shell alias may add the other); see websearch "
            "fetch --help",
        ),
        (
            serve.main,
            ["serve", "--port", "0", "--port", "70000"],
            "websearch simulator: --port: given twice (0, then 70000); it takes one value: "
            "keep one of the two (a shell alias may add the other); see python -m "
            "websearch_core.testing serve --help",
        ),
    ],
    ids=["fetch", "before fetch", "serve"],
)
def test_the_refusal_exits_as_every_usage_error(
    run: Run, argv: list[str], line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """One line on stderr, nothing fetched or served, exit status 2."""
    assert run(argv) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert (out, err) == ("", f"{line}\n")
