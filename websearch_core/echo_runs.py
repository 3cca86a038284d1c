"""Finds a run from inside a key's encoded form: its middle or its tail, not its head.

An upstream may quote a key's base64 or hex from some offset on (a ``Basic`` header's
log line that starts mid-value, a dump that shows the request from a later byte, a
message that prints ``...`` and the last bytes): the form's head, which
:mod:`websearch_core.echo_heads` reads, is not there. A run of :data:`RUN_BYTES` of the
key's bytes read this way is as much of the key as a run of ``redaction.RUN_LENGTH``
characters shown as itself, the rule for a key's plain text, and is masked. Pure: the
forms are given, the finder keeps nothing but them.
"""

import re
from collections.abc import Iterable

__all__ = ["BASE64_RUN", "HEX_RUN", "RUN_BYTES", "RunFinder"]

RUN_BYTES = 12
"""How many of a key's bytes, from anywhere in it, a run of an encoded form must hold:
as many as the run of a key's characters shown as itself (``redaction.RUN_LENGTH``), so
a word inside a key (``perplexity``) is as safe in hex as it is in plain text."""
BASE64_RUN = 8 * RUN_BYTES // 6
"""The base64 characters that hold :data:`RUN_BYTES` bytes (16)."""
HEX_RUN = 2 * RUN_BYTES
"""The hex digits that hold :data:`RUN_BYTES` bytes (24)."""


class RunFinder:
    """Where a run of ``run`` or more characters of any of ``forms`` is in a text.

    Each form is cut into blocks of half a run, one every ``run - block + 1`` characters,
    the widest spacing at which every run holds a whole block; a block found is grown both
    ways for as long as the text goes on as the form does. One search per text, whatever
    the forms' length.

    Args:
        forms: The full forms (a key's base64 cores, its hex).
        run: The fewest characters of a form that make a match (:data:`BASE64_RUN`,
            :data:`HEX_RUN`).
        ignore_case: Whether the form is read case aside (hex is; base64 is not).
    """

    __slots__ = ("_at", "_ignore_case", "_seed")

    def __init__(self, forms: Iterable[str], run: int, *, ignore_case: bool) -> None:
        self._ignore_case = ignore_case
        block = run // 2
        stride = run - block + 1
        self._at: dict[str, list[tuple[str, int, int]]] = {}
        for form in forms:
            shown = form.lower() if ignore_case else form
            for start in range(0, len(shown) - block + 1, stride):
                piece = shown[start : start + block]
                self._at.setdefault(piece, []).append((shown, start, run))
        flags = re.IGNORECASE | re.ASCII if ignore_case else re.ASCII
        ordered = sorted(self._at)
        self._seed = re.compile("|".join(map(re.escape, ordered)), flags) if ordered else None

    def spans(self, text: str) -> list[tuple[int, int]]:
        """Each ``(start, end)`` in ``text`` holding a run of a form.

        Example:
            >>> RunFinder(["0123456789abcdef"], 8, ignore_case=True).spans("x 3456789AB y 345")
            [(2, 11)]
        """
        if self._seed is None:
            return []
        spans: list[tuple[int, int]] = []
        for found in self._seed.finditer(text):
            seen = found.group().lower() if self._ignore_case else found.group()
            for form, offset, run in self._at.get(seen, ()):
                start, end = self._grown(text, found.start(), found.end(), form, offset)
                if end - start >= run:
                    spans.append((start, end))
        return spans

    def _grown(self, text: str, start: int, end: int, form: str, offset: int) -> tuple[int, int]:
        """The span around ``text[start:end]`` (``form`` from ``offset``) that follows it."""
        before, after = offset, offset + (end - start)
        while start > 0 and before > 0 and self._is(text[start - 1], form[before - 1]):
            start, before = start - 1, before - 1
        while end < len(text) and after < len(form) and self._is(text[end], form[after]):
            end, after = end + 1, after + 1
        return start, end

    def _is(self, shown: str, wanted: str) -> bool:
        """Whether ``shown`` reads as the form's character ``wanted``."""
        return (shown.lower() if self._ignore_case else shown) == wanted
