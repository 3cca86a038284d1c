"""What a search cut short by its own imports tells the user to do about it.

A process's first search (of a client or tool not entered) imports the chain and its
plan's providers within its deadline; on a loaded machine a short deadline can pass
before they are in, and the search then ends with the deadline's text, no provider asked
(:mod:`~websearch_core.imports_outlasted`). That text, the chain's for any deadline,
names no cause: a user, or an agent reading the tool's answer, took it for a slow
provider or network. This sentence, added after it (the spec's text first, unchanged),
says that the time went on the once-a-process import, that the next search skips it, and
what avoids it.
"""

from typing import Final

__all__ = ["IMPORTS_ADVICE", "with_imports_advice"]

IMPORTS_ADVICE: Final = (
    "The time went on importing the search modules, which a process does once (seconds on "
    "a busy machine); the next search does not wait for it. To avoid it: a larger "
    "deadline_seconds, or enter the client or tool first (`async with`), or run a warm-up "
    "search before timed ones."
)


def with_imports_advice(message: str) -> str:
    """``message`` (a deadline's text, unchanged), then :data:`IMPORTS_ADVICE`.

    Example:
        >>> with_imports_advice("the 1s deadline ran out; not tried: brave")[:48]
        'the 1s deadline ran out; not tried: brave. The t'
    """
    ended = message if message.endswith((".", "!", "?")) else f"{message}."
    return f"{ended} {IMPORTS_ADVICE}"
