"""The README's provider table is the registry, in auto-chain order."""

import re
from pathlib import Path

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
