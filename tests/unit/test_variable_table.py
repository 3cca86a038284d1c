"""The README's variable table and provider timeouts, held to the code that reads them.

The hand-kept table under "Every environment variable" had lost fifteen variables the code
reads (``WEBSEARCH_CACHE``, ``WEBSEARCH_FALLBACK``, ``WEBSEARCH_BUDGET``,
``WEBSEARCH_BROWSER``...), and the provider table gave no provider's default timeout. Both
are now written by ``python -m websearch_core.docs`` from the settings model.
"""

import ast
import re
from pathlib import Path

import pytest

from websearch_core import variable_table as table_module
from websearch_core.docs import provider_table, with_table
from websearch_core.env_names import unknown_variables
from websearch_core.providers import SEARCH_PROVIDER_ORDER, get_provider
from websearch_core.settings import BASE_URL_SUFFIX, ENV_PREFIX, Settings
from websearch_core.variable_table import (
    VARIABLE_TABLE_END,
    VARIABLE_TABLE_START,
    table_variables,
    variable_table,
)

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PACKAGES = ("websearch_core", "langchain_websearch", "llamaindex_websearch")


def _readme_table() -> dict[str, list[str]]:
    """The README's variable table: each row's cells, by every variable name its first holds."""
    text = README.read_text(encoding="utf-8")
    assert VARIABLE_TABLE_START in text, "README has no generated variable table"
    body = text.split(VARIABLE_TABLE_START, 1)[1].split(VARIABLE_TABLE_END, 1)[0]
    rows: dict[str, list[str]] = {}
    for line in body.strip().splitlines()[2:]:
        cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        for name in re.findall(r"`([A-Z_<>]+)`", cells[0]):
            rows[name] = cells
    return rows


def _known_exact_names() -> set[str]:
    """Every variable name the code answers to as such (``env_names``' own registry)."""
    from websearch_core.env_names import _known_names

    exact, _nested = _known_names()
    return set(exact)


def test_every_variable_the_code_reads_has_a_row() -> None:
    """Each setting's variable and each one read outside the settings is in the table."""
    rows = _readme_table()
    for name in sorted(_known_exact_names()):
        if name.endswith(BASE_URL_SUFFIX) and name != f"{ENV_PREFIX}BASE_URLS":
            name = f"{ENV_PREFIX}<ID>{BASE_URL_SUFFIX}"
        assert name in rows, f"README's variable table has no row for {name}"


def _names_in_code() -> set[str]:
    """Every whole ``WEBSEARCH_*`` name the packages' code holds as a string: one it reads."""
    names = set()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                value = getattr(node, "value", None)
                whole = isinstance(value, str) and re.fullmatch(rf"{ENV_PREFIX}[A-Z0-9_]+", value)
                if isinstance(node, ast.Constant) and whole:
                    names.add(str(value))
    return names


def test_every_variable_name_written_in_the_code_has_a_row() -> None:
    """A name read outside the settings (``WEBSEARCH_BROWSER``) is documented too."""
    found = _names_in_code()
    assert "WEBSEARCH_BROWSER" in found  # the scan sees the names read by hand
    rows = _readme_table()
    assert sorted(found - set(rows)) == []


def test_every_row_names_a_variable_that_sets_something() -> None:
    rows = _readme_table()
    named = {name for name in rows if "<" not in name and name.startswith(ENV_PREFIX)}
    assert len(named) == len(table_variables())
    assert unknown_variables(dict.fromkeys(named, "1")) == []


def test_the_variable_table_is_what_the_generator_writes_now() -> None:
    text = README.read_text(encoding="utf-8")
    regenerated = with_table(
        text, variable_table(), VARIABLE_TABLE_START, VARIABLE_TABLE_END, "variable table"
    )
    assert regenerated == text, "README variable table is stale: run python -m websearch_core.docs"


def test_each_row_gives_the_field_s_default_and_bounds() -> None:
    """The numbers in a row are the model's: its default, and its ``le`` bound."""
    rows = _readme_table()
    for name, field in Settings.model_fields.items():
        cells = rows[f"{ENV_PREFIX}{name.upper()}"]
        default = field.get_default(call_default_factory=True)
        if isinstance(default, float) and default < 86_400:
            assert cells[2] == f"{default:.12g} s", name
        for rule in field.metadata:
            limit = getattr(rule, "le", None)
            if limit is not None:
                assert f"at most {float(limit):.12g}" in cells[3], name
    assert rows["WEBSEARCH_STATE_BACKEND"][3] == "`auto`, `sqlite`, `redis`, `memory`"
    assert rows["WEBSEARCH_CACHE"][2:] == ["on", "on or off (`1`/`0`, `true`/`false`, `yes`/`no`)"]


def test_each_timeout_default_is_the_one_a_provider_gets() -> None:
    """The provider table's timeout is what ``Settings.provider_timeout`` gives each kind."""
    settings = Settings(timeout_seconds=None)
    rows = {
        line.split(" | ", 1)[0].strip("| `"): [c.strip() for c in line.strip("|").split(" | ")]
        for line in README.read_text(encoding="utf-8").splitlines()
        if re.match(r"^\| `[a-z]+` \|", line)
    }
    assert list(rows) == list(SEARCH_PROVIDER_ORDER)
    header = provider_table().splitlines()[0].strip("|").split(" | ")
    column = [cell.strip() for cell in header].index("timeout (s)")
    for provider_id, cells in rows.items():
        expected = settings.provider_timeout(get_provider(provider_id).info.kind)
        assert cells[column] == f"{expected:g}", provider_id


def test_a_setting_without_a_meaning_stops_the_generator(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new setting cannot reach the README undocumented: ``docs --check`` fails on it."""
    meanings = dict(table_module.MEANINGS)
    del meanings["cache_stale_seconds"]
    monkeypatch.setattr(table_module, "MEANINGS", meanings)
    with pytest.raises(ValueError, match=r"no meaning for \['cache_stale_seconds'\]"):
        variable_table()
