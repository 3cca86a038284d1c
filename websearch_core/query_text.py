r"""Characters a query cannot be sent with, found and named before any request is built.

A query is passed to providers unchanged, so what it holds reaches every URL, form and
JSON body. A NUL, an escape or another control character was sent as it was: each
provider asked answered something (or nothing) for a query no one can type, and the
search failed later with ``returned no renderable search content``, which names neither
the query nor the character. A lone surrogate (what a byte that is not UTF-8 becomes in a
command line's arguments) was refused by pydantic as ``unable to parse raw data as a
unicode string``. Tabs and line breaks are text a model writes and stay.

Example:
    >>> unsendable_character("naïve C++ 50%\tquery\n")
    >>> unsendable_character("a\x00b")
    'query holds a control character (U+0000) at character 2, which no search reads; remove it'
"""

import re
from typing import Final

__all__ = ["unsendable_character"]

_UNSENDABLE: Final = re.compile("[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f-\\x9f\\ud800-\\udfff]")
"""C0 controls but tab, line feed and carriage return; DEL; C1 controls; lone surrogates
(a valid pair is decoded to one character and never appears in a ``str``)."""


def unsendable_character(query: str) -> str | None:
    """Why ``query`` cannot be sent, naming its first unsendable character; ``None`` if none.

    Printable text (nearly every query) is told by one ``str.isprintable`` scan.

    Args:
        query: The query as given.

    Returns:
        A sentence that names the character by its code point and its place (counted
        from 1), never the query itself, which may be long; ``None`` when it can be sent.
    """
    if query.isprintable():
        return None
    found = _UNSENDABLE.search(query)
    if found is None:
        return None
    code = ord(found.group())
    where = f"(U+{code:04X}) at character {found.start() + 1}"
    if 0xD800 <= code <= 0xDFFF:
        return (
            f"query holds a lone surrogate {where}, which no text encoding can send "
            "(a byte that is not UTF-8 reads as one); write the text in UTF-8"
        )
    return f"query holds a control character {where}, which no search reads; remove it"
