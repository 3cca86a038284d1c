"""A key shown by its ends (``sk-ab...789``), found in time that grows with the text only.

:func:`~websearch_core.echo_forms.ends_pattern` reads a head of the key, a run of marks
(``..``, ``**``, ``\u2022\u2022``) and a tail. When the key itself starts with a mark's
character (a password such as ``.Tr0ub4dor&3xyzzy``), every character of a long run of
that mark is a start, and each start reads the run to its end before it fails: a body
holding 16,000 dots took minutes to mask (stop 57). :class:`EndsFinder` gives exactly the
matches ``finditer`` gives, with most of those starts left out.

Why a start deep inside such a run may be left out: from any start ``p`` in a run of the
mark's character, at least :data:`DEEP` characters before the run's end and past the
run's first character, the head (at most 16 characters, all of the run) ends inside the
run, and the marks take the rest of it but for the few characters (17 at most) a tail
can start with. What follows is the same text whichever such ``p`` it started from, so
each one matches alike, with the same head, marks end and tail. The pattern refuses such
a start when the one before it is such a start too (the guard at its front), and that one
was read already: by the search itself, or, after a match that ended there, by an
unguarded attempt at the match's end (:meth:`EndsFinder.finditer`).
"""

import re
from collections.abc import Iterator

from .echo_forms import ends_pattern

__all__ = ["DEEP", "EndsFinder"]

DEEP = 40
"""How many of the mark's characters must follow a start for it to be read like the one
before it: more than a head (16) and the most the marks give back to a tail (17), plus
the two the marks need."""
_RUN_MARKS = ".*\u2022"
"""The characters whose runs are a mark (``\u2026`` is one character, never a run)."""


class EndsFinder:
    """The matches of a key's ends pattern (:func:`~.echo_forms.ends_pattern`) in a text.

    Args:
        secret: The key; its pattern is read case aside, as a shown key may be.

    Example:
        >>> [m.group() for m in EndsFinder(".abcdef0123456789").finditer("x ." + "." * 9)]
        []
        >>> [m.group() for m in EndsFinder("sk-abcdef0123456789").finditer("sk-ab...789")]
        ['sk-ab...789']
    """

    __slots__ = ("_guarded", "_plain")

    def __init__(self, secret: str) -> None:
        source = ends_pattern(secret)
        self._plain = re.compile(source, re.IGNORECASE)
        mark = secret[0]
        self._guarded = (
            re.compile(
                f"(?!(?<={re.escape(mark * 2)}){re.escape(mark)}{{{DEEP}}})" + source, re.IGNORECASE
            )
            if mark in _RUN_MARKS
            else None
        )

    @property
    def pattern(self) -> re.Pattern[str]:
        """The key's ends pattern as written (what :meth:`finditer` matches as)."""
        return self._plain

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        """The same matches, in the same order, as ``self.pattern.finditer(text)``."""
        if self._guarded is None:
            yield from self._plain.finditer(text)
            return
        found = self._guarded.search(text)
        while found is not None:
            yield found
            end = found.end()
            # The start at the match's end was never read; the guard after it counts on it.
            at_end = self._plain.match(text, end)
            if at_end is not None:
                found = at_end
                continue
            found = self._guarded.search(text, end + 1) if end < len(text) else None
