"""Which command a ``websearch`` command line names, with the options written before it.

``websearch --json providers`` and ``websearch -v fetch URL`` searched the web for the word
"providers" and "fetch": only a first argument selected a command, so a command written
after an option was a query. Options written before a command are now that command's
(``websearch -v fetch URL`` is ``websearch fetch -v URL``), and one the command does not
take is refused, naming it, instead of being searched for. A query still needs ``--``
before a command's name (``websearch --limit 5 -- providers``), as a first word does.

Which words are options, and which of them take a value, is read from the options each
command's parser was given (:class:`CommandParser` keeps them as they are added): argparse
has no public table of a parser's options, and reading its private one could break with
any Python release.
"""

import argparse
import shlex
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .cli_status import PROG

__all__ = ["CommandLineError", "CommandParser", "split_command"]


class CommandLineError(Exception):
    """An option written before a command that the command does not take (exit status 2)."""


class CommandParser(argparse.ArgumentParser):
    """An argument parser that keeps the options it is given, by each name they have.

    :func:`split_command` needs to know which words a command takes as options, and which
    of them read the next word as their value; argparse keeps that table only privately.
    Every option comes through :meth:`add_argument` (``-h``/``--help`` too, as argparse
    adds it so); one added to a group is recorded with :meth:`record`. A subcommand's
    parser (``auth set``) is of this class too, with its own table.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # argparse adds -h/--help through add_argument inside its own __init__.
        self.options: dict[str, argparse.Action] = {}
        super().__init__(*args, **kwargs)

    def add_argument(self, *name_or_flags: str, **kwargs: Any) -> argparse.Action:
        """Add an argument as argparse does, keeping it by its option names."""
        return self.record(super().add_argument(*name_or_flags, **kwargs))

    def record(self, action: argparse.Action) -> argparse.Action:
        """Keep ``action`` (one a group of this parser added) by its option names.

        Example:
            >>> parser = CommandParser(prog="demo", add_help=False)
            >>> choice = parser.add_mutually_exclusive_group()
            >>> _ = parser.record(choice.add_argument("--prefer", metavar="ID"))
            >>> sorted(parser.options)
            ['--prefer']
        """
        for name in action.option_strings:
            self.options[name] = action
        return action


def split_command(
    args: Sequence[str],
    search: CommandParser,
    commands: Mapping[str, Callable[[], CommandParser]],
) -> tuple[str | None, CommandParser, list[str]]:
    """The command ``args`` name, its parser and the arguments that parser reads.

    The options before the first word that is not an option (or an option's value) are
    read the way the search command reads them, so ``--limit 5`` is skipped whole; when
    that word names a command, those options go to the command, before its own words.

    Args:
        args: The arguments after the program name.
        search: The search command's parser: which leading options take a value.
        commands: What builds each other command's parser, by name.

    Returns:
        The command's name, parser and arguments, or ``None``, ``search`` and ``args`` for
        a search.

    Raises:
        CommandLineError: An option before the command is not one the command takes; the
            message names the option and the command, and how to search for the word.
    """
    index = 0
    while index < len(args) and _is_option(args[index]):
        word = args[index]
        index += 2 if "=" not in word and _takes_value(search, word) else 1
    if index >= len(args) or args[index] not in commands:
        return None, search, list(args)
    command, leading = args[index], list(args[:index])
    if any(_prints_version(search, word) for word in leading):
        return None, search, list(args)  # argparse prints it and exits, whatever follows
    parser = commands[command]()
    for word in leading:
        if _is_option(word) and _option(parser, word) is None:
            query = shlex.join([*leading, "--", *args[index:]])
            raise CommandLineError(
                f"{word.split('=', 1)[0]} does not apply to {command} "
                f"({PROG} {command} --help lists its options); to search for the word "
                f'"{command}", write: {PROG} {query}'
            )
    return command, parser, [*leading, *args[index + 1 :]]


def _is_option(word: str) -> bool:
    """``-v``, ``--json``, ``--limit=5``; not ``-`` nor ``--`` (which ends the options)."""
    return word.startswith("-") and word not in ("-", "--")


def _prints_version(parser: CommandParser, word: str) -> bool:
    """Whether ``word`` is ``parser``'s ``--version``, which ends the command line at once.

    ``websearch --version providers`` printed the version before commands read options
    written ahead of them; refusing it as an option ``providers`` does not take was wrong.
    """
    action = _option(parser, word) if _is_option(word) else None
    return action is not None and getattr(action, "version", None) is not None


def _takes_value(parser: CommandParser, word: str) -> bool:
    """Whether ``word`` is an option of ``parser`` whose value is the next word."""
    action = _option(parser, word)
    return action is not None and action.nargs != 0


def _option(parser: CommandParser, word: str) -> argparse.Action | None:
    """The option ``word`` names in ``parser``, exactly or as argparse's unique abbreviation."""
    name = word.split("=", 1)[0]
    known = parser.options
    if name in known:
        return known[name]
    if not name.startswith("--"):
        return None
    matches = {known[option] for option in known if option.startswith(name)}
    return matches.pop() if len(matches) == 1 else None
