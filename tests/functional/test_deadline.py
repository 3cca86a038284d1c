"""The whole-call deadline: nothing a provider does keeps a search past it."""

import time

import pytest

from websearch_core import WebSearch
from websearch_core.settings import Settings
from websearch_core.testing import Fault, Simulator

KEYLESS = ["duckduckgo", "bing", "yahoo", "startpage", "google", "ecosia", "mojeek"]


@pytest.fixture(autouse=True)
def _no_browser(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEBSEARCH_BROWSER", "off")


def test_the_default_deadline_ends_seven_hanging_engines_within_a_minute() -> None:
    settings = Settings()
    assert settings.deadline_seconds < 60
    assert settings.provider_timeout("scraper") < settings.deadline_seconds


async def test_seven_engines_that_never_answer_end_at_the_deadline_with_a_clear_error() -> None:
    async with Simulator(KEYLESS) as sim:
        for engine in KEYLESS:
            sim[engine].always(Fault.hang())
        settings = sim.settings(timeout_seconds=None, deadline_seconds=2.0)
        async with WebSearch(settings) as ws:
            started = time.monotonic()
            result = await ws.run("python asyncio")
            elapsed = time.monotonic() - started
    assert result.is_error
    assert "DuckDuckGo request timed out after 2s" in result.text
    assert "the 2s deadline for the whole search ran out; not tried: bing, yahoo" in result.text
    assert elapsed < 2.0 + 1.5  # the deadline, plus teardown slack; not 7 x 15 s
    skipped = [a.provider for a in result.response.attempts if a.detail == "deadline reached"]
    assert skipped == KEYLESS[1:]
    assert [len(sim[engine].requests) for engine in KEYLESS] == [1, 0, 0, 0, 0, 0, 0]


async def test_each_provider_gets_the_lesser_of_its_timeout_and_what_remains() -> None:
    async with Simulator(["brave", "duckduckgo"]) as sim:
        sim["brave"].always(Fault.hang())
        settings = sim.settings(timeout_seconds=1.0, deadline_seconds=30.0)
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            started = time.monotonic()
            result = await ws.run("python asyncio")
            elapsed = time.monotonic() - started
    # Brave used its own second; DuckDuckGo then answered well inside the deadline.
    assert result.response.provider == "duckduckgo"
    assert result.response.attempts[0].detail == "Brave request timed out after 1s"
    assert elapsed < 1.0 + 1.5
