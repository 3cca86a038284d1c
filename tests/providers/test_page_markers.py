"""A page's markers read from its body give the answer its text gives.

``_page_markers.found`` looks for ASCII written as it is in the bytes, and for markers in
any case and patterns on the text a 64 KiB piece at a time. The answer must be the one
``HttpResponse.text()`` gives whatever the body holds: markers cut by a piece's end, by a
character cut there, undecodable bytes, characters that lower or fold to ASCII (the Kelvin
sign lowers to ``k``, ``İ`` to ``i`` and a dot; ``ſ`` and ``ı`` match ``s`` and ``i`` in a
case-blind pattern), on seeded random bodies and on every real capture.
"""

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import SHARED_FIXTURES
from websearch_core.providers import _page_markers
from websearch_core.providers._page_markers import Markers, found
from websearch_core.transport import HttpResponse

SEED = 20261205
_PIECE = 1 << 16

_MARKERS = [
    Markers(exact=("did not match any documents",)),
    Markers(lowered=("unusual traffic", "g-recaptcha")),
    Markers(lowered=("<h3",)),
    Markers(
        exact=("altcha-widget", "captcha-wrap"),
        patterns=(re.compile(r"sending automated queries", re.IGNORECASE),),
        span=25,
    ),
    Markers(
        exact=("_cf_chl_opt",),
        patterns=(re.compile(r"confirm you.{0,3}re not a robot", re.IGNORECASE),),
        span=28,
    ),
]
_TELLING = [
    "did not match any documents",
    "Unusual TRAFFIC",
    "unusual traffic",
    "G-reCAPTCHA",
    "<H3",
    "<h3",
    "altcha-widget",
    "captcha-wrap",
    "Sending Automated Queries",
    "\u017fending automated querie\u017f",  # long s: a case-blind "s"
    "confirm you're not a robot",
    "CONFIRM YOU\u2019RE NOT A ROBOT",
    "conf\u0131rm you\u2019\u2019\u2019re not a robot",  # dotless i; three characters between
    "confirm you    re not a robot",  # four between: no match
    "_cf_chl_opt",
    "\u212a",  # the Kelvin sign
    "\u0130",  # capital I with a dot
]
_NOISE = [b"x", b"<p>", b" ", b"\n", "\u00e9".encode(), "\U0001f600".encode(), b"\xe9", b"\xf0\x9f"]


def _text(body: bytes) -> str:
    return HttpResponse(status=200, body=body).text()


def _random_bodies() -> Iterator[bytes]:
    rng = random.Random(SEED)
    for _ in range(400):
        parts: list[bytes] = []
        for _ in range(rng.randrange(0, 6)):
            parts.append(rng.choice(_NOISE) * rng.randrange(0, 4))
            parts.append(rng.choice(_TELLING).encode())
        yield b"".join(parts)


def _straddling_bodies() -> Iterator[bytes]:
    """Each telling text placed across the first 64 KiB piece's end at a few cuts."""
    for telling in _TELLING:
        encoded = telling.encode()
        for lead in (b"", "\U0001f600".encode()):  # four bytes, one character
            for cut in sorted({0, 1, 2, 3, len(encoded) // 2, len(encoded) - 1}):
                yield lead + b"a" * (_PIECE - len(lead) - cut) + encoded + b" tail"
    yield b"\xe9" * (_PIECE - 1) + b"captcha-wrap"  # undecodable bytes before the cut


@pytest.mark.parametrize("markers", _MARKERS)
def test_the_body_gives_what_its_text_gives(markers: Markers) -> None:
    seen = {True: 0, False: 0}
    for body in [*_straddling_bodies(), b""]:
        expected = found(_text(body), markers)
        assert found(body, markers) is expected, body[-80:]
        seen[expected] += 1
    assert seen[True] > 5 and seen[False] > 5  # both answers were compared


@pytest.mark.parametrize("piece", [1, 2, 3, 5, 8, 13])
@pytest.mark.parametrize("markers", _MARKERS)
def test_any_piece_size_gives_what_the_text_gives(
    markers: Markers, piece: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Small pieces put every marker and character of the random bodies across a cut."""
    monkeypatch.setattr(_page_markers, "_PIECE", piece)
    seen = {True: 0, False: 0}
    for body in _random_bodies():
        expected = found(_text(body), markers)
        assert found(body, markers) is expected, body
        seen[expected] += 1
    assert seen[True] > 20 and seen[False] > 20


def test_a_marker_cut_by_the_piece_end_is_found_in_any_case() -> None:
    cases = [
        (_MARKERS[1], "UNUSUAL TRAFFIC"),
        (_MARKERS[3], "SENDING automated queries"),
        (_MARKERS[4], "Confirm you\u2019re not a robot"),
    ]
    for markers, telling in cases:
        for cut in range(1, len(telling.encode())):
            body = b"a" * (_PIECE - cut) + telling.encode()
            assert found(body, markers), (telling, cut)


def _captures() -> list[Path]:
    if not SHARED_FIXTURES.is_dir():
        pytest.skip("captures not available")
    return sorted(SHARED_FIXTURES.rglob("*.htm*"))


@pytest.mark.parametrize("markers", _MARKERS)
def test_every_capture_gives_what_its_text_gives(markers: Markers) -> None:
    for path in _captures():
        body = path.read_bytes()
        assert found(body, markers) is found(body.decode("utf-8", "replace"), markers), path


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        ({"exact": ("",)}, "non-empty ASCII"),
        ({"exact": ("caf\u00e9",)}, "non-empty ASCII"),
        ({"lowered": ("Traffic",)}, "lower case"),
        ({"patterns": (re.compile("x"),)}, "span"),
    ],
)
def test_markers_that_could_not_be_found_as_the_text_would_are_refused(
    options: dict[str, object], problem: str
) -> None:
    with pytest.raises(ValueError, match=problem):
        Markers(**options)  # type: ignore[arg-type]
