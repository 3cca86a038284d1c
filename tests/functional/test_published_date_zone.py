"""Every provider writes a published instant with its zone, so all of them agree.

Brave's ``page_age`` (``2026-01-05T10:20:30``) names no zone; the core reads it as UTC (the
age, the date filters), yet the response carried it bare, where a date the core rewrote from
another form carried ``+00:00``: the same instant, served through Brave and through an
engine that writes RFC 2822, came out in two forms, and a reader of the bare one
(``datetime.fromisoformat``, a vector store, a model) took it as local time. Six more
providers (DuckDuckGo, Exa, Jina, Kagi, SearXNG and the Public Web aggregate) passed a bare
instant through the same way. Each is now written with ``+00:00``; a day stays a day and a
zone already written is kept. The retrievers' metadata, always an instant, gave a day's
midnight with no zone: it is now ``+00:00`` too.
"""

from datetime import UTC, datetime
from pathlib import Path

import pytest

from websearch_core import WebSearch
from websearch_core.retrieval import source_metadata
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


async def test_a_retrievers_date_is_an_instant_with_its_zone_for_every_provider() -> None:
    """Failed before: Bing's day read ``2026-01-05T00:00:00`` there, Brave's ``...+00:00``."""
    result = SimResult(title="Dated", url="https://a.example.org/", snippet="s", published=SERVED)
    written: dict[str, object] = {}
    async with Simulator(["brave", "bing"]) as sim:
        for provider_id in ("brave", "bing"):
            sim[provider_id].results = [result]
        async with WebSearch(sim.settings(), api_keys=sim.api_keys()) as ws:
            for provider_id in ("brave", "bing"):
                run = await ws.run("python asyncio", provider=provider_id, use_cache=False)
                [source] = run.response.sources
                written[provider_id] = source_metadata(source, provider_id, 1)["published_date"]
    # Bing's page gives the day alone: its midnight, in the zone the core reads it in.
    assert written == {"brave": f"{SERVED}+00:00", "bing": "2026-01-05T00:00:00+00:00"}
    readme = " ".join((Path(__file__).resolve().parents[2] / "README.md").read_text().split())
    said = "`published_date` is always an instant with its zone (`{}` for a day)"
    assert said.format(written["bing"]) in readme
