"""``site:`` with a space before a value no filter reads stays words, as engines read it.

Stop 50 (inputs50) refused ``site:example.com:8080`` because an engine reads it as its
operator and keeps the search to a site with no pages. Written ``site: example.com:8080``
it is no operator to an engine (one reads ``site:`` only joined to its value; with a
space both are search terms), and ``my site: wordpress`` is prose that a refusal of a
spaced ``site:`` whose value the lists refuse would hit. So it is searched as typed: the
simulated engines, reading ``site:`` as the real ones do, answer it.
"""

from collections.abc import AsyncIterator

import pytest

from tests.functional._sim_helpers import sim_client
from websearch_core.testing import Simulator
from websearch_core.testing.simulator import SimResult


@pytest.fixture
async def sim() -> AsyncIterator[Simulator]:
    async with Simulator(["brave", "duckduckgo"]) as simulator:
        for provider in ("brave", "duckduckgo"):
            simulator[provider].results = [
                SimResult("Elsewhere", "https://elsewhere.example/a", "One."),
                SimResult("On the site", "https://example.com/b", "Two."),
            ]
        yield simulator


@pytest.mark.parametrize("provider", ["brave", "duckduckgo"])
@pytest.mark.parametrize(
    "query", ["docs site: example.com:8080", "our site: shop.example.com:443 gives 502"]
)
async def test_guard_a_spaced_site_is_searched_as_words(
    sim: Simulator, provider: str, query: str
) -> None:
    """Guard: searched as typed before and after, the engine filtering nothing."""
    async with sim_client(sim) as ws:
        found = await ws.search(query, provider=provider)
    assert [source.title for source in found.sources] == ["Elsewhere", "On the site"]
    assert len(sim[provider].requests) == 1
