r"""A key in a dump never shows, however the dump is framed, ordered or short the key.

Stop 54 read ``xxd``, ``hexdump -C`` and ``od`` dumps across their lines, little-endian
words put back in order. Four framings were read by nothing, each shown here on the
loopback simulator (Z.AI quotes an upstream's failure text whole), the result's text,
the raised error (everything reachable from it) and every DEBUG record read back:

- ``od --endian=big`` writes words with their bytes in order (``4175 7468`` for
  ``Auth``); read only as little-endian words, the key's hex was found on no line;
- a log that writes a prefix before every line it holds (``2026-12-07 12:00:00 DEBUG``,
  Python's ``DEBUG:name:``) made no line a dump line;
- a dump that is a JSON string's value (``{"request": "00000000: ..."}``) opens after a
  quote, so its first line was no dump line and a short key cut at that line's end (under
  8 bytes on each side) was read on neither;
- a key of 4-7 characters had no hex reading at all (a head is 8 bytes): its whole hex
  showed in a dump and in a plain hex string.
"""

import json
import logging
from pathlib import Path

import pytest

from tests.conformance._leaks import library_logs
from tests.conformance._quoting_provider import QUOTING, json_fault, shown_after_failure
from tests.conformance.test_secret_word_dumps import dump, line_bytes, shown_pieces
from tests.hex_dumps import hexdump_c, od_x1, xxd
from websearch_core.testing import Simulator

KEYS = {"token": "sk-Tq7vLm2Xw9Rb4Kd8Np3Hy6Jc1Fg5", "short": "Zq81mWx4"}
"""A token of 31 characters and a short key of 8. Not the simulator's sentinel: that
holds the provider's name (``zai``), which a log line writes beside a dump's last line."""
BIG_ENDIAN = {
    "od_t_x2": ["od", "-t", "x2", "--endian=big"],
    "od_A_x_t_x4": ["od", "-A", "x", "-t", "x4", "--endian=big"],
    "od_t_x2z": ["od", "-t", "x2z", "--endian=big"],
}


async def _seen(key: str, message: str, status: int, caplog: pytest.LogCaptureFixture) -> str:
    """Everything a failure quoting ``message`` shows, the DEBUG records among it."""
    async with Simulator([QUOTING]) as sim:
        seen = await shown_after_failure(key, json_fault(status, message), sim)
    assert "upstream refused" in seen[0], "the failure should quote the upstream's message"
    return "\n".join([*seen, *library_logs(caplog.records)])


@pytest.mark.parametrize("status", [401, 500])
@pytest.mark.parametrize("key_name", sorted(KEYS))
@pytest.mark.parametrize("command", sorted(BIG_ENDIAN))
async def test_a_big_endian_word_dump_shows_none_of_the_key(
    command: str, key_name: str, status: int, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    """Each real ``od --endian=big`` dump of a request: no line shows 3 of the key's bytes."""
    caplog.set_level(logging.DEBUG)
    key = KEYS[key_name]
    # After 11 bytes: the short key crosses the first line's end (5 bytes, then 3).
    request = f"X-Api-Key: {key}\r\nHost: api.example\r\n\r\n".encode()
    lines = dump(BIG_ENDIAN[command], request, tmp_path)
    assert shown_pieces(key, lines, words=False), "the dump as the tool writes it shows the key"
    everything = await _seen(key, "upstream refused:\n" + "\n".join(lines), status, caplog)
    assert lines[0][:12] in everything, "the dump's first word (no key in it) is shown"
    assert shown_pieces(key, [everything], words=False) == []


PREFIXES = ("2026-12-07 12:00:00 DEBUG ", "DEBUG:upstream.wire:")
"""A timestamped log's prefix, and Python's default ``%(levelname)s:%(name)s:``."""
LAYOUTS = {
    "xxd": lambda data, _: xxd(data),
    "hexdump_c": lambda data, _: hexdump_c(data),
    "od_t_x1z": lambda data, _: od_x1(data, hex_offsets=True, text=True),
    "od_t_x2": lambda data, scratch: dump(["od", "-t", "x2"], data, scratch),
}
"""``xxd``, ``hexdump -C`` and ``od -t x1z`` by the writers checked against the tools
(``tests/hex_dumps.py``), ``od -t x2`` by the machine's own."""


@pytest.mark.parametrize("key_name", sorted(KEYS))
@pytest.mark.parametrize("prefix", PREFIXES)
@pytest.mark.parametrize("layout", sorted(LAYOUTS))
async def test_a_dump_with_a_log_prefix_on_every_line_shows_none_of_the_key(
    layout: str, prefix: str, key_name: str, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    """Every line of the dump behind a log's prefix: no line shows 3 of the key's bytes."""
    caplog.set_level(logging.DEBUG)
    key = KEYS[key_name]
    request = f"X-Api-Key: {key}\r\nHost: api.example\r\n\r\n".encode()
    lines = LAYOUTS[layout](request, tmp_path)
    words = layout == "od_t_x2"
    assert shown_pieces(key, lines, words=words), "the dump as written shows the key"
    message = "upstream refused:\n" + "\n".join(prefix + line for line in lines)
    everything = await _seen(key, message, 401, caplog)
    assert prefix + lines[-1] in everything, "the dump's last line (no key) is shown as written"
    assert shown_pieces(key, [everything.replace(prefix, "")], words=words) == []


SHORT_KEYS = ("Zq81mWx4", "Zq81mWx4Tr", "Zq81mWx4Tr7p")
"""Short keys of 8, 10 and 12 characters: cut after 5 bytes, each side holds under 8."""
OPENING = '{"request": "'


@pytest.mark.parametrize("key", SHORT_KEYS)
@pytest.mark.parametrize("layout", ["xxd", "od_t_x1z", "od_t_x2"])
async def test_a_dump_as_a_json_strings_value_shows_none_of_a_short_key(
    layout: str, key: str, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    """A dump written as a JSON string, a short key cut at its first line's end: none shows.

    The key starts 11 bytes in: the first line (after the string's opening quote) holds
    5 of its bytes, the next the rest, each under the 8 a short key is read by alone.
    """
    caplog.set_level(logging.DEBUG)
    request = f"X-Api-Key: {key}\r\nHost: api.example\r\n\r\n".encode()
    lines = LAYOUTS[layout](request, tmp_path)
    words = layout == "od_t_x2"
    assert shown_pieces(key, lines, words=words), "the dump as written shows the key"
    message = "upstream refused: " + json.dumps({"request": "\n".join(lines)})
    everything = await _seen(key, message, 401, caplog)
    assert OPENING + lines[0][:8] in everything, "the dump is quoted as a JSON string"
    opened = everything.replace(OPENING, "\n")
    assert shown_pieces(key, [opened], words=words) == []


LITTLE_KEYS = ("Qx7w", "Qx7wZ9", "Qx7wZ9k")
"""Keys of 4, 6 and 7 characters: under a head's 8 bytes."""


@pytest.mark.parametrize("key", LITTLE_KEYS)
@pytest.mark.parametrize("form", ["plain_hex", "xxd_one_line", "xxd_across", "od_t_x2_across"])
async def test_a_little_keys_hex_never_shows(
    form: str, key: str, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    """A 4-7-character key's hex: in a hex string of the request, or a dump, on one line
    or cut at a line's end (the key 14 bytes in)."""
    caplog.set_level(logging.DEBUG)
    start = 2 if form == "xxd_one_line" else 14
    request = ("X" * start + f"{key}\r\nHost: api.example\r\n\r\n").encode()
    if form == "plain_hex":
        lines = [request.hex()]
    elif form.startswith("xxd"):
        lines = xxd(request)
    else:
        lines = dump(["od", "-t", "x2"], request, tmp_path)
    words = form == "od_t_x2_across"
    everything = await _seen(key, "upstream refused:\n" + "\n".join(lines), 401, caplog)
    shown = lines[0][: 2 * start] if form == "plain_hex" else lines[-1]
    assert shown in everything, "the hex around the key is shown as written"
    assert key.encode().hex() not in everything.lower()
    if form != "plain_hex":  # no dump line shows 3 of its bytes, nor lines in a row all 4+
        assert shown_pieces(key, [everything], words=words) == []
        read = everything.replace("\\n", "\n").splitlines()
        assert key.encode() not in b"".join(line_bytes(line, words=words) for line in read)
