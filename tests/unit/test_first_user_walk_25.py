"""What a first user's misuse of the options read (round 25), said once and in full.

A parameter's own check names itself (``country must be ...``) and the line names the
field before it, so the command and the tools read the name twice: ``websearch: query: query
must not be empty or only whitespace``, ``country (--country): country must be a two-letter
...``. And ``--help`` gave ``--limit N`` no range, which the user met only as a refusal.
"""

import pytest
from pydantic import ValidationError

from tests.websearch_process import run_websearch
from websearch_core.tool_errors import invalid_arguments_text
from websearch_core.tool_schema import ToolArguments

REFUSED = [
    (["  "], "websearch: query: must not be empty or only whitespace"),
    (
        ["q", "--country", "usa"],
        "websearch: country (--country): must be a two-letter ISO 3166-1 code such as 'us' or "
        "'de', got 'usa'",
    ),
    (
        ["q", "--language", "zz"],
        "websearch: language (--language): 'zz' names no language: its first part must be an "
        "ISO 639 code, such as 'en', 'de' or 'pt-BR'",
    ),
]


@pytest.mark.parametrize(("argv", "line"), REFUSED)
def test_the_command_names_the_field_once(argv: list[str], line: str) -> None:
    """Failed before on each: ``query: query must ...``, ``country (--country): country ...``."""
    done = run_websearch(argv, env={"WEBSEARCH_CACHE": "off"})
    assert (done.returncode, done.stdout, done.stderr) == (2, "", f"{line}\n")


def test_the_tools_name_the_field_once() -> None:
    """Failed before: ``Error: invalid web_search arguments: query: query must not ...``."""
    with pytest.raises(ValidationError) as caught:
        ToolArguments.model_validate({"query": "  "})
    assert invalid_arguments_text(caught.value) == (
        "Error: invalid web_search arguments: query: must not be empty or only whitespace"
    )


def test_help_gives_the_limits_range() -> None:
    """Failed before: ``--limit N  maximum number of results``, no range."""
    done = run_websearch(["--help"])
    assert done.returncode == 0
    assert "maximum number of results (1-100)" in " ".join(done.stdout.split())


def test_a_message_that_does_not_start_with_its_field_is_kept() -> None:
    """A guard: pydantic's own words (``recency: Input should be 'day', ...``) are kept.

    Round 26 added the word meant after them (``test_first_user_walk_26``).
    """
    with pytest.raises(ValidationError) as caught:
        ToolArguments.model_validate({"query": "q", "recency": "daily"})
    assert invalid_arguments_text(caught.value) == (
        "Error: invalid web_search arguments: recency: Input should be 'day', 'week', 'month' "
        "or 'year'; did you mean day?"
    )
