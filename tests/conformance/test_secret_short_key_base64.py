"""A short key's base64 inside a longer base64 value never shows, at any byte offset.

A key the user configured of ``redaction.MIN_SECRET_LENGTH`` (4) to 15 characters was
masked in base64 only as its own whole encoding (the key alone, from byte 0). Inside a
longer value (a ``Basic`` header of ``user:key`` an upstream echoed, a request quoted as
one base64 blob) the key starts at a byte offset of 0, 1 or 2 modulo 3, and each writes
it in other characters: the ones its bytes alone decide (``_leaks.base64_cores``) showed
in clear. Driven on the loopback simulator through the provider that quotes its failure
whole, read with the walk of ``_leaks.reachable_texts`` and every DEBUG record.
"""

import base64
import logging

import pytest

from tests.conformance._leaks import base64_cores, echo_forms_seen, library_logs
from tests.conformance._quoting_provider import QUOTING, json_fault, shown_after_failure
from websearch_core.testing import Simulator

KEYS = ("Zq81mWx4", "hunter2024", "7Kp2Wq9x", "m3Kp9Z", "Qx7w")
"""Short keys: 8-10 letters and digits, and under 8 (6, and the floor's 4)."""
HEADS = ("user:", "GET /s?t=", "GET /s?tk=", "GET /s?tok=")
"""What stands before the key in the encoded value: 5, 9, 10 and 11 bytes, so the key
starts at each byte offset modulo 3."""


@pytest.mark.parametrize("status", [401, 500])
@pytest.mark.parametrize("head", HEADS)
@pytest.mark.parametrize("key", KEYS)
async def test_a_short_keys_base64_inside_a_longer_value_never_shows(
    key: str, head: str, status: int, caplog: pytest.LogCaptureFixture
) -> None:
    """Failed before: 34 of 40. The other 6 put a key of 6 or 8 characters at offset 0,
    where its own whole encoding (in every mask) is read as far as the byte after it
    (a space) allows."""
    caplog.set_level(logging.DEBUG)
    encoded = base64.b64encode(f"{head}{key} HTTP/1.1".encode()).decode()
    assert any(core in encoded for core in base64_cores(key))
    message = f"refused Authorization: Basic {encoded} (bad credentials)"
    async with Simulator([QUOTING]) as sim:
        seen = await shown_after_failure(key, json_fault(status, message), sim)
    assert "refused Authorization: Basic " in seen[0]
    everything = [*seen, *library_logs(caplog.records)]
    assert echo_forms_seen(key, everything) == []
