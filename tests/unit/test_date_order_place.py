"""A reversed date range is refused on ``date_before``, so the error has a place.

The check ran on the whole model: pydantic gave it no location, the command printed
``websearch: input: date_after must not be later than date_before`` (``input`` naming
nothing the user typed), a program reading ``errors()`` found no field, and another bad
field in the same call hid it. The properties are derandomized for CI.
"""

from datetime import date

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from websearch_core.cli import EXIT_USAGE, main
from websearch_core.models import SearchParams

_DATES = st.dates(min_value=date(1000, 1, 1))


@settings(derandomize=True, max_examples=200, deadline=None)
@given(after=_DATES, before=_DATES)
def test_a_reversed_range_is_refused_on_date_before(after: date, before: date) -> None:
    assume(after > before)
    with pytest.raises(ValidationError) as caught:
        SearchParams(query="q", date_after=after, date_before=before)
    (only,) = caught.value.errors()
    assert only["loc"] == ("date_before",)
    assert only["msg"] == (
        "Value error, date_after must not be later than date_before "
        f"({after.isoformat()} is after {before.isoformat()})"
    )


@settings(derandomize=True, max_examples=200, deadline=None)
@given(after=_DATES, before=_DATES)
def test_a_range_in_order_is_taken(after: date, before: date) -> None:
    """Guard: a range in order, one day long included, passes (before and after)."""
    assume(after <= before)
    params = SearchParams(query="q", date_after=after, date_before=before)
    assert (params.date_after, params.date_before) == (after, before)


def test_another_bad_field_does_not_hide_it() -> None:
    with pytest.raises(ValidationError) as caught:
        SearchParams(query="q", limit=0, date_after=date(2026, 2, 1), date_before=date(2026, 1, 1))
    assert [error["loc"] for error in caught.value.errors()] == [("limit",), ("date_before",)]


def test_the_command_names_the_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["q", "--after", "2025-12-01", "--before", "2025-01-01"]) == EXIT_USAGE
    assert capsys.readouterr().err == (
        "websearch: date_before (--before): date_after must not be later than date_before "
        "(2025-12-01 is after 2025-01-01)\n"
    )
