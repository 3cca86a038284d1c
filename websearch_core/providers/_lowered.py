"""Case-insensitive marker tests on a whole page, without lowering the page at once.

``marker in page.lower()`` is how a block page or a challenge is recognised, but
``str.lower`` of a page holding any non-ASCII character first builds a buffer of three
4-byte characters per character (room for expansions such as ``İ`` to ``i̇``), then the
result: a 7 MB Portuguese Google page took 84 MB of transient memory for one such test,
three quarters of everything its search allocated.

:func:`found_lowered` gives the same answer a window of the page at a time. Markers are
lower-case ASCII, so a marker present in the page as written is present in its lowered
form (the common case, tested first with no lowering at all); and ``str.lower`` maps each
character on its own, only the choice between ``σ`` and ``ς`` depending on its neighbours,
which no ASCII marker can contain. A marker found in ``page.lower()`` spans at most as many
characters of the page as it has (each character lowers to one or more), so windows that
overlap by one character less than the longest marker miss none.
"""

from typing import Final

__all__ = ["found_lowered"]

_WINDOW: Final = 1 << 16
"""Characters lowered at a time: at most 3 MiB of transient buffer for any page."""


def found_lowered(page: str, markers: tuple[str, ...]) -> bool:
    """Whether any of ``markers`` occurs in ``page.lower()``.

    Args:
        page: A decoded response body, of any size.
        markers: Lower-case ASCII text to look for.

    Raises:
        ValueError: A marker is empty, or not lower-case ASCII (it could then match text
            that lowering turned into it only in part, or never match at all).

    Example:
        >>> found_lowered("<HTML><H3>Result</H3>", ("<h3",))
        True
        >>> found_lowered("Unusual TRAFFIC from your network", ("unusual traffic",))
        True
        >>> found_lowered("<p>no headings</p>", ("<h3", "captcha"))
        False
    """
    for marker in markers:
        if not marker or not marker.isascii() or marker != marker.lower():
            raise ValueError(f"marker must be non-empty lower-case ASCII text: {marker!r}")
    if any(marker in page for marker in markers):
        return True
    overlap = max(map(len, markers)) - 1
    for start in range(0, len(page), _WINDOW):
        window = page[start : start + _WINDOW + overlap].lower()
        if any(marker in window for marker in markers):
            return True
    return False
