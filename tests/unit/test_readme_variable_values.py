"""Every ``WEBSEARCH_NAME=value`` the README shows is a value the settings take.

The README writes variables with example values in its shell blocks and prose
(``WEBSEARCH_BUDGET__BRAVE=2000/month``, ``WEBSEARCH_SIGN_IN_GATEWAYS=codex,google_oauth``);
a value whose form the settings stopped accepting would be copied by users and refused.
Each is set alone here and the settings read. Guards: all were taken when written.
"""

import re
from pathlib import Path

import pytest

from websearch_core.env_names import unknown_variables
from websearch_core.settings import Settings

README = Path(__file__).resolve().parents[2] / "README.md"

_SHOWN = re.compile(r"(?<![\w$])(WEBSEARCH_[A-Z0-9_]+)=([^\s`'\")]+)")
"""A variable and the value written after it, up to the end of the word or code span."""


def _shown() -> list[tuple[str, str]]:
    pairs = set(_SHOWN.findall(README.read_text(encoding="utf-8")))
    # "..." stands for the reader's own value (an endpoint, a key): nothing to check.
    return sorted((name, value) for name, value in pairs if value != "...")


def test_the_readme_shows_values_to_check() -> None:
    """A guard on the pattern: it still finds the README's examples."""
    assert len(_shown()) >= 15


@pytest.mark.parametrize(("name", "value"), _shown(), ids=lambda item: str(item))
def test_each_shown_value_is_taken(
    name: str, value: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))  # a shown ~/ path expands somewhere harmless
    monkeypatch.setenv(name, value)
    assert unknown_variables({name: value}) == []
    Settings()  # a refused value raises ValidationError, naming the variable
