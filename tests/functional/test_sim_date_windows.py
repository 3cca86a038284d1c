"""The simulator serves what an engine's own date filter lets through, when a test asks.

Each credential-free engine sends its date filter as its own parameter (DuckDuckGo's
``df``, Bing's ``filters``, Google's ``tbs``...), and the core trusts it: a filter applied
upstream is not checked again. These tests run each engine's real request builder against
the simulator, so they prove the protocol reads what the engine sends.
"""

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from websearch_core import WebSearch
from websearch_core.testing import SimResult, Simulator

ENGINES = ["duckduckgo", "bing", "yahoo", "startpage", "google", "ecosia", "mojeek"]
NOW = datetime.now(UTC)
RECENT = SimResult(
    "Tokio recent", "https://recent.example/tokio", "Recent.", (NOW - timedelta(days=2)).isoformat()
)
OLD = SimResult("Tokio old", "https://old.example/tokio", "Old.", "2020-03-01T00:00:00Z")
UNDATED = SimResult("Tokio undated", "https://undated.example/tokio", "No date.")


@pytest.fixture
async def sim(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Simulator]:
    monkeypatch.setenv("WEBSEARCH_BROWSER", "off")
    async with Simulator(ENGINES) as simulator:
        for engine_id in ENGINES:
            simulator[engine_id].results = [RECENT, OLD, UNDATED]
            simulator[engine_id].honour_dates = True
        yield simulator


async def _urls(sim: Simulator, engine_id: str, **fields: Any) -> list[str]:
    async with WebSearch(sim.settings()) as ws:
        result = await ws.run("rust tokio", provider=engine_id, use_cache=False, **fields)
    assert result.error is None, result.error
    return [source.url for source in result.response.sources]


@pytest.mark.parametrize(
    ("engine_id", "fields"),
    [
        ("duckduckgo", {"recency": "week"}),
        ("bing", {"recency": "week"}),
        ("bing", {"recency": "year"}),  # a range of days (ez5), not a code
        ("yahoo", {"recency": "month"}),
        ("startpage", {"recency": "week"}),
        ("google", {"recency": "week"}),
        ("google", {"date_after": "2025-01-01"}),  # a custom range (cdr)
        ("mojeek", {"recency": "week"}),  # a first day (YYYYMMDD)
        ("mojeek", {"recency": "year"}),  # a word
    ],
)
async def test_an_engine_asked_for_recent_pages_is_served_none_older(
    sim: Simulator, engine_id: str, fields: dict[str, str]
) -> None:
    # The old result is left out by the simulated engine itself (the core checks nothing
    # it applied upstream); the undated one is served, as nothing tells its date.
    assert await _urls(sim, engine_id, **fields) == [RECENT.url, UNDATED.url]


async def test_google_asked_for_pages_before_a_day_is_served_none_after(sim: Simulator) -> None:
    assert await _urls(sim, "google", date_before="2021-01-01") == [OLD.url, UNDATED.url]


async def test_an_engine_without_a_date_parameter_is_served_everything(sim: Simulator) -> None:
    # Ecosia has no recency parameter: the core's own check drops the old result.
    assert await _urls(sim, "ecosia", recency="week") == [RECENT.url, UNDATED.url]
    (request,) = sim["ecosia"].requests
    assert "week" not in str(request.query)


async def test_dates_are_ignored_unless_the_test_asks(sim: Simulator) -> None:
    sim["duckduckgo"].honour_dates = False
    assert await _urls(sim, "duckduckgo", recency="week") == [RECENT.url, OLD.url, UNDATED.url]
