"""The last day the calendar has is a date a search takes, typed as a field or a directive.

``date_before=9999-12-31`` is how a program may write "no end", and ``before:9999-12`` is a
directive the query reads. Both failed from deep inside: Gemini's time window added a day
to the date (``OverflowError``, the search failing with ``date value out of range``), and
the directive's last day of December was found by stepping back from 1 January of the
next year (``ValueError: year 10000 is out of range``, naming neither field nor
directive). These drive the searches through the loopback simulator and read what Gemini
was sent.
"""

from collections.abc import AsyncIterator
from datetime import date

import pytest

from tests.functional._sim_helpers import sim_client
from websearch_core.filters import requested_filters
from websearch_core.models import SearchParams
from websearch_core.testing import Simulator

LAST_SECOND = "9999-12-31T23:59:59Z"
"""The latest time RFC 3339 writes, the end Gemini's window gets for the last day."""


@pytest.fixture
async def sim() -> AsyncIterator[Simulator]:
    async with Simulator(["gemini"]) as simulator:
        yield simulator


def _window_sent(sim: Simulator) -> dict[str, str]:
    (request,) = sim["gemini"].requests
    tool = request.json()["tools"][0]["google_search"]
    window: dict[str, str] = tool["timeRangeFilter"]
    return window


async def test_gemini_is_sent_the_last_second_for_the_last_day(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        result = await ws.run("x", provider="gemini", date_before=date.max, use_cache=False)
    assert result.error is None, result.error
    assert _window_sent(sim) == {"startTime": "1970-01-01T00:00:00Z", "endTime": LAST_SECOND}


async def test_a_directive_closing_on_the_last_december_is_searched(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        result = await ws.run("x before:9999-12", provider="gemini", use_cache=False)
    assert result.error is None, result.error
    assert _window_sent(sim)["endTime"] == LAST_SECOND


def test_the_directive_reads_as_the_last_day_of_that_december() -> None:
    merged = requested_filters(SearchParams(query="x before:9999-12"))
    assert merged.date_before == date(9999, 12, 31)
