"""Every key-free engine words a fetch that failed alike, and keeps what the hints read.

The reference gives Ecosia, Google and Mojeek ``<Engine> search failed: <msg>``; DuckDuckGo,
Bing, Yahoo and Startpage said the transport's ``<Engine> connection failed (<host>): ...``,
so a first search offline printed seven lines in two wordings for one cause. And the three
that reworded it made a new error of the same class from the text alone, dropping what the
offline hints read: refused at a loopback address, they read as a blocked network. Each
engine is found from the registry (every :class:`HtmlEngineProvider`), so a new one is
covered without being named here.
"""

import aiohttp
import pytest

from tests.functional._sim_helpers import Unresolvable
from tests.refused_port import refused_port
from websearch_core import WebSearch
from websearch_core.format import LOOPBACK_HINT, OFFLINE_HINT
from websearch_core.providers import get_provider, provider_ids
from websearch_core.providers._html_engine import HtmlEngineProvider
from websearch_core.testing import Simulator

ENGINES = [pid for pid in provider_ids() if isinstance(get_provider(pid), HtmlEngineProvider)]
REFUSED = "could not connect (ClientConnectorError)"
UNRESOLVED = "the host name could not be resolved (ClientConnectorDNSError)"
BROWSER = {"google": "Google browser"}
"""An engine whose prefix names more than its label (the reference's Google text)."""
NOT_STARTED = (", so headless Chromium was not tried", ", and headless Chromium is not installed")
"""What Google's text ends with, as Chromium is installed here or not."""


def _said_as_one(pid: str, said: str, host: str, cause: str) -> bool:
    """Whether ``said`` is ``<Engine> search failed: the connection failed (<host>): <cause>``."""
    label = BROWSER.get(pid, get_provider(pid).info.label)
    text = f"{label} search failed: the connection failed ({host}): {cause}"
    if pid not in BROWSER:
        return said == text
    return said in {f"{text}{clause}" for clause in NOT_STARTED}


def test_the_engines_are_the_seven_free_ones() -> None:
    """A guard: the list the tests below walk is the registry's, not empty."""
    assert sorted(ENGINES) == [
        "bing",
        "duckduckgo",
        "ecosia",
        "google",
        "mojeek",
        "startpage",
        "yahoo",
    ]


async def test_every_engine_refused_at_loopback_says_one_wording() -> None:
    """Failed before: four said ``<Engine> connection failed``, and the hint was the
    blocked network's, the three rewording engines having dropped ``loopback``."""
    host = f"127.0.0.1:{refused_port()}"
    async with Simulator(ENGINES) as sim:
        routes = {pid: f"http://{host}" for pid in ENGINES}
        settings = sim.settings(base_urls=routes, providers=ENGINES, cache=False)
        async with WebSearch(settings) as ws:
            result = await ws.run("python asyncio")
    said = {failure.provider: failure.error for failure in result.failures}
    assert list(said) == ENGINES
    for pid in ENGINES:
        assert _said_as_one(pid, said[pid].removesuffix("."), host, REFUSED), said[pid]
    assert result.error is not None and result.error.endswith(LOOPBACK_HINT)


@pytest.mark.parametrize("pid", ENGINES)
async def test_each_engine_unresolved_alone_says_one_wording(pid: str) -> None:
    """Failed before for the four plain engines (``<Engine> connection failed``)."""
    connector = aiohttp.TCPConnector(resolver=Unresolvable())
    async with Simulator([pid]) as sim, aiohttp.ClientSession(connector=connector) as session:
        settings = sim.settings(base_urls={pid: f"http://{pid}.invalid"}, cache=False)
        async with WebSearch(settings, session=session) as ws:
            result = await ws.run("python asyncio", provider=pid)
    assert result.error is not None
    alone = result.error.partition(". ")[0]  # then the one-host hint
    assert _said_as_one(pid, alone, f"{pid}.invalid", UNRESOLVED), result.error
    assert not sim[pid].requests


async def test_every_engine_unresolved_ends_with_the_offline_hint() -> None:
    """A guard: the hint stood before, with the two wordings."""
    connector = aiohttp.TCPConnector(resolver=Unresolvable())
    async with Simulator(ENGINES) as sim, aiohttp.ClientSession(connector=connector) as session:
        routes = {pid: f"http://{pid}.invalid" for pid in ENGINES}
        settings = sim.settings(base_urls=routes, providers=ENGINES, cache=False)
        async with WebSearch(settings, session=session) as ws:
            result = await ws.run("python asyncio")
    assert result.error is not None and result.error.endswith(OFFLINE_HINT)


async def test_the_browser_engines_refused_at_loopback_keep_the_loopback_hint() -> None:
    """Failed before: rewording dropped ``loopback``, so the blocked network's hint came."""
    browser_engines = [pid for pid in ENGINES if get_provider(pid).escalates_to_browser]
    assert browser_engines == ["google", "ecosia", "mojeek"]
    closed = f"http://127.0.0.1:{refused_port()}"
    async with Simulator(browser_engines) as sim:
        routes = {pid: closed for pid in browser_engines}
        settings = sim.settings(base_urls=routes, providers=browser_engines, cache=False)
        async with WebSearch(settings) as ws:
            result = await ws.run("python asyncio")
    assert result.error is not None and result.error.endswith(LOOPBACK_HINT), result.error
