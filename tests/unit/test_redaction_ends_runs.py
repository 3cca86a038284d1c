"""A key that starts with a mark's character, masked in a body holding a long run of it.

The ends pattern (``sk-ab...789``) read a run of dots from every one of its characters
when the key itself starts with a dot: 2,000 dots took a second, 16,000 minutes (stop 57).
Both cases of the first test failed before :class:`~websearch_core.echo_ends.EndsFinder` (run in a
child process with a time limit, so the old code fails in seconds rather than hanging the
suite); the two tests named ``guard`` hold the finder's matches to the pattern's own
``finditer`` (random texts, the captures): guards, they prove the change keeps every match.
"""

import random
import re
import subprocess
import sys

import pytest

from tests.conftest import SHARED_FIXTURES
from websearch_core.echo_ends import EndsFinder
from websearch_core.echo_forms import ends_pattern

KEYS = (
    ".abcdefghijklmnopq",
    "..abcdef0123456789..",
    "*Tr0ub4dor&3xyzzy*",
    "\u2022\u2022key0123456789abc\u2022",
    ".a.b.c.d.e.f.g.h.i.j",
    "." * 18 + "a",
    "*" * 20,
    "sk-abcdef0123456789",
)
LIMIT = 20
"""Seconds for the child: the fixed code masks 20,000 characters in milliseconds; the old
code took over a second for 2,000 and grew with the square of the run."""

_SCRIPT = """
import sys
from websearch_core.redaction import Redactor
key, mark = sys.argv[1], sys.argv[2]
body = "error: " + mark * 20_000 + " end"
shown = Redactor([key])(body)
print(len(shown))
"""


@pytest.mark.parametrize(
    ("key", "mark"), [(".abcdefghijklmnopq", "."), ("*Tr0ub4dor&3xyzzy!", "*")]
)
def test_a_long_run_of_the_keys_first_character_is_masked_in_time(key: str, mark: str) -> None:
    completed = subprocess.run(
        [sys.executable, "-c", _SCRIPT, key, mark],
        capture_output=True,
        text=True,
        timeout=LIMIT,
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == str(len("error: ") + 20_000 + len(" end"))


def _matches(found: object) -> list[tuple[tuple[int, int], dict[str, str | None]]]:
    return [(m.span(), m.groupdict()) for m in found]  # type: ignore[attr-defined]


def _random_text(rng: random.Random, key: str) -> str:
    pieces = [
        key[: rng.randint(1, 17)],
        key[-rng.randint(1, 17) :],
        key[0] * rng.randint(1, 90),
        "..",
        "*",
        "\u2022",
        "\u2026",
        " ",
        "a",
        "0",
    ]
    return "".join(rng.choice(pieces) for _ in range(rng.randint(0, 16)))


def test_guard_the_finder_gives_the_patterns_own_matches() -> None:
    rng = random.Random(57)
    for key in KEYS:
        finder = EndsFinder(key)
        plain = re.compile(ends_pattern(key), re.IGNORECASE)
        for _ in range(400):
            text = _random_text(rng, key)
            assert _matches(finder.finditer(text)) == _matches(plain.finditer(text)), (key, text)


def test_guard_the_finder_gives_the_patterns_own_matches_on_the_captures() -> None:
    captures = [path for path in SHARED_FIXTURES.rglob("*") if path.is_file()]
    assert captures
    for path in captures:
        text = path.read_bytes().decode("utf-8", "replace")
        for key in KEYS[:3]:
            plain = re.compile(ends_pattern(key), re.IGNORECASE)
            assert _matches(EndsFinder(key).finditer(text)) == _matches(plain.finditer(text))
