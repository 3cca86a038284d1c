r"""The failure mask reads a hex dump's columns across its lines, and takes a run's ``\x``.

A key in an ``xxd`` or ``hexdump -C`` dump was read line by line: a line holding under
12 of its bytes kept them, in hex and as text. The tests named ``guard`` passed before.
"""

import pytest

from tests.conftest import SHARED_FIXTURES
from tests.hex_dumps import xxd
from websearch_core.redaction import Redactor

KEYS = ("sk-proj-Q7fK2mVt9XbL4nRw8ZcJ1pHs6dGy3uEa", "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")


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("group", [1, 2, 4])
@pytest.mark.parametrize("before", [0, 3, 9, 14])
def test_every_line_of_a_keys_dump_is_masked(key: str, group: int, before: int) -> None:
    """Wherever the key starts, no line shows 2 or more of its bytes, in either column.

    Failed before for 21 of the 24: a line's head or tail under 12 bytes was kept. The
    3 that passed (the Tavily key 3 bytes in) did so by chance: its text column is hex
    letters, which the grouped reading took for the dump's next digits.
    """
    data = b"H" * before + key.encode() + b"\r\nHost: api.example\r\n"
    lines = xxd(data, group)
    masked = Redactor([key])("\n".join(lines)).split("\n")
    assert len(masked) == len(lines), "the dump's lines are kept"
    start, end = before, before + len(key)
    for number, line in enumerate(masked):
        held = data[max(number * 16, start) : min(number * 16 + 16, end)]
        assert line[:10] == lines[number][:10], "the offset is kept"
        if len(held) >= 2:
            assert held.hex() not in line.replace(" ", "") and held.decode() not in line[10:]
    assert masked[-1] == lines[-1], "the dump's last line holds no key byte and is kept"


@pytest.mark.parametrize("key", KEYS)
def test_guard_a_dump_without_the_key_is_kept(key: str) -> None:
    """A guard: a dump of a request with another key is left as it was."""
    text = "\n".join(xxd(f"x-api-key: {KEYS[0][::-1]}\r\n".encode(), 2))
    assert Redactor([key])(text) == text


@pytest.mark.parametrize("key", KEYS)
def test_an_escaped_runs_lead_is_masked_with_it(key: str) -> None:
    r"""``\x73\x6b...`` and ``0x73, 0x6b...`` leave no ``\x`` or ``0x`` before the mask.

    Failed before for both keys: ``b'\x***'`` and ``{0x***}``.
    """
    escaped = "".join(f"\\x{byte:02x}" for byte in key.encode())
    listed = ", ".join(f"0x{byte:02x}" for byte in key.encode())
    redactor = Redactor([key])
    assert redactor(f"b'{escaped}'") == "b'***'"
    assert redactor(f"{{{listed}}}") == "{***}"


def test_guard_no_capture_holds_a_dump_block() -> None:
    """A guard of the new reading: no real capture holds two dump lines in a row.

    So the column reading, which runs only on a failure's text, masks nothing ordinary in
    them. It reads the new module itself, so it did not run before it.
    """
    from websearch_core.dump_lines import dump_readings

    files = sorted(path for path in SHARED_FIXTURES.rglob("*") if path.is_file())
    if not files:
        pytest.skip("the shared captures are not here")
    found = []
    for path in files:
        text = path.read_bytes().decode("utf-8", "replace")
        found += [(path.name, reading.text[:40]) for reading in dump_readings(text)]
    assert len(files) > 50 and found == []
