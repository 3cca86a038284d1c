"""A one-word query written as an option is named, not called missing.

``websearch -python`` (or ``-site:x.com`` alone) said ``query: required, not given``:
argparse checks for the missing query before it reports the words it could not read, so a
user who typed a query was told they had not, and not how to write it.
"""

import pytest

from websearch_core.cli import EXIT_OK, EXIT_USAGE, main
from websearch_core.testing import Simulator


@pytest.mark.parametrize("word", ["-python", "-site:x.com", "-p"])
def test_a_lone_dash_word_gets_how_to_write_it(
    brave: Simulator, capsys: pytest.CaptureFixture[str], word: str
) -> None:
    assert main(["--no-cache", word]) == EXIT_USAGE
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"websearch: {word}: not an option of websearch; ")
    assert line.endswith("or put -- before it")
    assert brave["brave"].requests == []


def test_a_mistyped_option_alone_is_named_with_the_one_meant(
    brave: Simulator, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--limt`` with no word after it: no query either, the option is what is wrong."""
    assert main(["--no-cache", "--limt"]) == EXIT_USAGE
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("websearch: --limt: not an option of websearch")
    assert line.endswith("did you mean --limit?")


@pytest.mark.parametrize("argv", [[], ["--limit", "3"], ["--json"]])
def test_no_query_at_all_still_says_so(
    brave: Simulator, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """A guard (passes before and after): with no unknown word, the query is what is
    missing."""
    assert main(argv) == EXIT_USAGE
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("websearch: query: required, not given: ")


def test_the_word_written_as_told_is_searched(
    brave: Simulator, capsys: pytest.CaptureFixture[str]
) -> None:
    """A guard (passes before and after): ``--`` before it, the word reaches Brave."""
    assert main(["--no-cache", "--", "-python"]) == EXIT_OK
    (request,) = brave["brave"].requests
    assert request.query_dict()["q"] == "-python"
