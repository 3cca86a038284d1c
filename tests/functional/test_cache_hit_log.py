"""A search served from the result cache logs its line with fields only for a logger that takes it.

The chain's own "served by" line was already built only when INFO is on; the cache hit's
line built its ``extra`` fields on every hit and then had ``logger.info`` drop them.
"""

import logging

import pytest

from websearch_core import WebSearch
from websearch_core.models import Attempt
from websearch_core.testing import Simulator


def _counting_log_fields(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record the outcome of every attempt whose log fields are built from now on."""
    built: list[str] = []
    original = Attempt.log_fields

    def counted(attempt: Attempt) -> dict[str, object]:
        built.append(attempt.outcome)
        return original(attempt)

    monkeypatch.setattr(Attempt, "log_fields", counted)
    return built


async def test_a_cache_hit_builds_no_log_fields_when_info_is_off(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="websearch_core")
    async with (
        Simulator(["brave"]) as sim,
        WebSearch(sim.settings(api_keys={"brave": "k-1"})) as ws,
    ):
        await ws.run("python asyncio")
        built = _counting_log_fields(monkeypatch)
        again = await ws.run("python asyncio")
    assert again.response.cached
    assert built == []


async def test_a_cache_hit_still_logs_its_fields_when_info_is_on(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Guard: passes before the change too; the line and its fields stay for INFO."""
    caplog.set_level(logging.INFO, logger="websearch_core")
    async with (
        Simulator(["brave"]) as sim,
        WebSearch(sim.settings(api_keys={"brave": "k-1"})) as ws,
    ):
        await ws.run("python asyncio")
        caplog.clear()
        built = _counting_log_fields(monkeypatch)
        again = await ws.run("python asyncio")
    assert again.response.cached
    assert built == ["cached"]
    (record,) = [r for r in caplog.records if r.getMessage().startswith("web search served")]
    assert record.getMessage() == "web search served from cache (brave)"
    assert (record.provider, record.outcome, record.status) == ("brave", "cached", None)
