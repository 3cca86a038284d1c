"""A SearXNG error page's title is read as it was once its opening tag is found in two steps.

Stop 56 finds the first ``<title`` and then the first ``>`` after it, where one pattern
through the ``>`` read the rest of the page again from each ``<title`` (quadratic on
``<title`` repeated). These tests hold the title to the one pattern's, kept here as the
reference; the time is measured by ``benchmarks/bench_regex_shapes.py``.
"""

import random
import re

import pytest

from websearch_core.providers._common import collapse_whitespace
from websearch_core.providers._searxng_pages import _TITLE_CLOSE, _page_title

_OPEN_THROUGH_CLOSE = re.compile(r"<title[^>]*>", re.IGNORECASE)
"""The opening tag as one pattern before stop 56."""
_PIECES = ("<title", "<TITLE", "<titl", ">", "</title>", "</title >", "</TITLE\n>", "a", " ", "<")


def _title_before(text: str) -> str | None:
    opening = _OPEN_THROUGH_CLOSE.search(text)
    closing = _TITLE_CLOSE.search(text, opening.end()) if opening else None
    if opening is None or closing is None:
        return None
    return collapse_whitespace(text[opening.end() : closing.start()])[:120] or None


@pytest.mark.parametrize(
    "page",
    [
        "<html><title>Too Many Requests</title></html>",
        '<title lang="en">\n  Blocked  </title>',
        "<titlea" * 300 + "</title>",
        "<title" * 300 + ">x</title>",
        "<title>a<title>b</title>",
        "<title>open only",
    ],
)
def test_the_title_of_a_page(page: str) -> None:
    assert _page_title(page) == _title_before(page)


def test_random_pages_give_the_same_title() -> None:
    rng = random.Random(56)
    for _ in range(20_000):
        page = "".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 25)))
        assert _page_title(page) == _title_before(page), page
