"""The one line ``websearch`` refuses a bad value with, for tests of its error forms."""

import pytest

from websearch_core.cli import EXIT_USAGE, main


def refusal_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The one line ``argv`` is refused with (exit status 2, nothing on stdout)."""
    assert main(argv) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1, err
    return err
