r"""A text's hex digits read as one run where a dump writes them in groups.

A hexdump or an upstream's debug text rarely writes a request's bytes as one unbroken
run: ``73 6b 2d``, ``736b 2d53`` (``xxd``), ``73:6b:2d``, ``\x73\x6b``, ``0x73, 0x6b``,
or lines of them, each line maybe opened by its offset (``00000010: ``, ``00000010  ``).
:func:`hex_reading` joins such groups into one run of digits and says where each digit
stood, so a key's hex is found (and masked where it was written) however it was broken.
Pure: no secret is known here.
"""

import re

__all__ = ["FEWEST_DIGITS", "HexReading", "hex_reading"]

_GROUP = r"(?:\\x|0[xX])?[0-9A-Fa-f]{2,}"
_FIRST_GROUP = r"(?:\\x|0[xX]|(?<![0-9A-Fa-f]))[0-9A-Fa-f]{2,}"
"""A run's first group, opened at its first digit (or its ``\\x`` or ``0x``): started
inside a run of digits that led nowhere, the search would read the rest of the run again
from each of its digits, a time that grows with the square of the run (16,000 digits with
no group after them took 18 s)."""
_GAP = r"(?:[ \t:,;.\-|]{1,4}|\r?\n(?:[0-9A-Fa-f]{4,8}(?::[ \t]|[ \t]{2,}))?)"
"""What may stand between two groups: a few spaces or separators, or a line break with
the next line's offset (an ``xxd`` or ``hexdump -C`` line opens with one)."""
_GROUPS = re.compile(rf"{_FIRST_GROUP}(?:{_GAP}{_GROUP}|\\x[0-9A-Fa-f]{{2,}})+")
"""Two or more groups in a row, apart by a gap or written ``\\x73\\x6b``: a single run is
read as it is written already. A gap opens with no digit, so a text is read in one pass."""
FEWEST_DIGITS = 16
"""Grouped runs shorter than this (as written) are not read: they cannot hold the fewest
digits a key's hex is masked by (``echo_heads.HEX_HEAD``, 8 bytes), and ordinary words
of hex letters (``added be``) are many and short."""
_STRETCH = re.compile(rf"[0-9A-Fa-fxX\\ \t:,;.|\r\n-]{{{FEWEST_DIGITS},}}")
"""A stretch of the characters grouped hex is written with, long enough to be read: one
simple class, scanned several times faster than :data:`_GROUPS`, which is then tried only
inside each stretch (a text without one, as most are, is done with after this)."""
_DIGITS = re.compile(r"(?:\\x|0[xX])?([0-9A-Fa-f]+)")
_OFFSET = re.compile(r"\r?\n[0-9A-Fa-f]{4,8}(?::[ \t]|[ \t]{2,})")


class HexReading:
    """The digits of each grouped run of a text, joined, and where each digit stood.

    Attributes:
        text: The runs' digits, runs apart by a space (never a digit of a key's hex).
    """

    __slots__ = ("_at", "_lead", "text")

    def __init__(self, text: str, at: list[int], lead: dict[int, int]) -> None:
        self.text = text
        self._at = at
        self._lead = lead

    def source(self, start: int, end: int) -> tuple[int, int]:
        r"""The span of the written text that ``self.text[start:end]`` was read from.

        A span opening a group written ``\x73`` or ``0x73`` takes its ``\x`` or ``0x``
        too: a mask after a lone ``\x`` reads as a half-escaped string.
        """
        return self._lead.get(start, self._at[start]), self._at[end - 1] + 1


def hex_reading(text: str) -> HexReading | None:
    r"""``text``'s grouped hex runs joined, or ``None`` when it holds none.

    Example:
        >>> reading = hex_reading("dump: 73 6b:2D\n00000010: 61 | ok")
        >>> reading.text, reading.source(0, 8)
        ('736b2D61', (6, 27))
        >>> hex_reading(r"b'\x73\x6b\x2d\x61\x62'").source(0, 10)
        (2, 22)
    """
    pieces: list[str] = []
    at: list[int] = []
    lead: dict[int, int] = {}
    found_groups = (
        found
        for stretch in _STRETCH.finditer(text)
        for found in _GROUPS.finditer(text, stretch.start(), stretch.end())
    )
    for found in found_groups:
        if found.end() - found.start() < FEWEST_DIGITS:
            continue
        if pieces:
            pieces.append(" ")
            at.append(found.start())
        span = found.group()
        # A line's offset is no digit of the dump: blanked before the digits are read.
        blanked = _OFFSET.sub(lambda offset: " " * len(offset.group()), span)
        for group in _DIGITS.finditer(blanked):
            if group.start(1) > group.start():  # written after a \x or 0x
                lead[len(at)] = found.start() + group.start()
            pieces.append(group[1])
            at.extend(range(found.start() + group.start(1), found.start() + group.end(1)))
    if not pieces:
        return None
    return HexReading("".join(pieces), at, lead)
