"""``format.py``'s shortcuts give what their general paths give, on every kind of text.

``truncate_text`` skips the UTF-16 encoding for text short enough to fit whatever it holds
and for ASCII text (one unit a character); ``utf16_len`` counts ASCII by ``len``;
``format_age`` divides by each unit's length in seconds instead of in steps. Each is
compared here with the encoding, or with the stepwise division it replaced, over edge
cases and seeded random inputs.
"""

import random

import pytest

from websearch_core.format import format_age, truncate_text, utf16_len
from websearch_core.utf16_text import _truncate_units

_ALPHABETS = {
    "ascii": "ab c~\t\n\x00\x7f",
    "latin": "aéÿ\u00a0\x85",
    "bmp": "a€—…\u202e\ufeff\uffff",
    "astral": "a😀\U0010ffff\U00010000",
    "mixed": "a é€😀\n",
}
_LIMITS = [*range(-3, 26), 119, 120, 121, 239, 240, 241]


def _samples() -> list[str]:
    rng = random.Random(11)
    texts = ["", "x", "😀", "é" * 120, "é" * 121, "x" * 240, "x" * 241, "😀" * 60, "😀" * 61]
    for alphabet in _ALPHABETS.values():
        for length in (*range(13), 59, 60, 61, 119, 120, 121, 125, 239, 240, 241, 300):
            texts.append("".join(rng.choice(alphabet) for _ in range(length)))
    return texts


def _utf16_units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _age_in_steps(seconds: int) -> str:
    """The age as first written: minutes, hours and days by division in turn."""
    minutes = seconds // 60
    hours = minutes // 60
    days = hours // 24
    for value, unit in ((days // 30, "mo"), (days // 7, "w"), (days, "d"), (hours, "h")):
        if value > 0:
            return f"{value}{unit} ago"
    return f"{minutes}m ago" if minutes > 0 else "just now"


def test_utf16_len_counts_what_the_encoding_counts() -> None:
    for text in _samples():
        assert utf16_len(text) == _utf16_units(text), repr(text)


@pytest.mark.parametrize("limit", _LIMITS)
def test_truncate_text_cuts_where_the_encoding_cuts(limit: int) -> None:
    for text in _samples():
        assert truncate_text(text, limit) == _truncate_units(text, limit), (repr(text), limit)


def test_the_general_path_still_counts_units_not_characters() -> None:
    # The comparison above means something only if the general path is itself right.
    assert _truncate_units("😀" * 10, 10) == "😀" * 4 + "…"
    assert _truncate_units("é" * 11, 10) == "é" * 9 + "…"
    assert _truncate_units("é" * 10, 10) == "é" * 10
    assert _truncate_units("a😀", 2) == "a…"  # the cut would split the pair: dropped


def test_format_age_matches_division_in_steps() -> None:
    rng = random.Random(11)
    units = (60, 3_600, 86_400, 7 * 86_400, 30 * 86_400)
    edges = {0, 1, -1, 59}
    for unit in units:
        for multiple in (1, 2, 3, 29, 30, 31):
            edges.update({unit * multiple - 1, unit * multiple, unit * multiple + 1})
    values = sorted(
        edges | {-e for e in edges} | {rng.randrange(-(10**10), 10**10) for _ in range(20_000)}
    )
    for seconds in values:
        expected = _age_in_steps(seconds) if seconds else ""
        assert format_age(seconds) == expected, seconds
