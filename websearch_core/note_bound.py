"""One bound on a response's notes, whoever adds them: the provider, the chain, the client.

The cleaning of a provider's response (:mod:`websearch_core.sanitize`) keeps at most
:data:`MAX_NOTES` of the provider's notes, the last then saying how many more there were.
The core adds its own after it: why a request went uncounted (the chain), a page that could
not be fetched (``include_content``), an unreadable credential store and a stale answer's
age (the client). Added to a provider's twenty, they made 25 or more, so every place that
adds a note goes through :func:`with_notes`, which holds all of them to the one bound and
says the count of those left out once, folding in a count said before.

The count is the core's own: :attr:`~websearch_core.models.SearchResponse.notes_left_out`
holds it, and the last note says it. It was read back from the notes' text, so a provider
note reading ``3 more notes were left out.`` was taken for a count, added to the next one
and dropped; now no note's text is ever read as a number, but for one case: a cache row
written before the count was a field (:func:`count_said_by_a_cut`).
"""

import re
from collections.abc import Iterable
from typing import Final

from .models import SearchResponse

__all__ = [
    "MAX_NOTES",
    "bounded_notes",
    "count_said_by_a_cut",
    "notes_left_out",
    "notes_update",
    "own_notes",
]

MAX_NOTES: Final = 20
"""Notes a response keeps, the last of a cut saying how many more were left out.
A note tells the user something about this answer (an engine that did not answer, a
warning, a page not fetched): the first twenty say what went wrong and the count says how
widely, where two hundred engines' reasons (up to 200,000 units) would only bury the
results in ``--json``. Twenty is also what related questions and search queries keep."""


def notes_left_out(count: int) -> str:
    """The note ending notes cut to :data:`MAX_NOTES`: how many were left out.

    Example:
        >>> notes_left_out(1181)
        '1,181 more notes were left out.'
    """
    return f"{count:,} more notes were left out."


_COUNT_SAID: Final = re.compile(r"([1-9][0-9]{0,2}(?:,[0-9]{3})*) more notes were left out\.")
""":func:`notes_left_out`'s text, its count as that function writes it (grouped by commas)."""


def count_said_by_a_cut(notes: tuple[str, ...]) -> int:
    """The count a cut said as its last note, when ``notes`` have a cut's shape; else 0.

    Only for a cache row written before :attr:`~websearch_core.models.SearchResponse.
    notes_left_out` was stored: such a row held the count as the text of its last note
    alone, and read back as an ordinary note it was dropped by the next cut (a stale
    answer's age) and its count lost (``2 more notes were left out.`` for 183). A cut
    always left exactly :data:`MAX_NOTES`, the count last, so only that shape is read;
    a count-like note among fewer is a provider's words and stays one.

    Example:
        >>> count_said_by_a_cut((*["an engine did not answer"] * 19, notes_left_out(1181)))
        1181
        >>> count_said_by_a_cut(("3 more notes were left out.",))
        0
    """
    if len(notes) != MAX_NOTES:
        return 0
    said = _COUNT_SAID.fullmatch(notes[-1])
    return int(said[1].replace(",", "")) if said else 0


def bounded_notes(
    notes: Iterable[str], added: Iterable[str] = (), left_out: int = 0
) -> tuple[tuple[str, ...], int]:
    """``notes`` then ``added`` within :data:`MAX_NOTES`, and how many in all were left out.

    ``added`` are the core's own (a page not fetched, a stale answer's age, an unreadable
    credential store): each says something of this search as a whole, where the notes a
    provider sent past a dozen repeat one fact (another engine did not answer), so the
    provider's notes make room for them. ``left_out`` is the count a cut said before
    (none of ``notes`` is that count: :func:`own_notes` takes it out by its place), added
    to the new one, so the count is said once, last, and counts every note left out.

    Args:
        notes: The notes a response had, without the core's count.
        added: The core's notes to add after them.
        left_out: How many notes an earlier cut left out.

    Returns:
        The notes kept, :func:`notes_left_out` last when any were left out, and that count.

    Example:
        >>> cut, count = bounded_notes(f"engine {n}" for n in range(25))
        >>> len(cut), cut[-1], count
        (20, '6 more notes were left out.', 6)
        >>> bounded_notes(cut[:-1], ["a page was not fetched"], count)[0][-3:]
        ('engine 17', 'a page was not fetched', '7 more notes were left out.')
        >>> bounded_notes(["3 more notes were left out."])  # a provider's words, not a count
        (('3 more notes were left out.',), 0)
    """
    earlier, own = tuple(notes), tuple(added)
    if len(earlier) + len(own) + bool(left_out) <= MAX_NOTES:
        kept = (*earlier, *own)
        return ((*kept, notes_left_out(left_out)) if left_out else kept), left_out
    room = MAX_NOTES - 1  # the count takes the last place
    own_kept = own[:room]
    earlier_kept = earlier[: room - len(own_kept)]
    left_out += len(earlier) - len(earlier_kept) + len(own) - len(own_kept)
    return (*earlier_kept, *own_kept, notes_left_out(left_out)), left_out


def own_notes(response: SearchResponse) -> tuple[str, ...]:
    """``response``'s notes without the core's count, known by its place (last), not its text."""
    return response.notes[:-1] if response.notes_left_out else response.notes


def notes_update(response: SearchResponse, added: Iterable[str]) -> dict[str, object]:
    """The fields that give ``response`` the core's ``added`` notes, all within the bound.

    The usual case (a few notes, no cut before) is the two joined, nothing counted.

    Example:
        >>> answer = SearchResponse(provider="searxng", notes=("2 more notes were left out.",))
        >>> notes_update(answer, ["a page was not fetched"])["notes"]
        ('2 more notes were left out.', 'a page was not fetched')
    """
    added = tuple(added)
    if not response.notes_left_out and len(response.notes) + len(added) <= MAX_NOTES:
        return {"notes": (*response.notes, *added)}
    notes, left_out = bounded_notes(own_notes(response), added, response.notes_left_out)
    return {"notes": notes, "notes_left_out": left_out}
