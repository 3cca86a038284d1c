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

__all__ = ["CommandLineError", "CommandParser", "OptionNotTaken", "split_command"]


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

    An option the command does not take but its action does (``websearch --json auth
    list``: ``auth list --json``) goes after the action's name, where argparse reads the
    action's options; ``auth`` alone takes only ``-v``, so ``--json`` was refused there.
    Options written between the command and its action (``auth --json list``) are read
    the same way: argparse refused ``--json`` there, suggesting ``--json``. With no action
    (``websearch --json auth``), an option some action takes is left for argparse, which
    then says the action is missing, as for ``auth --json``.

    Raises:
        OptionNotTaken: An option before the command, or between it and its action, is
            one neither the command nor its action takes; the message names the option and
            the command (with its action), and, for one written before, how to search for
            the word.
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
    words = list(args[index + 1 :])
    # Options written between a command and its action (``auth --json list``) are walked as
    # those written before the command; a command without actions leaves its own to argparse.
    end = _options_end(parser, words) if parser.subcommands is not None else 0
    between = _options(parser, words[:end])
    rest = words[sum(len(option) for option in between) :]
    action, taker = _action_of(parser, rest)
    kept: list[str] = []  # the command's own options, read before its action
    moved: list[str] = []  # its action's options (``auth list``'s --json), put after it
    written = [(option, True) for option in _options(search, leading)]
    for option, before in [*written, *((option, False) for option in between)]:
        if _option(parser, option[0]) is not None:
            kept.extend(option)
        elif taker is not None and _option(taker, option[0]) is not None:
            moved.extend(option)
        elif action is None and _any_action_takes(parser, option[0]):
            moved.extend(option)  # ``--json auth``: refused as ``auth --json`` is
        else:
            written_before = leading if before else None
            raise _not_taken(option[0], command, action, taker or parser, written_before, words)
    if action is None:
        return command, parser, [*kept, *rest, *moved]
    at = rest.index(action) + 1
    return command, parser, [*kept, *rest[:at], *moved, *rest[at:]]


class OptionNotTaken(CommandLineError):
    """An option written before a command (or before its action) that neither takes.

    Args:
        message: The one line.
        command: The command named (``auth``).
        argument: The first word the action reads as an argument (``auth set brave``'s
            ``brave``), so a refusal can name the id it was about; ``None`` when the
            action reads none or was not given.
    """

    def __init__(self, message: str, *, command: str, argument: str | None) -> None:
        super().__init__(message)
        self.command = command
        self.argument = argument


def _not_taken(
    word: str,
    command: str,
    action: str | None,
    taker: CommandParser | None,
    leading: Sequence[str] | None,
    rest: Sequence[str],
) -> OptionNotTaken:
    """The refusal of ``word``, naming the action too when there is one (``auth set``).

    ``websearch --no-cache auth set brave`` said ``does not apply to auth`` and sent the
    user to ``auth --help``, which lists no action's options; the action's help does.
    ``leading`` is what was written before the command, or ``None`` for an option written
    after it (``auth --no-cache list``): a command written first is meant as one, so
    how to search for its name would be noise.
    """
    named = command if action is None else f"{command} {action}"
    argument = None
    if action is not None and taker is not None and _reads_an_argument(taker):
        after = rest[rest.index(action) + 1 :]
        argument = next((given for given in after if not _is_option(given)), None)
    name = word.split("=", 1)[0]
    line = f"{name} does not apply to {named} ({PROG} {named} --help lists its options)"
    if leading is None:  # ``auth --jsn list``: the option meant, as argparse's line had it
        line += taker.meant_option(name) if taker is not None else ""
    else:
        query = shlex.join([*leading, "--", command, *rest])
        line += f'; to search for the word "{command}", write: {PROG} {query}'
    return OptionNotTaken(line, command=command, argument=argument)


def _options_end(parser: CommandParser, words: Sequence[str]) -> int:
    """Where the options written right after a command end (``auth -v --json list``: 2).

    A value is skipped with its option when ``parser`` (the command's own) reads one; an
    option only its actions take is read as a flag, as every action's option is today.
    """
    index = 0
    while index < len(words) and _is_option(words[index]):
        word = words[index]
        index += 2 if "=" not in word and _takes_value(parser, word) else 1
    return min(index, len(words))


def _any_action_takes(parser: CommandParser, word: str) -> bool:
    """Whether some action of ``parser``'s (``auth list``, ``auth set``) takes ``word``."""
    choices = parser.subcommands.choices if parser.subcommands is not None else None
    if not isinstance(choices, Mapping):
        return False
    return any(
        isinstance(taker, CommandParser) and _option(taker, word) is not None
        for taker in choices.values()
    )


def _options(search: CommandParser, leading: Sequence[str]) -> list[list[str]]:
    """``leading`` cut into options, each with its value when it takes one (``--limit 5``).

    Read as the search reads them, as :func:`split_command` found where they end.
    """
    options: list[list[str]] = []
    index = 0
    while index < len(leading):
        word = leading[index]
        size = 2 if "=" not in word and _takes_value(search, word) else 1
        options.append(list(leading[index : index + size]))
        index += size
    return options


def _action_of(
    parser: CommandParser, rest: Sequence[str]
) -> tuple[str | None, CommandParser | None]:
    """The action ``rest`` names (``auth list``'s ``list``) and its parser, if any.

    The action is the first word after the command's own options; a command without
    actions, or a word that names none, gives ``None`` for both.
    """
    choices = parser.subcommands.choices if parser.subcommands is not None else None
    word = next((given for given in rest if not _is_option(given)), None)
    if not isinstance(choices, Mapping) or word is None or word not in choices:
        return None, None
    taker = choices[word]
    return (word, taker) if isinstance(taker, CommandParser) else (None, None)


def _reads_an_argument(parser: CommandParser) -> bool:
    """Whether ``parser`` reads a positional argument (``auth set``'s provider)."""
    return any(not action.option_strings for action in parser.arguments)


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
