"""One bound on a response's notes, whoever adds them: the provider, the chain, the client.

The cleaning of a provider's response (:mod:`websearch_core.sanitize`) keeps at most
:data:`MAX_NOTES` of the provider's notes, the last then saying how many more there were.
The core adds its own after it: why a request went uncounted (the chain), a page that could
not be fetched (``include_content``), an unreadable credential store and a stale answer's
age (the client). Added to a provider's twenty, they made 25 or more, so every place that
adds a note goes through :func:`with_notes`, which holds all of them to the one bound and
says the count of those left out once, folding in a count said before.
"""

import re
from collections.abc import Iterable
from typing import Final

__all__ = ["MAX_NOTES", "bounded_notes", "notes_left_out", "with_notes"]

MAX_NOTES: Final = 20
"""Notes a response keeps, the last of a cut saying how many more were left out.
A note tells the user something about this answer (an engine that did not answer, a
warning, a page not fetched): the first twenty say what went wrong and the count says how
widely, where two hundred engines' reasons (up to 200,000 units) would only bury the
results in ``--json``. Twenty is also what related questions and search queries keep."""

_LEFT_OUT: Final = re.compile(r"([1-9][0-9]{0,2}(?:,[0-9]{3})*) more notes were left out\.")
"""The note :func:`notes_left_out` writes. No provider's note can read so: each starts with
the core's own words (``SearXNG engine did not answer: ``, ``Parallel warning: ``)."""


def notes_left_out(count: int) -> str:
    """The note ending notes cut to :data:`MAX_NOTES`: how many were left out.

    Example:
        >>> notes_left_out(1181)
        '1,181 more notes were left out.'
    """
    return f"{count:,} more notes were left out."


def bounded_notes(notes: Iterable[str], added: Iterable[str] = ()) -> tuple[str, ...]:
    """``notes`` then ``added`` within :data:`MAX_NOTES`, the last then counting the rest.

    ``added`` are the core's own (a page not fetched, a stale answer's age, an unreadable
    credential store): each says something of this search as a whole, where the notes a
    provider sent past a dozen repeat one fact (another engine did not answer), so the
    provider's notes make room for them. A count a cut said before
    (:func:`notes_left_out`, wherever it stands) is taken out and added to the new one,
    so the count is said once, last, and counts every note left out.

    Example:
        >>> cut = bounded_notes(f"engine {n}" for n in range(25))
        >>> len(cut), cut[-1]
        (20, '6 more notes were left out.')
        >>> bounded_notes(cut, ["a page was not fetched"])[-3:]
        ('engine 17', 'a page was not fetched', '7 more notes were left out.')
    """
    earlier, left_out = _without_count(notes)
    own, own_left_out = _without_count(added)
    left_out += own_left_out
    if len(earlier) + len(own) + bool(left_out) <= MAX_NOTES:
        return (*earlier, *own, notes_left_out(left_out)) if left_out else (*earlier, *own)
    room = MAX_NOTES - 1  # the count takes the last place
    own_kept = own[:room]
    earlier_kept = earlier[: room - len(own_kept)]
    left_out += len(earlier) - len(earlier_kept) + len(own) - len(own_kept)
    return (*earlier_kept, *own_kept, notes_left_out(left_out))


def with_notes(notes: tuple[str, ...], added: Iterable[str]) -> tuple[str, ...]:
    """``notes`` and the core's ``added``, held to :data:`MAX_NOTES` (:func:`bounded_notes`).

    The usual case (a few notes, no cut before) is the two joined, nothing scanned.
    """
    added = tuple(added)
    if len(notes) + len(added) <= MAX_NOTES and not (notes and _LEFT_OUT.fullmatch(notes[-1])):
        return (*notes, *added)
    return bounded_notes(notes, added)


def _without_count(notes: Iterable[str]) -> tuple[list[str], int]:
    """``notes`` without a count :func:`notes_left_out` wrote, and the count(s) they said."""
    kept: list[str] = []
    left_out = 0
    for note in notes:
        said = _LEFT_OUT.fullmatch(note)
        if said is None:
            kept.append(note)
        else:
            left_out += int(said.group(1).replace(",", ""))
    return kept, left_out
