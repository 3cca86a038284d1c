r"""A key in a dump of little-endian words (``od -t x2``/``x4``, plain ``hexdump``) never shows.

Stop 54 read ``xxd``, ``hexdump -C`` and ``od -t x1``/``-c`` dumps across their lines;
``od -t x2`` and ``x4``, and ``hexdump`` without ``-C`` (its default, and ``-x``), write
the bytes as little-endian words: ``7541 6874`` for ``Auth``, each word's bytes last
first. No reader put them back in order, so the key's hex was found on no line and every
line showed its part in clear. The dumps are made here by the machine's own ``od`` and
``hexdump`` (a test is skipped where one is missing), quoted by an upstream's failure
through the loopback simulator (Z.AI quotes its body whole); the result's text, the
raised error (everything reachable from it) and every DEBUG record are read back as dump
lines, and no line may hold 3 of the key's bytes in a row in either column.

A dump broken up by other text (a log's line between two of its lines) was read line by
line: the key cut at a line's end showed its part on each. The lines of one dump are
known by their offsets, each the last one's plus the bytes it showed.
"""

import logging
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conformance._leaks import library_logs
from tests.conformance._quoting_provider import QUOTING, json_fault, shown_after_failure
from tests.conformance.test_secret_audit import sentinel
from tests.hex_dumps import od_x1, xxd
from websearch_core.testing import Simulator

COMMANDS = {
    "od_t_x2": ["od", "-t", "x2"],
    "od_A_x_t_x4": ["od", "-A", "x", "-t", "x4"],
    "od_t_x2z": ["od", "-t", "x2z"],
    "hexdump": ["hexdump"],
    "hexdump_x": ["hexdump", "-x"],
}
KEYS = {"token": sentinel(QUOTING), "short": "Zq81mWx4"}
"""The simulator's sentinel (30 characters) and a short key of 8."""
_WORD = re.compile(r"(?<![0-9A-Fa-f*])[0-9A-Fa-f]{2,8}(?![0-9A-Fa-f*])")
_LINE = re.compile(r"^[0-9A-Fa-f]{6,8}((?:\s+\S+)+?)(?:\s+>.*<)?\s*$")


def dump(command: list[str], data: bytes, scratch: Path) -> list[str]:
    """``data`` as the real ``command`` prints it (skipped where the tool is missing)."""
    if shutil.which(command[0]) is None:
        pytest.skip(f"{command[0]} is not on this machine")
    path = scratch / "request.bin"
    path.write_bytes(data)
    done = subprocess.run([*command, str(path)], capture_output=True, text=True, check=True)
    return done.stdout.splitlines()


def line_bytes(line: str, *, words: bool = True) -> bytes:
    """The bytes a dump line's whole groups say, in the order sent (a masked group: none).

    Args:
        line: One line of the dump.
        words: Whether its groups are little-endian words (else bytes in order).
    """
    found = _LINE.match(line.replace(": ", " ", 1))
    if found is None:
        return b""
    groups = [bytes.fromhex(group) for group in _WORD.findall(found[1]) if len(group) % 2 == 0]
    return b"".join(group[::-1] if words else group for group in groups)


def key_pieces(key: str) -> list[bytes]:
    """Every 3 bytes in a row of ``key``."""
    raw = key.encode()
    return [raw[start : start + 3] for start in range(len(raw) - 2)]


def shown_pieces(key: str, texts: list[str], *, words: bool = True) -> list[str]:
    """The key's 3-byte pieces a dump line of ``texts`` shows (hex, or its text column)."""
    found = []
    for line in "\n".join(texts).replace("\\n", "\n").splitlines():
        if _LINE.match(line.replace(": ", " ", 1)) is None:
            continue  # no dump line: a traceback's source line may hold any word
        held = line_bytes(line, words=words)
        text = line.partition(">")[2] if words else line.partition("  ")[2]
        found += [piece.decode() for piece in key_pieces(key) if piece in held]
        found += [piece.decode() for piece in key_pieces(key) if piece.decode() in text]
    return found


@pytest.mark.parametrize("status", [401, 500])
@pytest.mark.parametrize("key_name", sorted(KEYS))
@pytest.mark.parametrize("command", sorted(COMMANDS))
async def test_a_word_dump_shows_none_of_the_keys_bytes_on_any_line(
    command: str, key_name: str, status: int, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    """Each real word dump of a request with the key: no line shows 3 of its bytes.

    Failed before: 20 of 20 (every line's words read by nothing).
    """
    caplog.set_level(logging.DEBUG)
    key = KEYS[key_name]
    request = f"Authorization: Bearer {key}\r\nHost: api.example\r\n\r\n".encode()
    lines = dump(COMMANDS[command], request, tmp_path)
    assert shown_pieces(key, lines), "the dump as the tool writes it shows the key"
    message = "upstream refused:\n" + "\n".join(lines)
    async with Simulator([QUOTING]) as sim:
        seen = await shown_after_failure(key, json_fault(status, message), sim)
    assert "upstream refused" in seen[0], "the failure should quote the upstream's message"
    assert lines[0] in seen[0], "the dump's first line (no key in it) is shown as written"
    assert shown_pieces(key, [*seen, *library_logs(caplog.records)]) == []


INTERRUPTED = {
    "xxd": lambda data, _: xxd(data),
    "od_t_x1": lambda data, _: od_x1(data),
    "od_t_x2": lambda data, scratch: dump(["od", "-t", "x2"], data, scratch),
}
"""Dumps a log's line is written into: ``xxd`` and ``od -t x1`` by the writers checked
against the tools (``tests/hex_dumps.py``), ``od -t x2`` by the machine's own."""


@pytest.mark.parametrize("status", [401, 500])
@pytest.mark.parametrize("key_name", sorted(KEYS))
@pytest.mark.parametrize("layout", sorted(INTERRUPTED))
async def test_a_dump_with_log_lines_between_shows_none_of_the_key(
    layout: str, key_name: str, status: int, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    """A log line between each two lines of a dump: no line shows 3 of the key's bytes.

    Failed before: 12 of 12 (each line read alone holds too little of the key).
    """
    caplog.set_level(logging.DEBUG)
    key = KEYS[key_name]
    # After 11 bytes: the short key crosses the first line's end (5 bytes, then 3).
    request = f"X-Api-Key: {key}\r\nHost: api.example\r\n\r\n".encode()
    lines = INTERRUPTED[layout](request, tmp_path)
    words = layout == "od_t_x2"
    assert shown_pieces(key, lines, words=words), "the dump as written shows the key"
    logged = [
        f"{line}\n2026-12-07 12:00:0{index} DEBUG upstream: retrying read"
        for index, line in enumerate(lines)
    ]
    message = "upstream refused:\n" + "\n".join(logged)
    async with Simulator([QUOTING]) as sim:
        seen = await shown_after_failure(key, json_fault(status, message), sim)
    assert "DEBUG upstream: retrying read" in seen[0], "the failure quotes the upstream's text"
    assert lines[-1] in seen[0], "the dump's last line (no key in it) is shown as written"
    assert shown_pieces(key, [*seen, *library_logs(caplog.records)], words=words) == []


SHORT_KEYS = ("Zq81mWx4Tr", "Zq81mWx4Tr7p", "Zq81mWx4Tr7pL2v")
"""Short keys of 10, 12 and 15 characters: a dump from 1 or 2 bytes in shows 8 or more."""


@pytest.mark.parametrize("skipped", [1, 2])
@pytest.mark.parametrize("key", SHORT_KEYS)
@pytest.mark.parametrize("layout", ["xxd", "od_t_x2"])
async def test_a_dump_starting_inside_a_short_key_shows_none_of_it(
    layout: str, key: str, skipped: int, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    """A dump whose first byte is ``skipped`` bytes into a short key: none of it shows.

    Failed before: 12 of 12 (a short key's hex was read from its head only, and a dump's
    text column as prose, where its inside may be a word).
    """
    caplog.set_level(logging.DEBUG)
    request = f"X-Api-Key: {key}\r\nHost: api.example\r\n\r\n".encode()
    quoted = request[request.index(key.encode()) + skipped :]
    lines = INTERRUPTED[layout](quoted, tmp_path)
    words = layout == "od_t_x2"
    assert shown_pieces(key, lines, words=words), "the dump as written shows the key"
    message = "upstream refused, the request from inside its header:\n" + "\n".join(lines)
    async with Simulator([QUOTING]) as sim:
        seen = await shown_after_failure(key, json_fault(401, message), sim)
    assert lines[-1] in seen[0], "the dump's last line (no key in it) is shown as written"
    assert shown_pieces(key, [*seen, *library_logs(caplog.records)], words=words) == []
