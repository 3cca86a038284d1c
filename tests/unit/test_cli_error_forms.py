"""A bad value is named in one form, whether an option, a variable or the config file gave it.

The spec fixes no text for these (its error texts are the providers' and the tool's), so the
command's own are made alike: ``websearch: <where>: <problem>``, one line. A search
parameter's began ``invalid`` (``invalid limit (--limit): ...``) where a setting's did not
(``timeout_seconds (--timeout): ...``, ``WEBSEARCH_TIMEOUT_SECONDS: ...``); two bad
parameters took two lines; and ``--limit five`` or ``--timeout soon`` got argparse's usage
block and its own words (``argument --limit: invalid int value``), where the same mistake
in ``WEBSEARCH_TIMEOUT_SECONDS`` is named like any other bad value.
"""

import os
from pathlib import Path

import pytest

from tests.cli_refusals import refusal_line
from websearch_core.cli import EXIT_OK, main

LIMIT = "must be at least 1 and at most 100 results"
"""``--limit``'s range (firstusers25: pydantic's ``Input should be greater than or equal to 1``)."""


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["q", "--limit", "0"], f"limit (--limit): {LIMIT}"),
        # The text given is said: it read "Input should be a valid integer" alone.
        (["q", "--limit", "five"], "limit (--limit): Input should be a valid integer, got 'five'"),
        (["q", "--limit", "2.5"], "limit (--limit): Input should be a valid integer, got '2.5'"),
        (
            ["q", "--timeout", "-1"],
            "timeout_seconds (--timeout): must be more than 0 and at most 300 seconds",
        ),
        (
            ["q", "--timeout", "soon"],
            "timeout_seconds (--timeout): Input should be a valid number, unable to parse "
            "string as a number, got 'soon'",
        ),
        (
            ["q", "--deadline", "x"],
            "deadline_seconds (--deadline): Input should be a valid number, unable to parse "
            "string as a number, got 'x'",
        ),
        (
            ["q", "--limit", "0", "--country", "usa"],
            f"limit (--limit): {LIMIT}; country (--country): "
            "must be a two-letter ISO 3166-1 code such as 'us' or 'de', got 'usa'",
        ),
    ],
)
def test_a_bad_option_is_named_as_a_bad_setting_is(
    argv: list[str], line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert refusal_line(argv, capsys) == f"websearch: {line}\n"


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("-1", "must be more than 0 and at most 300 seconds"),
        ("soon", "Input should be a valid number, unable to parse string as a number, got 'soon'"),
    ],
)
def test_the_same_mistake_reads_alike_from_each_source(
    value: str, problem: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    option = refusal_line(["q", "--timeout", value], capsys)
    monkeypatch.setenv("WEBSEARCH_TIMEOUT_SECONDS", value)
    variable = refusal_line(["q"], capsys)
    monkeypatch.delenv("WEBSEARCH_TIMEOUT_SECONDS")
    config = Path(os.environ["WEBSEARCH_CONFIG_FILE"])
    config.write_text(f'timeout_seconds = "{value}"\n', encoding="utf-8")
    in_file = refusal_line(["q"], capsys)
    assert [option, variable, in_file] == [
        f"websearch: timeout_seconds (--timeout): {problem}\n",
        f"websearch: WEBSEARCH_TIMEOUT_SECONDS: {problem}\n",
        f"websearch: config file {config} (timeout_seconds): {problem}\n",
    ]


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("0", "must be more than 0 and at most 900, got 0"),
        ("soon", "Input should be a valid number, unable to parse string as a number, got 'soon'"),
    ],
)
def test_fetch_names_a_bad_timeout_as_a_search_does(
    value: str, problem: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # It was argparse's usage block and `websearch fetch: error: argument --timeout: ...`.
    line = refusal_line(["fetch", "https://a.example/", "--timeout", value], capsys)
    assert line == f"websearch: timeout_seconds (--timeout): {problem}\n"


@pytest.mark.parametrize(
    ("variable", "value", "line"),
    [
        # A number, a switch or a choice has the text it was given said, as --limit does.
        (
            "WEBSEARCH_STATE_BACKEND",
            "sqllite",
            "Input should be 'auto', 'sqlite', 'redis' or 'memory', got 'sqllite'",
        ),
        (
            "WEBSEARCH_CACHE",
            "yes please",
            "Input should be a valid boolean, unable to interpret input, got 'yes please'; "
            "write 1, true, yes or on, or 0, false, no or off",
        ),
        # A number out of range is not (the bound is said, the number is the user's own);
        # a long text (a key pasted into the wrong variable) and a text setting never are.
        ("WEBSEARCH_MAX_RESPONSE_BYTES", "12", "must be at least 1024 bytes"),
        (
            "WEBSEARCH_CACHE_TTL_SECONDS",
            "BSAq7m2kV9xw4LpQe8RtYz3N",
            "Input should be a valid number, unable to parse string as a number",
        ),
        ("WEBSEARCH_PROXY", "ftp://user:hunter2@gw", "proxy must be an http(s) URL"),
    ],
)
def test_a_bad_setting_says_what_it_was_given_only_where_no_secret_can_be(
    variable: str,
    value: str,
    line: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv(variable, value)
    assert refusal_line(["q"], capsys) == f"websearch: {variable}: {line}\n"


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (
            ["--bogus", "q"],
            "--bogus: not an option of websearch (websearch --help lists its options)",
        ),
        (
            ["--limt", "5", "q"],
            "--limt: not an option of websearch (websearch --help lists its options); did you "
            "mean --limit?",
        ),
        (
            ["q", "--recency", "hourly"],
            # argparse's words, whose list of choices is quoted differently from Python 3.12.8
            "recency (--recency): 'hourly' is not one of day, week, month, year; see websearch "
            "--help",
        ),
        (
            ["q", "--recency", "wek"],
            # Failed before (this row and the next two): the choice meant was not named.
            "recency (--recency): 'wek' is not one of day, week, month, year; see websearch "
            "--help; did you mean week?",
        ),
        (
            ["auth", "lst"],
            "ACTION: 'lst' is not one of set, list, remove, import; see websearch auth --help; "
            "did you mean list?",
        ),
        (
            ["providers", "rest", "brave"],
            "action: 'rest' is not one of reset; see websearch providers --help; did you mean "
            "reset?",
        ),
        (["q", "--limit"], "limit (--limit): needs a value (--limit N); see websearch --help"),
        (["fetch"], "URL: required, not given; see websearch fetch --help"),
        (
            ["fetch", "https://a.example/", "--timeout"],
            "timeout_seconds (--timeout): needs a value (--timeout SECONDS); see websearch fetch "
            "--help",
        ),
        (
            ["fetch", "https://a.example/", "--markdwn"],
            "--markdwn: not an option of websearch fetch (websearch fetch --help lists its "
            "options); did you mean --markdown?",
        ),
        (
            ["auth"],
            # "ACTION: required, not given" alone left the actions to be found in the help.
            "ACTION: required, not given: one of set, list, remove, import; see websearch auth "
            "--help",
        ),
        (
            ["auth", "remove", "gemini-cli", "--oauht"],
            "--oauht: not an option of websearch auth remove (websearch auth remove --help lists "
            "its options); did you mean --oauth?",
        ),
        (
            ["providers", "reset", "brave", "tavily"],
            "tavily: an argument websearch providers does not take (see websearch providers "
            "--help)",
        ),
        (
            ["q", "--no-cache", "more"],
            "more: an argument websearch does not take; the query's words go together, or quote "
            "the whole query (websearch '... more')",
        ),
    ],
)
def test_what_argparse_refuses_is_one_line_naming_the_option(
    argv: list[str], line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Each was argparse's usage block, then `websearch: error: unrecognized arguments:
    # --bogus` (or `argument --limit: expected one argument`, `the following arguments are
    # required: URL`), with no name suggested and no pointer to the help.
    assert refusal_line(argv, capsys) == f"websearch: {line}\n"


@pytest.mark.parametrize("command", [[], ["fetch"], ["auth"], ["auth", "remove"], ["providers"]])
def test_help_still_prints_and_exits_0(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # Refusals no longer exit through argparse; --help (which exits 0) still does.
    assert main([*command, "--help"]) == EXIT_OK
    out, err = capsys.readouterr()
    assert err == ""
    assert out.startswith(" ".join(["usage: websearch", *command]))


@pytest.mark.parametrize(
    "variable", ["WEBSEARCH_FALLBACK", "WEBSEARCH_CACHE", "WEBSEARCH_FENCE_RESULTS"]
)
@pytest.mark.parametrize("value", ["maybe", "enabled-for-everyone-please"])
def test_a_switch_neither_on_nor_off_says_what_to_write(
    variable: str,
    value: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # pydantic's `Input should be a valid boolean` named no form it reads, where
    # WEBSEARCH_FETCH_ALLOW_PRIVATE's own check lists them; a long text is still not said.
    monkeypatch.setenv(variable, value)
    line = refusal_line(["q"], capsys)
    assert line.startswith(f"websearch: {variable}: Input should be a valid boolean")
    assert line.endswith("; write 1, true, yes or on, or 0, false, no or off\n")
    assert (value in line) is (value == "maybe")
