"""The meta refresh sniff finds what it found before it took its blanks whole.

Stop 56 made ``_REFRESH`` take the blanks around the optional quote possessively: the body
of a near-empty page is searched with it on the event loop, and trying each split of a run
of blanks read the run once per blank. These tests hold its matches to the old pattern's,
kept here as the reference; its time is measured by ``benchmarks/bench_regex_shapes.py``.
"""

import random
import re

import pytest

from websearch_core.content.fetch import _REFRESH

_SPLIT = re.compile(rb"http-equiv\s*=\s*[\"']?\s*refresh", re.IGNORECASE)
"""The sniff as written before stop 56."""
_PIECES = (
    b"http-equiv", b"HTTP-Equiv", b"http-equi", b" ", b"\t", b"\n", b"=", b'"', b"'",
    b"refresh", b"REFRESH", b"refres", b"<", b">", b"a",
)  # fmt: skip


def _span(found: re.Match[bytes] | None) -> tuple[int, int] | None:
    return found.span() if found else None


@pytest.mark.parametrize(
    "body",
    [
        b'<meta http-equiv="refresh" content="0;url=/next">',
        b"<meta http-equiv = ' refresh'>",
        b"<meta http-equiv=\t\n refresh>",
        b'<meta http-equiv=""refresh">',
        b"<meta http-equiv=" + b" " * 500,
        b"<meta http-equiv='" + b" " * 500 + b"refresh'>",
    ],
)
def test_the_sniff_matches_where_it_did(body: bytes) -> None:
    assert _span(_REFRESH.search(body)) == _span(_SPLIT.search(body))


def test_random_bodies_match_where_they_did() -> None:
    rng = random.Random(56)
    for _ in range(20_000):
        body = b"".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 30)))
        assert _span(_REFRESH.search(body)) == _span(_SPLIT.search(body)), body
