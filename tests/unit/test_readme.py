"""The README's provider table is the registry, in auto-chain order, generated from it."""

import re
from pathlib import Path

import pytest

from websearch_core.docs import END_MARKER, START_MARKER, main, provider_table, with_table
from websearch_core.providers import SEARCH_PROVIDER_ORDER, get_provider

README = Path(__file__).resolve().parents[2] / "README.md"


def _rows() -> list[list[str]]:
    rows = []
    for line in README.read_text(encoding="utf-8").splitlines():
        match = re.match(r"^\| `([a-z]+)` \|", line)
        if match:
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def test_table_lists_every_provider_in_order_with_its_label() -> None:
    rows = _rows()
    assert [row[0].strip("`") for row in rows] == list(SEARCH_PROVIDER_ORDER)
    for row in rows:
        assert row[1] == get_provider(row[0].strip("`")).info.label


def test_table_names_each_key_variable() -> None:
    for row in _rows():
        info = get_provider(row[0].strip("`")).info
        for name in info.env_vars:
            assert name in row[3], f"{info.id}: {name} missing from the README credentials"


def test_the_table_is_what_the_generator_writes_now() -> None:
    text = README.read_text(encoding="utf-8")
    assert with_table(text, provider_table()) == text, (
        "README provider table is stale: run python -m websearch_core.docs"
    )


def test_the_generator_rewrites_only_between_the_markers(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(f"intro\n{START_MARKER}\nold rows\n{END_MARKER}\noutro\n", encoding="utf-8")
    assert main([str(readme), "--check"]) == 1
    assert main([str(readme)]) == 0
    written = readme.read_text(encoding="utf-8")
    assert written.startswith(f"intro\n{START_MARKER}\n| id | label |")
    assert written.endswith(f"{END_MARKER}\noutro\n")
    assert "old rows" not in written
    assert written.count("\n| `") == len(SEARCH_PROVIDER_ORDER)
    assert main([str(readme), "--check"]) == 0


def test_a_readme_without_markers_is_refused() -> None:
    with pytest.raises(ValueError, match="no provider table markers"):
        with_table("no table here", provider_table())


def test_the_config_example_is_valid(tmp_path: Path) -> None:
    from websearch_core.settings import Settings

    text = README.read_text(encoding="utf-8")
    example = text.split("```toml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "config.toml"
    path.write_text(example, encoding="utf-8")
    settings = Settings(config_file=path)
    assert settings.provider == "brave"
    assert settings.budget == {"brave": "2000/month"}
    assert settings.base_urls["brave"] == "http://127.0.0.1:8080"
    assert settings.searxng.endpoint == "https://searx.example.org"
