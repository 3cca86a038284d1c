"""``-v`` for ``websearch auth``: accepted where the other commands take it, and it says things.

``websearch -v auth list`` was refused (``-v does not apply to auth``) and ``auth list -v``
an unrecognised argument, while ``-v`` worked for a search, ``providers`` and ``fetch``.
With it, the auth commands log which credential store file they use and why, and what they
read from and wrote to it: paths and counts, never a key.
"""

import os
from pathlib import Path

import pytest

from websearch_core.cli import EXIT_OK, main

SECRET = "sk-auth-verbose-7d2e9a"


def _store() -> Path:
    return Path(os.environ["WEBSEARCH_CREDENTIALS_FILE"])


class _Stdin:
    """A piped standard input holding ``text``."""

    def __init__(self, text: str) -> None:
        self._text = text

    def isatty(self) -> bool:
        return False

    def read(self) -> str:
        return self._text


@pytest.mark.parametrize(
    "argv",
    [
        ["-v", "auth", "list"],
        ["--verbose", "auth", "list"],
        ["auth", "-v", "list"],
        ["auth", "list", "-v"],
        ["auth", "list", "--verbose"],
    ],
)
def test_verbose_is_taken_before_and_after_the_action(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == EXIT_OK
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines()[0] == (
        f"websearch: credential store: {_store()} (set by WEBSEARCH_CREDENTIALS_FILE; "
        "no such file yet)"
    )


def test_without_verbose_the_auth_commands_log_nothing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", _Stdin(SECRET))
    assert main(["auth", "set", "brave"]) == EXIT_OK
    assert main(["auth", "list"]) == EXIT_OK
    assert capsys.readouterr().err == ""


def test_verbose_logs_what_is_read_and_written_never_the_key(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", _Stdin(SECRET))
    assert main(["auth", "set", "brave", "-v"]) == EXIT_OK
    out, err = capsys.readouterr()
    store = _store()
    assert f"websearch: credential store {store} written (mode 0600): 1 entry\n" in err
    monkeypatch.setattr("sys.stdin", _Stdin(SECRET))
    assert main(["-v", "auth", "set", "tavily"]) == EXIT_OK
    out, err = capsys.readouterr()
    assert f"websearch: credential store: {store} (set by WEBSEARCH_CREDENTIALS_FILE)\n" in err
    assert f"credential store {store} written (mode 0600): 2 entries\n" in err
    assert main(["auth", "remove", "brave", "--verbose"]) == EXIT_OK
    out, err = capsys.readouterr()
    assert f"credential store {store} read: 2 entries\n" in err
    assert f"credential store {store} written (mode 0600): 1 entry\n" in err
    assert SECRET not in out + err


def test_verbose_names_a_store_beside_the_config_file(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("WEBSEARCH_CREDENTIALS_FILE")
    config = Path(os.environ["WEBSEARCH_CONFIG_FILE"])
    assert main(["auth", "list", "-v"]) == EXIT_OK
    assert capsys.readouterr().err.startswith(
        f"websearch: credential store: {config.parent / 'credentials.json'} "
        f"(beside the config file {config}; no such file yet)\n"
    )


def test_the_auth_help_says_what_verbose_logs(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["auth", "--help"], ["auth", "set", "--help"]):
        assert main(argv) == EXIT_OK
        assert "credential store file" in capsys.readouterr().out, argv
