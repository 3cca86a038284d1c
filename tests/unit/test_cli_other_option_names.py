"""Another search tool's name for an option is refused naming the option that does its job.

``websearch --count 5 python`` (Brave's and Bing's name for the result count) was read as
an abbreviation of ``--country`` and refused with ``country must be a two-letter ISO
3166-1 code ..., got '5'``; ``--max-results`` and ``--num`` got no option named, and
``--since`` ``did you mean --site?``.
"""

import pytest

from websearch_core.cli import EXIT_OK, EXIT_USAGE, main
from websearch_core.testing import Simulator


@pytest.mark.parametrize(
    ("argv", "name", "meant"),
    [
        (["--count", "5", "python"], "--count", "--limit"),
        (["--count=5", "python"], "--count", "--limit"),
        (["--max-results", "5", "python"], "--max-results", "--limit"),
        (["--num", "5", "python"], "--num", "--limit"),
        (["--since", "2024-01-01", "python"], "--since", "--after"),
        (["python", "--freshness", "week"], "--freshness", "--recency"),
    ],
)
def test_another_tools_option_name_is_told_the_option_meant(
    brave: Simulator,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    name: str,
    meant: str,
) -> None:
    assert main(["--no-cache", *argv]) == EXIT_USAGE
    (line,) = capsys.readouterr().err.splitlines()
    assert line == (
        f"websearch: {name}: not an option of websearch (websearch --help lists its "
        f"options); did you mean {meant}?"
    )
    assert brave["brave"].requests == []


def test_the_option_told_reaches_brave_as_its_count(
    brave: Simulator, capsys: pytest.CaptureFixture[str]
) -> None:
    """Written as the refusal says, ``--count 5`` becomes Brave's ``count``."""
    assert main(["--no-cache", "--count", "5", "python"]) == EXIT_USAGE
    meant = capsys.readouterr().err.rstrip().rsplit(" ", 1)[1].rstrip("?")
    assert main(["--no-cache", meant, "5", "python"]) == EXIT_OK
    (request,) = brave["brave"].requests
    assert request.query_dict()["count"] == "5"


@pytest.mark.parametrize(
    ("argv", "sent"),
    [(["--coun", "de", "python"], ("country", "de")), (["--", "--count", "5"], ("q", "--count 5"))],
    ids=["abbreviation", "after-dashes"],
)
def test_abbreviations_and_query_words_are_read_as_before(
    brave: Simulator, capsys: pytest.CaptureFixture[str], argv: list[str], sent: tuple[str, str]
) -> None:
    """A guard (passes before and after): ``--coun`` still abbreviates ``--country``, and
    ``--count`` after ``--`` is a query word."""
    assert main(["--no-cache", *argv]) == EXIT_OK
    (request,) = brave["brave"].requests
    key, value = sent
    assert request.query_dict()[key].lower() == value.lower()


def test_every_name_means_an_option_there_is() -> None:
    """The table's own check (it is new, so this cannot run before): each name points to a
    search option, and none is an option's own name."""
    from websearch_core.cli import _search_parser
    from websearch_core.option_names import OTHER_OPTION_NAMES

    options = _search_parser().options
    assert set(OTHER_OPTION_NAMES.values()) <= set(options)
    assert not set(OTHER_OPTION_NAMES) & set(options)
