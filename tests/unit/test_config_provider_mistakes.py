"""A provider's values written where the config file has no place for them.

A first-time user's file held ``[brave]`` with ``api_key = "..."`` in it (answered ``not a
setting; did you mean rate?``), or ``brave = 2000`` under ``[budget]`` (answered pydantic's
``Input should be a valid string``): neither said where or how the value is written.
"""

from pathlib import Path

import pytest
from pydantic import ValidationError

from websearch_core import WebSearch
from websearch_core.cli import EXIT_OK, EXIT_USAGE, main

SECRET = "sk-config-provider-test-7d2a"


def _refusal(
    written: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> str:
    config = tmp_path / "config.toml"
    config.write_text(f"{written}\n")
    monkeypatch.setenv("WEBSEARCH_CONFIG_FILE", str(config))
    assert main(["providers"]) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1
    prefix = f"websearch: config file {config} "
    assert err.startswith(prefix)
    return err.removeprefix(prefix).rstrip("\n")


@pytest.mark.parametrize("written", ["[brave]\napi_key = 'KEY'", "brave = 'KEY'"])
def test_a_provider_written_as_a_setting_says_where_its_values_go(
    written: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    said = _refusal(written.replace("KEY", SECRET), tmp_path, monkeypatch, capsys)
    assert said.startswith("(brave): not a setting; brave is a provider: ")
    assert 'go in [api_keys], [base_urls], [budget] and [rate] as brave = "..."' in said
    assert 'exclude = ["brave"] leaves it out' in said
    assert "did you mean" not in said  # "rate", the nearest setting by spelling, misled
    assert SECRET not in said


def test_a_keyless_provider_written_as_a_setting_is_told_how_to_leave_it_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    said = _refusal("[duckduckgo]\nenabled = false", tmp_path, monkeypatch, capsys)
    assert said.startswith("(duckduckgo): not a setting; duckduckgo is a provider: ")
    assert 'exclude = ["duckduckgo"] leaves it out' in said


def test_searxng_stays_a_setting_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A guard that passes both ways: searxng is both a provider id and a table setting.
    said = _refusal("[searxng]\nendpont = 'https://s.example'", tmp_path, monkeypatch, capsys)
    assert said == "(searxng.endpont): not a setting; did you mean endpoint?"


def test_a_provider_given_to_websearch_as_a_keyword_is_named_so() -> None:
    with pytest.raises(ValidationError) as caught:
        WebSearch(tavily={"api_key": SECRET})  # type: ignore[call-arg]
    (error,) = caught.value.errors()
    assert error["type"] == "extra_forbidden"
    assert error["loc"] == ("tavily",)
    assert error["msg"].startswith("not a setting; tavily is a provider: its key (if it takes")
    assert SECRET not in str(caught.value)


@pytest.mark.parametrize(
    ("written", "place", "example"),
    [
        ("[budget]\nbrave = 2000", "budget.brave", 'brave = "2000/month"'),
        ("[rate]\nbrave = 5", "rate.brave", 'brave = "5/s"'),
        ("[api_keys]\nbrave = 12345", "api_keys.brave", 'brave = "..."'),
        ("[base_urls]\nbrave = ['http://127.0.0.1:8080']", "base_urls.brave", 'brave = "..."'),
    ],
)
def test_an_unquoted_entry_of_a_provider_table_is_shown_its_form(
    written: str,
    place: str,
    example: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    said = _refusal(written, tmp_path, monkeypatch, capsys)
    # The entry's own number shown as text (a rate of 5 read "1/s", the table's example).
    assert said.startswith(f"({place}): must be text in quotes")
    assert said.endswith(f"as in {example}")
    assert "valid string" not in said
    assert "12345" not in said  # a value is never repeated: it may be a key


@pytest.mark.parametrize("name", ["limit", "recency", "language"])
def test_a_search_parameter_written_as_a_setting_is_said_to_go_with_each_search(
    name: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # "limit = 5" was "not a setting" alone, for a user who wanted fewer results each time.
    # The option is named (it read "its option on the command line (websearch --help)",
    # where the README promised `--limit`).
    said = _refusal(f"{name} = 'x'", tmp_path, monkeypatch, capsys)
    assert said == (
        f"({name}): not a setting; {name} is a search parameter, given with each search: "
        f"run(..., {name}=...), or --{name} on the command line"
    )


def test_a_search_parameter_variable_is_said_to_go_with_each_search(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("WEBSEARCH_LIMIT", "5")
    assert main(["providers"]) == EXIT_OK
    assert capsys.readouterr().err == (
        "websearch: warning: WEBSEARCH_LIMIT sets nothing and is ignored; limit is a search "
        "parameter, given with each search: run(..., limit=...), or --limit on the command "
        "line\n"
    )


def test_the_provider_setting_is_still_a_setting() -> None:
    # A guard that passes both ways: provider is both a setting and a search parameter.
    assert WebSearch(provider="brave").settings.provider == "brave"


def test_a_search_parameter_without_an_option_is_said_to_go_with_run_alone(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The command has no --max-tokens: naming an option would send the user looking for one.
    said = _refusal("max_tokens = 5", tmp_path, monkeypatch, capsys)
    assert said.endswith("given with each search: run(..., max_tokens=...)")


def test_each_named_option_is_one_the_search_command_takes() -> None:
    """A guard: every option a note names is the search parser's, setting that field."""
    from websearch_core.cli import _search_parser
    from websearch_core.search_flags import SEARCH_FLAGS

    parser = _search_parser()
    for field, flag in SEARCH_FLAGS.items():
        (action,) = [a for a in parser._actions if flag in a.option_strings]
        assert action.dest in {field, flag.lstrip("-").replace("-", "_")}, (field, flag)
