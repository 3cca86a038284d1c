r"""The forms an upstream's error body writes a key in besides its own characters.

A failure's body is often a page or a log line the upstream (or a gateway in front of
it) built from our request: an HTML error page escapes characters as entities
(``&#115;``, ``&#x73;``, ``&lowbar;``, even ``&amp;#45;`` escaped twice), a gateway
percent-encodes every byte (``%73%6B``), a JSON error that quotes the request body
escapes some characters as ``\u00XX``, a ``Basic`` header is base64 of ``user:key`` for
a user the library never saw, and some providers print a key by its two ends
(``sk-abc...9xyz``). :mod:`websearch_core.redaction` masks each of these; this module
only knows the forms (pure functions, no secrets kept): a decoded reading of a text that
says where each of its characters came from, the base64 characters a key fixes at each
byte alignment, and the pattern of a key shown by its ends.
"""

import base64
import re
from html.entities import html5

__all__ = ["ENDS_SHOWN", "DecodedText", "base64_cores", "decoded", "ends_pattern"]

DECODE_LAYERS = 3
"""How many escapes deep a character is read (``&amp;#45;`` is two; ``%2526`` two):
three covers a body escaped for HTML inside JSON inside a URL."""
ENDS_SHOWN = 8
"""A key shown by its two ends (``sk-a...wxyz``) is masked when the ends together hold at
least this many of its characters: as many as a key's head alone (``PREFIX_LENGTH``).
A provider's hint, its type prefix and last four (``sk-...wxyz``, seven), stays: it
tells a user which key failed, and four random characters say nothing more of it."""
_MOST_SHOWN = 16
"""The longest end of a key the pattern reads (a longer one holds a run the runs mask)."""
_MARKS = r"(?:\.{2,}|\u2026|\*{2,}|\u2022{2,})"
"""What stands for the hidden middle: dots, an ellipsis, asterisks or bullets."""
_ESCAPE = re.compile(
    r"&#(?:[xX](?P<hex>[0-9a-fA-F]{1,6})|(?P<dec>[0-9]{1,7}));?"
    r"|&(?P<name>[A-Za-z][A-Za-z0-9]{1,31};)"
    r"|%(?P<byte>[0-9a-fA-F]{2})"
    r"|\\u(?P<unit>[0-9a-fA-F]{4})"
    r"|\\(?P<char>[\\/\"'])"
)
r"""One escaped character: an HTML character reference (numeric or named), a URL's
``%XX`` (an ASCII byte: a key is ASCII), a JSON ``\uXXXX`` or a backslash before a
character that needs none."""


class DecodedText:
    """A text with its escapes read, and where in the text each read character stood.

    Args:
        text: The text as written.

    Attributes:
        text: The reading (equal to the text when it holds no escape).
        changed: Whether any escape was read.
    """

    __slots__ = ("_ends", "_starts", "changed", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.changed = False
        self._starts: list[int] = list(range(len(text)))
        self._ends: list[int] = list(range(1, len(text) + 1))
        for _ in range(DECODE_LAYERS):
            if not self._read_once():
                break
            self.changed = True

    def source(self, start: int, end: int) -> tuple[int, int]:
        """The span of the written text that ``self.text[start:end]`` was read from."""
        return self._starts[start], self._ends[end - 1]

    def _read_once(self) -> bool:
        """Read one layer of escapes; whether there was one."""
        pieces: list[str] = []
        starts: list[int] = []
        ends: list[int] = []
        done = 0
        for found in _ESCAPE.finditer(self.text):
            read = _unescaped(found)
            if read is None:
                continue
            pieces.append(self.text[done : found.start()])
            starts += self._starts[done : found.start()]
            ends += self._ends[done : found.start()]
            pieces.append(read)
            starts += [self._starts[found.start()]] * len(read)
            ends += [self._ends[found.end() - 1]] * len(read)
            done = found.end()
        if not pieces:
            return False
        pieces.append(self.text[done:])
        self._starts = starts + self._starts[done:]
        self._ends = ends + self._ends[done:]
        self.text = "".join(pieces)
        return True


def decoded(text: str) -> DecodedText | None:
    """``text`` read with its escapes decoded, or ``None`` when it holds none.

    Example:
        >>> reading = decoded("key &#115;k%2D&amp;#97;b!")
        >>> reading.text, reading.source(4, 8)
        ('key sk-ab!', (4, 23))
    """
    if not ("&" in text or "%" in text or "\\" in text):
        return None
    reading = DecodedText(text)
    return reading if reading.changed else None


def _unescaped(found: re.Match[str]) -> str | None:
    """The character(s) one escape stands for, or ``None`` when it stands for none."""
    number = found["hex"] or found["dec"] or found["unit"]
    if number is not None:
        code = int(number, 16 if found["dec"] is None else 10)
        return chr(code) if 0 < code <= 0x10FFFF else None
    if found["byte"] is not None:
        code = int(found["byte"], 16)
        return chr(code) if code < 0x80 else None
    if found["name"] is not None:
        return html5.get(found["name"])
    return found["char"]


def base64_cores(secret: str) -> tuple[str, ...]:
    """The base64 characters ``secret``'s bytes alone decide, at each of the three alignments.

    Inside a longer base64 text (``Basic`` of ``user:key``, a whole request body encoded)
    the secret starts at a byte offset of 0, 1 or 2 modulo 3, and each alignment encodes it
    differently; the characters whose six bits all come from the secret are the same
    whatever surrounds it. Each core in the standard and the URL-safe alphabet.

    Example:
        >>> base64_cores("abcdef")
        ('YWJjZGVm', 'YWJjZGVm', 'FiY2RlZ', 'FiY2RlZ', 'hYmNkZW', 'hYmNkZW')
    """
    raw = secret.encode("utf-8")
    cores: list[str] = []
    for shift in range(3):
        padded = b"\0" * shift + raw
        start, end = -(-8 * shift // 6), 8 * len(padded) // 6
        for encode in (base64.b64encode, base64.urlsafe_b64encode):
            cores.append(encode(padded).decode("ascii")[start:end])
    return tuple(cores)


def ends_pattern(secret: str) -> str:
    """A pattern for ``secret`` shown by its ends: some head, a mark, some tail.

    The head (group ``head``) is the secret's first characters and the tail (group
    ``tail``) its last ones, one or more and at most :data:`_MOST_SHOWN` each; neither may
    go on into a longer word. A tail alone (``...5b41d8``) is not taken: a key's inside
    may be a word (the simulator's ``sim-key-perplexity``), and ``...perplexity`` is
    ordinary text; with the key's first character before the mark it is not. Whether
    enough is shown (:data:`ENDS_SHOWN`) is the caller's to ask of the groups' lengths.

    Example:
        >>> found = re.search(ends_pattern("sk-abcdef0123456789"), "key sk-ab...789 is wrong")
        >>> found["head"], found["tail"]
        ('sk-ab', '789')
    """
    head = secret[:_MOST_SHOWN]
    tail = secret[-_MOST_SHOWN:]
    growing = re.escape(head[0]) + "".join(f"(?:{re.escape(char)}" for char in head[1:])
    growing += ")?" * (len(head) - 1)
    shrinking = "(?:" * (len(tail) - 1) + ")?".join(map(re.escape, tail))
    return (
        rf"(?<![A-Za-z0-9])(?P<head>{growing}){_MARKS}"
        rf"(?P<tail>{shrinking})(?![A-Za-z0-9])"
    )
