r"""A key cut by a dump's own edge never shows, even under 8 of its bytes.

Stop 55 read a dump's lines joined, so a key cut at a line's end is found whole on every
line it crosses. A line read alone (a gateway quoting one line of its dump, or each line
in a record of its own, the lines too far apart to be one dump) that starts or ends
inside a short key showed its part in clear when the part was under 8 bytes: no head, no
window of 8, no run is that short. Here a 10-character and a 4-character key are split
over two lines of five dump layouts (``xxd``, ``hexdump -C``, ``od -t x1z``, ``od -c``,
``od -t x2z``'s words), each part under 8 bytes; the lines are quoted by an upstream's
failure on the loopback simulator (Z.AI quotes its body whole) one alone or both far
apart, and the result's text, the raised error (everything reachable from it) and every
DEBUG record are read back: neither line may show its part, in hex or as text.
"""

import logging
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conformance._leaks import library_logs
from tests.conformance._quoting_provider import QUOTING, json_fault, shown_after_failure
from tests.conformance.test_secret_word_dumps import dump, line_bytes
from tests.hex_dumps import hexdump_c, od_c, od_x1, xxd
from websearch_core.redaction import Redactor
from websearch_core.testing import Simulator

LAYOUTS: dict[str, Callable[[bytes, Path], list[str]]] = {
    "xxd": lambda data, _: xxd(data),
    "hexdump_c": lambda data, _: hexdump_c(data),
    "od_t_x1z": lambda data, _: od_x1(data, hex_offsets=True, text=True),
    "od_c": lambda data, _: od_c(data),
    "od_t_x2z": lambda data, scratch: dump(["od", "-t", "x2z"], data, scratch),
}
"""Written by the writers checked against the tools (``tests/hex_dumps.py``), and
``od -t x2z``'s little-endian words by the machine's own ``od``."""
SPLITS = {"10_at_3": ("hunter2Xyz", 3), "10_at_6": ("hunter2Xyz", 6), "4_at_2": ("Qx7w", 2)}
"""A key and how many of its bytes end the first line (the rest open the next)."""
FILLER = "\n".join(f"DEBUG retrying request {index}" for index in range(30))
"""Over 400 characters of other lines: two dump lines this far apart are two dumps."""


def _lines(key: str, cut: int, layout: str, scratch: Path) -> tuple[str, str]:
    """The dump line ending in ``key``'s first ``cut`` bytes, and the next, with the rest."""
    data = b"A" * (32 - cut) + key.encode() + b"\r\nHost: api.example\r\n"
    lines = LAYOUTS[layout](data, scratch)
    return lines[1], lines[2]


def _shows(part: str, line: str, layout: str) -> bool:
    """Whether the dump ``line`` shows ``part``: its bytes (words in order), or as text."""
    columns = line.partition("  ")[2] if ": " in line[:10] else line[8:]
    digits = "".join(character for character in columns if character not in " |><")
    if layout == "od_t_x2z" and part.encode() in line_bytes(line):
        return True
    if layout == "od_c":  # a character every four columns
        return part.lower() in "".join(columns.split()).lower()
    return part.encode().hex() in digits.lower() or part.lower() in columns.lower()


@pytest.mark.parametrize("framing", ["first_alone", "second_alone", "apart"])
@pytest.mark.parametrize("split", sorted(SPLITS))
@pytest.mark.parametrize("layout", sorted(LAYOUTS))
async def test_a_key_cut_by_a_dumps_edge_shows_no_part(
    layout: str, split: str, framing: str, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    """Each line read alone shows none of its part of the key; the rest stays as written.

    Failed before: 45 of 45 (the part under 8 bytes shown on the line holding it).
    """
    caplog.set_level(logging.DEBUG)
    key, cut = SPLITS[split]
    first, second = _lines(key, cut, layout, tmp_path)
    head, tail = key[:cut], key[cut:]
    assert _shows(head, first, layout) and _shows(tail, second, layout), "both shown as written"
    quoted = {
        "first_alone": [first],
        "second_alone": [second],
        "apart": [first, FILLER, second],
    }[framing]
    async with Simulator([QUOTING]) as sim:
        fault = json_fault(500, "upstream refused:\n" + "\n".join(quoted))
        seen = await shown_after_failure(key, fault, sim)
    everything = "\n".join([*seen, *library_logs(caplog.records)])
    assert "upstream refused" in seen[0], "the failure should quote the upstream's message"
    shown = everything.replace("\\n", "\n").splitlines()
    offsets = {line.split()[0] for line in quoted if line is not FILLER}
    held = [line for line in shown if line.split()[:1] and line.split()[0] in offsets]
    assert held, "the dump's lines are quoted, their offsets as written"
    assert not [line for line in held if _shows(head, line, layout) or _shows(tail, line, layout)]
    squeezed = "".join(everything.split())  # od -c writes a character every four columns
    if first in quoted:
        assert "A" * (16 - cut) in squeezed, "the padding before the key stays shown"
    if second in quoted:
        assert "Host:" in squeezed, "the request's bytes after the key stay shown"


@pytest.mark.parametrize("layout", ["xxd", "hexdump_c"])
def test_guard_one_byte_at_a_lone_lines_edge_stays(layout: str) -> None:
    """A guard (passed on main): a lone line's single edge byte is never masked.

    One byte equal to a key's first (or last) is any text's: a mask there would fire on
    ordinary bytes in most dumps (keys59 counted 256 lines of 2,614 in 126 of 200
    requests' dumps) and tell anyone who knows those bytes the key's own first or last
    byte. From two bytes on, the key's piece is masked (the second case).
    """
    redactor = Redactor(["hunter2Xyz"])
    ordinary = LAYOUTS[layout](b"GET /search?q=ah" + b"ello HTTP/1.1\r\n", Path())[0]
    cut = LAYOUTS[layout](b"GET /search?q=hu" + b"nter2Xyz HTTP/1.1\r\n", Path())[0]
    assert ordinary.endswith(("q=ah", "q=ah|")) and cut.endswith(("q=hu", "q=hu|"))
    framed = f"{FILLER}\n{ordinary}\n{FILLER}"
    assert redactor(framed) == framed
    assert "q=hu" not in redactor(f"{FILLER}\n{cut}\n{FILLER}")
