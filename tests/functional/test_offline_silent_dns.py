"""A DNS server that never answers is this machine offline, not every provider slow.

With ``timeout_seconds`` shorter than the system resolver's own give-up (about 10 s), every
provider's request ran out of time during its lookup and read as a plain timeout: each
search counted one failure against every provider, and two searches opened every breaker,
so the first search once the network was back asked nobody. The client's own session now
knows which names it is still looking up (``websearch_core.lookups``): such a timeout is a
host name not resolved, which the offline rule decides on, and the hint says what to check.
A provider slow to answer a name that did resolve still times out, and still counts.
"""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from tests.functional._sim_helpers import SilentNameServer, public_web_within
from websearch_core import WebSearch, lookups
from websearch_core.format import OFFLINE_HINT
from websearch_core.testing import Fault, Simulator

PROVIDERS = ["bing", "duckduckgo"]
TIMEOUT = 0.5
"""Far shorter than a resolver's give-up, as a user's ``timeout_seconds`` often is."""


@asynccontextmanager
async def _own_client(
    sim: Simulator,
    network: SilentNameServer,
    monkeypatch: pytest.MonkeyPatch,
    chain: list[str] = PROVIDERS,
    **settings: Any,
) -> AsyncIterator[WebSearch]:
    """A client asking ``chain`` with a session of its own, whose resolver asks ``network``.

    Each simulated provider's base URL names its host, so only a name server that
    answers leads to it.
    """
    monkeypatch.setattr(lookups, "system_resolver", lambda: network)
    routes = {
        pid: sim[pid].base_url.replace("127.0.0.1", f"{pid}.invalid") for pid in sim.providers
    }
    values: dict[str, Any] = {"cache": False, "timeout_seconds": TIMEOUT, **settings}
    async with WebSearch(sim.settings(base_urls=routes, providers=chain, **values)) as ws:
        yield ws


async def test_a_silent_name_server_opens_no_breaker(monkeypatch: pytest.MonkeyPatch) -> None:
    network = SilentNameServer()
    async with Simulator(PROVIDERS) as sim, _own_client(sim, network, monkeypatch) as ws:
        offline = [await ws.run("python asyncio") for _ in range(3)]
        network.come_back()
        back = await ws.run("python asyncio")
    unanswered = f"the host name could not be resolved: no answer from DNS within {TIMEOUT:g}s"
    for result in offline:
        assert result.error is not None
        assert unanswered in result.error
        assert result.error.endswith(OFFLINE_HINT)
        assert "skipped" not in result.error  # no provider (or engine) was cooled down
    assert back.error is None
    assert back.response.provider == PROVIDERS[0]


async def test_a_provider_slow_to_answer_a_resolved_name_still_times_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    network = SilentNameServer()
    network.come_back()
    async with Simulator(PROVIDERS) as sim, _own_client(sim, network, monkeypatch) as ws:
        sim["bing"].always(Fault.hang())
        answers = [await ws.run("python asyncio") for _ in range(2)]
        status = {row.id: row for row in await ws.provider_status()}
    assert [result.response.provider for result in answers] == ["duckduckgo"] * 2
    attempt = answers[0].response.attempts[0]
    assert attempt.detail == f"Bing search timed out after {TIMEOUT:g}s"
    mark = status["bing"].mark
    assert mark is not None and mark.kind == "circuit_open"
    assert mark.failures == 2


async def test_providers_the_deadline_left_untried_do_not_make_the_machine_online(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Two names with no answer take the whole deadline, so the third provider is not tried.
    # Being left untried sent nothing and shows nothing of the network: before, it read as
    # a provider reached, the two were counted, and two searches opened both breakers.
    network = SilentNameServer()
    chain = [*PROVIDERS, "mojeek"]
    async with (
        Simulator(chain) as sim,
        _own_client(sim, network, monkeypatch, chain, deadline_seconds=2 * TIMEOUT) as ws,
    ):
        offline = [await ws.run("python asyncio") for _ in range(2)]
        status = {row.id: row for row in await ws.provider_status()}
    for result in offline:
        assert result.error is not None
        assert "not tried: mojeek" in result.error
        assert result.error.endswith(OFFLINE_HINT)
    assert [status[pid].mark for pid in chain] == [None, None, None]


async def test_public_web_cut_off_waiting_for_dns_is_offline_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Public Web stops waiting for its engines at its own deadline, before their requests
    # time out: cut off, they read as slow engines, so the provider after Public Web (whose
    # name had no answer either) seemed to fail on a working network, and was cooled down.
    network = SilentNameServer()
    engines = [*PROVIDERS, "mojeek"]
    chain = ["public", "mojeek"]
    async with Simulator(engines) as sim, _own_client(sim, network, monkeypatch, chain) as ws:
        offline = [await ws.run("python asyncio") for _ in range(3)]
        status = {row.id: row for row in await ws.provider_status()}
        network.come_back()
        back = await ws.run("python asyncio")
    for result in offline:
        assert result.error is not None
        assert result.error.startswith(
            "All web search providers failed: public: All public engines failed: "
            "duckduckgo, bing, mojeek: host not found; mojeek: "
        )
        assert result.error.endswith(OFFLINE_HINT)
    assert [status[pid].mark for pid in [*chain, *PROVIDERS]] == [None] * 4
    assert back.error is None
    assert back.response.provider == "public"


async def test_engines_cut_off_waiting_for_dns_use_none_of_the_months_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Public Web's own deadline ends before the engines' timeouts: cut off while their host
    # names had no answer, they sent nothing, yet each search counted one request per engine
    # in the month's usage (two searches: 2 each, a budget spent on a machine offline).
    network = SilentNameServer()
    engines = [*PROVIDERS, "mojeek"]
    public_web_within(monkeypatch, engines, TIMEOUT)
    budgets = {pid: "100/month" for pid in engines}
    async with (
        Simulator(engines) as sim,
        _own_client(
            sim, network, monkeypatch, ["public"], timeout_seconds=4 * TIMEOUT, budget=budgets
        ) as ws,
    ):
        offline = [await ws.run("python asyncio") for _ in range(2)]
        used = {row.id: row.used_this_month for row in await ws.provider_status()}
    for result in offline:
        assert result.error is not None
        assert result.error.endswith(OFFLINE_HINT)
    assert [used[pid] for pid in engines] == [0, 0, 0]


async def test_a_deadline_passed_during_lookups_says_the_deadline_ended_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # "no answer from DNS within 0.5s" read as if 0.5 s were the provider's own timeout,
    # when the search's deadline was what ran out.
    network = SilentNameServer()
    async with (
        Simulator(PROVIDERS) as sim,
        _own_client(
            sim, network, monkeypatch, timeout_seconds=8 * TIMEOUT, deadline_seconds=TIMEOUT
        ) as ws,
    ):
        result = await ws.run("python asyncio")
    assert result.error is not None
    assert (
        "Bing search failed: the connection failed "
        f"(bing.invalid:{sim['bing'].base_url.rpartition(':')[2]}): "
        f"the host name could not be resolved: no answer from DNS within {TIMEOUT:g}s, "
        f"the time left of the {TIMEOUT:g}s deadline"
    ) in result.error
