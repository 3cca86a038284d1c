r"""A key in a hex dump never shows on any of its lines, and a mask eats its ``\x`` too.

``xxd`` and ``hexdump -C`` write a request 16 bytes a line, in hex and as text: read
line by line, a line holding fewer than 12 of the key's bytes (its head before the first
line's end, its tail on the last) kept them in clear, in both columns. A provider whose
failure text quotes the upstream's body whole (Z.AI) answers 401, 403, 429 and 500 with
such a dump through the loopback simulator; the result's text, the raised error
(everything reachable from it) and every DEBUG record are read for the key's bytes on
each line. And a key written ``\x73\x6b...`` or ``0x73, 0x6b, ...`` was masked after its
first ``\x`` or ``0x``, which read as a string escaped by half.
"""

import json
import logging
from collections.abc import Callable

import pytest

from tests.conformance._leaks import echo_forms_seen, library_logs
from tests.conformance._quoting_provider import QUOTING, shown_after_failure
from tests.conformance.test_secret_audit import sentinel
from tests.hex_dumps import SHOWN, WIDTH, hexdump_c, line_bytes, xxd
from websearch_core.testing import Fault, Simulator

STATUSES = (401, 403, 429, 500)
DUMPS: dict[str, Callable[[bytes], list[tuple[str, bytes]]]] = {
    "xxd": lambda data: list(zip(xxd(data), line_bytes(data), strict=True)),
    "hexdump_C": lambda data: list(zip(hexdump_c(data), line_bytes(data), strict=True)),
}
HEADERS = {
    "bearer_10_bytes_on_the_first_line": "Authorization: Bearer ",
    "api_key_5_bytes_on_the_first_line": "X-Api-Key: ",
}
"""What stands before the key in the dumped request: where its first line ends it."""


def _request(header: str, key: str) -> bytes:
    """The request the upstream dumps: the key in its header."""
    return f"{header}{key}\r\nHost: api.example\r\n\r\n".encode()


def _pieces(key: str, lines: list[tuple[str, bytes]], request: bytes) -> list[str]:
    """The key's bytes on each line of the dump, as the hex column and the text column."""
    start = request.index(key.encode())
    pieces = []
    for number, (_, chunk) in enumerate(lines):
        first, last = number * WIDTH, number * WIDTH + len(chunk)
        held = request[max(first, start) : min(last, start + len(key))]
        if held:
            pieces += [held.hex(), held.decode().translate(SHOWN)]
    return pieces


@pytest.mark.parametrize("status", STATUSES)
@pytest.mark.parametrize("header", sorted(HEADERS))
@pytest.mark.parametrize("dump", sorted(DUMPS))
async def test_a_dump_shows_none_of_the_keys_bytes_on_any_line(
    dump: str, header: str, status: int, caplog: pytest.LogCaptureFixture
) -> None:
    """Each dump of a request with the key: no line shows its part of the key, either column.

    Failed before, for every dump, header and status: the first line's head (5 or 10
    bytes) or the last line's tail (under 12 bytes) was left in both columns.
    """
    caplog.set_level(logging.DEBUG)
    key = sentinel(QUOTING)
    request = _request(HEADERS[header], key)
    lines = DUMPS[dump](request)
    pieces = _pieces(key, lines, request)
    assert min(len(piece) for piece in pieces[1::2]) < 12, "a line holds a short piece"
    message = "upstream refused:\n" + "\n".join(line for line, _ in lines)
    body = '{"error": {"message": ' + _json_string(message) + "}}"
    async with Simulator([QUOTING]) as sim:
        fault = Fault.http(status, body=body, headers={"Content-Type": "application/json"})
        seen = await shown_after_failure(key, fault, sim)
    assert "upstream refused" in seen[0], "the failure should quote the upstream's message"
    assert lines[-1][0][:10] in seen[0], "the dump's last line is shown, its offset kept"
    shown = "\n".join([*seen, *library_logs(caplog.records)])
    assert [piece for piece in pieces if piece in shown] == []
    assert echo_forms_seen(key, [*seen, *library_logs(caplog.records)]) == []


ESCAPED = {
    "backslash_x": lambda key: "".join(f"\\x{byte:02x}" for byte in key.encode()),
    "c_array": lambda key: ", ".join(f"0x{byte:02x}" for byte in key.encode()),
}


@pytest.mark.parametrize("status", [401, 500])
@pytest.mark.parametrize("form", sorted(ESCAPED))
async def test_a_masked_escaped_run_keeps_no_half_escape(
    form: str, status: int, caplog: pytest.LogCaptureFixture
) -> None:
    r"""``bytes b'\x73\x6b...'`` becomes ``bytes b'***'``: the mask takes the first ``\x``.

    Failed before, for both forms and statuses: ``b'\x***'`` and ``[0x***]``.
    """
    caplog.set_level(logging.DEBUG)
    key = sentinel(QUOTING)
    message = f"sent bytes b'{ESCAPED[form](key)}' [end]"
    body = '{"error": {"message": ' + _json_string(message) + "}}"
    async with Simulator([QUOTING]) as sim:
        fault = Fault.http(status, body=body, headers={"Content-Type": "application/json"})
        seen = await shown_after_failure(key, fault, sim)
    assert "sent bytes b'***' [end]" in seen[0]
    shown = "\n".join([*seen, *library_logs(caplog.records)])
    assert "\\x***" not in shown and "0x***" not in shown


def _json_string(text: str) -> str:
    """``text`` as a JSON string, as the upstream writes it in its body."""
    return json.dumps(text)
