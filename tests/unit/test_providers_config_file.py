"""``websearch providers`` names the config file it reads, or says there is none.

The README named ``~/.config/websearch-tools/config.toml``, Linux's place. A first-time user
who wrote the file elsewhere (macOS keeps it under ``~/Library/Application Support``, or a
directory named ``websearch`` instead of ``websearch-tools``) got the defaults, silently, and
no command said which file was read.
"""

import json
import sys
from pathlib import Path

import pytest

from websearch_core.cli import EXIT_OK, main


def _footer(capsys: pytest.CaptureFixture[str]) -> list[str]:
    assert main(["providers"]) == EXIT_OK
    out = capsys.readouterr().out
    return out.split("\n\n", 1)[1].splitlines()


def test_the_file_read_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "mine.toml"
    config.write_text("timeout_seconds = 30\n")
    monkeypatch.setenv("WEBSEARCH_CONFIG_FILE", str(config))
    footer = _footer(capsys)
    assert footer[0] == f"Config file: {config}"
    assert footer[1].endswith("Store a key with: websearch auth set PROVIDER")


@pytest.mark.skipif(sys.platform != "linux", reason="XDG_CONFIG_HOME places it on Linux")
def test_a_default_file_that_is_not_there_is_named_with_where_it_is_looked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("WEBSEARCH_CONFIG_FILE")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    # Written where a newcomer guessed: a directory without the "-tools".
    (tmp_path / "xdg" / "websearch").mkdir(parents=True)
    (tmp_path / "xdg" / "websearch" / "config.toml").write_text("timeout_seconds = 30\n")
    expected = tmp_path / "xdg" / "websearch-tools" / "config.toml"
    assert _footer(capsys)[0] == f"Config file: {expected} (no such file, so none is read)"


def _json_config_file(capsys: pytest.CaptureFixture[str]) -> object:
    assert main(["providers", "--json"]) == EXIT_OK
    return json.loads(capsys.readouterr().out)["config_file"]


def test_the_json_names_the_file_read_as_the_table_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "mine.toml"
    config.write_text("timeout_seconds = 30\n")
    monkeypatch.setenv("WEBSEARCH_CONFIG_FILE", str(config))
    assert _json_config_file(capsys) == {"path": str(config), "exists": True}


@pytest.mark.skipif(sys.platform != "linux", reason="XDG_CONFIG_HOME places it on Linux")
def test_the_json_says_when_no_file_is_there_to_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("WEBSEARCH_CONFIG_FILE")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    expected = tmp_path / "xdg" / "websearch-tools" / "config.toml"
    assert _json_config_file(capsys) == {"path": str(expected), "exists": False}
