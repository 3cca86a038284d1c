"""A machine that resolves no host name is told so, after the spec's failure text.

On a first search without a network every provider fails with its own host's DNS error,
which reads as a list of broken providers; the chain adds one sentence saying what they
have in common and what to check, and says nothing more when the failures differ. Being
offline is the machine's failure, not the providers': it opens no provider's circuit breaker,
so the first search once the network is back asks them, while a provider that failed on a
working network is still cooled down.
"""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import aiohttp
import pytest

from tests.functional._sim_helpers import PartlyDownNetwork, SwitchableNetwork, Unresolvable
from tests.refused_port import refused_port
from websearch_core import WebSearch
from websearch_core.errors import AllProvidersFailedError
from websearch_core.format import (
    LOOPBACK_HINT,
    NOT_CONNECTED_HINT,
    OFFLINE_HINT,
    page_unreached_hint,
)
from websearch_core.testing import Fault, Simulator

PROVIDERS = ["bing", "duckduckgo"]

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
        "All web search providers failed: bing: Bing search failed: the connection failed "
        f"(bing.invalid): {UNRESOLVED}; duckduckgo: DuckDuckGo search failed: the connection "
        f"failed (ddg.invalid): {UNRESOLVED}. {OFFLINE_HINT}"
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
    assert (
        f"bing: Bing search failed: the connection failed (bing.invalid): {UNRESOLVED}; duckduckgo:"
        in (result.error)
    )
    assert OFFLINE_HINT not in result.error
    assert sim["duckduckgo"].requests  # it was reached: the network works


async def test_one_provider_alone_gets_the_hint_that_allows_for_a_wrong_host() -> None:
    # One host that does not resolve may be a mistyped base URL, not a machine offline:
    # not OFFLINE_HINT, but not silence either (a forced provider offline got no hint).
    async with (
        Simulator(["bing", "duckduckgo"]) as sim,
        _offline_client(sim, {"bing": "http://bing.invalid"}) as ws,
    ):
        result = await ws.run("python asyncio", provider="bing")
    assert result.error == (
        f"Bing search failed: the connection failed (bing.invalid): {UNRESOLVED}. If the host "
        "name is right, this machine looks offline: check its network connection and DNS, or "
        "set the proxy it must use (HTTPS_PROXY or WEBSEARCH_PROXY)."
    )


@asynccontextmanager
async def _switchable_client(
    sim: Simulator, network: SwitchableNetwork, chain: list[str] = PROVIDERS
) -> AsyncIterator[WebSearch]:
    """A client asking ``chain``, reaching the simulator by host name through ``network``."""
    connector = aiohttp.TCPConnector(resolver=network)
    async with aiohttp.ClientSession(connector=connector) as session:
        # The simulator's port behind a name: only a resolving network reaches it.
        routes = {
            pid: sim[pid].base_url.replace("127.0.0.1", f"{pid}.invalid") for pid in PROVIDERS
        }
        settings = sim.settings(base_urls=routes, providers=chain, cache=False)
        async with WebSearch(settings, session=session) as ws:
            yield ws


@pytest.mark.parametrize("chain", [PROVIDERS, ["public"]], ids=["chain", "public"])
async def test_searches_offline_leave_no_cooldown_for_when_the_network_is_back(
    chain: list[str],
) -> None:
    network = SwitchableNetwork()
    async with Simulator(PROVIDERS) as sim, _switchable_client(sim, network, chain) as ws:
        offline = [await ws.run("python asyncio") for _ in range(4)]
        network.online = True
        back = await ws.run("python asyncio")
    # Every offline search asked the providers, so each one says the machine is offline.
    for result in offline:
        assert result.error is not None
        assert result.error.endswith(OFFLINE_HINT)
        assert "skipped" not in result.error
    assert back.error is None
    assert back.response.provider == chain[0]
    assert len(sim["bing"].requests) == 1


@pytest.mark.parametrize("failure", ["server error", "host not found"])
async def test_a_provider_failing_on_a_working_network_still_cools_down(failure: str) -> None:
    # A 5xx, or one host unresolved while another provider answers, is that provider's
    # failure (a mistyped base URL is the user's): counted towards its breaker as ever.
    network = SwitchableNetwork()
    network.online = True
    async with Simulator(PROVIDERS) as sim, _switchable_client(sim, network) as ws:
        if failure == "server error":
            sim["bing"].always(Fault.server_error(503))
        else:
            network.unknown.add("bing.invalid")
        answers = [await ws.run("python asyncio") for _ in range(3)]
        status = {row.id: row for row in await ws.provider_status()}
    assert [result.response.provider for result in answers] == ["duckduckgo"] * 3
    assert len(sim["bing"].requests) == (2 if failure == "server error" else 0)
    mark = status["bing"].mark
    assert mark is not None and mark.kind == "circuit_open"
    assert mark.failures == 2


async def test_every_loopback_base_url_refused_is_told_nothing_listens_there() -> None:
    # The simulator's pasted variables left behind once it stopped: every provider is
    # refused at this machine's own address. No firewall stands there, so the blocked-
    # network hint sent the user to check a network that works; and, as offline, the
    # refusals open no breaker, so the providers are asked once the server is back.
    closed = f"http://127.0.0.1:{refused_port()}"
    async with Simulator(PROVIDERS) as sim:
        refused = sim.settings(
            base_urls={pid: closed for pid in PROVIDERS}, providers=PROVIDERS, cache=False
        )
        async with WebSearch(refused) as ws:
            result = await ws.run("python asyncio")
            status = {row.id: row.mark for row in await ws.provider_status()}
    assert result.error is not None
    assert "Bing search failed: the connection failed (127.0.0.1:" in result.error
    assert result.error.endswith(LOOPBACK_HINT)
    assert NOT_CONNECTED_HINT not in result.error
    assert status["bing"] is None and status["duckduckgo"] is None


async def test_a_forced_provider_refused_at_loopback_is_told_nothing_listens_there() -> None:
    async with Simulator(PROVIDERS) as sim:
        closed = {"bing": f"http://127.0.0.1:{refused_port()}"}
        async with WebSearch(sim.settings(base_urls=closed)) as ws:
            result = await ws.run("python asyncio", provider="bing")
    assert result.error is not None
    assert result.error.endswith(f"(ClientConnectorError). {page_unreached_hint('loopback')}")
    assert page_unreached_hint("loopback").startswith("Nothing listens at that loopback")


async def test_a_loopback_refusal_beside_a_remote_one_keeps_the_network_hint() -> None:
    # Guard (passes before and after): a host of another machine refused too may be a
    # firewall, so the hint stays the blocked network's.
    network = PartlyDownNetwork()
    async with Simulator(PROVIDERS) as sim:
        routes = {
            "bing": f"http://127.0.0.1:{refused_port()}",
            "duckduckgo": sim["duckduckgo"].base_url.replace("127.0.0.1", "ddg.invalid"),
        }
        connector = aiohttp.TCPConnector(resolver=network, use_dns_cache=False)
        async with aiohttp.ClientSession(connector=connector) as session:
            settings = sim.settings(base_urls=routes, providers=PROVIDERS, cache=False)
            async with WebSearch(settings, session=session) as ws:
                result = await ws.run("python asyncio")
    assert result.error is not None and result.error.endswith(NOT_CONNECTED_HINT)
