"""Bytes as ``xxd`` and ``hexdump -C`` print them, for the tests of keys in dumps.

An upstream's debug text or a user's pasted log may quote a request as a hex dump, the
key's bytes spread over lines and columns; the redaction tests write such dumps of text
holding a key, in the layouts the redaction reads (:mod:`websearch_core.dump_lines`):
``xxd``, ``hexdump -C``, and ``od`` as ``-t x1`` (with ``z``, the text after) and ``-c``.
"""

from typing import Final

__all__ = ["SHOWN", "WIDTH", "hexdump_c", "line_bytes", "od_c", "od_x1", "xxd"]

WIDTH: Final = 16
"""Bytes a line, as both tools write by default."""
SHOWN: Final = {code: chr(code) if 32 <= code < 127 else "." for code in range(256)}
"""How both tools show a byte in the text column (``str.translate``'s table)."""


def line_bytes(data: bytes) -> list[bytes]:
    """The bytes each line of a dump of ``data`` shows."""
    return [data[start : start + WIDTH] for start in range(0, len(data), WIDTH)]


def xxd(data: bytes, group: int = 2) -> list[str]:
    """``data`` as ``xxd -g <group>`` prints it: offset, the hex in groups, the text."""
    lines = []
    width = 2 * group
    column = 2 * WIDTH + (WIDTH - 1) // group
    for start, chunk in zip(range(0, len(data), WIDTH), line_bytes(data), strict=True):
        digits = chunk.hex()
        groups = " ".join(digits[i : i + width] for i in range(0, len(digits), width))
        shown = chunk.decode("latin-1").translate(SHOWN)
        lines.append(f"{start:08x}: {groups:<{column}}  {shown}")
    return lines


def hexdump_c(data: bytes) -> list[str]:
    """``data`` as ``hexdump -C`` prints it: offset, two halves of hex pairs, ``|text|``."""
    lines = []
    for start, chunk in zip(range(0, len(data), WIDTH), line_bytes(data), strict=True):
        pairs = [f"{byte:02x}" for byte in chunk]
        left, right = " ".join(pairs[:8]), " ".join(pairs[8:])
        shown = chunk.decode("latin-1").translate(SHOWN)
        lines.append(f"{start:08x}  {left:<23}  {right:<23}  |{shown}|")
    return lines


_OD_ESCAPES: Final = {
    0: "\\0",
    7: "\\a",
    8: "\\b",
    9: "\\t",
    10: "\\n",
    11: "\\v",
    12: "\\f",
    13: "\\r",
}
"""The bytes ``od -c`` writes as a C escape."""


def _od_offset(start: int, hex_offsets: bool) -> str:
    """A line's offset as ``od`` writes it: 7 octal digits, or 6 hex with ``-A x``."""
    return f"{start:06x}" if hex_offsets else f"{start:07o}"


def od_x1(data: bytes, *, hex_offsets: bool = False, text: bool = False) -> list[str]:
    """``data`` as ``od -t x1`` prints it (``-A x``: ``hex_offsets``; ``z``: ``text``)."""
    lines = []
    for start, chunk in zip(range(0, len(data), WIDTH), line_bytes(data), strict=True):
        pairs = "".join(f" {byte:02x}" for byte in chunk)
        offset = _od_offset(start, hex_offsets)
        line = offset + pairs
        if text:
            shown = chunk.decode("latin-1").translate(SHOWN)
            line = f"{line:<{len(offset) + 3 * WIDTH}}  >{shown}<"
        lines.append(line)
    lines.append(_od_offset(len(data), hex_offsets))
    return lines


def od_c(data: bytes) -> list[str]:
    """``data`` as ``od -c`` prints it: each byte 4 columns, a character, escape or octal."""
    lines = []
    for start, chunk in zip(range(0, len(data), WIDTH), line_bytes(data), strict=True):
        fields = []
        for byte in chunk:
            if byte in _OD_ESCAPES:
                fields.append(f"{_OD_ESCAPES[byte]:>4}")
            elif 32 <= byte < 127:
                fields.append(f"{chr(byte):>4}")
            else:
                fields.append(f" {byte:03o}")
        lines.append(_od_offset(start, False) + "".join(fields))
    lines.append(_od_offset(len(data), False))
    return lines
