"""Text that tells a kind of page (a wall, a results page), as data, found without the text.

The markers are looked for in the page's text, or in its body's bytes without decoding the
whole text.

An engine tells a challenge or a genuine "no results" page by words in it. Looking for
them in ``response.text()`` decodes the whole body first: a 7 MB page holding one emoji
is 28 MB of ``str``. :func:`found` gives the answer the text gives, from either:

* ASCII written as it is (:attr:`Markers.exact`) is searched in the bytes themselves: in
  UTF-8 an ASCII byte is only ever that character, and the decoder never folds one into a
  replacement character, so the bytes hold the marker exactly where the text does.
* Markers in any case (:attr:`Markers.lowered`) and patterns (:attr:`Markers.patterns`)
  are tried first as written in the bytes when they are plain text, then on the text a
  64 KiB piece at a time, each piece carrying the end of the one before, so a match
  across two pieces is still seen. The pieces come from an incremental decoder, which
  gives exactly ``body.decode("utf-8", errors="replace")`` (``HttpResponse.text()``)
  however the body is cut.
"""

import codecs
import re
from collections.abc import Iterator
from dataclasses import dataclass

from ._lowered import found_lowered

__all__ = ["Markers", "found"]

_PIECE = 1 << 16
"""Bytes decoded at a time: at most a few hundred KiB of ``str`` held however wide."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Markers:
    """What to look for in a page; the page shows them when any one is found.

    Raises:
        ValueError: A marker that is empty or not ASCII, a lowered marker that is not lower
            case, or patterns without the span their matches can have.
    """

    exact: tuple[str, ...] = ()
    """ASCII text found as it is written (case matters)."""
    lowered: tuple[str, ...] = ()
    """Lower-case ASCII text found in ``page.lower()``: in any case."""
    patterns: tuple[re.Pattern[str], ...] = ()
    """Regular expressions searched in the text (their own flags apply)."""
    span: int = 0
    """The most characters a match of :attr:`patterns` can span: pieces of a body's text
    overlap by one less, so no match is cut in two."""

    def __post_init__(self) -> None:
        for marker in (*self.exact, *self.lowered):
            if not marker or not marker.isascii():
                raise ValueError(f"a marker must be non-empty ASCII text: {marker!r}")
        for marker in self.lowered:
            if marker != marker.lower():
                raise ValueError(f"a lowered marker must be lower case: {marker!r}")
        if self.patterns and self.span < 1:
            raise ValueError("patterns need the span of their longest match (span >= 1)")

    @property
    def overlap(self) -> int:
        """Characters each piece of text repeats from the one before."""
        return max([self.span, *map(len, self.lowered)], default=1) - 1


def found(page: str | bytes, markers: Markers) -> bool:
    """Whether ``page`` shows any of ``markers``.

    Args:
        page: The page's text, or the response body it is decoded from as
            ``HttpResponse.text()`` decodes it (UTF-8, undecodable bytes replaced): the
            answer is the same either way.
        markers: What to look for.

    Example:
        >>> robot = Markers(exact=("captcha-wrap",), lowered=("unusual traffic",))
        >>> found("<p>Unusual Traffic</p>", robot), found("Unusual Traffic".encode(), robot)
        (True, True)
        >>> found(b"<div class=captcha-wrapper>", robot), found(b"<p>results</p>", robot)
        (True, False)
    """
    if isinstance(page, str):
        return (
            any(marker in page for marker in markers.exact)
            or (bool(markers.lowered) and found_lowered(page, markers.lowered))
            or any(pattern.search(page) for pattern in markers.patterns)
        )
    if any(marker.encode() in page for marker in (*markers.exact, *markers.lowered)):
        return True  # as written: lowering keeps it, and the common case costs no decode
    if not markers.lowered and not markers.patterns:
        return False
    return any(
        (bool(markers.lowered) and found_lowered(text, markers.lowered))
        or any(pattern.search(text) for pattern in markers.patterns)
        for text in _pieces(page, markers.overlap)
    )


def _pieces(body: bytes, overlap: int) -> Iterator[str]:
    """``body``'s text a piece at a time, each led by the last ``overlap`` characters before it.

    A match spanning two pieces then lies whole in the second.
    """
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    view = memoryview(body)
    size = len(body)
    carried = ""
    for start in range(0, size, _PIECE):
        end = start + _PIECE
        text = carried + decoder.decode(view[start:end], end >= size)
        yield text
        carried = text[-overlap:] if overlap else ""
