"""A query of one word a user types meaning a command (``websearch help``), and that command.

``websearch help``, ``websearch status`` and ``websearch config`` searched the web for the
word, silently: a first-time user read ten results about the word ``help`` and no hint of
``websearch --help``. A one-word query is legitimate, so it is still searched (and stdout,
which scripts read, is unchanged); the command only says first, on stderr, that the word is
searched as a query and which command the user may have meant.
"""

from collections.abc import Mapping, Sequence

from .cli_status import PROG

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


def command_word_note(query: Sequence[str]) -> str | None:
    """The line to say before searching ``query``, when it is one word meaning a command.

    Args:
        query: The query's words as given on the command line.

    Returns:
        ``websearch: searching for "help" as a query; for the command's help, write:
        websearch --help``, or ``None`` for any other query.

    Example:
        >>> print(command_word_note(["Status"]))  # doctest: +NORMALIZE_WHITESPACE
        websearch: searching for "Status" as a query; for each provider's status, write:
        websearch providers (or websearch -- Status to search without this line)
        >>> command_word_note(["help", "me"]) is None
        True
    """
    words = " ".join(query).split()
    if len(words) != 1:
        return None
    meant = _MEANT.get(words[0].lower())
    if meant is None:
        return None
    shows, command = meant
    return (
        f'{PROG}: searching for "{words[0]}" as a query; for {shows}, write: {command} '
        f"(or {PROG} -- {words[0]} to search without this line)"
    )
