"""Bytes as ``xxd`` and ``hexdump -C`` print them, for the tests of keys in dumps.

An upstream's debug text or a user's pasted log may quote a request as a hex dump, the
key's bytes spread over lines and columns; the redaction tests write such dumps of text
holding a key, in the two layouts the redaction reads (:mod:`websearch_core.dump_lines`).
"""

from typing import Final

__all__ = ["SHOWN", "WIDTH", "hexdump_c", "line_bytes", "xxd"]

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
