r"""Blank as the spec's reference implementation judges it: what JavaScript's ``trim()`` strips.

The spec's renderability test (§Flow 6) keeps a response when ``answer.trim()`` is
non-empty or some related question or search query is non-blank, in JavaScript, whose
``String.prototype.trim`` strips ECMAScript's WhiteSpace and LineTerminator characters.
Python's ``str.strip`` differs from it: it keeps U+FEFF (a stray byte-order mark, which
cleaning leaves in text as it is no control character), so an answer of a lone BOM was
taken as the answer, a text that reads as nothing, where the spec moves on to the next
provider; and it strips U+001C..U+001F and U+0085, which JavaScript keeps.

The one rule, :func:`trim`, for every field trimmed for output or judged blank: what
``trim()`` strips goes from both ends, and so do U+001C..U+001F and U+0085. Those are the
only characters the two trims disagree on besides U+FEFF, and no output keeps them (the
cleaning in :mod:`websearch_core.sanitize` drops every C0 and C1 control), so the spec's
``trim()`` of the text the output shows is this trim of the text as read: a title
``"\x1f"`` that ``trim()`` kept would print as an empty ``[1]`` line where the URL
belongs, and a summary ``"\x1f"`` would hide Exa's text behind no snippet at all.

Example:
    >>> is_blank(" \ufeff\u3000\n"), is_blank("\u200b"), is_blank("\x1f\x85")
    (True, False, True)
    >>> trim("\ufeff\x1c Title \x85\ufeff")
    'Title'
"""

from typing import Final

__all__ = ["JS_WHITESPACE", "NEVER_SHOWN_SEPARATORS", "is_blank", "trim"]

JS_WHITESPACE: Final = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)
"""ECMAScript's WhiteSpace (tab, vertical tab, form feed, U+FEFF and every Zs space) and
LineTerminator (line feed, carriage return, U+2028, U+2029): what ``trim()`` strips."""


NEVER_SHOWN_SEPARATORS: Final = "\x1c\x1d\x1e\x1f\x85"
"""The information separators and NEL: whitespace to Python's ``str.strip``, not to
``trim()``, and controls no output keeps; trimmed at a field's ends with the whitespace."""

_TRIMMED: Final = JS_WHITESPACE + NEVER_SHOWN_SEPARATORS


def trim(text: str) -> str:
    r"""``text`` without the spec's whitespace at its ends, as the output shows it.

    What JavaScript's ``trim()`` strips (U+FEFF among it, which ``str.strip`` keeps), and
    :data:`NEVER_SHOWN_SEPARATORS` (see the module's notes). Inner text is untouched.

    Example:
        >>> trim("\ufeff Sky \u3000"), trim("\x1f"), trim("a\ufeffb")
        ('Sky', '', 'a\ufeffb')
    """
    return text.strip(_TRIMMED)


def is_blank(text: str) -> bool:
    """Whether :func:`trim` leaves nothing: ``trim()``'s blank, of the text as shown."""
    return not trim(text)
