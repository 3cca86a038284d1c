r"""Characters upstream text may not carry to a terminal, a log, a model or the state store.

One definition for two users: :mod:`websearch_core.sanitize` cleans what a provider
answered, and :class:`~websearch_core.errors.SearchProviderError` cleans the words it is
made with, which often quote an upstream's error body (``Brave API error (500): <body>``).
A body that holds ``ESC ] 0 ; title BEL`` or ``ESC [ 2 J`` would otherwise retitle or clear
the terminal of whoever reads the error, and a U+202E override would reverse what follows.

Example:
    >>> safe_message("API error (500): \x1b]0;pwned\x07{\r\n  \"error\": \"bad\u202e\"\r\n}\x1b[2J")
    'API error (500): {\n  "error": "bad"\n}'
"""

import re

__all__ = [
    "BIDI",
    "CONTROL_IN_LINE",
    "CONTROL_IN_TEXT",
    "ESCAPE_SEQUENCE",
    "SURROGATES",
    "holds_control",
    "safe_message",
    "utf8_holds_control",
]

ESCAPE_SEQUENCE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC, to BEL or ST
    r"|\x1b[@-Z\\-_]"  # two-character escapes
    r"|\x9b[0-?]*[ -/]*[@-~]"  # 8-bit CSI
)
"""Terminal escape sequences (CSI ``ESC [ ... final``, OSC ``ESC ] ... BEL|ST``, and
two-character escapes): removed whole before their ``ESC``, so their parameters do not
survive as text."""
BIDI = "\u202a-\u202e\u2066-\u2069"
"""Bidirectional embeddings, overrides and isolates, as a character-class range."""
SURROGATES = "\ud800-\udfff"
"""Lone surrogates: JSON may escape one (``"\\ud800"``) and ``json.loads`` decodes it, but
no encoding can write it, so a terminal, the cache or a UTF-16 count would fail on it (a
valid pair is decoded to one character and never appears here)."""
CONTROL_IN_LINE = re.compile(f"[\\x00-\\x1f\\x7f-\\x9f{BIDI}{SURROGATES}]")
"""What a one-line text (a title) may not hold."""
CONTROL_IN_TEXT = re.compile(f"[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f-\\x9f{BIDI}{SURROGATES}]")
"""What a text of several lines (a snippet, an answer) may not hold: line feeds, carriage
returns and tabs stay."""
_ASCII_IN_LINE = bytes([*range(0x20), 0x7F])
"""The ASCII characters :data:`CONTROL_IN_LINE` matches (all its others are non-ASCII)."""
_ASCII_IN_TEXT = bytes(code for code in _ASCII_IN_LINE if code not in b"\t\n\r")
"""The ASCII characters :data:`CONTROL_IN_TEXT` matches."""
_C1_UTF8 = re.compile(rb"\xc2[\x80-\x9f]")
_BIDI_UTF8 = re.compile(rb"\xe2(?:\x80[\xaa-\xae]|\x81[\xa6-\xa9])")
_SURROGATE_UTF8 = re.compile(rb"\xed[\xa0-\xbf]")
"""The non-ASCII characters both patterns match, in UTF-8 (surrogates as ``surrogatepass``
writes them): C1 controls, the bidi range and the lone surrogates. Each starts with a
literal lead byte (:data:`_C1_LEAD`, :data:`_BIDI_LEAD`, :data:`_SURROGATE_LEAD`)."""
_C1_LEAD = b"\xc2"
_BIDI_LEAD = b"\xe2"
_SURROGATE_LEAD = b"\xed"
"""The lead bytes of the three patterns above: a pattern can match only bytes holding its
lead byte, and ``in`` finds one byte by ``memchr``, several times faster than the engine's
own scan for it, so a pattern is searched only where its byte is. English text with curly
quotes holds ``\xe2`` but seldom ``\xc2`` (a no-break space, ``©``) and almost never
``\xed`` (Hangul, a lone surrogate)."""
_UNSAFE_IN_MESSAGE = re.compile(f"[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f{BIDI}{SURROGATES}]")
"""What an error message may not hold: every control but the line feed and the tab."""
_CARRIAGE_RETURN = re.compile("\r\n?")


def holds_control(text: str, *, multiline: bool = False) -> bool:
    """Whether :data:`CONTROL_IN_LINE` (:data:`CONTROL_IN_TEXT` if ``multiline``) finds one.

    The same answer as the pattern's search, by the cheapest scan that can give it.
    Printable text holds none (every character the patterns match is unprintable): one
    ``str.isprintable`` scan. Text of several lines fails it at its first line break and
    goes straight on, with no copies made to replace the breaks and scan again. ASCII
    text is told by its bytes: deleting the ASCII controls (``bytes.translate``, a table
    lookup a byte) leaves it as long as it was exactly when there is none, at about a
    fifth of the search's cost. Other text is searched by the pattern.

    Args:
        text: The text to check.
        multiline: Line feeds, carriage returns and tabs are allowed.
    """
    if text.isprintable():
        return False
    if text.isascii():
        raw = text.encode("ascii")
        return len(raw.translate(None, _ASCII_IN_TEXT if multiline else _ASCII_IN_LINE)) != len(raw)
    return (CONTROL_IN_TEXT if multiline else CONTROL_IN_LINE).search(text) is not None


def utf8_holds_control(encoded: bytes, *, multiline: bool = False) -> bool:
    """:func:`holds_control` for a text's UTF-8 bytes (``surrogatepass`` for lone surrogates).

    For a caller that encodes the text anyway (``clean_response``'s secret probe reads
    the bytes): the ASCII controls are told by deleting them (``bytes.translate``, a
    table lookup a byte) and the non-ASCII ones by a search for each of their byte
    sequences whose lead byte the text holds (:data:`_C1_LEAD`), about half of what
    ``str.isprintable`` costs on text that is not ASCII (curly quotes and dashes are), and
    with no second scan for printable text with a line break or a no-break space.

    Args:
        encoded: ``text.encode("utf-8", "surrogatepass")``.
        multiline: Line feeds, carriage returns and tabs are allowed.
    """
    ascii_controls = _ASCII_IN_TEXT if multiline else _ASCII_IN_LINE
    if len(encoded.translate(None, ascii_controls)) != len(encoded):
        return True
    if encoded.isascii():
        return False
    return bool(
        (_C1_LEAD in encoded and _C1_UTF8.search(encoded))
        or (_BIDI_LEAD in encoded and _BIDI_UTF8.search(encoded))
        or (_SURROGATE_LEAD in encoded and _SURROGATE_UTF8.search(encoded))
    )


def safe_message(text: str) -> str:
    """``text`` with no terminal escape, control character or bidi override left.

    Line feeds and tabs stay (a quoted JSON body keeps its lines); a carriage return,
    which would let the rest of a line overwrite its start on a terminal, becomes a line
    feed. Text that needs none of it (every message this package writes itself) is
    returned as it is.
    """
    if _UNSAFE_IN_MESSAGE.search(text) is None:
        return text
    if "\x1b" in text or "\x9b" in text:
        text = ESCAPE_SEQUENCE.sub("", text)
    return CONTROL_IN_TEXT.sub("", _CARRIAGE_RETURN.sub("\n", text))
