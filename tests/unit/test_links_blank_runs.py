"""An answer's label line is found where it was once it takes its blanks whole.

Stop 56 (redos59) let a label line take the blanks after a sentence's end whole (quadratic
before: a full stop and 16k blanks took seconds). These tests hold the matches (each
group's span) to the pattern as it was before, kept here as the reference; its time is
measured by ``benchmarks/bench_regex_shapes.py``. The link and bare-URL patterns' blanks
are held by ``test_filters_links_windows.py`` (filters59 read them back from each URL).
"""

import random
import re

import pytest

from websearch_core.filters.links import _LABEL_LINE

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
_PAIRS = ((_LABEL_LINE, _LABEL_LINE_BEFORE),)


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
