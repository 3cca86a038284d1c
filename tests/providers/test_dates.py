"""The shared date reader: its fast forms read every date exactly as dateutil does.

``parse_date`` reads ISO 8601 and a few fixed English forms without dateutil. dateutil is
the oracle here: on every string below, including near misses (impossible days, unknown
months, two-digit years, relative text), both must give the same instant and zone, and
the fixed forms must not reach dateutil at all.
"""

import itertools
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from dateutil import parser as dateutil_parser

from tests.conftest import read_capture
from websearch_core.providers import _common
from websearch_core.providers._common import age_seconds_from_date, parse_date

DEFAULT = datetime(2026, 1, 1)

FAST = [
    "2025-06-23T00:00:00.0000000",  # DuckDuckGo's seven fraction digits
    "2024-03-29T12:00:00Z",
    "2024-03-30T12:00:00+02:00",
    "2024-03-30T12:00:00-0530",
    "2023-11-16T01:36:32.547Z",
    "2024-03-30T12:00:00.123456789+00:00",
    "2024-03-30 12:00",
    "2024-03-26T00:00:00",
    "2024-03-30",
    "March 29, 2024",
    "Mar 3, 2025",
    "Mar. 3, 2025",
    "Sept 3, 2025",
    "MAR 3, 2025",
    "14 Oct 2023",
    "14 oct. 2023",
    "1 May 2024",
    "Fri, 29 Mar 2024 12:00:00 GMT",
    "29 Mar 2024 12:00:00 UTC",
    "Fri, 29 Mar 2024 12:00 +0100",
    "Mon, 10 Mar 2025 16:04:59 -0800",
    "Sat, 29 Mar 2024 12:00:00 GMT",  # the wrong weekday: dateutil ignores it too
]
"""Forms read without dateutil."""

SLOW = [
    "2024-03-30T12",
    "2024-02-30",
    "2024-13-01",
    "2024-03-30T24:00:00",
    "Feb 30, 2025",
    "Foo 3, 2025",
    "31 Jun 2024",
    "3 Mayo 2024",
    "Mar 3, 0099",  # dateutil reads the year as 1999
    "0099-03-03",
    "Fri, 31 Feb 2024 12:00:00 GMT",
    "Fri, 29 Mar 2024 25:00:00 GMT",
    "2024",
    "há 7 dias",
    "not a date",
    "3 days ago",
    "1 hour ago",
    "30 seconds ago",
    "10 months ago",
    "Tuesday, March 5th 2024 at 5pm",
]
"""Near misses and other forms: dateutil decides (or the relative-text shortcut)."""


def _grid() -> list[str]:
    """Each fixed form built from valid and invalid parts, about 700 strings."""
    months = ["Jan", "feb", "MAR", "Sept", "September", "Foo", "Mayo"]
    days = ["0", "1", "09", "29", "31", "32"]
    years = ["1999", "2024", "0999"]
    grid = [f"{m} {d}, {y}" for m, d, y in itertools.product(months, days, years)]
    grid += [f"{d} {m} {y}" for m, d, y in itertools.product(months, days, years)]
    grid += [
        f"{y}-{mo}-{d}{t}{z}"
        for y, mo, d, t, z in itertools.product(
            ["2024", "1999"],
            ["02", "13"],
            ["29", "30"],
            ["", "T00:00", " 23:59:59", "T12:00:00.5", "T24:00"],
            ["", "Z", "+05:30", "-0800"],
        )
    ]
    grid += [
        f"{w}{d} {m} 2024 {t} {z}"
        for w, d, m, t, z in itertools.product(
            ["", "Fri, "],
            ["1", "31"],
            ["Feb", "Mar", "Foo"],
            ["12:00", "23:59:60"],
            ["GMT", "+0100"],
        )
    ]
    return grid


def _capture_dates() -> list[str]:
    """Dates as the captured scraper pages write them, read by today's parsers."""
    from websearch_core.providers import duckduckgo, ecosia, google, startpage

    pages: list[tuple[Any, str]] = [
        (
            lambda page: duckduckgo.parse_page(page).sources,
            "duckduckgo/html_results_eino_2025.html",
        ),
        (
            lambda page: duckduckgo.parse_page(page).sources,
            "duckduckgo/lite_results_zeta_2026.html",
        ),
        (startpage.parse_page, "startpage/serp_javascript_tutorial_http_2026.html"),
        (google.parse_page, "google/serp_ai_tools_pt-BR_rendered_2025-03.html"),
        (ecosia.parse_page, "ecosia/serp_javascript_tutorial_2026.html"),
    ]
    dates = []
    for parse, name in pages:
        sources = parse(read_capture(name).decode("utf-8"))
        dates += [s.published_date for s in sources if s.published_date]
    return dates


def _instant(value: datetime | None) -> tuple[datetime, timedelta | None] | None:
    return None if value is None else (value.replace(tzinfo=None), value.utcoffset())


def _dateutil(text: str) -> tuple[datetime, timedelta | None] | None:
    try:
        return _instant(dateutil_parser.parse(text, default=DEFAULT))
    except (ValueError, OverflowError, TypeError):
        return None


@pytest.mark.parametrize("text", FAST + SLOW + _grid())
def test_reads_like_dateutil(text: str) -> None:
    assert _instant(parse_date(text, default=DEFAULT)) == _dateutil(text)


def test_dates_in_the_captures_read_like_dateutil() -> None:
    dates = _capture_dates()
    assert len(dates) >= 8
    for text in dates:
        assert _instant(parse_date(text, default=DEFAULT)) == _dateutil(text), text


class _NoDateutil:
    def parse(self, text: str, **_: Any) -> datetime:
        raise AssertionError(f"dateutil was asked for {text!r}")


@pytest.mark.parametrize("text", FAST)
def test_fixed_forms_skip_dateutil(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = _dateutil(text)
    monkeypatch.setattr(_common, "date_parser", _NoDateutil())
    assert expected is not None
    assert _instant(parse_date(text, default=DEFAULT)) == expected


@pytest.mark.parametrize("text", ["3 days ago", "1 hour ago", "12 months ago"])
def test_relative_text_skips_dateutil(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_common, "date_parser", _NoDateutil())
    assert parse_date(text, default=DEFAULT) is None


def test_other_forms_still_reach_dateutil() -> None:
    assert parse_date("Tuesday, March 5th 2024 at 5pm", default=DEFAULT) == datetime(
        2024, 3, 5, 17, 0
    )


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("2024-03-29T12:00:00Z", 86400),
        ("2024-03-30T12:00:00+02:00", 7200),
        ("March 29, 2024", 129600),
        ("29 Mar 2024", 129600),
        ("Fri, 29 Mar 2024 12:00:00 GMT", 86400),
        ("Fri, 29 Mar 2024 13:00:00 +0100", 86400),
        ("  2024-03-30  ", 43200),
        ("2024", (89 * 86400) + 12 * 3600),
        ("3 days ago", None),
        (" ", None),
        (None, None),
    ],
)
def test_age_seconds(text: str | None, seconds: int | None) -> None:
    now = datetime(2024, 3, 30, 12, 0, tzinfo=UTC)
    assert age_seconds_from_date(text, now=now) == seconds


def test_a_zone_of_a_whole_day_gives_no_age() -> None:
    """dateutil reads ``+24:00`` as a zone no instant can have; JavaScript's Date refuses it.

    The age is then unknown (the spec's ``dateToAgeSeconds`` gives ``undefined``) instead
    of an exception that cost the provider its whole answer.
    """
    now = datetime(2026, 12, 1, 12, 30, tzinfo=UTC)
    for text in ("2024-07-09T12:12:11+24:00", "4298-07-09T12:12:11 -2400"):
        assert age_seconds_from_date(text, now=now) is None, text
    same_instant = datetime(2024, 7, 8, 13, 12, 11, tzinfo=UTC)  # what +23:00 writes
    expected = now - same_instant
    got = age_seconds_from_date("2024-07-09T12:12:11+23:00", now=now)
    assert got == expected.days * 86400 + expected.seconds
