r"""A key's hex written in groups, or its hex or base64 quoted from inside, never shows.

Stop 51 masked a key's hex only as one unbroken run from the key's first bytes, and its
base64 only from the head of a core: a dump writing the request's bytes in groups
(``73 6b 2d``, ``736b 2d53``, ``73:6b``, ``\x73\x6b``, lines) and an echo starting past
the key's head (``...<the key's hex from byte 5>``, a ``Basic`` value logged from an
offset) showed the key to anyone who decodes it. A provider whose failure text quotes the
upstream's body whole (Z.AI) answers 401, 403, 429 and 500 with such echoes through the
loopback simulator; the result's text, the raised error (everything reachable from it) and
every DEBUG record are read for a run of :data:`RUN_BYTES` of the key's bytes in hex
(separators and ``\x`` read past) or base64 (any alignment, either alphabet).
"""

import base64
import logging
import re
from collections.abc import Callable, Iterable

import pytest

from tests.conformance._leaks import base64_cores, echo_forms_seen, library_logs
from tests.conformance._quoting_provider import QUOTING, shown_after_failure
from tests.conformance.test_secret_audit import sentinel
from websearch_core.testing import Fault, Simulator

RUN_BYTES = 12
"""A run of the key's bytes, from anywhere in it, that counts as a leak when decoded: as
many as the run of its characters shown as itself (the redactor's ``RUN_LENGTH``)."""
STATUSES = (401, 403, 429, 500)


def _grouped(size: int, gap: str, prefix: str = "") -> Callable[[str], str]:
    """The key's hex in groups of ``size`` digits, ``gap`` between, each after ``prefix``."""

    def form(key: str) -> str:
        digits = key.encode().hex()
        return gap.join(prefix + digits[i : i + size] for i in range(0, len(digits), size))

    return form


def _basic_from(offset: int) -> Callable[[str], str]:
    """``Basic`` of ``alice:key`` as a log quotes it from its ``offset``-th character on."""

    def form(key: str) -> str:
        return "..." + base64.b64encode(f"alice:{key}".encode()).decode()[offset:]

    return form


FORMS: dict[str, Callable[[str], str]] = {
    "hex_bytes_spaced": _grouped(2, " "),
    "hex_bytes_colons": _grouped(2, ":"),
    "hex_words_upper": lambda key: _grouped(4, " ")(key).upper(),
    "hex_lines": _grouped(16, "\n"),
    "hex_escaped": _grouped(2, "", "\\x"),
    "hex_c_array": _grouped(2, ", ", "0x"),
    "hex_from_byte_5": lambda key: "..." + key.encode()[5:].hex(),
    "hex_from_a_half_byte": lambda key: "..." + key.encode().hex()[11:],
    "basic_from_char_13": _basic_from(13),
    "basic_from_char_18": _basic_from(18),
    "basic_from_char_23": _basic_from(23),
}


def _runs_seen(key: str, seen: Iterable[str]) -> list[str]:
    """The runs of :data:`RUN_BYTES` of ``key``'s bytes found in ``seen``, hex or base64.

    Hex is read with every character but a digit (and the ``x`` of ``\\x``/``0x``) left
    out, case aside; base64 as written, each core's runs of 16 characters.
    """
    text = "\n".join(seen)
    digits = re.sub(r"\\x|0x|[^0-9a-f]", "", text.lower())
    hexed = key.encode().hex()
    width = 2 * RUN_BYTES
    found = [hexed[i : i + width] for i in range(len(hexed) - width + 1)]
    found = [run for run in found if run in digits]
    width = 8 * RUN_BYTES // 6
    for core in sorted(base64_cores(key)):
        found += [
            core[i : i + width] for i in range(len(core) - width + 1) if core[i : i + width] in text
        ]
    return found


@pytest.mark.parametrize("status", STATUSES)
@pytest.mark.parametrize("form", sorted(FORMS))
async def test_a_grouped_or_inner_echo_never_shows_a_run_of_the_key(
    form: str, status: int, caplog: pytest.LogCaptureFixture
) -> None:
    """Each form in a JSON error of each status: no run of 12 of the key's bytes is left.

    Failed before, for every form and status: grouped hex and runs from inside the key's
    hex or base64 were not read.
    """
    caplog.set_level(logging.DEBUG)
    key = sentinel(QUOTING)
    body = '{"error": {"message": "rejected request: ' + FORMS[form](key) + ' (end)"}}'
    body = body.replace("\\", "\\\\").replace("\n", "\\n")
    async with Simulator([QUOTING]) as sim:
        fault = Fault.http(status, body=body, headers={"Content-Type": "application/json"})
        seen = await shown_after_failure(key, fault, sim)
    assert "rejected request" in seen[0], "the failure should quote the upstream's message"
    assert _runs_seen(key, [FORMS[form](key)]), "the form as sent holds the key"
    logged = library_logs(caplog.records)
    assert _runs_seen(key, [*seen, *logged]) == []
    assert echo_forms_seen(key, [*seen, *logged]) == []


@pytest.mark.parametrize("status", [401, 500])
async def test_guard_a_plain_tail_of_twelve_is_masked_and_of_eight_kept(
    status: int, caplog: pytest.LogCaptureFixture
) -> None:
    """A guard (passed before too): a key's last 12 characters after ``...`` are a run.

    Its last 8 are kept, as a provider's hint of a key's end is: 8 characters from inside
    a key may be a word (``sim-key-perplexity``), so a tail is read from 12 on.
    """
    caplog.set_level(logging.DEBUG)
    key = sentinel(QUOTING)
    body = f'{{"error": {{"message": "key ...{key[-12:]} refused; hint ...{key[-8:]}"}}}}'
    async with Simulator([QUOTING]) as sim:
        fault = Fault.http(status, body=body, headers={"Content-Type": "application/json"})
        seen = await shown_after_failure(key, fault, sim)
    assert f"hint ...{key[-8:]}" in seen[0]
    assert key[-12:] not in "\n".join([*seen, *library_logs(caplog.records)])
