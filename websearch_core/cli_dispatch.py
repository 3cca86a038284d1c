"""Which command a ``websearch`` command line names, with the options written before it.

``websearch --json providers`` and ``websearch -v fetch URL`` searched the web for the word
"providers" and "fetch": only a first argument selected a command, so a command written
after an option was a query. Options written before a command are now that command's
(``websearch -v fetch URL`` is ``websearch fetch -v URL``), and one the command does not
take is refused, naming it, instead of being searched for. A query still needs ``--``
before a command's name (``websearch --limit 5 -- providers``), as a first word does.

Which words are options, and which of them take a value, is read from the options each
command's parser was given (:class:`~.cli_parser.CommandParser` keeps them as they are
added): argparse has no public table of a parser's options, and reading its private one
could break with any Python release.
"""

import argparse
import shlex
from collections.abc import Callable, Mapping, Sequence

from .cli_parser import CommandLineError, CommandParser
from .cli_status import PROG

__all__ = ["CommandLineError", "CommandParser", "split_command"]


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
