"""Spec §Side Effects, "Background work / cancellation", during a fallback, end to end.

``executeSearch()`` "forwards [the signal] to providers and rethrows cancellation during
fallback". The chain tests cancel the first provider asked; these cancel the search once
the first provider has failed and the chain has moved on, where a loop catching each
provider's failure could take the cancellation for one more failure and ask the next.
"""

import asyncio

import pytest

from tests.functional._sim_helpers import requests_per_provider, sim_client, simulator_fixture
from websearch_core import WebSearch
from websearch_core.testing import Fault, Simulator

QUERY = "python asyncio"
sim = simulator_fixture("tavily", "brave", "searxng", "duckduckgo")


async def _asked(sim: Simulator, provider: str) -> None:
    while not sim[provider].requests:
        await asyncio.sleep(0.01)


async def _cancelled_once_brave_is_asked(sim: Simulator, ws: WebSearch) -> None:
    """A search cancelled by its caller while Brave, the fallback, holds its request."""
    task = asyncio.create_task(ws.run(QUERY))
    await asyncio.wait_for(_asked(sim, "brave"), 30)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_a_search_cancelled_in_the_fallback_raises_and_asks_no_one_after(
    sim: Simulator,
) -> None:
    """Guard: Tavily fails, Brave (the fallback) holds the request, the caller cancels."""
    sim["tavily"].always(Fault.http(500))
    sim["brave"].always(Fault.hang(30))
    async with sim_client(sim) as ws:
        await _cancelled_once_brave_is_asked(sim, ws)
    assert requests_per_provider(sim) == {"tavily": 1, "brave": 1, "searxng": 0, "duckduckgo": 0}


async def test_a_search_cancelled_in_the_fallback_leaves_the_client_usable(
    sim: Simulator,
) -> None:
    """Guard: the same client answers the next search, from the first provider that can."""
    sim["tavily"].always(Fault.http(500))
    sim["brave"].enqueue(Fault.hang(30))
    async with sim_client(sim) as ws:
        await _cancelled_once_brave_is_asked(sim, ws)
        result = await ws.run(QUERY)
    assert result.error is None, result.error
    assert result.response.provider == "brave"
