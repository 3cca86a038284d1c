"""Connections that hang are this machine's network, not every provider slow to answer.

A firewall dropping packets, a network with no way out, or a proxy that accepts TCP and
never answers ``CONNECT`` leaves each connection waiting until the provider's timeout ends
it, with the bare ``TimeoutError`` of a slow provider: each search counted a failure against
every provider, and two searches opened every breaker. The client's own session now knows
a request that timed out while its connection was still being opened
(``websearch_core.connect_phase``), aiohttp's ``ConnectionTimeoutError`` says so on a
caller's session, and the offline rule decides: alike across every provider asked, no
cooldown and the hint; one provider hanging beside one that answers is still its own.
"""

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
import pytest

from tests.functional._sim_helpers import HangingNetwork, public_web_within
from tests.hanging_port import hanging_port
from tests.stalling_proxy import silent_server
from websearch_core import WebSearch, lookups
from websearch_core.format import NOT_CONNECTED_HINT
from websearch_core.state.base import ProviderMark
from websearch_core.testing import Simulator

PROVIDERS = ["bing", "duckduckgo"]
TIMEOUT = 0.5
"""Far shorter than the 10 s connect timeout, as every provider timeout is by default."""
HUNG = f"could not connect: the connection was not made within {TIMEOUT:g}s"


@pytest.fixture
def port() -> Iterator[int]:
    """A loopback port on which every new connection hangs."""
    with hanging_port() as hanging:
        yield hanging


def _routes(sim: Simulator, scheme: str = "http") -> dict[str, str]:
    """Each simulated provider's base URL with a host name only the network resolves."""
    return {
        pid: sim[pid].base_url.replace("http://127.0.0.1", f"{scheme}://{pid}.invalid")
        for pid in sim.providers
    }


@asynccontextmanager
async def _own_client(
    sim: Simulator,
    network: HangingNetwork,
    monkeypatch: pytest.MonkeyPatch,
    scheme: str = "http",
    **settings: Any,
) -> AsyncIterator[WebSearch]:
    """A client asking ``PROVIDERS`` with a session of its own, its names from ``network``."""
    monkeypatch.setattr(lookups, "system_resolver", lambda: network)
    values: dict[str, Any] = {
        "base_urls": _routes(sim, scheme),
        "providers": PROVIDERS,
        "cache": False,
        "timeout_seconds": TIMEOUT,
        **settings,
    }
    async with WebSearch(sim.settings(**values)) as ws:
        yield ws


async def _marks(ws: WebSearch) -> dict[str, ProviderMark | None]:
    """Each asked provider's mark (cooldown or open breaker)."""
    return {row.id: row.mark for row in await ws.provider_status() if row.id in PROVIDERS}


async def test_connections_that_hang_open_no_breaker(
    port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    network = HangingNetwork(port)
    async with Simulator(PROVIDERS) as sim, _own_client(sim, network, monkeypatch) as ws:
        offline = [await ws.run("python asyncio") for _ in range(3)]
        marks = await _marks(ws)
    for result in offline:
        assert result.error is not None
        bing_host = _routes(sim)["bing"].removeprefix("http://").rstrip("/")
        assert f"Bing search failed: the connection failed ({bing_host}): {HUNG}" in result.error
        assert result.error.endswith(NOT_CONNECTED_HINT)
        assert "skipped" not in result.error
    assert marks == {"bing": None, "duckduckgo": None}


async def test_a_proxy_that_never_answers_connect_opens_no_breaker(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A proxy that takes the connection (the kernel accepts it into the queue) and never
    # answers the CONNECT of an https request: nothing reached any provider.
    network = HangingNetwork(0)
    network.online = True
    with silent_server() as proxy_port:
        async with (
            Simulator(PROVIDERS) as sim,
            _own_client(
                sim, network, monkeypatch, "https", proxy=f"http://proxy.invalid:{proxy_port}"
            ) as ws,
        ):
            offline = [await ws.run("python asyncio") for _ in range(3)]
            marks = await _marks(ws)
    hung = f"the proxy could not be reached: the connection was not made within {TIMEOUT:g}s"
    for result in offline:
        assert result.error is not None
        assert hung in result.error
        assert result.error.endswith(
            "Not one provider could be reached through the proxy, so it looks down: check the "
            "proxy that the proxy setting names is running, or unset it."
        )
    assert marks == {"bing": None, "duckduckgo": None}


async def test_one_provider_hanging_while_another_answers_still_counts(
    port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    network = HangingNetwork(port, hanging={"bing.invalid"})
    async with Simulator(PROVIDERS) as sim, _own_client(sim, network, monkeypatch) as ws:
        answers = [await ws.run("python asyncio") for _ in range(2)]
        marks = await _marks(ws)
    assert [result.response.provider for result in answers] == ["duckduckgo"] * 2
    assert answers[0].response.attempts[0].detail.endswith(HUNG)
    bing = marks["bing"]
    assert bing is not None and bing.kind == "circuit_open"
    assert marks["duckduckgo"] is None


async def test_a_callers_session_knows_a_connect_timeout_by_aiohttps_error(port: int) -> None:
    # A caller's session has no connector of ours; a connect timeout shorter than the
    # provider's gives aiohttp's ConnectionTimeoutError, which says the same on any session.
    network = HangingNetwork(port)
    connector = aiohttp.TCPConnector(resolver=network, use_dns_cache=False)
    async with Simulator(PROVIDERS) as sim, aiohttp.ClientSession(connector=connector) as session:
        values: dict[str, Any] = {
            "base_urls": _routes(sim),
            "providers": PROVIDERS,
            "cache": False,
            "timeout_seconds": 5,
            "connect_timeout_seconds": 0.3,
        }
        async with WebSearch(sim.settings(**values), session=session) as ws:
            offline = [await ws.run("python asyncio") for _ in range(3)]
            marks = await _marks(ws)
    for result in offline:
        assert result.error is not None
        assert "could not connect: the connection was not made within 0.3s" in result.error
        assert result.error.endswith(NOT_CONNECTED_HINT)
    assert marks == {"bing": None, "duckduckgo": None}


async def test_public_web_engines_cut_off_while_connecting_are_offline_too(
    port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Public Web's own deadline ends before the engines' timeouts: cut off while their
    # connections hung, they read as slow engines (nothing said why) and each search
    # counted a request per engine in the month's usage, though none was sent.
    network = HangingNetwork(port)
    engines = [*PROVIDERS, "mojeek"]
    public_web_within(monkeypatch, engines, TIMEOUT)
    settings: dict[str, Any] = {
        "providers": ["public"],
        "timeout_seconds": 4 * TIMEOUT,
        "budget": {pid: "100/month" for pid in engines},
    }
    async with Simulator(engines) as sim, _own_client(sim, network, monkeypatch, **settings) as ws:
        offline = [await ws.run("python asyncio") for _ in range(2)]
        rows = {row.id: row for row in await ws.provider_status()}
    for result in offline:
        assert result.error is not None
        assert result.error.endswith(NOT_CONNECTED_HINT)
    assert [rows[pid].used_this_month for pid in engines] == [0, 0, 0]
    assert [rows[pid].mark for pid in [*engines, "public"]] == [None] * 4
