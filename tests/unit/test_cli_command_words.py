"""``websearch help`` (``status``, ``config``, ``version``) searches, and says what was meant.

A first-time user typed ``websearch help`` and ``websearch status`` and read results about
the words, with no hint of ``websearch --help`` or ``websearch providers``. A one-word
query is legitimate, so it is still searched and stdout (which scripts read) is as before;
one line on stderr first says it is searched as a query and names the command. A command's
typo (``websearch provders``) gets that line too, naming the command it is near.
"""

import json
from collections.abc import Callable

import pytest

from websearch_core.cli import EXIT_OK, EXIT_USAGE, main
from websearch_core.testing import Simulator

Run = Callable[[list[str]], tuple[str, str]]


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    def command(argv: list[str]) -> tuple[str, str]:
        assert main(["--no-cache", *argv]) == EXIT_OK
        return capsys.readouterr()

    return command


def _searched_after_a_line(brave: Simulator, run: Run, word: str, command: str) -> None:
    """``word`` is searched as typed, after one stderr line naming ``command``; stdout as
    for the same query given after ``--`` (without the line)."""
    out, err = run([word])
    (note,) = err.splitlines()
    assert f'"{word}" as a query' in note
    assert f"write: {command} " in note
    assert f"websearch -- {word} " in note  # how to search for it without the line
    (request,) = brave["brave"].requests
    assert request.query_dict()["q"] == word  # still searched, as typed
    assert out == run(["--", word])[0]  # stdout as for the same query without the line


@pytest.mark.parametrize(
    ("word", "command"),
    [
        ("help", "websearch --help"),
        ("Status", "websearch providers"),
        ("config", "websearch providers"),
        ("version", "websearch --version"),
    ],
)
def test_a_command_word_is_searched_after_a_line_naming_the_command(
    brave: Simulator, run: Run, word: str, command: str
) -> None:
    _searched_after_a_line(brave, run, word, command)


@pytest.mark.parametrize(
    ("word", "command"),
    [("provders", "providers"), ("Providers", "providers"), ("fetc", "fetch"), ("AUTH", "auth")],
)
def test_a_command_typo_is_searched_after_a_line_naming_the_command(
    brave: Simulator, run: Run, word: str, command: str
) -> None:
    # `websearch provders` read results about the misspelt word, with no hint at all.
    _searched_after_a_line(brave, run, word, f"websearch {command}")


@pytest.mark.parametrize("word", ["auto", "oauth", "Auto", "path", "author", "etch"])
def test_a_real_word_near_a_command_is_searched_in_silence(
    brave: Simulator, run: Run, word: str
) -> None:
    # `websearch auto` and `websearch oauth` are queries, yet began with a line naming the
    # `auth` command: difflib's ratio took one changed or added letter in four for a typo.
    assert run([word])[1] == ""
    (request,) = brave["brave"].requests
    assert request.query_dict()["q"] == word


@pytest.mark.parametrize(
    ("word", "command"), [("provder", "providers"), ("atuh", "auth"), ("fecth", "fetch")]
)
def test_typos_a_short_command_keeps_are_still_named(
    brave: Simulator, run: Run, word: str, command: str
) -> None:
    """A guard (passes before and after): a dropped letter or two swapped still get the line."""
    note = run([word])[1]
    assert f"write: websearch {command} " in note


@pytest.mark.parametrize(
    ("word", "command"),
    [
        ("hlep", "websearch --help"),
        ("Stauts", "websearch providers"),
        ("verison", "websearch --version"),
    ],
)
def test_a_command_word_with_two_letters_swapped_is_named_too(
    brave: Simulator, run: Run, word: str, command: str
) -> None:
    # `websearch hlep` read results about the misspelt word, with no hint at all.
    note = run([word])[1]
    assert f'"{word}" as a query' in note
    assert f"write: {command} " in note


@pytest.mark.parametrize(
    ("word", "command"),
    [
        ("staus", "websearch providers"),
        ("Verion", "websearch --version"),
        ("setings", "websearch providers"),
        ("aut", "websearch auth"),
        ("auths", "websearch auth"),
    ],
)
def test_a_dropped_or_added_letter_is_named_too(
    brave: Simulator, run: Run, word: str, command: str
) -> None:
    # `websearch staus`, `aut` and `auths` read results about the misspelt word with no
    # line: only a swap counted for `status`, and no edit at all for `auth`.
    _searched_after_a_line(brave, run, word, command)


@pytest.mark.parametrize("word", ["versions", "setting", "helps", "loin", "Author"])
def test_a_word_a_letter_from_a_short_or_plural_command_word_is_quiet(
    brave: Simulator, run: Run, word: str
) -> None:
    """A guard (passes before and after): a letter dropped or added counts only for the
    longer command words and never as a plural's ``s`` (``versions``), nor for ``help``
    or ``login`` (``helps``, ``loin`` are words)."""
    assert run([word])[1] == ""


@pytest.mark.parametrize("word", ["rest", "logic", "key"])
def test_a_common_word_a_letter_from_a_command_word_is_quiet(
    brave: Simulator, run: Run, word: str
) -> None:
    """A guard (passes before and after): ``rest`` (``reset`` less a letter), ``logic``
    (``login`` with one changed) are queries, so only a swap counts for these words."""
    assert run([word])[1] == ""


@pytest.mark.parametrize("word", ["help", "provders"])
def test_the_json_stays_clean_json(brave: Simulator, run: Run, word: str) -> None:
    out, err = run(["--json", word])
    assert json.loads(out)["response"]["provider"] == "brave"
    assert f'"{word}" as a query' in err


@pytest.mark.parametrize(
    "argv", [["--", "help"], ["help", "me"], ["python"], ["--", "provders"], ["provders", "x"]]
)
def test_other_queries_have_no_line(brave: Simulator, run: Run, argv: list[str]) -> None:
    """A guard (passes before and after): a query meant as one is searched in silence."""
    assert run(argv)[1] == ""


def test_a_command_is_still_a_command(brave: Simulator, capsys: pytest.CaptureFixture[str]) -> None:
    """A guard (passes before and after): ``providers`` lists them and searches nothing."""
    assert main(["providers"]) == EXIT_OK
    assert "as a query" not in capsys.readouterr().err
    assert brave["brave"].requests == []


@pytest.mark.parametrize("argv", [["help"], ["--json", "status"]])
def test_a_bad_setting_is_said_alone_and_nothing_is_searched(
    brave: Simulator,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
) -> None:
    # The line said "searching for ..." and the search never ran: it waits for the
    # settings to be accepted now.
    monkeypatch.setenv("WEBSEARCH_TIMEOUT_SECONDS", "abc")
    assert main(["--no-cache", *argv]) == EXIT_USAGE
    (error,) = capsys.readouterr().err.splitlines()
    assert error.startswith("websearch: WEBSEARCH_TIMEOUT_SECONDS: ")
    assert brave["brave"].requests == []


def test_a_bad_option_value_is_said_alone(
    brave: Simulator, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--no-cache", "--limit", "0", "help"]) == EXIT_USAGE
    (error,) = capsys.readouterr().err.splitlines()
    assert "--limit" in error
    assert brave["brave"].requests == []
