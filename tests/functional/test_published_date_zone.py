"""Every provider writes a published instant with its zone, so all of them agree.

Brave's ``page_age`` (``2026-01-05T10:20:30``) names no zone; the core reads it as UTC (the
age, the date filters), yet the response carried it bare, where a date the core rewrote from
another form carried ``+00:00``: the same instant, served through Brave and through an
engine that writes RFC 2822, came out in two forms, and a reader of the bare one
(``datetime.fromisoformat``, a vector store, a model) took it as local time. Six more
providers (DuckDuckGo, Exa, Jina, Kagi, SearXNG and the Public Web aggregate) passed a bare
instant through the same way. Each is now written with ``+00:00``; a day stays a day and a
zone already written is kept.
"""

from datetime import UTC, datetime

import pytest

from websearch_core import WebSearch
from websearch_core.testing import PROTOCOLS, SimResult, Simulator

SERVED = "2026-01-05T10:20:30"
"""An instant without a zone, as Brave's ``page_age`` writes one."""
INSTANT = datetime(2026, 1, 5, 10, 20, 30, tzinfo=UTC)


@pytest.fixture
def _project(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "p")  # Gemini's sign-in asks for one


@pytest.mark.usefixtures("_project")
async def test_every_provider_gives_a_bare_instant_its_utc_zone() -> None:
    """Failed before for brave, duckduckgo, exa, jina, kagi, searxng and public."""
    ids = sorted(PROTOCOLS)
    result = SimResult(title="Dated", url="https://a.example.org/", snippet="s", published=SERVED)
    bare: dict[str, str] = {}
    dated = 0
    async with Simulator(ids) as sim:
        for provider_id in ids:
            sim[provider_id].results = [result]
        async with WebSearch(sim.settings(), api_keys=sim.api_keys()) as ws:
            for provider_id in [*ids, "public"]:
                run = await ws.run("python asyncio", provider=provider_id, use_cache=False)
                for source in run.response.sources:
                    written = source.published_date
                    if written is None or len(written) == len("2026-01-05"):
                        continue  # no date, or a day (no instant to place)
                    dated += 1
                    when = datetime.fromisoformat(written)
                    if when.tzinfo is None:
                        bare[provider_id] = written
                    else:
                        assert when == INSTANT, (provider_id, written)
    assert bare == {}
    assert dated >= 8  # the providers whose wire carries the time (not only the day)


async def test_brave_and_the_aggregate_write_the_same_instant_alike() -> None:
    """Failed before: Brave's ``2026-01-05T10:20:30`` against the aggregate's own forms."""
    result = SimResult(title="Dated", url="https://a.example.org/", snippet="s", published=SERVED)
    async with Simulator(["brave", "duckduckgo"]) as sim:
        sim["brave"].results = [result]
        sim["duckduckgo"].results = [result]
        settings = sim.settings(
            exclude=("bing", "yahoo", "startpage", "google", "ecosia", "mojeek")
        )
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            brave = await ws.run("python asyncio", provider="brave", use_cache=False)
            public = await ws.run("python asyncio", provider="public", use_cache=False)
    [brave_source] = brave.response.sources
    [public_source] = public.response.sources
    assert brave_source.published_date == public_source.published_date == f"{SERVED}+00:00"
