"""A search splits its query into tokens once, however many checks read them.

Stop 50 (inputs50) made ``SearchParams`` refuse a ``site:`` no filter can read, which
split the query a second time (its date check a third when it held ``after:``), beside
the filter merge's own reading: about 6 us more per search holding a ``site:``. The
tokens are frozen, so the checks and the merge now share one reading, counted here by
the readings :func:`~websearch_core.filters.query.tokenize` did rather than by time.
"""

from collections.abc import AsyncIterator

import pytest

from tests.functional._sim_helpers import sim_client
from websearch_core.filters.query import tokenize
from websearch_core.testing import Simulator
from websearch_core.testing.simulator import SimResult


@pytest.fixture
async def sim() -> AsyncIterator[Simulator]:
    async with Simulator(["brave"]) as simulator:
        simulator["brave"].honour_operators = False  # results whatever the site asked
        simulator["brave"].results = [  # one kept by every filter asked below
            SimResult("Blog", "https://example.com/blog/a", "One."),
            SimResult("Docs", "https://example.com/docs/b", "Two."),
        ]
        yield simulator


@pytest.mark.parametrize(
    "query",
    [
        "read once docs site:example.com",
        "read once docs after:2024-01-01 site:example.com",
        "read once docs since:2024-01 -site:example.com/blog",
    ],
)
async def test_a_search_reads_its_query_once(sim: Simulator, query: str) -> None:
    tokenize.cache_clear()
    async with sim_client(sim) as ws:
        await ws.search(query, provider="brave")
    assert sim["brave"].requests  # the search was made, its filters merged
    assert tokenize.cache_info().misses == 1
