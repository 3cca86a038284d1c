r"""The failure mask reads a key's hex in groups and runs from inside its hex or base64.

``Redactor.__call__`` (errors and their log lines) read a key's hex only as one run from
its first byte and its base64 only from a core's head: ``73 6b 2d ...``, an ``xxd`` line,
``\x73\x6b`` and an echo starting past the key's head were shown. The rule now: a run of
12 of the key's bytes (as many as ``RUN_LENGTH`` characters shown as themselves), from
anywhere in it, in hex (groups joined) or base64 (any alignment). The tests named
``guard`` passed before too.
"""

import base64

import pytest

from tests.conftest import SHARED_FIXTURES
from tests.hex_dumps import xxd
from websearch_core.echo_forms import base64_cores
from websearch_core.echo_heads import HEX_HEAD, HeadFinder, hex_form
from websearch_core.redaction import Redactor

HEX_RUN = 24
"""12 bytes in hex: the run of a key's bytes that counts, written out here."""
KEYS = ("sk-proj-Q7fK2mVt9XbL4nRw8ZcJ1pHs6dGy3uEa", "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")


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize(
    ("gap", "size", "prefix"),
    [(" ", 2, ""), (":", 2, ""), (" ", 4, ""), ("\n", 8, ""), ("", 2, "\\x"), (", ", 2, "0x")],
)
def test_a_keys_hex_in_groups_is_masked(key: str, gap: str, size: int, prefix: str) -> None:
    """Each grouping of the key's whole hex: no digit of it is left."""
    digits = hex_form(key)
    grouped = gap.join(prefix + digits[i : i + size] for i in range(0, len(digits), size))
    masked = Redactor([key])(f"request bytes: {grouped} end")
    assert digits[:4] not in masked.replace(" ", "").replace(":", "")
    assert masked.endswith("*** end") and masked.startswith("request bytes: ")


@pytest.mark.parametrize("key", KEYS)
def test_an_xxd_dump_of_the_request_keeps_no_line_of_the_key(key: str) -> None:
    """A dump of a request holding the key: each line's hex within the key is masked.

    A line is read alone (its text column ends it), so a line holding fewer than 12 of
    the key's bytes at the key's end keeps them, as plain text keeps a run under 12.
    """
    dump = "\n".join(xxd(f"POST /v1 HTTP/1.1\r\nx-api-key: {key}\r\n".encode()))
    masked = Redactor([key])(dump)
    digits = hex_form(key)
    joined = "".join(masked.split())
    assert all(digits[i : i + HEX_RUN] not in joined for i in range(len(digits) - HEX_RUN))
    assert masked.count("***") >= 2


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("offset", [1, 5, 11, 17])
def test_a_run_from_inside_the_keys_hex_or_base64_is_masked(key: str, offset: int) -> None:
    """Hex from any digit (a half byte too) and a ``Basic`` value from any character."""
    hexed = "..." + hex_form(key)[offset:]
    basic = "..." + base64.b64encode(f"alice:{key}".encode()).decode()[offset + 8 :]
    redactor = Redactor([key])
    assert redactor(f"dump {hexed} end") == "dump ...*** end"
    assert redactor(f"auth {basic} end").startswith("auth ...***")


@pytest.mark.parametrize("key", KEYS)
def test_guard_eleven_bytes_from_inside_are_kept(key: str) -> None:
    """A guard: a run under 12 bytes is as little as a plain run under 12 characters."""
    texts = [f"dump ...{hex_form(key)[20:42]} end", f"dump {key.encode()[9:20].hex()} end"]
    redactor = Redactor([key])
    assert [redactor(text) for text in texts] == texts


def test_guard_no_capture_holds_a_form_the_new_finders_read() -> None:
    """A guard of the new rule: on every real capture, real-shaped keys' forms are nowhere.

    What the grouped reading and the inner runs could mask in ordinary text: pages, JSON
    answers and error bodies, with their hashes, ids and hex colours. It reads the new
    finders themselves, so it did not run before them.
    """
    from websearch_core.echo_runs import BASE64_RUN, RunFinder
    from websearch_core.hex_groups import hex_reading

    files = sorted(path for path in SHARED_FIXTURES.rglob("*") if path.is_file())
    if not files:
        pytest.skip("the shared captures are not here")
    keys = [*KEYS, "sim-key-perplexity", "BSAx9Kq2LmN4pR7sT1vW3yZ5bD8fH0jA"]
    hexed = [hex_form(key) for key in keys]
    cores = {core for key in keys for core in base64_cores(key)}
    finders = [
        RunFinder(hexed, HEX_RUN, ignore_case=True),
        RunFinder(cores, BASE64_RUN, ignore_case=False),
        HeadFinder(hexed, HEX_HEAD, ignore_case=True),
    ]
    found = []
    for path in files:
        text = path.read_bytes().decode("utf-8", "replace")
        reading = hex_reading(text)
        for finder in finders:
            found += [(path.name, text[a:b]) for a, b in finder.spans(text)]
            if reading is not None:
                found += [(path.name, reading.text[a:b]) for a, b in finder.spans(reading.text)]
    assert len(files) > 50 and found == []
