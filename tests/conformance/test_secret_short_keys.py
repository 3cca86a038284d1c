"""A short key the user configured never shows, whatever its name; where the floor is.

A key the user configured is known to us by its value, and a value of
``redaction.MIN_SECRET_LENGTH`` (4) characters or more is masked wherever it shows, in the
shapes an upstream writes it in (as written, case aside, URL-encoded, JSON-escaped,
base64): shorter ones are ordinary text (``abc``) too often to mask. A short key's pieces
(its head cut, a run from inside it) are not read: 8 of its characters are as likely a
word. Its hex was not read either, though hex digits are no word: a dump of the request
showed a short key in clear. A key written in the SearXNG endpoint's query under a name
no list knows (``?t=Zq81mWx4``) was not known as a key at all: its name says nothing and
it was under ``query_secrets.TOKEN_LENGTH`` (16). Driven on the loopback simulator, read
with the walk of ``_leaks.reachable_texts`` and every DEBUG record.
"""

import base64
import logging
import re
from urllib.parse import quote

import pytest

from tests.conformance._leaks import echo_forms_seen, library_logs, reachable_texts
from tests.conformance._quoting_provider import QUOTING, json_fault, shown_after_failure
from tests.hex_dumps import xxd
from websearch_core import AllProvidersFailedError, WebSearch
from websearch_core.testing import Simulator

SHORT_KEYS = ("Zq81mWx4", "hunter2024", "7Kp2Wq9x")
"""Short keys of 8-10 letters and digits, as a user may have been given one."""

UNREAD_WORDS = ("abcdefgh", "Qx7w", "m3Kp9Z", "hunterxyz")
"""Words under a query name nothing reads: letters alone (8 and 9), under 8 characters (4
and 6); keys all the same (stop 54, keys55: ``test_secret_query_words``)."""


@pytest.mark.parametrize("status", [429, 500])
@pytest.mark.parametrize("secret", [*SHORT_KEYS, *UNREAD_WORDS])
@pytest.mark.parametrize("name", ["t", "gw", "client"])
async def test_a_short_key_in_the_endpoints_query_under_any_name_never_shows(
    name: str, secret: str, status: int, caplog: pytest.LogCaptureFixture
) -> None:
    """Failed before for each name, key and status: the value was no secret (the short keys
    in stop 53, the letters-only and under-8 words in stop 54)."""
    caplog.set_level(logging.DEBUG)
    async with Simulator(["searxng"]) as sim:
        origin = sim["searxng"].base_url
        fault = json_fault(status, f"refused GET /search?{name}={secret}&format=json")
        sim["searxng"].always(fault)
        endpoint = f"{origin}/?{name}={secret}"
        settings = sim.settings(rate_limit_wait_seconds=0, searxng={"endpoint": endpoint})
        async with WebSearch(settings) as ws:
            result = await ws.run("python asyncio", provider="searxng")
            with pytest.raises(AllProvidersFailedError) as caught:
                await ws.search("python asyncio", provider="searxng", use_cache=False)
        sent = [value for key, value in sim["searxng"].requests[0].query if key == name]
    assert sent == [secret], "the endpoint's query is sent: the echo is of a real request"
    seen = [result.text, repr(result), *reachable_texts(caught.value)]
    everything = [*seen, *library_logs(caplog.records)]
    assert "refused GET /search?" in seen[0]
    assert secret.lower() not in "\n".join(everything).lower()
    assert echo_forms_seen(secret, everything) == []


def _shapes(key: str) -> dict[str, str]:
    """The shapes of a whole key an upstream writes, each as it would quote it."""
    return {
        "as_written": key,
        "upper_case": key.upper(),
        "url_encoded": quote(f"{key}&", safe=""),
        "json_unicode": "".join(f"\\u{ord(char):04x}" for char in key),
        "base64": base64.b64encode(key.encode()).decode(),
    }


@pytest.mark.parametrize("status", [401, 500])
@pytest.mark.parametrize("key", SHORT_KEYS)
async def test_guard_a_short_configured_key_is_masked_in_every_whole_shape(
    key: str, status: int, caplog: pytest.LogCaptureFixture
) -> None:
    """A guard (passed before): a provider's key of 8-10 characters, given as the key,
    is masked wherever an upstream's failure quotes it whole, in each shape."""
    caplog.set_level(logging.DEBUG)
    message = "refused: " + "; ".join(f"{name}={shape}" for name, shape in _shapes(key).items())
    async with Simulator([QUOTING]) as sim:
        seen = await shown_after_failure(key, json_fault(status, message), sim)
    assert "refused: as_written=***" in seen[0]
    everything = [*seen, *library_logs(caplog.records)]
    assert key.lower() not in "\n".join(everything).lower()
    assert echo_forms_seen(key, everything) == []


HEX_FORMS = {
    "hex": lambda key: key.encode().hex(),
    "hex_escaped": lambda key: "".join(f"\\x{byte:02x}" for byte in key.encode()),
    "xxd_across_lines": lambda key: "\n".join(xxd(f"GET /s?q=x&t={key} HTTP/1.1".encode())),
}


@pytest.mark.parametrize("status", [401, 500])
@pytest.mark.parametrize("form", sorted(HEX_FORMS))
@pytest.mark.parametrize("key", SHORT_KEYS)
async def test_a_short_configured_keys_hex_never_shows(
    key: str, form: str, status: int, caplog: pytest.LogCaptureFixture
) -> None:
    """A short key in hex (a dump of the request, ``\\x`` escapes): no 8 of its bytes shown.

    Failed before for each key, form and status: only a key of 16 characters or more was
    read in hex.
    """
    caplog.set_level(logging.DEBUG)
    message = "refused request bytes:\n" + HEX_FORMS[form](key) + "\n(end)"
    async with Simulator([QUOTING]) as sim:
        seen = await shown_after_failure(key, json_fault(status, message), sim)
    assert "refused request bytes" in seen[0]
    everything = "\n".join([*seen, *library_logs(caplog.records)]).lower()
    digits = _hex_digits(everything)
    hexed = key.encode().hex()
    assert [
        hexed[i : i + 16] for i in range(0, len(hexed) - 15, 2) if hexed[i : i + 16] in digits
    ] == []
    assert key.lower() not in everything


def _hex_digits(text: str) -> str:
    """The hex digits of ``text``, a dump's hex column read across its lines.

    Every other character is left out (``\\x`` too), so digits apart in the text meet:
    stricter than a reader. Of an ``xxd`` line only the hex column counts (its offset
    and text column are no bytes of the request).
    """
    pieces = []
    for line in text.split("\n"):
        dump = re.match(r"[0-9a-f]{8}: (.*?)  ", line)
        pieces.append(dump[1] if dump else line.replace("\\x", ""))
    return re.sub("[^0-9a-f]", "", "".join(pieces))
