"""``state_dir`` expands ``~`` and environment variables, wherever it is set.

A value from ``WEBSEARCH_STATE_DIR`` or the config file arrives as written: ``$VAR/state``
used to become a directory literally named ``$VAR`` under the working directory. An
unset variable is a settings error that names it, before anything touches the disk.
"""

import asyncio
from pathlib import Path

import pytest
from pydantic import ValidationError

from websearch_core.client import open_state_store
from websearch_core.errors import ConfigurationError
from websearch_core.settings import Settings
from websearch_core.settings_errors import configuration_errors
from websearch_core.state import SQLiteStore


@pytest.fixture
def base(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``$WS_TEST_BASE``, set to a directory; the working directory is another one."""
    base = tmp_path / "base"
    monkeypatch.setenv("WS_TEST_BASE", str(base))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return base


@pytest.mark.parametrize("written", ["$WS_TEST_BASE/state", "${WS_TEST_BASE}/state"])
def test_variables_are_expanded_in_an_argument(base: Path, written: str) -> None:
    assert Settings(state_dir=written).state_dir == base / "state"


def test_variables_are_expanded_in_the_environment_variable(
    base: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEBSEARCH_STATE_DIR", "$WS_TEST_BASE/from-env")
    assert Settings().state_dir == base / "from-env"


def test_variables_are_expanded_in_the_config_file(
    base: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("WEBSEARCH_STATE_DIR")
    (tmp_path / "config.toml").write_text('state_dir = "${WS_TEST_BASE}/from-file"\n')
    assert Settings().state_dir == base / "from-file"


def test_home_is_still_expanded(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert Settings(state_dir="~/state").state_dir == tmp_path / "home" / "state"


def test_the_store_opens_under_the_expanded_directory(base: Path) -> None:
    store = open_state_store(Settings(state_dir="$WS_TEST_BASE/state"))
    assert isinstance(store, SQLiteStore)

    async def touch() -> None:
        async with store:
            await store.get_usage("brave", "month:test")

    asyncio.run(touch())
    assert (base / "state" / "state.sqlite3").is_file()
    assert list(Path.cwd().iterdir()) == []  # no directory named "$WS_TEST_BASE"


@pytest.mark.parametrize("value", ["", None])
def test_an_unset_or_empty_variable_is_an_error_naming_it(
    base: Path, monkeypatch: pytest.MonkeyPatch, value: str | None
) -> None:
    if value is None:
        monkeypatch.delenv("WS_TEST_MISSING", raising=False)
    else:
        monkeypatch.setenv("WS_TEST_MISSING", value)
    monkeypatch.setenv("WEBSEARCH_STATE_DIR", "$WS_TEST_BASE/${WS_TEST_MISSING}/state")
    with pytest.raises(ConfigurationError) as caught, configuration_errors():
        Settings()
    assert str(caught.value) == (
        "WEBSEARCH_STATE_DIR: uses an environment variable that is unset or empty: $WS_TEST_MISSING"
    )
    assert list(Path.cwd().iterdir()) == [] and not base.exists()


def test_every_unset_variable_is_named(base: Path) -> None:
    with pytest.raises(
        ValidationError,
        match=r"environment variables that are unset or empty: \$WS_TEST_A, \$WS_TEST_B",
    ):
        Settings(state_dir="$WS_TEST_B/$WS_TEST_A")
