"""Brave's usual ``page_age`` is read without the ISO pattern, and as the general path reads it.

``YYYY-MM-DDTHH:MM:SS`` (no zone) is what nearly every dated result carries. A page reads it
by its length, its separators and ``datetime.fromisoformat`` alone, with the age taken from
the page's one distance to the epoch, instead of the pattern's scan and the ``with_zone``
and ``age_seconds_at`` calls. These tests count what the capture's page calls, and compare
the page's dates and ages with the general reading (``_published_text`` then
``age_seconds_from_date``) over shapes that are one character off the usual one.
"""

import json
import random
import re
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

from tests.conftest import SHARED_FIXTURES
from websearch_core.providers import _brave_parse
from websearch_core.providers._brave_parse import (
    _published_text,
    _text,
    result_fields,
    source_fields,
)
from websearch_core.providers._common import age_seconds_from_date

SEED = 20261208
CAPTURE = SHARED_FIXTURES / "brave" / "web_search_laravel_2024.json"
NOWS = [
    datetime(2026, 12, 8, 0, 30, 59, 999_999, tzinfo=UTC),
    datetime(2026, 12, 8, 0, 30, 0, 1, tzinfo=timezone(timedelta(hours=-5, minutes=-30))),
    datetime(9999, 12, 31, 23, 59, 59, 999_999, tzinfo=timezone(timedelta(hours=14))),
]


class _CountingPattern:
    """Stands in for a compiled pattern: counts ``fullmatch`` calls and answers as it does."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.calls = 0

    def fullmatch(self, text: str) -> re.Match[str] | None:
        self.calls += 1
        return self.pattern.fullmatch(text)


def _general(item: dict[str, Any], now: datetime) -> tuple[str | None, int | None]:
    """A result's date and age read the general way: normalised, then each on its own."""
    published = _published_text(_text(item.get("page_age")), item)
    return published, age_seconds_from_date(published, now=now)


def test_the_captures_iso_page_ages_are_read_without_the_pattern_or_the_age_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = json.loads(CAPTURE.read_bytes())
    items = data["web"]["results"]
    dated = sum(isinstance(item.get("page_age"), str) for item in items)
    assert dated >= 10  # the capture's usual shape, 19 characters without a zone
    pattern = _CountingPattern(_brave_parse._ISO_BOTH)
    ages: list[tuple[datetime, datetime]] = []
    age_seconds_at = _brave_parse.age_seconds_at

    def counted(when: datetime, reference: datetime) -> int | None:
        ages.append((when, reference))
        return age_seconds_at(when, reference)

    monkeypatch.setattr(_brave_parse, "_ISO_BOTH", pattern)
    monkeypatch.setattr(_brave_parse, "age_seconds_at", counted)
    now = NOWS[0]
    read = result_fields(data, now=now)
    assert (pattern.calls, len(ages)) == (0, 0)
    assert len(read) == len(items)
    for fields, item in zip(read, items, strict=True):
        assert (fields["published_date"], fields["age_seconds"]) == _general(item, now)


def _one_off(rng: random.Random) -> str:
    """``YYYY-MM-DDTHH:MM:SS`` with any field out of range, or one character changed."""
    text = (
        f"{rng.randint(0, 9999):04d}-{rng.randint(0, 13):02d}-{rng.randint(0, 32):02d}"
        f"T{rng.randint(0, 25):02d}:{rng.randint(0, 61):02d}:{rng.randint(0, 61):02d}"
    )
    if rng.random() < 0.3:
        at = rng.randrange(len(text))
        swap = rng.choice(["0", "9", "-", ":", "T", " ", "t", "Z", "W", "\u0663", "\uff11", "+"])
        text = text[:at] + swap + text[at + 1 :]
    return text


EDGES = [
    "2023-05-01T20:10:05",
    "0999-05-01T20:10:05",  # a year before 1000: the pattern refuses it
    "2023-05-01T24:00:00",
    "2023-02-29T10:00:00",
    "2023-W18-1T20:10:05",  # an ISO week date, 19 characters too
    "2023-05-01t20:10:05",
    "2023-05-01 20:10:05",
    "\u0662023-05-01T20:10:05",  # a non-ASCII digit where ``int`` would take one
    "2023-05-01T20:10:5Z",
    "2023-05-01T20:10:05Z",
    "2023-05-01T20:10:05+02:00",
    "9999-12-31T23:59:59",
    "1000-01-01T00:00:00",
]


# dateutil warns of a lone letter it takes for a zone (``T`` out of place): the general
# path's own reading of the one-off shapes, alike on both sides of the comparison.
@pytest.mark.filterwarnings("ignore::dateutil.parser.UnknownTimezoneWarning")
@pytest.mark.parametrize("now", NOWS, ids=["utc", "minus-0530", "year-9999"])
def test_a_pages_dates_and_ages_agree_with_the_general_reading(now: datetime) -> None:
    rng = random.Random(SEED + now.year + (now.utcoffset() or timedelta()).seconds)
    ages = [None, "2 days ago", "May 1, 2023", "2023-05-01T20:10:05Z", 7]
    items: list[dict[str, Any]] = []
    for page_age in [*EDGES, *(_one_off(rng) for _ in range(6_000))]:
        items.append({"url": "https://a.example/", "page_age": page_age, "age": rng.choice(ages)})
    read = result_fields({"web": {"results": items[:200]}}, now=now)
    singles = [source_fields(item, now) for item in items]
    usual = 0
    for fields, item in zip([*read, *singles], [*items[:200], *items], strict=True):
        assert fields is not None
        usual += fields["published_date"] == f"{item['page_age']}+00:00"
        try:
            expected: object = _general(item, now)
        except (ValueError, OverflowError) as exc:  # what the general path raises, if any
            expected = type(exc)
        assert (fields["published_date"], fields["age_seconds"]) == expected, repr(item)
    assert usual > 1_000  # the usual shape was read, not only the others


def test_a_naive_reference_still_reads_undated_results_and_refuses_dated_ones() -> None:
    naive = datetime(2026, 12, 8, 0, 30)
    undated = {"web": {"results": [{"url": "https://a.example/", "title": "A"}]}}
    assert result_fields(undated, now=naive)[0]["published_date"] is None
    dated = {"web": {"results": [{"url": "https://a.example/", "page_age": EDGES[0]}]}}
    with pytest.raises(TypeError):
        result_fields(dated, now=naive)
