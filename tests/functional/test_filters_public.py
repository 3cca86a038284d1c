"""The Public Web aggregate: each engine's results are filtered before they are merged."""

from collections.abc import AsyncIterator
from urllib.parse import unquote_plus

import pytest

from websearch_core import WebSearch
from websearch_core.providers import PROVIDER_REGISTRY
from websearch_core.providers.public import ENGINE_ORDER
from websearch_core.testing import PROTOCOLS, SimResult, Simulator

ENGINES = [eid for eid in ENGINE_ORDER if eid in PROVIDER_REGISTRY and eid in PROTOCOLS]
UNSIMULATED = tuple(eid for eid in ENGINE_ORDER if eid in PROVIDER_REGISTRY and eid not in ENGINES)
PAGES = [
    SimResult("Laravel", "https://github.com/laravel/laravel", "The PHP framework."),
    SimResult("Laravel guide", "https://builtin.com/laravel", "A guide."),
    SimResult("Laravel framework", "https://github.com/laravel/framework", "The core."),
]


@pytest.fixture
async def sim(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Simulator]:
    monkeypatch.setenv("WEBSEARCH_BROWSER", "off")
    async with Simulator(ENGINES) as simulator:
        for engine_id in ENGINES:
            simulator[engine_id].results = list(PAGES)
        yield simulator


async def test_each_engine_gets_the_site_and_the_merge_keeps_only_that_site(
    sim: Simulator,
) -> None:
    async with WebSearch(sim.settings(exclude=UNSIMULATED)) as ws:
        result = await ws.run("laravel site:github.com", provider="public", use_cache=False)
    assert result.error is None, result.error
    response = result.response
    assert [s.url for s in response.sources] == [PAGES[0].url, PAGES[2].url]
    # Every engine voted for both github.com pages; builtin.com was dropped before merging.
    for source in response.sources:
        assert [rank.engine for rank in source.engines] == ENGINES
    for engine_id in ENGINES:
        sent = " ".join(
            unquote_plus(f"{request.path} {request.query} {request.body.decode()}")
            for request in sim[engine_id].requests
        )
        assert "site:github.com" in sent, engine_id
    (record,) = response.filters
    assert (record.name, record.value, record.applied) == (
        "include_domains",
        "github.com",
        ("query", "post"),
    )
