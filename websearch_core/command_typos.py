"""Which command a one-word query is a typo of, by a rule short words cannot trip.

``websearch auto`` and ``websearch oauth`` are queries, yet difflib's ratio (0.75-0.89 to
``auth``, the cut-off provider ids are matched with) took them for the ``auth`` command, and
each search began with a line naming it. In a four-letter word one changed letter makes
another word as often as a typo, so the rule, with no word list to keep, is:

* the edits allowed grow with the command's length: one per four letters after the first
  (``auth``: none, ``fetch``: one, ``providers``: two), where an edit is a letter added,
  dropped, changed, or two neighbours swapped;
* two neighbours swapped is always a typo (``atuh``): it keeps every letter, and no common
  word is another's swap;
* one letter dropped or added is a typo of a command of four letters or more (``aut``,
  ``auths``), as ``staus`` is of ``status`` among the longer words meaning a command
  (:func:`slip_of`): a changed letter stays out (``auto``), and so does more than one
  (``author``);
* the first letter is kept: a typo rarely starts a word wrong, and ``oauth``, ``etch`` and
  ``path`` are queries.
"""

from collections.abc import Iterable

__all__ = ["slip_of", "swap_of", "typo_of"]

_LETTERS_PER_EDIT = 4
"""A command's letters after its first, per edit a typo of it may have."""

_SHORTEST_COMMAND_SLIPPED = 4
"""The fewest letters of a command whose typos may drop or add one letter (``aut``)."""

_SHORTEST_WORD_SLIPPED = 6
"""The fewest letters of a word meaning a command whose typos may drop or add one.

``staus`` is ``status`` less a letter; the shorter such words are common words a letter
from others (``rest`` of ``reset``, ``key`` of ``keys``, ``loin`` of ``login``, ``helps``
of ``help``), which stay queries."""


def typo_of(word: str, commands: Iterable[str]) -> str | None:
    """The command ``word`` (any case) is a typo of, or ``None``.

    Args:
        word: A one-word query.
        commands: The command names, lower case, the first one nearest winning a tie.

    Example:
        >>> [typo_of(w, ["auth", "fetch", "providers"]) for w in ("provder", "atuh", "auto")]
        ['providers', 'auth', None]
        >>> [typo_of(w, ["auth"]) for w in ("aut", "auths", "author", "oauth")]
        ['auth', 'auth', None, None]
    """
    given = word.strip().lower()
    best: tuple[int, str] | None = None
    for command in commands:
        if not given or given[0] != command[0]:
            continue
        edits = _edits(given, command)
        allowed = (len(command) - 1) // _LETTERS_PER_EDIT
        slipped = len(command) >= _SHORTEST_COMMAND_SLIPPED and _slipped(given, command)
        near = edits <= allowed or _swapped(given, command) or slipped
        if near and (best is None or edits < best[0]):
            best = (edits, command)
    return None if best is None else best[1]


def swap_of(word: str, words: Iterable[str]) -> str | None:
    """The one of ``words`` that ``word`` (any case) is with two neighbours swapped, or ``None``.

    For the words meaning a command there is not (``hlep`` for ``help``): those are
    common words, so a dropped or changed letter makes another one (``rest`` of
    ``reset``, ``logic`` of ``login``), while a swap keeps every letter.

    Example:
        >>> swap_of("Hlep", ["help", "status"]), swap_of("rest", ["reset"])
        ('help', None)
    """
    given = word.strip().lower()
    return next((known for known in words if _swapped(given, known)), None)


def slip_of(word: str, words: Iterable[str]) -> str | None:
    """The one of ``words`` that ``word`` (any case) is a slip of, or ``None``.

    A slip is two neighbours swapped (:func:`swap_of`), or, for a word of six letters or
    more, one letter dropped or added (``staus``, ``verrsion``), the first letter kept, but
    not an ``s`` at its end: ``versions`` and ``setting`` are words themselves.

    Example:
        >>> slip_of("staus", ["status"]), slip_of("rest", ["reset"]), slip_of("hlep", ["help"])
        ('status', None, 'help')
    """
    given = word.strip().lower()
    return next(
        (
            known
            for known in words
            if _swapped(given, known)
            or (
                len(known) >= _SHORTEST_WORD_SLIPPED
                and _slipped(given, known)
                and not _plural(given, known)
            )
        ),
        None,
    )


def _plural(given: str, known: str) -> bool:
    """Whether one of the two is the other with an ``s`` added at its end."""
    return f"{given}s" == known or f"{known}s" == given


def _slipped(given: str, known: str) -> bool:
    """Whether ``given`` is ``known`` with one letter dropped or added, the first kept."""
    if abs(len(given) - len(known)) != 1 or not given or given[0] != known[0]:
        return False
    shorter, longer = sorted((given, known), key=len)
    return any(longer[:index] + longer[index + 1 :] == shorter for index in range(len(longer)))


def _swapped(given: str, command: str) -> bool:
    """Whether ``given`` is ``command`` with two neighbouring letters swapped."""
    if len(given) != len(command) or given == command:
        return False
    differ = [index for index, (a, b) in enumerate(zip(given, command, strict=True)) if a != b]
    if len(differ) != 2 or differ[1] != differ[0] + 1:
        return False
    first, second = differ
    return given[first] == command[second] and given[second] == command[first]


def _edits(given: str, command: str) -> int:
    """The fewest letters added, dropped, changed or neighbours swapped from one to the other.

    The restricted Damerau-Levenshtein distance (each letter is edited at most once), by
    the usual table of the distances between every pair of prefixes.
    """
    rows = [list(range(len(command) + 1))]
    for i, letter in enumerate(given, start=1):
        row = [i]
        for j, other in enumerate(command, start=1):
            cost = 0 if letter == other else 1
            row.append(min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + cost))
            swap = i > 1 and j > 1 and letter == command[j - 2] and given[i - 2] == other
            if swap:
                row[j] = min(row[j], rows[-2][j - 2] + 1)
        rows.append(row)
    return rows[-1][-1]
