"""``with_iso_dates`` rewrites exactly the dates ``iso_date`` would, and copies nothing else.

The quick path skips a source whose date is missing or already ISO 8601; the rule it must
keep is the plain one written out below: every source's date becomes ``iso_date(date)``
when that names a date, and a response with nothing to rewrite is returned as it is. An
instant written without a zone leaves with ``+00:00``, the zone the core reads it in.
"""

import itertools
from datetime import datetime

import pytest

from tests.conftest import read_capture
from websearch_core.dates import _FINAL, _ISO_8601, _ISO_SHAPES, iso_date, with_iso_dates
from websearch_core.html import decoded_page
from websearch_core.models import SearchResponse, SearchSource
from websearch_core.providers.duckduckgo import parse_page

DATES: list[str | None] = [
    None,
    "",
    "2024-03-29",
    "2024-03-29T12:00:00Z",
    "2024-03-29T12:00:00",
    "2024-03-29T12:00:00.123+00:00",
    "2024-03-29 12:00:00-05:00",
    "2024-03-29T12:00:00+0530",
    "\uff12\uff10\uff12\uff14-03-29",  # full-width digits: ISO to the pattern, no known shape
    "2024-03-30 12:00",
    " 2024-03-29 ",
    "2024-03-29\n",
    "2024-03-29\n2024-03-30",  # two ISO dates in one: no separator to join on
    "2024-13-45",
    "May 1, 2023",
    "Mon, 02 Jun 2025 10:00:00 GMT",
    "3 days ago",
    "Dec 2025",
    "2024",
]


def _response(dates: tuple[str | None, ...]) -> SearchResponse:
    sources = tuple(
        SearchSource(title=f"t{n}", url=f"https://example.org/{n}", published_date=date)
        for n, date in enumerate(dates)
    )
    return SearchResponse(provider="brave", sources=sources)


def _reference(dates: tuple[str | None, ...]) -> list[str | None]:
    return [iso_date(date) or date for date in dates]


@pytest.mark.parametrize("dates", list(itertools.product(DATES, repeat=2)))
def test_dates_are_rewritten_as_iso_date_says(dates: tuple[str | None, ...]) -> None:
    response = _response(dates)
    rewritten = with_iso_dates(response)
    assert [s.published_date for s in rewritten.sources] == _reference(dates)
    assert [s.url for s in rewritten.sources] == [s.url for s in response.sources]
    if _reference(dates) == list(dates):
        assert rewritten is response  # nothing to rewrite: no copy
    else:
        assert rewritten is not response
        # A source whose date stays is the same object, not a copy.
        for before, after in zip(response.sources, rewritten.sources, strict=True):
            assert (after is before) is (after.published_date == before.published_date)


@pytest.mark.parametrize("shape", sorted(_ISO_SHAPES))
def test_every_known_shape_is_iso_8601_to_the_pattern(shape: str) -> None:
    # A shape looked up in place of the match must be one the match accepts, or a date of
    # that shape would be left as written where iso_date would rewrite it.
    assert _ISO_8601.fullmatch(shape.replace("0", "7"))
    # ...and one already in the final form (a day, or an instant with its zone), or a date
    # of that shape would skip the zone it is owed.
    assert _FINAL.fullmatch(shape.replace("0", "7"))


def test_a_real_captures_bare_instants_leave_with_their_zone() -> None:
    """Failed before: DuckDuckGo's ``2025-06-23T00:00:00.0000000`` left the core bare."""
    text, _ = decoded_page(read_capture("duckduckgo/html_results_eino_2025.html"))
    parsed = SearchResponse(provider="duckduckgo", sources=parse_page(text).sources)
    written = [s.published_date for s in parsed.sources if s.published_date]
    assert "2025-06-23T00:00:00.0000000" in written  # the capture's own, bare form
    dates = [s.published_date for s in with_iso_dates(parsed).sources if s.published_date]
    assert dates == [f"{date}+00:00" for date in written]
    assert all(datetime.fromisoformat(date).utcoffset() is not None for date in dates)


@pytest.mark.parametrize(
    ("written", "iso"),
    [
        ("2024-03-29T12:00:00", "2024-03-29T12:00:00+00:00"),
        ("2024-03-30 12:00", "2024-03-30 12:00+00:00"),
        ("May 1, 2023 8:10 pm", "2023-05-01T20:10:00+00:00"),
        ("2024-03-29T12:00:00Z", "2024-03-29T12:00:00Z"),
        ("2024-03-29T12:00:00+0530", "2024-03-29T12:00:00+0530"),
        ("2024-03-29", "2024-03-29"),
        ("May 1, 2023", "2023-05-01"),
    ],
)
def test_an_instant_is_given_the_zone_it_is_read_in(written: str, iso: str) -> None:
    """Failed before for the bare instants (the first three); the rest are guards."""
    assert iso_date(written) == iso
