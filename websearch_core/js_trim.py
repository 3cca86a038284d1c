r"""Blank as the spec's reference implementation judges it: what JavaScript's ``trim()`` strips.

The spec's renderability test (§Flow 6) keeps a response when ``answer.trim()`` is
non-empty or some related question or search query is non-blank, in JavaScript, whose
``String.prototype.trim`` strips ECMAScript's WhiteSpace and LineTerminator characters.
Python's ``str.strip`` differs from it: it keeps U+FEFF (a stray byte-order mark, which
cleaning leaves in text as it is no control character), so an answer of a lone BOM was
taken as the answer, a text that reads as nothing, where the spec moves on to the next
provider; and it strips U+001C..U+001F and U+0085, which JavaScript keeps.

Example:
    >>> is_blank(" \ufeff\u3000\n"), is_blank("\u200b"), is_blank("\x1f")
    (True, False, False)
"""

from typing import Final

__all__ = ["JS_WHITESPACE", "is_blank", "unless_blank"]

JS_WHITESPACE: Final = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)
"""ECMAScript's WhiteSpace (tab, vertical tab, form feed, U+FEFF and every Zs space) and
LineTerminator (line feed, carriage return, U+2028, U+2029): what ``trim()`` strips."""


def is_blank(text: str) -> bool:
    """Whether JavaScript's ``text.trim()`` would leave an empty string."""
    return not text.strip(JS_WHITESPACE)


def unless_blank(text: str) -> str:
    r"""``text``, or ``""`` when JavaScript's ``trim()`` would leave nothing of it.

    A parser trims with ``str.strip`` and then falls back on an empty field (a title to
    the URL, a snippet to none); a field of only byte-order marks survives that strip, so
    it was kept as a title or snippet that reads as nothing. Passing the stripped text
    through here makes the fallback the one the spec's reference takes; text with any
    other character is returned as it is.

    Example:
        >>> unless_blank("\ufeff"), unless_blank("\ufeffa"), unless_blank("a")
        ('', '\ufeffa', 'a')
    """
    return "" if is_blank(text) else text
