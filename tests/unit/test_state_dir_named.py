"""A state store that cannot be opened names what chose its directory, not the path alone.

A first-time user saw ``SQLite state store '/x/state.sqlite3' failed: NotADirectoryError``
with no hint that ``WEBSEARCH_STATE_DIR`` (set long ago in a shell profile) put it there.
Each test blocks the directory with a plain file, so the store's first read fails.
"""

import asyncio
from pathlib import Path

import pytest

from websearch_core.cli import main as cli_main
from websearch_core.client import open_state_store
from websearch_core.settings import Settings
from websearch_core.state import StateStoreError


@pytest.fixture
def blocked(tmp_path: Path) -> Path:
    """A plain file where a directory is needed: no store can be made below it."""
    path = tmp_path / "blocked"
    path.write_text("not a directory\n", encoding="utf-8")
    return path


def _failure(settings: Settings) -> str:
    """The error the settings' store raises at its first read."""
    store = open_state_store(settings)

    async def read() -> None:
        async with store:
            await store.get_usage("brave", "month:test")

    with pytest.raises(StateStoreError) as raised:
        asyncio.run(read())
    return str(raised.value)


def test_the_variable_that_chose_the_directory_is_named(
    blocked: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEBSEARCH_STATE_DIR", str(blocked / "state"))
    failure = _failure(Settings())
    assert failure.startswith(f"SQLite state store {str(blocked / 'state' / 'state.sqlite3')!r}")
    assert failure.endswith("; its directory is set by WEBSEARCH_STATE_DIR")


def test_the_config_file_entry_that_chose_it_is_named(
    blocked: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("WEBSEARCH_STATE_DIR")
    config = tmp_path / "config.toml"  # the one WEBSEARCH_CONFIG_FILE names in every test
    config.write_text('state_dir = "blocked/state"\n', encoding="utf-8")  # from the file's dir
    failure = _failure(Settings())
    assert str(blocked / "state" / "state.sqlite3") in failure
    assert failure.endswith(f"; its directory is set by config file {config} (state_dir)")


def test_an_argument_is_named_as_the_setting_not_as_the_variable_it_outranks(
    blocked: Path,
) -> None:
    # WEBSEARCH_STATE_DIR is set (to a usable directory) in every test: it is not to blame.
    failure = _failure(Settings(state_dir=blocked / "state"))
    assert failure.endswith("; its directory is set by state_dir")


def test_guard_the_default_directory_names_no_setting(
    blocked: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A guard (it passes before the change too): no setting is blamed for the default."""
    monkeypatch.delenv("WEBSEARCH_STATE_DIR")
    monkeypatch.setenv("XDG_STATE_HOME", str(blocked))
    failure = _failure(Settings())
    assert str(blocked) in failure
    assert "set by" not in failure


def test_websearch_providers_warns_with_the_variable(
    blocked: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("WEBSEARCH_STATE_DIR", str(blocked / "state"))
    assert cli_main(["providers"]) == 0
    warning = capsys.readouterr().err.splitlines()[0]
    assert warning.startswith("websearch: warning: the state store is unavailable")
    assert warning.endswith("; its directory is set by WEBSEARCH_STATE_DIR)")
