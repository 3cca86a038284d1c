r"""Characters a query cannot be sent with, found and named before any request is built.

A query is passed to providers unchanged, so what it holds reaches every URL, form and
JSON body. A NUL, an escape or another control character was sent as it was: each
provider asked answered something (or nothing) for a query no one can type, and the
search failed later with ``returned no renderable search content``, which names neither
the query nor the character. A lone surrogate (what a byte that is not UTF-8 becomes in a
command line's arguments) was refused by pydantic as ``unable to parse raw data as a
unicode string``. A bidirectional control (U+202E and its kin) was sent too, though a
reader sees the text around it in another order than the one searched. Tabs and line
breaks are text a model writes and stay; so do the marks U+200E, U+200F and U+061C,
which right-to-left text needs to be written right and which move only the punctuation
beside them.

Example:
    >>> unsendable_character("naïve C++ 50%\tquery\n")
    >>> unsendable_character("a\x00b")
    'query holds a control character (U+0000) at character 2, which no search reads; remove it'
"""

import re
from typing import Final

__all__ = ["unsendable_character"]

_UNSENDABLE_KINDS: Final[tuple[tuple[str, str, str], ...]] = (
    (
        "\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f-\\x9f",
        "a control character",
        "which no search reads; remove it",
    ),
    (
        "\\u202a-\\u202e\\u2066-\\u2069",
        "a bidirectional control",
        "which reorders what a reader sees, so the query sent is not the one read; remove it",
    ),
    (
        "\\ud800-\\udfff",
        "a lone surrogate",
        "which no text encoding can send (a byte that is not UTF-8 reads as one); write the "
        "text in UTF-8",
    ),
)
"""Each kind of character a query cannot be sent with: its code points (a regular
expression's class), what it is called and why it is refused. C0 controls but tab, line
feed and carriage return; DEL; C1 controls. The bidirectional embeddings, overrides and
isolates (U+202A-U+202E, U+2066-U+2069): invisible, they show the query's text in another
order than the one sent (the "Trojan Source" trick), so what a user approved is not what is
searched. Lone surrogates (a valid pair is decoded to one character and never appears in a
``str``)."""
_UNSENDABLE: Final = re.compile(
    "|".join(f"(?P<k{index}>[{chars}])" for index, (chars, _, _) in enumerate(_UNSENDABLE_KINDS))
)


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
    if found is None or found.lastgroup is None:
        return None
    _, kind, why = _UNSENDABLE_KINDS[int(found.lastgroup.removeprefix("k"))]
    return (
        f"query holds {kind} (U+{ord(found.group()):04X}) at character {found.start() + 1}, {why}"
    )
