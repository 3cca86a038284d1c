"""A key echoed in base64 or hex that ends inside the key never shows either.

Stop 50 masked a ``Basic`` header of ``user:key`` whole (the key's base64 at each byte
alignment); an upstream that cuts its echo short (``Authorization: Basic dXNlOnNrLV...``
with a length limit on the line it logs) left the key's first bytes in base64 for anyone
to decode, and a hex dump of the request (whole, or stopped mid-key) was not read at all.
A provider whose failure text quotes the upstream's body whole (Z.AI) answers 401, 403,
429 and 500 with such echoes, through the loopback simulator; the result's text, the
raised error (everything reachable from it) and every DEBUG record are read for the key's
first :data:`HEAD_BYTES` bytes in base64 (each alignment, both alphabets) or hex.
"""

import base64
import logging
from collections.abc import Callable, Iterable

import pytest

from tests.conformance._leaks import base64_cores, echo_forms_seen, library_logs
from tests.conformance._quoting_provider import QUOTING, shown_after_failure
from tests.conformance.test_secret_audit import sentinel
from websearch_core.testing import Fault, Simulator

HEAD_BYTES = 8
"""A key's first bytes that, decoded from what is shown, count as a leak: as many as a
key's head shown as itself (the redactor's ``PREFIX_LENGTH``), written out here."""
STATUSES = (401, 403, 429, 500)


def _cut_basic(user: str, key_bytes: int) -> Callable[[str], str]:
    """``Basic`` of ``user:key``, cut after the base64 of ``key_bytes`` of the key."""

    def form(key: str) -> str:
        whole = base64.b64encode(f"{user}:{key}".encode()).decode()
        return "Basic " + whole[: (len(user) + 1 + key_bytes) * 4 // 3] + "... (cut)"

    return form


FORMS: dict[str, Callable[[str], str]] = {
    # "u:" puts the key at byte 2 of a 3-byte group, "us:" at 0, "use:" at 1.
    "basic_u_cut": _cut_basic("u", 14),
    "basic_us_cut": _cut_basic("us", 20),
    "basic_use_cut": _cut_basic("use", 11),
    "basic_alice_cut": _cut_basic("alice", 25),
    "hex_whole_upper": lambda key: "0x" + key.encode().hex().upper(),
    "hex_cut": lambda key: "bytes " + key.encode()[:12].hex() + "..",
}


def _heads_seen(key: str, seen: Iterable[str]) -> list[str]:
    """The base64 and hex of ``key``'s first :data:`HEAD_BYTES` bytes found in ``seen``.

    Base64 at each alignment: a core's first characters holding those bytes (11);
    hex case aside (16 digits).
    """
    text = "\n".join(seen)
    heads = {core[: -(-8 * HEAD_BYTES // 6)] for core in base64_cores(key)}
    found = sorted(head for head in heads if head in text)
    hexed = key.encode()[:HEAD_BYTES].hex()
    return found + ([hexed] if hexed in text.lower() else [])


@pytest.mark.parametrize("status", STATUSES)
@pytest.mark.parametrize("form", sorted(FORMS))
async def test_a_cut_basic_or_hex_echo_never_shows_the_keys_head(
    form: str, status: int, caplog: pytest.LogCaptureFixture
) -> None:
    """Each form in a JSON error of each status: none of the key's head is left.

    Failed before, for every form and status: the cut base64 and the hex were not read.
    """
    caplog.set_level(logging.DEBUG)
    key = sentinel(QUOTING)
    body = '{"error": {"message": "rejected request: ' + FORMS[form](key) + '"}}'
    async with Simulator([QUOTING]) as sim:
        fault = Fault.http(status, body=body, headers={"Content-Type": "application/json"})
        seen = await shown_after_failure(key, fault, sim)
    assert "rejected request" in seen[0], "the failure should quote the upstream's message"
    logged = library_logs(caplog.records)
    assert _heads_seen(key, [*seen, *logged]) == []
    assert echo_forms_seen(key, [*seen, *logged]) == []
