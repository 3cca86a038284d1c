"""Finds a key's encoded forms cut short: a form's head, grown as far as the text follows it.

An upstream's echo of a request may end inside the key: a ``Basic`` header of
``user:key`` cut after some of the key's base64, or a hex dump of the request stopped
mid-key. The whole form is no longer in the text, only its beginning; where the
beginning is long enough to hold the key's first :data:`HEAD_BYTES` bytes (as many as
``redaction.PREFIX_LENGTH`` characters of a key shown as itself), the form's characters
from there on are masked for as long as the text goes on as the form does. Pure: the
forms are given, the finder keeps no secret but them.
"""

import re
from collections.abc import Iterable

__all__ = ["BASE64_HEAD", "HEAD_BYTES", "HEX_HEAD", "HeadFinder", "hex_form"]

HEAD_BYTES = 8
"""How many of a key's first bytes a cut form must hold to be masked: the head a key
shown as itself is masked by (``PREFIX_LENGTH``)."""
BASE64_HEAD = 8 * HEAD_BYTES // 6
"""The base64 characters a key's first :data:`HEAD_BYTES` bytes fill whole (10: 60 bits).
A core (the characters a key's bytes alone decide,
:func:`~websearch_core.echo_forms.base64_cores`) starts 0, 2 or 4 bits into the key, so a
cut header whose full 4-character groups decode to 8 of the key's bytes holds 10 of
them or more (``use:`` and 8 bytes: exactly 10)."""
HEX_HEAD = 2 * HEAD_BYTES
"""The hex digits that hold :data:`HEAD_BYTES` bytes (16)."""


def hex_form(secret: str) -> str:
    """``secret``'s UTF-8 bytes as lower-case hex, two digits a byte, as a dump writes them.

    Example:
        >>> hex_form("sk-1")
        '736b2d31'
    """
    return secret.encode("utf-8").hex()


class HeadFinder:
    """Where a head of any of ``forms`` is in a text, grown to where the text leaves the form.

    Args:
        forms: The full forms (a key's base64 cores, its hex).
        head: How many of a form's first characters make a match (:data:`BASE64_HEAD`,
            :data:`HEX_HEAD`).
        ignore_case: Whether the form is read case aside (hex is; base64 is not: its
            letters' case is part of the bits).
    """

    __slots__ = ("_forms", "_heads", "_ignore_case")

    def __init__(self, forms: Iterable[str], head: int, *, ignore_case: bool) -> None:
        self._ignore_case = ignore_case
        self._forms: dict[str, list[str]] = {}
        for form in forms:
            if len(form) >= head:
                shown = form.lower() if ignore_case else form
                self._forms.setdefault(shown[:head], []).append(shown)
        # ASCII: a form is ASCII, and no other character may stand for one of its letters.
        flags = re.IGNORECASE | re.ASCII if ignore_case else re.ASCII
        ordered = sorted(self._forms)
        self._heads = re.compile("|".join(map(re.escape, ordered)), flags) if ordered else None

    def spans(self, text: str) -> list[tuple[int, int]]:
        """Each ``(start, end)`` in ``text`` where a form's head starts, to where it stops.

        Example:
            >>> HeadFinder(["0123456789"], 4, ignore_case=False).spans("x 012345ab 0123")
            [(2, 8), (11, 15)]
        """
        if self._heads is None:
            return []
        spans: list[tuple[int, int]] = []
        for found in self._heads.finditer(text):
            seen = found.group().lower() if self._ignore_case else found.group()
            for form in self._forms.get(seen, ()):
                end = _grown(text, found.end(), form, len(seen), ignore_case=self._ignore_case)
                spans.append((found.start(), end))
        return spans


def _grown(text: str, end: int, form: str, done: int, *, ignore_case: bool) -> int:
    """Where ``text`` stops following ``form``, from ``end`` (``done`` of it read so far)."""
    while end < len(text) and done < len(form):
        char = text[end].lower() if ignore_case else text[end]
        if char != form[done]:
            break
        end, done = end + 1, done + 1
    return end
