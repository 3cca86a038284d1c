"""Where a setting comes from, and how a bad one names its source.

Each test here is a defect a user met: a table variable that is not JSON gave a
traceback, a config path set by hand was ignored when wrong, a path setting was not
expanded, a bad SearXNG endpoint was found only by the search, a budget variable was not
named, a key with a control character was taken.
"""

from pathlib import Path

import pytest
from pydantic import ValidationError

from websearch_core import WebSearch
from websearch_core.errors import ConfigurationError
from websearch_core.settings import Settings, default_config_file
from websearch_core.settings_errors import configuration_errors

SECRET = "sk-sources-test-77a1"


# --- a table variable that is not JSON ------------------------------------------------------


def test_a_table_variable_that_is_not_json_is_a_validation_error_of_its_field(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("WEBSEARCH_API_KEYS", f'{{"brave": "{SECRET}"')
    with pytest.raises(ValidationError) as caught:
        Settings()
    (error,) = caught.value.errors()
    assert error["loc"] == ("api_keys",)
    assert SECRET not in str(caught.value)


def test_a_client_made_within_configuration_errors_names_the_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # What a tool adapter does: the one line, as a ConfigurationError.
    monkeypatch.setenv("WEBSEARCH_BUDGET", "{bad")
    with pytest.raises(ConfigurationError) as caught, configuration_errors():
        WebSearch()
    assert str(caught.value).startswith("WEBSEARCH_BUDGET: not valid JSON (")


# --- the config file and the path settings -----------------------------------------------


def test_a_config_file_given_as_an_argument_must_exist(tmp_path: Path) -> None:
    missing = tmp_path / "missing.toml"
    with pytest.raises(ConfigurationError) as caught:
        Settings(config_file=missing)
    assert str(caught.value) == f"config_file: config file {missing} does not exist"


def test_the_config_file_setting_is_expanded(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "config.toml").write_text('provider = "brave"\n')
    monkeypatch.setenv("WS_TEST_CONF", str(tmp_path))
    monkeypatch.setenv("WEBSEARCH_CONFIG_FILE", "$WS_TEST_CONF/config.toml")
    settings = Settings()
    assert settings.provider == "brave"
    assert settings.resolved_config_file() == tmp_path / "config.toml"
    assert settings.resolved_credentials_file() == tmp_path / "credentials.json"


@pytest.mark.parametrize("written", ["~/creds/c.json", "$WS_TEST_HOME/creds/c.json"])
def test_the_credentials_file_variable_is_expanded(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, written: str
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("WS_TEST_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("WEBSEARCH_CREDENTIALS_FILE", written)
    expected = tmp_path / "home" / "creds" / "c.json"
    assert Settings().resolved_credentials_file() == expected


@pytest.mark.parametrize("blank", ["", "  "])
@pytest.mark.parametrize(
    "variable", ["WEBSEARCH_CREDENTIALS_FILE", "WEBSEARCH_STATE_DIR", "WEBSEARCH_CONFIG_FILE"]
)
def test_an_empty_path_variable_means_the_default(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, variable: str, blank: str
) -> None:
    # pydantic read "" as Path("."): an empty WEBSEARCH_STATE_DIR (a .env template's blank
    # entry) put the state in the working directory, and an empty WEBSEARCH_CREDENTIALS_FILE
    # failed every search over "cannot read credential store .: Is a directory".
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "home" / ".config"))
    monkeypatch.setenv(variable, blank)
    settings = Settings()
    field = variable.removeprefix("WEBSEARCH_").lower()
    assert getattr(settings, field) is None
    if variable == "WEBSEARCH_CONFIG_FILE":
        assert settings.resolved_config_file() == default_config_file()
        assert default_config_file().is_relative_to(tmp_path / "home")
    if variable == "WEBSEARCH_CREDENTIALS_FILE":
        beside = settings.resolved_config_file().parent / "credentials.json"
        assert settings.resolved_credentials_file() == beside


def test_an_unset_variable_in_the_credentials_file_names_the_setting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("WS_TEST_UNSET", raising=False)
    monkeypatch.setenv("WEBSEARCH_CREDENTIALS_FILE", "$WS_TEST_UNSET/c.json")
    with pytest.raises(ConfigurationError) as caught, configuration_errors():
        Settings()
    assert str(caught.value) == (
        "WEBSEARCH_CREDENTIALS_FILE: uses an environment variable that is unset or empty: "
        "$WS_TEST_UNSET"
    )


def test_relative_paths_in_the_config_file_are_taken_from_its_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Taken from the working directory, each directory the command ran in had its own
    # credential store and state.
    conf, work = tmp_path / "conf", tmp_path / "work"
    conf.mkdir()
    work.mkdir()
    (conf / "config.toml").write_text('credentials_file = "keys/c.json"\nstate_dir = "state"\n')
    monkeypatch.setenv("WEBSEARCH_CONFIG_FILE", str(conf / "config.toml"))
    monkeypatch.delenv("WEBSEARCH_CREDENTIALS_FILE")
    monkeypatch.delenv("WEBSEARCH_STATE_DIR")
    monkeypatch.chdir(work)
    settings = Settings()
    assert settings.resolved_credentials_file() == conf / "keys" / "c.json"
    assert settings.state_dir == conf / "state"


def test_a_home_or_absolute_path_in_the_config_file_is_not_joined_to_its_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "config.toml").write_text('credentials_file = "~/c.json"\nstate_dir = "/s"\n')
    monkeypatch.delenv("WEBSEARCH_CREDENTIALS_FILE")
    monkeypatch.delenv("WEBSEARCH_STATE_DIR")
    settings = Settings()
    assert settings.resolved_credentials_file() == tmp_path / "home" / "c.json"
    assert settings.state_dir == Path("/s")


# --- keys ----------------------------------------------------------------------------------


def test_a_key_with_a_control_character_in_the_config_file_names_the_entry(
    tmp_path: Path,
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f'[api_keys]\nexa = "{SECRET}\\u0000"\n')
    with pytest.raises(ConfigurationError) as caught, configuration_errors():
        Settings()
    assert str(caught.value) == (
        f"config file {config} (api_keys.exa): the API key contains a control "
        "character (a line break, a NUL), so it cannot be sent"
    )


def test_a_quoted_key_in_the_config_file_names_the_entry(tmp_path: Path) -> None:
    # Copied with its .env quoting ('exa = "\"..\""'), it was taken and sent, and Exa
    # refused it as an authorization error that named neither the file nor the entry.
    config = tmp_path / "config.toml"
    config.write_text(f"[api_keys]\nexa = '\"{SECRET}\"'\n")
    with pytest.raises(ConfigurationError) as caught, configuration_errors():
        Settings()
    assert str(caught.value) == (
        f'config file {config} (api_keys.exa): the API key contains a quote mark (") '
        "that would be sent as part of it"
    )
    assert SECRET not in str(caught.value)


# --- a config file saved as UTF-16 ----------------------------------------------------------


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_a_config_file_saved_as_utf16_says_to_save_it_as_utf8(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    encoding: str,
) -> None:
    # Windows Notepad's "Unicode" (with a byte order mark) read as "not UTF-8 text (byte 0
    # cannot be decoded)"; without a mark, as "not valid TOML: Expected '=' after a key".
    from websearch_core.cli import EXIT_USAGE, main

    config = tmp_path / "notepad.toml"
    config.write_text('provider = "brave"\n', encoding=encoding)
    monkeypatch.setenv("WEBSEARCH_CONFIG_FILE", str(config))
    assert main(["providers"]) == EXIT_USAGE
    assert capsys.readouterr().err == (
        f"websearch: config file {config} is saved as UTF-16; save it as UTF-8\n"
    )
