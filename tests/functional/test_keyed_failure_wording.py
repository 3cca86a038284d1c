"""An API provider words a connection that failed as every key-free engine does.

The engines say ``<Engine> search failed: the connection failed (<host>): <cause>`` (the
reference's stem, firstusers19); the API providers said the transport's ``<Label>
connection failed (<host>): <cause>``, so a search with a key, offline, listed one cause
in two wordings. Every provider the simulator serves that is not a key-free engine or
the aggregate is walked, found from the registry, so a new one is covered unnamed.
"""

import aiohttp
import pytest

from tests.functional._sim_helpers import Unresolvable, codex_sign_in
from tests.refused_port import refused_port
from websearch_core import WebSearch
from websearch_core.format import OFFLINE_HINT
from websearch_core.providers import get_provider
from websearch_core.providers._html_engine import HtmlEngineProvider
from websearch_core.testing import Simulator
from websearch_core.testing.simulator import PROTOCOLS

KEYED = [
    pid
    for pid in PROTOCOLS
    if pid != "public" and not isinstance(get_provider(pid), HtmlEngineProvider)
]
REFUSED = "could not connect (ClientConnectorError)"
UNRESOLVED = "the host name could not be resolved (ClientConnectorDNSError)"


def _one_wording(pid: str, host: str, cause: str) -> str:
    # Codex words its transport failures as the reference words Codex's (firstusers25).
    stem = (
        "Codex request failed"
        if pid == "codex"
        else f"{get_provider(pid).info.label} search failed"
    )
    return f"{stem}: the connection failed ({host}): {cause}"


def test_the_walk_covers_the_api_providers() -> None:
    """A guard: the list below is the registry's, with Brave and Tavily in it."""
    assert {"brave", "tavily", "exa", "kagi", "serper"} <= set(KEYED)
    assert not {"duckduckgo", "bing", "public"} & set(KEYED)


@pytest.mark.parametrize("pid", KEYED)
async def test_each_api_provider_refused_at_loopback_says_the_engines_wording(pid: str) -> None:
    """Failed before: ``<Label> connection failed (127.0.0.1:<port>): could not connect``."""
    host = f"127.0.0.1:{refused_port()}"
    async with Simulator([pid]) as sim:
        if pid == "codex":
            codex_sign_in(sim)  # it reads no key
        settings = sim.settings(base_urls={pid: f"http://{host}"}, cache=False)
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            result = await ws.run("python asyncio", provider=pid)
    assert result.error is not None
    said = {failure.provider: failure.error for failure in result.failures}
    assert said[pid].startswith(_one_wording(pid, host, REFUSED)), said[pid]


async def test_a_keyed_chain_offline_lists_one_wording_and_the_offline_hint() -> None:
    """Failed before: Brave's and Tavily's rows said ``connection failed`` alone; the
    closing offline hint stood (a guard within)."""
    chain = ["brave", "tavily", "duckduckgo", "bing"]
    connector = aiohttp.TCPConnector(resolver=Unresolvable())
    async with Simulator(chain) as sim, aiohttp.ClientSession(connector=connector) as session:
        routes = {pid: f"http://{pid}.invalid" for pid in chain}
        settings = sim.settings(base_urls=routes, providers=chain, cache=False)
        async with WebSearch(settings, api_keys=sim.api_keys(), session=session) as ws:
            result = await ws.run("python asyncio")
    said = {failure.provider: failure.error for failure in result.failures}
    assert list(said) == chain
    for pid in chain:
        assert said[pid] == _one_wording(pid, f"{pid}.invalid", UNRESOLVED), said[pid]
    assert result.error is not None and result.error.endswith(OFFLINE_HINT)
