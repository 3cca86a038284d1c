"""A table variable holding JSON that is no object says to write one, naming the variable.

``WEBSEARCH_RATE=5`` or ``WEBSEARCH_BUDGET='["brave"]'`` is valid JSON, so it passed the
check that words a typo (``not valid JSON (...); write a JSON object, or set one entry per
variable, as WEBSEARCH_RATE__<PROVIDER>``) and met pydantic's ``Input should be a valid
dictionary`` instead: no fix, and for SearXNG ``... or instance of SearxngSettings``, a class
name a user never wrote. Each command that reads the settings now gives the same advice as
for broken JSON, never repeating the value (it may be a key).
"""

import json

import pytest

from websearch_core.cli import EXIT_USAGE, main
from websearch_core.providers import SEARCH_PROVIDER_ORDER
from websearch_core.settings import Settings

SECRET = "sk-table-secret-0123456789"

_TABLES = [
    ("WEBSEARCH_API_KEYS", "PROVIDER"),
    ("WEBSEARCH_BUDGET", "PROVIDER"),
    ("WEBSEARCH_RATE", "PROVIDER"),
    ("WEBSEARCH_BASE_URLS", "PROVIDER"),
    ("WEBSEARCH_SEARXNG", "SETTING"),
]
_NOT_OBJECTS = [
    (json.dumps([SECRET]), "a list"),
    ("5", "a number"),
    (json.dumps(SECRET), "a string"),
    ("true", "true or false"),
]


@pytest.mark.parametrize(("name", "entry"), _TABLES)
@pytest.mark.parametrize(("value", "kind"), _NOT_OBJECTS)
@pytest.mark.parametrize("command", [["python"], ["providers"]])
def test_a_table_variable_that_is_no_json_object_says_to_write_one(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    name: str,
    entry: str,
    value: str,
    kind: str,
    command: list[str],
) -> None:
    monkeypatch.setenv(name, value)
    monkeypatch.setenv("WEBSEARCH_EXCLUDE", ",".join(SEARCH_PROVIDER_ORDER))
    assert main(command) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        f"websearch: {name}: must be a JSON object ({{...}}), not {kind}; write one, or set "
        f"one entry per variable, as {name}__<{entry}>\n"
    )
    assert SECRET not in err


def test_an_object_and_null_still_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    """A guard: a JSON object is read as before, and ``null`` leaves the table empty."""
    monkeypatch.setenv("WEBSEARCH_RATE", '{"brave": "1/s"}')
    assert Settings().rate == {"brave": "1/s"}
    monkeypatch.setenv("WEBSEARCH_RATE", "null")
    assert not Settings().rate
