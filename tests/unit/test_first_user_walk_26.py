"""What a first user's bad date and near-miss recency read (round 26), wherever given.

``--after 2026-13-01`` ended in pydantic's own parenthesis (``(Input should be a valid
date or datetime, month value is outside expected range of 1-12)``), and
``recency="daily"`` from Python got pydantic's list with no ``did you mean day?``, which
the command's ``--recency daily`` gives.
"""

from typing import Any

import pytest
from langchain_core.messages import ToolMessage
from langchain_core.messages.tool import ToolCall
from pydantic import ValidationError

from langchain_websearch import WebSearchTool
from llamaindex_websearch import create_web_search_tool
from tests.websearch_process import run_websearch
from websearch_core import SearchParams, WebSearch

FORM = "must be a date written YYYY-MM-DD, such as 2025-01-31"

DATES = [
    # (given, pydantic's type, what is wrong)
    ("2026-13-01", "date_from_datetime_parsing", "its month, 13, is not 01-12"),
    ("2026-02-30", "date_from_datetime_parsing", "its day, 30, is not 01-28 (2026-02 has 28 days)"),
    ("2026/01/05", "date_from_datetime_parsing", "its parts are joined by '/', not '-'"),
    ("2026-1-5", "date_from_datetime_parsing", "its month and day take two digits each"),
    ("05-01-2026", "date_from_datetime_parsing", "the year comes first"),
    ("20260105", "date_from_datetime_inexact", "its parts are not joined by '-' (2026-01-05)"),
    ("2026-01-05T10:00", "date_from_datetime_inexact", "it has a time of day; give the date alone"),
    ("yesterday", "date_from_datetime_parsing", "it is not in that shape"),
    (" 2026-01-05", "date_from_datetime_parsing", "it has blanks around it; give the date alone"),
]

RECENCY = "Input should be 'day', 'week', 'month' or 'year'"


@pytest.mark.parametrize(
    ("option", "field"), [("--after", "date_after"), ("--before", "date_before")]
)
@pytest.mark.parametrize(("given", "kind", "problem"), DATES[:3])
def test_the_command_says_which_part_of_the_date_is_wrong(
    option: str, field: str, given: str, kind: str, problem: str
) -> None:
    """Failed before on each: ``... got '2026-13-01' (Input should be a valid date ...)``."""
    done = run_websearch(["q", option, given], env={"WEBSEARCH_CACHE": "off"})
    line = f"websearch: {field} ({option}): {FORM}, got {given!r}: {problem}\n"
    assert (done.returncode, done.stdout, done.stderr) == (2, "", line)


@pytest.mark.parametrize(("given", "kind", "problem"), DATES)
@pytest.mark.parametrize("field", ["date_after", "date_before"])
def test_search_params_say_it_and_keep_pydantics_type(
    field: str, given: str, kind: str, problem: str
) -> None:
    """Failed before on each: type ``value_error`` and pydantic's words in a parenthesis."""
    with pytest.raises(ValidationError) as caught:
        SearchParams(query="q", **{field: given})
    (error,) = caught.value.errors()
    assert (error["loc"], error["type"]) == ((field,), kind)
    assert error["msg"] == f"{field} {FORM}, got {given!r}: {problem}"


async def test_run_and_search_say_it() -> None:
    """Failed before: ``run("q", date_after="2026-13-01")`` ended in pydantic's parenthesis."""
    async with WebSearch() as ws:
        for call in (ws.run, ws.search):
            with pytest.raises(ValidationError) as caught:
                await call("q", date_after="2026-13-01")
            assert caught.value.errors()[0]["msg"].endswith(": its month, 13, is not 01-12")


def test_a_value_with_braces_is_said_as_given() -> None:
    """A guard: ``{error}`` typed in a date is not filled in from pydantic's context."""
    with pytest.raises(ValidationError) as caught:
        SearchParams(query="q", date_after="{error}")
    assert caught.value.errors()[0]["msg"] == (
        f"date_after {FORM}, got '{{error}}': it is not in that shape"
    )


@pytest.mark.parametrize(
    ("given", "word"), [("daily", "day"), ("Weekly", "week"), ("monthly", "month")]
)
def test_search_params_name_the_word_meant(given: str, word: str) -> None:
    """Failed before on each: pydantic's list alone, where ``--recency daily`` names ``day``."""
    with pytest.raises(ValidationError) as caught:
        SearchParams(query="q", recency=given)  # type: ignore[arg-type]
    (error,) = caught.value.errors()
    assert (error["loc"], error["type"]) == (("recency",), "literal_error")
    assert error["msg"] == f"{RECENCY}; did you mean {word}?"
    assert error["ctx"] == {"expected": "'day', 'week', 'month' or 'year'"}


async def test_run_and_search_name_the_word_meant() -> None:
    """Failed before: ``run("q", recency="daily")`` said pydantic's list alone."""
    async with WebSearch() as ws:
        for call in (ws.run, ws.search):
            with pytest.raises(ValidationError) as caught:
                await call("q", recency="daily")  # type: ignore[arg-type]
            assert caught.value.errors()[0]["msg"] == f"{RECENCY}; did you mean day?"


async def test_both_tools_name_the_word_meant() -> None:
    """Failed before: ``Error: invalid web_search arguments: recency: Input should be ...``."""
    args: dict[str, Any] = {"query": "python asyncio", "recency": "daily"}
    expected = f"Error: invalid web_search arguments: recency: {RECENCY}; did you mean day?"
    async with WebSearchTool() as langchain_tool:
        message = await langchain_tool.ainvoke(
            ToolCall(name="web_search", args=args, id="call_1", type="tool_call")
        )
    async with create_web_search_tool() as llamaindex_tool:
        output = await llamaindex_tool.acall(**args)
    assert isinstance(message, ToolMessage)
    assert str(message.content) == expected
    assert str(output.content) == expected


def test_a_word_near_none_keeps_pydantics_words() -> None:
    """A guard: ``recency="soon"`` is near no word, so the list stands alone."""
    with pytest.raises(ValidationError) as caught:
        SearchParams(query="q", recency="soon")  # type: ignore[arg-type]
    assert caught.value.errors()[0]["msg"] == RECENCY


def test_the_command_still_names_the_word_meant() -> None:
    """A guard: the command's own line, which the others now agree with, is unchanged."""
    done = run_websearch(["q", "--recency", "daily"], env={"WEBSEARCH_CACHE": "off"})
    assert done.returncode == 2
    assert done.stderr.endswith("did you mean day?\n")
