"""The ``<meta>`` charset prescan reads each tag once and finds what one search found.

Stop 56 made the prescan look tag by tag (a ``<meta`` without a charset is passed up to
its ``>``) and take the blanks around the optional quote whole: one search started again
at each ``<meta `` of a run and tried every split of a run of blanks. These tests hold the
declarations it finds to those of that search, whose pattern is kept here as the reference.
Their time is measured by ``benchmarks/bench_regex_shapes.py``, not here.
"""

import os
import random
import re

import pytest

from tests.conftest import SHARED_FIXTURES
from websearch_core.content import decode_html
from websearch_core.content.decode import _meta_declaration

_SEARCHED = re.compile(rb"""<meta[^>]+?charset\s*=\s*["']?\s*([A-Za-z0-9._:-]+)""", re.IGNORECASE)
"""The declaration as one search found it before stop 56."""
_PIECES = (
    b"<meta", b"<MeTa", b"<met", b" ", b"\t", b"\n", b"charset", b"CHARSET", b"=", b'"',
    b"'", b">", b"<", b"a", b"koi8-r", b"-", b"x", b"\xc3",
)  # fmt: skip


def _value(found: re.Match[bytes] | None) -> bytes | None:
    return found.group(1) if found else None


@pytest.mark.parametrize(
    ("head", "value"),
    [
        (b'<meta name="x"><meta charset="koi8-r">', b"koi8-r"),
        (b"<meta <meta charset=koi8-r>", b"koi8-r"),
        (b'<meta charset=  "  koi8-r">', b"koi8-r"),
        (b"<meta charset=><meta charset=koi8-r>", b"koi8-r"),
        (b'<meta content="a>b" charset=koi8-r>', None),
        (b"<meta charset=" + b" " * 600, None),
        (b"<meta a" * 500 + b"><meta charset=koi8-r>", b"koi8-r"),
        (b"<metacharset=koi8-r>", None),
        (b"<meta charset=koi8-r>", b"koi8-r"),
        (b"<meta>charset=koi8-r", None),
    ],
)
def test_the_declaration_each_tag_gives(head: bytes, value: bytes | None) -> None:
    assert _value(_meta_declaration(head)) == value == _value(_SEARCHED.search(head))


def test_random_heads_give_what_the_one_search_gave() -> None:
    rng = random.Random(56)
    for _ in range(20_000):
        head = b"".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 40)))
        assert _value(_meta_declaration(head)) == _value(_SEARCHED.search(head)), head


def test_every_capture_gives_what_the_one_search_gave() -> None:
    captures = [path for path in sorted(SHARED_FIXTURES.rglob("*")) if path.is_file()]
    if not captures and not os.environ.get("CI"):
        pytest.skip(f"captures not available: {SHARED_FIXTURES}")
    assert captures, SHARED_FIXTURES
    for path in captures:
        for head in (path.read_bytes()[:4096], path.read_bytes()):
            assert _value(_meta_declaration(head)) == _value(_SEARCHED.search(head)), path


def test_a_tag_after_a_run_of_unclosed_metas_sets_the_charset() -> None:
    page = b"<meta a" * 400 + b'><meta charset="koi8-r"><p>' + "Привет".encode("koi8-r")
    assert decode_html(page, "text/html").endswith("<p>Привет")
