r"""A hex dump's columns read across its lines: the bytes' hex, and the bytes as text.

``xxd``, ``hexdump -C`` and ``od`` write 16 bytes a line: the offset, the bytes' hex
(``od -t x1``), the same bytes as text (``.`` for an unprintable one; ``od -t x1z``
between ``>`` and ``<``), or the bytes as characters alone, four columns each
(``od -c``: ``   s   k   -``, ``  \n``, `` 303``). A key the dump holds is cut at each
line's end in both columns: a line holding fewer than a run's worth of its bytes
(:data:`~.echo_runs.RUN_BYTES` in hex, ``redaction.RUN_LENGTH`` as text) shows them in
clear when each line is read alone, as the last 10 bytes of a 42-byte key on its third
line are. :func:`dump_readings` joins the hex columns of a block of dump lines into one
text, and their text columns into another, each saying where every character stood, so
the key is found whole and masked on every line it crosses, the offsets and the line's
layout kept. ``od -t x2``/``x4`` and plain ``hexdump`` write little-endian words, each
word's bytes last first, and ``od --endian=big`` the same words in order: read back both
ways. Lines with a log's line between them are one dump when the offsets go on, and a
log's prefix before every line (a timestamp, a level) is read past. Pure: no secret is
known here.
"""

import re
from collections.abc import Callable, Sequence

__all__ = ["ColumnReading", "dump_readings", "line_pieces"]

_LINE_START = r"(?:\A|(?<=\n)|(?<=\\n))"
"""A dump line opens a text or follows a line break, a real one or one a JSON body or a
log line writes as ``\n``."""
_LINE_END = r"(?=\r?\n|\\r|\\n|\Z)"
_XXD = (
    rf"[0-9A-Fa-f]{{6,8}}:(?P<xxd>(?: [0-9A-Fa-f]{{2,16}})+)"
    rf" {{2,}}(?P<xxd_text>[^\n]{{1,64}}?){_LINE_END}"
)
"""An ``xxd`` line: ``00000010: 5439 624c ...  T9bL...``, groups of any even width (``-g``)."""
_HEXDUMP = (
    rf"[0-9A-Fa-f]{{7,8}} (?P<hexdump>(?: {{1,2}}[0-9A-Fa-f]{{2}})+)"
    rf" +\|(?P<hexdump_text>[^\n]{{0,64}})\|\s*?{_LINE_END}"
)
"""A ``hexdump -C`` line: ``00000010  54 39 62 4c ...  37 48 ...  |T9bL...|``."""
_OD = (
    rf"[0-9A-Fa-f]{{6,8}}(?P<od>(?: [0-9A-Fa-f]{{2}}){{1,16}})"
    rf"(?: +>(?P<od_text>[^\n]{{0,16}}?)<)?[ \t]*{_LINE_END}"
)
"""An ``od -t x1`` line (``-A x`` or the octal offsets): ``0000020 54 39 62 4c ...``, with
``z`` the text after: ``  >T9bL...<``."""
_OD_CHARACTERS = (
    rf"[0-9A-Fa-f]{{6,8}}"
    rf"(?P<odc>(?: {{3}}\S| {{4}}| {{2}}\\[0abfnrtv]| [0-7]{{3}}| {{2}}\*\*){{1,16}}){_LINE_END}"
)
"""An ``od -c`` line: each byte four columns, its character right-aligned (a space is
four spaces), a C escape (``  \n``), three octal digits (`` 303``), or ``**`` where a
character of several bytes goes on."""
_OD_WORDS = (
    rf"[0-9A-Fa-f]{{6,8}}(?P<words>(?: {{1,4}}[0-9A-Fa-f]{{4}}){{1,8}}"
    rf"|(?: {{1,4}}[0-9A-Fa-f]{{8}}){{1,4}}|(?: {{1,4}}[0-9A-Fa-f]{{16}}){{1,2}})"
    rf"(?: +>(?P<words_text>[^\n]{{0,16}}?)<)?[ \t]*{_LINE_END}"
)
"""An ``od -t x2`` (``x4``, ``x8``) or plain ``hexdump`` (``-x``) line: the bytes as
little-endian words, ``0000000 7541 6874 ...`` for ``Auth``, each word's bytes written
last first, with ``z`` the text after; with ``--endian=big``, ``4175 7468``. A key's hex
shows in no order a reader of runs knows, or split at each line's end:
:func:`_words_readings` puts each word's bytes back in the order they were sent."""
_PREFIX = r"(?P<prefix>[^\n\\]{0,80}?[ \t:\"'])??"
"""What a log writes before each line it holds (``2026-12-07 12:00:00 DEBUG ``, Python's
``DEBUG:name:``): tried last, shortest first, so a line with none is read as before; no
backslash, so it never reaches past a line break a JSON body writes as ``\n``."""
_LINE = re.compile(
    f"{_LINE_START}{_PREFIX}(?:{_XXD}|{_HEXDUMP}|{_OD}|{_OD_WORDS}|{_OD_CHARACTERS})"
)
_HINT = re.compile(
    r"[0-9A-Fa-f]{6,8}(?:(?::| {2}) ?[0-9A-Fa-f]{2}| [0-9A-Fa-f]{2} |   \S | {1,4}[0-9A-Fa-f]{4})"
)
"""What every dump line holds (an ``od`` line: its offset, one space and a byte's hex, a
word's, or three and a character): tried first, so a text with no dump costs one scan."""
_MOST_BETWEEN = 400
"""The most text that may stand between two lines of one dump (a log's line or a few):
the next line must go on at the offset the previous one ends at."""
_WORD_GAP = 5
"""The farthest apart two digits of one line's words stand (``hexdump -x``'s four spaces);
the next line's stand past its offset, 7 characters or more away."""
_KINDS = ("xxd", "hexdump", "od")
"""The layouts whose hex column is written in the order the bytes were sent."""
_ESCAPES = {"0": "\0", "a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}
"""The bytes ``od -c`` writes as a C escape, by the letter after the backslash."""
_FIELD = 4
"""The columns ``od -c`` gives each byte."""
_DIGITS = re.compile(r"[0-9A-Fa-f]+")
_BREAK = re.compile(r"\r?\n|\\r\\n|\\n")
"""A line break, real or written ``\\n``, that a mask never takes."""
_OFFSET = re.compile(r"[0-9A-Fa-f]{4,8}(?::[ \t]|[ \t]{2,})")
"""A dump line's offset, which opens a line a mask goes on into."""
_WIDEST_GAP = 3
"""The farthest apart two characters of one line's column stand (``hexdump -C``'s middle
gap); the next line's stand past its offset, 8 characters or more away."""
_FEWEST_LINES = 1
"""A block of one line is read too: the plain rules (:mod:`.hex_groups`) read its hex as
written, but a dump quoted one line alone (or a line a log record of its own) may start
or end inside a key, and only a column read whole says where the dump's edges are
(``redaction``'s edge pieces): a lone line's columns are read for their edges only."""


class ColumnReading:
    """One column of a block of dump lines joined, and where each character stood.

    Attributes:
        text: The column's characters, line after line, nothing between them.
        lone: Whether the column is one line's, which the plain rules read as written
            already (:mod:`.hex_groups`): only its edges are read there, where a key
            cut by the dump's own start or end stands.
    """

    __slots__ = ("_at", "_gap", "lone", "text")

    def __init__(
        self,
        text: str,
        at: Sequence[int] | Callable[[], Sequence[int]],
        gap: int = _WIDEST_GAP,
        *,
        lone: bool = False,
    ) -> None:
        self.text = text
        self._at = at  # a lone line's are worked out only once something is found there
        self._gap = gap
        self.lone = lone

    def pieces(self, start: int, end: int) -> list[tuple[int, int]]:
        r"""The spans of the dump that ``self.text[start:end]`` was read from, one a line.

        A run across lines is masked on each line it crosses, so the offsets and the
        other column between stay as the dump wrote them.

        Example:
            >>> reading = dump_readings("000000: 7a7a 7a7a  zzzz\n000004: 7a7a 7a7a  zzzz")[0]
            >>> reading.text, reading.pieces(4, 12)
            ('7a7a7a7a7a7a7a7a', [(13, 17), (32, 36)])
        """
        pieces: list[tuple[int, int]] = []
        # Sorted: a word's bytes (``od -t x2``) are read in another order than written.
        at = self._at() if callable(self._at) else self._at
        places = sorted(at[start:end])
        first = last = places[0]
        for place in places[1:]:
            if place - last > self._gap:  # another line's
                pieces.append((first, last + 1))
                first = place
            last = place
        pieces.append((first, last + 1))
        return pieces


def dump_readings(text: str) -> list[ColumnReading]:
    r"""The hex column and the text column of each block of dump lines in ``text``.

    A block is one dump line or more in a row (of one kind or the other).

    Example:
        >>> dump = "00000000: 736b 2d61  sk-a\n00000004: 6263 6465  bcde"
        >>> [reading.text for reading in dump_readings(dump)]
        ['736b2d6162636465', 'sk-abcde']
    """
    if _HINT.search(text) is None:
        return []
    readings: list[ColumnReading] = []
    block: list[re.Match[str]] = []
    for line in _LINE.finditer(text):
        if block and not _follows(text, block[-1], line):
            readings.extend(_block_readings(block))
            block = []
        block.append(line)
    readings.extend(_block_readings(block))
    return readings


def _follows(text: str, previous: re.Match[str], line: re.Match[str]) -> bool:
    r"""Whether ``line`` goes on from the dump line ``previous``.

    The next line, or one a few lines of other text later (a log's line written between
    two of a dump's) whose offset is the previous line's plus the bytes it showed: a
    dump's offsets count on as no other text's do.

    Example:
        >>> dump = "00000000: 736b 2d61  sk-a\nDEBUG sent\n00000004: 6263 6465  bcde"
        >>> [reading.text for reading in dump_readings(dump)]
        ['736b2d6162636465', 'sk-abcde']
    """
    between = text[previous.end() : line.start()]
    if between in ("\n", "\r\n", "\\n", "\\r\\n"):
        return True
    if len(between) > _MOST_BETWEEN:
        return False
    before = _DIGITS.match(text, _offset_at(previous))
    after = _DIGITS.match(text, _offset_at(line))
    if before is None or after is None:
        return False
    shown = _bytes_shown(previous)
    return any(
        _number(after.group(), base) == _number(before.group(), base) + shown
        for base in (16, 8)
        if _number(before.group(), base) >= 0
    )


def _offset_at(line: re.Match[str]) -> int:
    """Where a dump line's offset starts: past the log's prefix, if one is written."""
    return line.start() if line["prefix"] is None else line.end("prefix")


def _number(digits: str, base: int) -> int:
    """``digits`` as a number in ``base``, or -1 when they are not digits of it."""
    try:
        return int(digits, base)
    except ValueError:
        return -1


def _bytes_shown(line: re.Match[str]) -> int:
    """How many bytes a dump line shows: what its offset and the next line's differ by."""
    if line["odc"] is not None:
        return len(line["odc"]) // _FIELD
    kind = next(name for name in ("words", *_KINDS) if line[name] is not None)
    return sum(len(group) for group in _DIGITS.findall(line[kind])) // 2


def _block_readings(block: list[re.Match[str]]) -> list[ColumnReading]:
    """A block's hex column and text column, each joined, from one line on.

    ``od -c`` lines are read apart from the others (:func:`_characters_reading`), from
    one line on.
    """
    characters = [line for line in block if line["odc"] is not None]
    words = [line for line in block if line["words"] is not None]
    block = [line for line in block if line["odc"] is None and line["words"] is None]
    readings = [_characters_reading(characters)] if characters else []
    if words:
        readings += _words_readings(words)
    if len(block) < _FEWEST_LINES:
        return readings
    if len(block) == 1:
        return readings + _lone_readings(block[0])
    digits: list[str] = []
    digits_at: list[int] = []
    shown: list[str] = []
    shown_at: list[int] = []
    for line in block:
        kind = next(name for name in _KINDS if line[name] is not None)
        column_start = line.start(kind)
        for group in _DIGITS.finditer(line[kind]):
            digits.append(group.group())
            digits_at.extend(range(column_start + group.start(), column_start + group.end()))
        text = line[f"{kind}_text"]
        if text is not None:  # od without z writes none
            text_start = line.start(f"{kind}_text")
            shown.append(text)
            shown_at.extend(range(text_start, line.end(f"{kind}_text")))
    readings.append(ColumnReading("".join(digits), digits_at))
    if shown:
        readings.append(ColumnReading("".join(shown), shown_at))
    return readings


def _lone_readings(line: re.Match[str]) -> list[ColumnReading]:
    """A lone line's hex column and text column, each one string, its places worked out late.

    Most lone lines hold no key's edge, and a list of every digit's place cost a lone
    line's mask more than the rest of its reading did: the text column's places are a
    range, the hex column's found only when asked.

    Example:
        >>> hex_column, text_column = dump_readings("00000000: 736b 2d61  sk-a")
        >>> hex_column.lone, hex_column.pieces(4, 8), text_column.pieces(2, 4)
        (True, [(15, 19)], [(23, 25)])
    """
    kind = next(name for name in _KINDS if line[name] is not None)
    column_start = line.start(kind)
    groups = list(_DIGITS.finditer(line[kind]))

    def digits_at() -> list[int]:
        return [
            place
            for group in groups
            for place in range(column_start + group.start(), column_start + group.end())
        ]

    readings = [ColumnReading("".join(group.group() for group in groups), digits_at, lone=True)]
    if line[f"{kind}_text"] is not None:  # od without z writes none
        shown_at = range(line.start(f"{kind}_text"), line.end(f"{kind}_text"))
        readings.append(ColumnReading(line[f"{kind}_text"], shown_at, lone=True))
    return readings


def _words_readings(lines: list[re.Match[str]]) -> list[ColumnReading]:
    """Words' bytes in the order sent, both ways a word may hold them, and the text (``z``).

    Little-endian (``od -t x2``, plain ``hexdump``: each word's last byte written first)
    and big-endian (``od --endian=big``: as sent); a line does not say which, and the
    wrong reading holds no key's hex. Read from one line on: no other rule reads words.

    Example:
        >>> little, big = dump_readings("0000000 6b73 612d  >sk-a<")[:2]
        >>> little.text, little.pieces(2, 6), big.text
        ('736b2d61', [(8, 10), (15, 17)], '6b73612d')
    """
    readings = [_words_reading(lines, little=True), _words_reading(lines, little=False)]
    shown: list[str] = []
    shown_at: list[int] = []
    for line in lines:
        if line["words_text"] is not None:
            shown.append(line["words_text"])
            shown_at.extend(range(line.start("words_text"), line.end("words_text")))
    if shown:
        readings.append(ColumnReading("".join(shown), shown_at))
    return readings


def _words_reading(lines: list[re.Match[str]], *, little: bool) -> ColumnReading:
    """The words' bytes of ``lines``, each word's read last byte first when ``little``."""
    digits: list[str] = []
    digits_at: list[int] = []
    for line in lines:
        column_start = line.start("words")
        for group in _DIGITS.finditer(line["words"]):
            word = group.group()
            order = range(len(word) - 2, -1, -2) if little else range(0, len(word), 2)
            for byte in order:
                digits.append(word[byte : byte + 2])
                at = column_start + group.start() + byte
                digits_at.extend((at, at + 1))
    return ColumnReading("".join(digits), digits_at, gap=_WORD_GAP)


def _characters_reading(lines: list[re.Match[str]]) -> ColumnReading:
    r"""``od -c`` lines' bytes as the characters they are, each at its field's last column.

    A field's escape is read as its byte (``\n``), three octal digits as theirs, ``**``
    (a character of several bytes goes on) as nothing a key holds.

    Example:
        >>> reading = dump_readings("0000000   s   k  \\n 303")[0]
        >>> reading.text, reading.pieces(0, 2)
        ('sk\n\xc3', [(10, 15)])
    """
    shown: list[str] = []
    shown_at: list[int] = []
    for line in lines:
        column_start = line.start("odc")
        fields = line["odc"]
        for index in range(0, len(fields), _FIELD):
            field = fields[index : index + _FIELD]
            written = field.strip() or " "
            if len(written) == 3:
                shown.append(chr(int(written, 8)))
            elif written.startswith("\\") and len(written) == 2:
                shown.append(_ESCAPES[written[1]])
            else:
                shown.append(written if len(written) == 1 else "\0")
            shown_at.append(column_start + index + _FIELD - 1)
    return ColumnReading("".join(shown), shown_at, gap=_FIELD)


def line_pieces(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    r"""``spans`` cut at each line break they cross, the next line's offset left out.

    A grouped reading (:mod:`.hex_groups`) finds a key's hex across the lines of a dump
    as one run; masked whole, the dump would lose its line breaks and offsets, and a
    reader the shape of what was there. Each line is masked on its own instead.

    Example:
        >>> line_pieces("ab 00000010: cd\n0020: ef gh", [(0, 24)])
        [(0, 15), (22, 24)]
    """
    cut: list[tuple[int, int]] = []
    for start, end in spans:
        for line_break in _BREAK.finditer(text, start, end):
            if line_break.start() > start:
                cut.append((start, line_break.start()))
            start = line_break.end()
            offset = _OFFSET.match(text, start, end)
            if offset is not None:
                start = offset.end()
        if end > start:
            cut.append((start, end))
    return cut
