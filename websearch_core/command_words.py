"""A query of one word a user types meaning a command (``websearch help``), and that command.

``websearch help``, ``websearch status`` and ``websearch config`` searched the web for the
word, silently: a first-time user read ten results about the word ``help`` and no hint of
``websearch --help``. A one-word query is legitimate, so it is still searched (and stdout,
which scripts read, is unchanged); the command only says first, on stderr, that the word is
searched as a query and which command the user may have meant.

A command's typo (``websearch provders``, ``websearch Auth``) was searched with no line at
all: the user read results about a misspelt word. It is searched too, and the line names the
command it is a typo of (:mod:`~websearch_core.command_typos`): by a count of edits that
grows with the command's length, not the ratio provider ids are matched with, which took
``auto`` and ``oauth`` (real queries) for ``auth``. A word meaning a command there is not
is named when typed with two neighbouring letters swapped (``hlep``), or, when six letters
or more, with one dropped or added (``staus``): the shorter ones are common words, one
letter away from others (``rest``, ``logic``, ``key``).
"""

from collections.abc import Collection, Mapping, Sequence

from .cli_status import PROG
from .command_typos import slip_of, typo_of

__all__ = ["command_word_note"]

_MEANT: Mapping[str, tuple[str, str]] = {
    "help": ("the command's help", f"{PROG} --help"),
    "usage": ("the command's help", f"{PROG} --help"),
    "version": ("the installed version", f"{PROG} --version"),
    "status": ("each provider's status", f"{PROG} providers"),
    "config": ("the config file it reads", f"{PROG} providers"),
    "configure": ("the config file it reads", f"{PROG} providers"),
    "settings": ("the config file it reads", f"{PROG} providers"),
    "login": ("storing a key", f"{PROG} auth set PROVIDER"),
    "keys": ("the stored keys", f"{PROG} auth list"),
    "reset": ("clearing a provider's cooldown", f"{PROG} providers reset PROVIDER"),
}
"""Each word a user types meaning a command there is not, to what it shows and the command
that does it (``providers``, ``auth`` and ``fetch`` are commands, so never searched)."""


def command_word_note(query: Sequence[str], commands: Collection[str] = ()) -> str | None:
    """The line to say before searching ``query``, when it is one word meaning a command.

    Args:
        query: The query's words as given on the command line.
        commands: The command names (``providers``, ``auth``, ``fetch``), whose typos are
            named too.

    Returns:
        ``websearch: searching for "help" as a query; for the command's help, write:
        websearch --help``, or for a command's typo ``...; if you meant the command, write:
        websearch providers``, or ``None`` for any other query.

    Example:
        >>> print(command_word_note(["Status"]))  # doctest: +NORMALIZE_WHITESPACE
        websearch: searching for "Status" as a query; for each provider's status, write:
        websearch providers (or websearch -- Status to search without this line)
        >>> print(command_word_note(["provders"], ["auth", "providers"]))
        ... # doctest: +NORMALIZE_WHITESPACE
        websearch: searching for "provders" as a query; if you meant the command, write:
        websearch providers (or websearch -- provders to search without this line)
        >>> command_word_note(["help", "me"]) is None
        True
    """
    words = " ".join(query).split()
    if len(words) != 1:
        return None
    word = words[0]
    meant = _MEANT.get(word.lower())
    slipped = slip_of(word, _MEANT) if meant is None else None
    if slipped is not None:  # hlep, staus: these are common words (see slip_of)
        meant = _MEANT[slipped]
    if meant is not None:
        shows, command = meant
        return _line(word, f"for {shows}", command)
    near = typo_of(word, sorted(commands))
    if near is None:
        return None
    return _line(word, "if you meant the command", f"{PROG} {near}")


def _line(word: str, meaning: str, command: str) -> str:
    """The one line said before ``word`` is searched: why, and the command to write."""
    return (
        f'{PROG}: searching for "{word}" as a query; {meaning}, write: {command} '
        f"(or {PROG} -- {word} to search without this line)"
    )
