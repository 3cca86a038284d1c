"""WEBSEARCH_* variables that set nothing are named once, with the name probably meant."""

import logging
import re
from pathlib import Path

import pytest

from websearch_core import SEARCH_PROVIDER_ORDER, WebSearch
from websearch_core.cli import main
from websearch_core.env_names import report_unknown_variables, unknown_variables

README = Path(__file__).resolve().parents[2] / "README.md"


@pytest.mark.parametrize(
    ("name", "sentence"),
    [
        ("WEBSEARCH_TIMEOUT", "; did you mean WEBSEARCH_TIMEOUT_SECONDS?"),
        ("WEBSEARCH_PROVIDE", "; did you mean WEBSEARCH_PROVIDER?"),
        ("websearch_statedir", "; did you mean WEBSEARCH_STATE_DIR?"),
        ("WEBSEARCH_FETCH_ALLOW_PRIVAT", "; did you mean WEBSEARCH_FETCH_ALLOW_PRIVATE?"),
        ("WEBSEARCH_BRAVE_API_KEY", "; did you mean BRAVE_API_KEY?"),
        ("WEBSEARCH_XYZZY", ""),
    ],
)
def test_a_variable_that_sets_nothing_is_named_with_what_was_meant(
    name: str, sentence: str
) -> None:
    assert unknown_variables({name: "1", "WEBSEARCH_PROVIDER": "brave"}) == [
        f"{name} sets nothing and is ignored{sentence}"
    ]


def test_every_variable_the_readme_documents_sets_something() -> None:
    documented = set(re.findall(r"`(WEBSEARCH_[A-Z_]+)`", README.read_text()))
    assert {"WEBSEARCH_PROVIDER", "WEBSEARCH_EXCLUDE", "WEBSEARCH_STATE_DIR"} <= documented
    others = {
        "WEBSEARCH_BUDGET__BRAVE": "10/day",  # nested tables
        "WEBSEARCH_SEARXNG__SAFESEARCH": "1",
        "WEBSEARCH_BRAVE_BASE_URL": "http://h",  # base URLs: the settings check the id
        "websearch_timeout_seconds": "3",  # names are read without regard to case
    }
    assert unknown_variables(dict.fromkeys(documented, "1") | others) == []


def test_each_is_reported_once_per_process_as_a_library_warning(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEBSEARCH_TIMEOUT", "30")
    with caplog.at_level(logging.WARNING, logger="websearch_core"):
        WebSearch()
        WebSearch()
    assert [record.getMessage() for record in caplog.records] == [
        "WEBSEARCH_TIMEOUT sets nothing and is ignored; did you mean WEBSEARCH_TIMEOUT_SECONDS?"
    ]
    heard: list[str] = []
    report_unknown_variables(heard.append)
    assert heard == []


@pytest.mark.parametrize("argv", [["providers"], ["python", "--verbose"]])
def test_the_command_prints_it_once_as_a_warning_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    monkeypatch.setenv("WEBSEARCH_TIMEOUT", "30")
    monkeypatch.setenv("WEBSEARCH_EXCLUDE", ",".join(SEARCH_PROVIDER_ORDER))  # nothing to ask
    main(argv)
    err = capsys.readouterr().err
    warning = (
        "websearch: warning: WEBSEARCH_TIMEOUT sets nothing and is ignored; "
        "did you mean WEBSEARCH_TIMEOUT_SECONDS?\n"
    )
    assert err.startswith(warning)
    assert err.count("sets nothing") == 1  # the library's own warning is not repeated


@pytest.mark.parametrize("value", ["of", "maybe", "disable"])
def test_a_browser_switch_that_is_neither_on_nor_off_is_named(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    monkeypatch.setenv("WEBSEARCH_BROWSER", value)
    monkeypatch.setenv("WEBSEARCH_EXCLUDE", ",".join(SEARCH_PROVIDER_ORDER))  # nothing to ask
    main(["providers"])
    assert capsys.readouterr().err.startswith(
        f"websearch: warning: WEBSEARCH_BROWSER='{value}' is neither on nor off; taken as on "
        "(write off, 0, false or no)\n"
    )


@pytest.mark.parametrize("value", ["off", "0", "No", "on", "1", ""])
def test_a_browser_switch_in_words_it_knows_is_not_named(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    monkeypatch.setenv("WEBSEARCH_BROWSER", value)
    monkeypatch.setenv("WEBSEARCH_EXCLUDE", ",".join(SEARCH_PROVIDER_ORDER))
    main(["providers"])
    assert "WEBSEARCH_BROWSER" not in capsys.readouterr().err
