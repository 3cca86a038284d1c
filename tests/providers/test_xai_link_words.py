"""An xAI citation's snippet drops its Markdown links' URLs as the one pattern did.

Stop 56 replaced ``_MARKDOWN_LINK.sub(r"\\1", window)`` with a scan that keeps where a
link's URL ended for the links opened before that end: the pattern read the run again from
each ``[a](`` (17 ms for one citation's window). These tests hold the scan's text to the
pattern's, kept here as the reference; its time is measured by
``benchmarks/bench_regex_shapes.py``.
"""

import random
import re

import pytest

from tests.conftest import SHARED_FIXTURES
from websearch_core.providers._xai_parse import _link_words

_PATTERN = re.compile(r"\[([^\[\]]*)\]\((\S*?)\)")
"""The link pattern as written before stop 56."""
_PIECES = ("[", "]", "(", ")", "](", "[a](", "a", " ", "\n", "x.ai/", "[b]", "\t")


@pytest.mark.parametrize(
    "text",
    [
        "See [xAI](https://x.ai/) and [a](b c).",
        "[a](b[c](d)e)",
        "[a](" * 200 + ")",
        "[a](" * 200 + " [b](c)",
        "[[a](b)](c)",
        "[](x)[](y) ([z](https://z.org/(q)))",
    ],
)
def test_the_words_each_link_leaves(text: str) -> None:
    assert _link_words(text) == _PATTERN.sub(r"\1", text)


def test_random_texts_leave_the_same_words() -> None:
    rng = random.Random(56)
    for _ in range(20_000):
        text = "".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 30)))
        assert _link_words(text) == _PATTERN.sub(r"\1", text), text


def test_the_xai_captures_leave_the_same_words() -> None:
    captures = sorted(SHARED_FIXTURES.glob("xai/*"))
    if not captures:
        pytest.skip(f"captures not available: {SHARED_FIXTURES}")
    for path in captures:
        text = path.read_text(encoding="utf-8", errors="replace")
        assert _link_words(text) == _PATTERN.sub(r"\1", text), path
