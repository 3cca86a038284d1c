"""A machine that resolves no host name is told so, after the spec's failure text.

On a first search without a network every provider fails with its own host's DNS error,
which reads as a list of broken providers; the chain adds one sentence saying what they
have in common and what to check, and says nothing more when the failures differ.
"""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import aiohttp
import pytest

from tests.functional._sim_helpers import Unresolvable
from websearch_core import WebSearch
from websearch_core.errors import AllProvidersFailedError
from websearch_core.format import OFFLINE_HINT
from websearch_core.testing import Fault, Simulator

UNRESOLVED = "the host name could not be resolved (ClientConnectorDNSError)"


@asynccontextmanager
async def _offline_client(sim: Simulator, base_urls: dict[str, str]) -> AsyncIterator[WebSearch]:
    """A client whose session resolves no name, with ``base_urls`` over the simulator's."""
    connector = aiohttp.TCPConnector(resolver=Unresolvable())
    async with aiohttp.ClientSession(connector=connector) as session:
        routes = {**sim.base_urls(), **base_urls}
        settings = sim.settings(base_urls=routes, providers=["bing", "duckduckgo"])
        async with WebSearch(settings, session=session) as ws:
            yield ws


async def test_every_host_unresolved_ends_with_the_offline_hint() -> None:
    async with Simulator(["bing", "duckduckgo"]) as sim:
        hosts = {"bing": "http://bing.invalid", "duckduckgo": "http://ddg.invalid"}
        async with _offline_client(sim, hosts) as ws:
            result = await ws.run("python asyncio")
            with pytest.raises(AllProvidersFailedError) as caught:
                await ws.search("python asyncio", use_cache=False)
    expected = (
        f"All web search providers failed: bing: Bing connection failed (bing.invalid): "
        f"{UNRESOLVED}; duckduckgo: DuckDuckGo connection failed (ddg.invalid): {UNRESOLVED}. "
        f"{OFFLINE_HINT}"
    )
    assert result.error == expected
    assert result.text == f"Error: {expected}"
    assert str(caught.value) == expected
    assert not sim["bing"].requests and not sim["duckduckgo"].requests


async def test_a_provider_that_connected_leaves_the_hint_out() -> None:
    async with Simulator(["bing", "duckduckgo"]) as sim:
        sim["duckduckgo"].always(Fault.server_error(503))
        async with _offline_client(sim, {"bing": "http://bing.invalid"}) as ws:
            result = await ws.run("python asyncio")
    assert result.error is not None
    assert f"bing: Bing connection failed (bing.invalid): {UNRESOLVED}; duckduckgo:" in (
        result.error
    )
    assert OFFLINE_HINT not in result.error
    assert sim["duckduckgo"].requests  # it was reached: the network works


async def test_one_provider_alone_gets_no_hint() -> None:
    # One host that does not resolve may be a mistyped base URL, not a machine offline.
    async with (
        Simulator(["bing", "duckduckgo"]) as sim,
        _offline_client(sim, {"bing": "http://bing.invalid"}) as ws,
    ):
        result = await ws.run("python asyncio", provider="bing")
    assert result.error == f"Bing connection failed (bing.invalid): {UNRESOLVED}"
