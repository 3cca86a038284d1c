"""A network partly down, a search cancelled, a provider asked alone: whose failure it is.

Stop 36 left no cooldown behind when every provider's host name failed to resolve. The same
holds when DNS answers but every connection is refused (a firewall, a captive portal) or the
proxy this machine must use is down: nothing reached any provider, so the first search once
the network is back asks them again. A search cancelled before its end counts the failures it
held only when another provider was reached; a provider asked alone whose own host name does
not resolve leaves no cooldown, while a base URL the user set (which may be mistyped) does.
"""

import asyncio
import socket
from collections import Counter
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
import pytest

from tests.functional._sim_helpers import PartlyDownNetwork, SwitchableNetwork, Unresolvable
from tests.refused_port import refused_port
from websearch_core import WebSearch
from websearch_core.format import NOT_CONNECTED_HINT, PROXY_DOWN_HINT, page_unreached_hint
from websearch_core.state.base import ProviderMark
from websearch_core.testing import Fault, Simulator

PROVIDERS = ["bing", "duckduckgo", "mojeek"]


def _named_routes(sim: Simulator) -> dict[str, str]:
    """Each simulated provider's base URL with its host as a name only a network resolves."""
    return {pid: sim[pid].base_url.replace("127.0.0.1", f"{pid}.invalid") for pid in sim.providers}


@asynccontextmanager
async def _client(
    sim: Simulator, resolver: aiohttp.abc.AbstractResolver, **settings: Any
) -> AsyncIterator[WebSearch]:
    """A client on the simulator whose session resolves names through ``resolver``.

    Uncached, so a name that led to a closed port leads to the simulator once it is back.
    """
    connector = aiohttp.TCPConnector(resolver=resolver, use_dns_cache=False)
    async with aiohttp.ClientSession(connector=connector) as session:
        values: dict[str, Any] = {"base_urls": _named_routes(sim), "cache": False, **settings}
        async with WebSearch(sim.settings(**values), session=session) as ws:
            yield ws


async def _marks(ws: WebSearch) -> dict[str, ProviderMark | None]:
    """Each provider's mark (cooldown or open breaker) as the status shows it."""
    return {row.id: row.mark for row in await ws.provider_status()}


@pytest.mark.parametrize("chain", [["bing", "duckduckgo"], ["public"]], ids=["chain", "public"])
async def test_every_connection_refused_leaves_no_cooldown_for_when_the_network_is_back(
    chain: list[str],
) -> None:
    network = PartlyDownNetwork()
    async with (
        Simulator(["bing", "duckduckgo"]) as sim,
        _client(sim, network, providers=chain) as ws,
    ):
        offline = [await ws.run("python asyncio") for _ in range(4)]
        network.online = True
        back = await ws.run("python asyncio")
    for result in offline:
        assert result.error is not None
        assert result.error.endswith(NOT_CONNECTED_HINT)
        assert "could not connect" in result.error
        assert "skipped" not in result.error
    assert back.error is None
    assert back.response.provider == chain[0]
    assert len(sim["bing"].requests) == 1


async def test_one_provider_refusing_while_another_answers_still_cools_down() -> None:
    # A connection refused by one provider's host while another answers is that provider's.
    network = SwitchableNetwork()
    network.online = True
    async with Simulator(["bing", "duckduckgo"]) as sim:
        refused = {**_named_routes(sim), "bing": f"http://127.0.0.1:{refused_port()}"}
        async with _client(sim, network, base_urls=refused, providers=["bing", "duckduckgo"]) as ws:
            answers = [await ws.run("python asyncio") for _ in range(3)]
            marks = await _marks(ws)
    assert [result.response.provider for result in answers] == ["duckduckgo"] * 3
    mark = marks["bing"]
    assert mark is not None and mark.kind == "circuit_open" and mark.failures == 2


async def test_a_proxy_refusing_every_connection_is_named_and_cools_nothing_down() -> None:
    password = "proxy-pass-0123456789"
    proxy = f"http://proxyuser:{password}@127.0.0.1:{refused_port()}"
    async with Simulator(["bing", "duckduckgo"]) as sim:
        settings = sim.settings(
            base_urls=_named_routes(sim), providers=["bing", "duckduckgo"], cache=False, proxy=proxy
        )
        async with WebSearch(settings) as ws:
            results = [await ws.run("python asyncio") for _ in range(3)]
            marks = await _marks(ws)
    for result in results:
        assert result.error is not None
        assert "check the proxy that the proxy setting names is running" in result.error
        assert "the proxy could not be reached" in result.error
        assert password not in result.text + result.response.model_dump_json()
    assert marks["bing"] is None and marks["duckduckgo"] is None


@pytest.mark.parametrize("chain", [["bing", "duckduckgo"], ["public"]], ids=["chain", "public"])
@pytest.mark.parametrize(
    ("where", "named"),
    [
        ("setting", "the proxy setting"),
        ("WEBSEARCH_PROXY", "WEBSEARCH_PROXY"),
        ("HTTP_PROXY", "HTTP_PROXY"),
        ("http_proxy", "http_proxy"),
        ("session", None),
    ],
)
async def test_the_proxy_hint_names_the_setting_the_proxy_came_from(
    monkeypatch: pytest.MonkeyPatch, chain: list[str], where: str, named: str | None
) -> None:
    # The hint named WEBSEARCH_PROXY and HTTPS_PROXY whichever was set (the providers
    # here are http, so HTTPS_PROXY was not even the one in use): it names the one that
    # was, never its URL or credentials; a session's own proxy, which no setting of ours
    # chose, keeps the general hint.
    password = "proxy-pass-0123456789"
    proxy = f"http://proxyuser:{password}@127.0.0.1:{refused_port()}"
    overrides = {"proxy": proxy} if where == "setting" else {}
    if where not in ("setting", "session"):
        monkeypatch.setenv(where, proxy)
    async with (
        Simulator(["bing", "duckduckgo"]) as sim,
        aiohttp.ClientSession(proxy=proxy if where == "session" else None) as session,
    ):
        settings = sim.settings(
            base_urls=_named_routes(sim), providers=chain, cache=False, **overrides
        )
        async with WebSearch(settings, session=session if where == "session" else None) as ws:
            result = await ws.run("python asyncio")
    assert result.error is not None
    if named is None:
        assert result.error.endswith(PROXY_DOWN_HINT)
    else:
        assert result.error.endswith(
            "Not one provider could be reached through the proxy, so it looks down: check the "
            f"proxy that {named} names is running, or unset it."
        )
    shown = result.text + result.response.model_dump_json()
    assert password not in shown and "proxyuser" not in shown


class _AskedNetwork(SwitchableNetwork):
    """A :class:`SwitchableNetwork` that counts the lookups of each name it was asked."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: Counter[str] = Counter()

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[aiohttp.abc.ResolveResult]:
        self.asked[host] += 1
        return await super().resolve(host, port, family)


class _SlowDns(_AskedNetwork):
    """Offline, and the names in :attr:`slow` take an hour to fail (a DNS that is down)."""

    def __init__(self, *slow: str) -> None:
        super().__init__()
        self.slow = set(slow)

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[aiohttp.abc.ResolveResult]:
        if host in self.slow and not self.online:
            self.asked[host] += 1
            await asyncio.sleep(3600)
        return await super().resolve(host, port, family)


_SETTLE_TURNS = 200
"""Event-loop turns a search gets, once its last provider is held, to take in what the
others answered (each turn reads what loopback has delivered): a count, not a time."""


async def _cancelled(ws: WebSearch, times: int, held: Callable[[int], bool]) -> None:
    """``times`` searches, each given up on by its caller once ``held(n)`` says the n-th is
    stuck where the test holds it.

    Each is cancelled when the test's own events say every other provider has answered or
    failed and one is held (a hung server, a lookup that never ends), not after a fixed
    time, so a loaded machine cannot cancel it before it got that far.
    """
    for n in range(1, times + 1):
        search = asyncio.ensure_future(ws.search("python asyncio"))
        while not held(n):
            assert not search.done(), "the search ended before it was held"
            await asyncio.sleep(0.005)
        for _ in range(_SETTLE_TURNS):
            await asyncio.sleep(0)
        assert not search.done(), "the search ended while one provider was held"
        search.cancel()
        with pytest.raises(asyncio.CancelledError):
            await search


@pytest.mark.parametrize("chain", [PROVIDERS, ["public"]], ids=["chain", "public"])
async def test_a_cancelled_search_counts_what_it_held_once_a_provider_was_reached(
    chain: list[str],
) -> None:
    # Bing's name is unknown while DuckDuckGo answers 503: the network works, so Bing's
    # failure is its own (or its base URL's) even though the search never ended. Public
    # Web's fan-out dropped it, while the chain counted it.
    network = _AskedNetwork()
    network.online = True
    network.unknown.add("bing.invalid")
    async with Simulator(PROVIDERS) as sim, _client(sim, network, providers=chain) as ws:
        sim["duckduckgo"].always(Fault.server_error(503))
        sim["mojeek"].always(Fault.hang())
        await _cancelled(
            ws,
            2,
            lambda n: (
                len(sim["mojeek"].requests) == n
                and len(sim["duckduckgo"].requests) >= n
                and network.asked["bing.invalid"] >= n
            ),
        )
        marks = await _marks(ws)
    bing = marks["bing"]
    assert bing is not None and bing.kind == "circuit_open" and bing.failures == 2


@pytest.mark.parametrize("chain", [PROVIDERS, ["public"]], ids=["chain", "public"])
async def test_a_cancelled_search_offline_leaves_no_cooldown(chain: list[str]) -> None:
    # Nothing was reached before the caller gave up: no verdict, nothing counted.
    network = _SlowDns("mojeek.invalid")
    async with Simulator(PROVIDERS) as sim, _client(sim, network, providers=chain) as ws:
        await _cancelled(
            ws, 3, lambda n: all(network.asked[f"{p}.invalid"] >= n for p in PROVIDERS)
        )
        marks = await _marks(ws)
        network.online = True
        back = await ws.run("python asyncio")
    assert all(mark is None for mark in marks.values())
    assert back.error is None and back.response.provider == chain[0]


@pytest.mark.parametrize(
    ("chain", "cancelled"),
    [(["public"], True), (["public"], False), (["bing", "mojeek", "duckduckgo"], False)],
    ids=["public cancelled", "public ended", "chain"],
)
async def test_a_provider_that_answered_shows_the_network_works(
    chain: list[str], cancelled: bool
) -> None:
    # DuckDuckGo answered after (or beside) two providers whose names are unknown: those
    # are their own failures, counted whether the search ended or its caller gave up on
    # it first. Two failing alike read as this machine offline, and nothing was counted.
    network = _AskedNetwork()
    network.online = True
    network.unknown |= {"bing.invalid", "mojeek.invalid"}
    async with (
        Simulator([*PROVIDERS, "ecosia"]) as sim,
        _client(sim, network, providers=chain) as ws,
    ):
        if cancelled:
            sim["ecosia"].always(Fault.hang())
        if cancelled:
            await _cancelled(
                ws,
                2,
                lambda n: (
                    len(sim["ecosia"].requests) == n
                    and len(sim["duckduckgo"].requests) >= n
                    and min(network.asked[f"{p}.invalid"] for p in ("bing", "mojeek")) >= n
                ),
            )
        else:
            for _ in range(2):
                assert (await ws.run("python asyncio")).error is None
        marks = await _marks(ws)
    for engine in ("bing", "mojeek"):
        mark = marks[engine]
        assert mark is not None and mark.kind == "circuit_open" and mark.failures == 2


@pytest.mark.parametrize("alone", ["forced", "chain of one"])
async def test_a_provider_alone_whose_own_host_does_not_resolve_is_not_cooled_down(
    alone: str,
) -> None:
    # Its official host (no base URL set) failing in DNS is this machine far more likely.
    async with Simulator(["bing", "duckduckgo"]) as sim:
        routes = {pid: url for pid, url in sim.base_urls().items() if pid != "bing"}
        chain = ["duckduckgo", "bing"] if alone == "forced" else ["bing"]
        async with _client(sim, Unresolvable(), base_urls=routes, providers=chain) as ws:
            params = {"provider": "bing"} if alone == "forced" else {}
            results = [await ws.run("python asyncio", **params) for _ in range(3)]
            marks = await _marks(ws)
    for result in results:
        assert result.error is not None
        assert result.error.startswith(
            "Bing search failed: the connection failed (www.bing.com): the host name"
        )
    assert marks["bing"] is None


@pytest.mark.parametrize("alone", ["excluded", "skipped"])
async def test_a_public_engine_alone_whose_own_host_does_not_resolve_is_not_cooled_down(
    alone: str,
) -> None:
    # Public Web asking Bing alone (DuckDuckGo excluded, or skipped for its breaker) is
    # the provider alone again: Bing and the aggregate cooled down, as a forced Bing did not.
    async with Simulator(["bing", "duckduckgo"]) as sim:
        routes = {pid: url for pid, url in sim.base_urls().items() if pid != "bing"}
        exclude = ["duckduckgo"] if alone == "excluded" else []
        async with _client(
            sim, Unresolvable(), base_urls=routes, providers=["public"], exclude=exclude
        ) as ws:
            if alone == "skipped":
                sim["duckduckgo"].always(Fault.server_error(503))
                for _ in range(2):
                    await ws.run("python asyncio", provider="duckduckgo")
            results = [await ws.run("python asyncio") for _ in range(3)]
            marks = await _marks(ws)
    for result in results:
        assert result.error is not None
        assert result.error.startswith("All public engines failed: ")
        # Not the offline hint: one host alone; the one that allows for a wrong host.
        assert result.error.endswith(f"bing: host not found. {page_unreached_hint('dns')}")
    assert marks["bing"] is None and marks["public"] is None
    assert (marks["duckduckgo"] is not None) is (alone == "skipped")


async def test_an_engine_beside_one_cut_off_was_not_asked_alone() -> None:
    # DuckDuckGo hung until Public Web stopped waiting: Bing was not asked alone, and its
    # official name failing beside an engine that may have reached its host still counts.
    async with Simulator(["bing", "duckduckgo"]) as sim:
        sim["duckduckgo"].always(Fault.hang())
        routes = {pid: url for pid, url in sim.base_urls().items() if pid != "bing"}
        async with _client(
            sim, Unresolvable(), base_urls=routes, providers=["public"], timeout_seconds=1.0
        ) as ws:
            for _ in range(2):
                assert (await ws.run("python asyncio")).error is not None
            marks = await _marks(ws)
    bing = marks["bing"]
    assert bing is not None and bing.kind == "circuit_open" and bing.failures == 2


@pytest.mark.parametrize("chain", [["duckduckgo", "bing"], ["public"]], ids=["forced", "public"])
async def test_a_user_set_base_url_asked_alone_that_does_not_resolve_still_cools_down(
    chain: list[str],
) -> None:
    # A base URL the user set may be mistyped: the cooldown is how that shows (forced, it
    # is asked each time all the same, and each failure counts; Public Web skips it once
    # its breaker is open).
    forced = chain[0] != "public"
    params = {"provider": "bing"} if forced else {}
    exclude = [] if forced else ["duckduckgo"]
    async with (
        Simulator(["bing", "duckduckgo"]) as sim,
        _client(sim, Unresolvable(), providers=chain, exclude=exclude) as ws,
    ):
        for _ in range(3):
            await ws.run("python asyncio", **params)
        marks = await _marks(ws)
    bing = marks["bing"]
    assert bing is not None and bing.kind == "circuit_open"
    assert bing.failures == (3 if forced else 2)


async def _used(ws: WebSearch) -> dict[str, int]:
    """Each provider's requests counted this month, as ``websearch providers`` shows them."""
    return {row.id: row.used_this_month for row in await ws.provider_status()}


@pytest.mark.parametrize("chain", [["bing", "duckduckgo"], ["public"]], ids=["chain", "public"])
@pytest.mark.parametrize("down", ["dns", "refused"])
async def test_a_request_that_reached_no_host_is_not_counted_as_used(
    chain: list[str], down: str
) -> None:
    # Offline, every engine read "used 1" per search in the providers table, although no
    # request left the machine: a free tier's monthly count spent on nothing.
    network = Unresolvable() if down == "dns" else PartlyDownNetwork()
    async with (
        Simulator(["bing", "duckduckgo"]) as sim,
        _client(sim, network, providers=chain) as ws,
    ):
        for _ in range(2):
            assert (await ws.run("python asyncio")).error is not None
        used = await _used(ws)
    assert used["bing"] == 0
    assert used["duckduckgo"] == 0


async def test_a_request_the_provider_answered_with_an_error_is_counted() -> None:
    # Guard: a reply, even a 503, means the request reached the provider and counts.
    network = SwitchableNetwork()
    network.online = True
    async with Simulator(["bing", "duckduckgo"]) as sim:
        sim["bing"].always(Fault.server_error(503))
        async with _client(sim, network, providers=["bing", "duckduckgo"]) as ws:
            assert (await ws.run("python asyncio")).error is None
            used = await _used(ws)
    assert used == {**used, "bing": 1, "duckduckgo": 1}


async def test_a_public_engine_alone_counts_once_a_provider_after_it_answers() -> None:
    # Public Web asks Bing alone, whose official name does not resolve: alone, that is this
    # machine more likely, but SearXNG after it answers, so the network works and Bing's
    # failure is Bing's. The fan-out used to decide before the chain knew, and left Bing
    # unmarked while the aggregate was cooled down for it.
    async with Simulator(["bing", "duckduckgo", "searxng"]) as sim:
        routes = {pid: url for pid, url in sim.base_urls().items() if pid != "bing"}
        async with _client(
            sim,
            Unresolvable(),
            base_urls=routes,
            providers=["public", "searxng"],
            exclude=["duckduckgo"],
        ) as ws:
            answers = [await ws.run("python asyncio") for _ in range(2)]
            marks = await _marks(ws)
    assert [result.response.provider for result in answers] == ["searxng", "searxng"]
    for engine in ("bing", "public"):
        mark = marks[engine]
        assert mark is not None and mark.kind == "circuit_open" and mark.failures == 2
