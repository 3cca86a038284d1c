r"""A key in an ``od`` dump never shows on any of its lines.

Stop 53 read the columns of ``xxd`` and ``hexdump -C`` dumps across their lines; ``od``
writes a request otherwise: ``od -t x1`` a byte's hex apart by one space after a 7-digit
octal offset (``-A x``: 6 hex digits), with ``z`` the text between ``>`` and ``<``, and
``od -c`` each byte as a character four columns wide (``   s   k   -``, ``  \n``). Read as
hex in groups, each line's offset joined the key's digits, so the key's hex was found on
no line; a line's text column held under 12 of its characters; and ``od -c``'s characters
stood apart, read by no rule. A provider whose failure text quotes the upstream's body
whole (Z.AI) answers 401 and 500 with such a dump through the loopback simulator; the
result's text, the raised error (everything reachable from it) and every DEBUG record
are read for the key's bytes on each line, as the dump writes them.
"""

import logging
from collections.abc import Callable

import pytest

from tests.conformance._leaks import echo_forms_seen, library_logs
from tests.conformance._quoting_provider import QUOTING, json_fault, shown_after_failure
from tests.conformance.test_secret_audit import sentinel
from tests.hex_dumps import SHOWN, WIDTH, od_c, od_x1
from websearch_core.testing import Simulator

DUMPS: dict[str, Callable[[bytes], list[str]]] = {
    "od_t_x1": od_x1,
    "od_A_x_t_x1z": lambda data: od_x1(data, hex_offsets=True, text=True),
    "od_c": od_c,
}
HEADERS = {
    "bearer_10_bytes_on_the_first_line": "Authorization: Bearer ",
    "api_key_5_bytes_on_the_first_line": "X-Api-Key: ",
}
"""What stands before the key in the dumped request: where its first line ends it."""
KEYS = {"token": sentinel(QUOTING), "short": "Zq81mWx4"}
"""The simulator's sentinel (32 characters) and a short key of 8."""


def _request(header: str, key: str) -> bytes:
    """The request the upstream dumps: the key in its header."""
    return f"{header}{key}\r\nHost: api.example\r\n\r\n".encode()


def _written(dump: str, held: bytes) -> list[str]:
    """How ``dump`` writes the bytes ``held`` on one of its lines, in each of its columns."""
    if dump == "od_c":
        return ["".join(od_c(held)[0][7:])]
    hexed = "".join(f" {byte:02x}" for byte in held)
    if dump == "od_A_x_t_x1z":
        return [hexed, held.decode().translate(SHOWN)]
    return [hexed]


def _pieces(dump: str, key: str, request: bytes) -> list[str]:
    """The key's bytes on each line of the dump, as each column writes them (3 or more)."""
    start = request.index(key.encode())
    pieces = []
    for first in range(0, len(request), WIDTH):
        held = request[max(first, start) : min(first + WIDTH, start + len(key))]
        if len(held) >= 3:
            pieces += _written(dump, held)
    return pieces


@pytest.mark.parametrize("status", [401, 500])
@pytest.mark.parametrize("key_name", sorted(KEYS))
@pytest.mark.parametrize("header", sorted(HEADERS))
@pytest.mark.parametrize("dump", sorted(DUMPS))
async def test_an_od_dump_shows_none_of_the_keys_bytes_on_any_line(
    dump: str, header: str, key_name: str, status: int, caplog: pytest.LogCaptureFixture
) -> None:
    """Each ``od`` dump of a request with the key: no line shows its part, any column.

    Failed before: 20 of 24. The 4 that passed hold the short key on one ``od -t x1``
    line (after the 22-byte header), which the grouped hex reading took already.
    """
    caplog.set_level(logging.DEBUG)
    key = KEYS[key_name]
    request = _request(HEADERS[header], key)
    lines = DUMPS[dump](request)
    pieces = _pieces(dump, key, request)
    assert pieces and all(piece in "\n".join(lines) for piece in pieces)
    message = "upstream refused:\n" + "\n".join(lines)
    async with Simulator([QUOTING]) as sim:
        seen = await shown_after_failure(key, json_fault(status, message), sim)
    assert "upstream refused" in seen[0], "the failure should quote the upstream's message"
    assert lines[-1] in seen[0], "the dump's last line (its length) is shown"
    shown = "\n".join([*seen, *library_logs(caplog.records)])
    assert [piece for piece in pieces if piece in shown] == []
    assert echo_forms_seen(key, [*seen, *library_logs(caplog.records)]) == []
