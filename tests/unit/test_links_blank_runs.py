"""An answer's links are found where they were once their blanks are read from a run's start.

Stop 56 let the blanks before a link's or a bare URL's parentheses be read only from the
first blank of their run (or, for a bare URL, from the start of its line), and a bare URL's
line take its blanks whole: starting at each blank of a run read the rest of the run each
time (16k blanks in an answer: seconds), and splitting a line's blanks every way between the
line and the parentheses was cubic (a line of 400 blanks: 42 ms); a label line takes the
blanks after a sentence's end whole (quadratic before: a full stop and 16k blanks took
seconds). These tests hold the matches (each group's span) to the patterns as they were
before, kept here as the reference; their time is measured by
``benchmarks/bench_regex_shapes.py``.
"""

import random
import re

import pytest

from websearch_core.filters.links import _BARE, _LABEL_LINE, _LINK

_LINK_BEFORE = re.compile(
    r"(?P<open>[ \t]*\([ \t]*)?"
    r"\[(?P<words>(?:[^\[\]]|\[[^\[\]]*\])*)\]"
    r"\((?P<url>https?://[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)\)"
    r"(?(open)[ \t]*\))"
)
_BARE_BEFORE = re.compile(
    r"(?P<line>^[ \t]*(?:[-*+]|\d{1,3}[.)])?[ \t]*)?"
    r"(?P<open>[ \t]*\([ \t]*)?<?"
    r"(?P<url>https?://[^\s<>\"'`\[\]]+)",
    re.MULTILINE,
)
_LABEL_LINE_BEFORE = re.compile(
    r"(?:\A|(?<=\n)|(?<=[.!?])[ \t]+|(?<=\])[ \t]+)"
    r"(?P<marker>[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+)?"
    r"(?:\*\*|__)?(?P<label>[^\W_][^\n.!?:;,()\[\]<>*_]{0,60}?)(?:\*\*|__)?:(?:\*\*|__)?[ \t]*\Z"
)
_PIECES = (
    " ", "\t", "  ", "\n", "(", ")", "[", "]", "a", "1", "-", "*", "2.", "<", ">",
    "https://a.org/x", "http://b", "](", "[a](https://a.org)", "x_(y)", ".", ",",
    "!", "3)", "**", "__", "Sources", ":",
)  # fmt: skip
_PAIRS = ((_LINK, _LINK_BEFORE), (_BARE, _BARE_BEFORE), (_LABEL_LINE, _LABEL_LINE_BEFORE))


def _found(pattern: re.Pattern[str], text: str) -> list[list[tuple[int, int]]]:
    return [
        [found.span(group) for group in range(pattern.groups + 1)]
        for found in pattern.finditer(text)
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Big.   ([a.org](https://a.org/x))   More.",
        "Big.\t \t([a.org](https://a.org/x) )",
        "  (https://a.org/x) and   (see https://b.org/)",
        "\n - (https://a.org/x)\n  2. <https://b.org/>",
        " " * 300 + "[a](https://a.org/) " + " " * 300 + "(",
        "x" + " " * 300 + "https://a.org/",
        "\n" + " " * 60 + "- \t (https://a.org/x)\n" + " " * 60 + "x https://b.org/",
        "\n\t 12.\t\t<https://a.org/x>",
        "Big." + " " * 300 + "- **Sources:** ",
        "Big.]\t \t3) Tokyo:\t",
    ],
)
def test_the_links_found_in_a_text(text: str) -> None:
    for pattern, before in _PAIRS:
        assert _found(pattern, text) == _found(before, text)


def test_random_texts_give_the_same_links() -> None:
    rng = random.Random(56)
    for _ in range(20_000):
        text = "".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 25)))
        for pattern, before in _PAIRS:
            assert _found(pattern, text) == _found(before, text), text
