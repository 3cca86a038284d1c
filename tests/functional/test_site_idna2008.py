"""An internationalised site is sent and compared in the one form its requests' hosts take.

The domain filters encoded a name with the stdlib's IDNA 2003 codec, which maps ``ß`` to
``ss``: ``include_domains=["straße.de"]`` asked engines for ``site:strasse.de`` (another
registered domain), kept its results and dropped those of ``xn--strae-oqa.de``, the form
IDNA 2008 gives and yarl writes into every request URL (a base URL on ``straße.de`` is
asked for at ``xn--strae-oqa.de``). One request then carried the same name in two forms.
The filters, and the aggregate mode's same-page key, now use the IDNA 2008 form.
"""

import socket
from collections.abc import AsyncIterator

import aiohttp
import aiohttp.abc
import pytest
from yarl import URL

from tests.functional._sim_helpers import SwitchableNetwork, sim_client
from websearch_core import WebSearch
from websearch_core.aggregate import canonical_key
from websearch_core.models import SearchParams
from websearch_core.testing import Simulator
from websearch_core.testing.simulator import SimResult

_RESULTS = [
    SimResult("Unicode host", "https://straße.de/a", "One."),
    SimResult("IDNA 2008 host", "https://www.xn--strae-oqa.de/b", "Two."),
    SimResult("Another domain", "https://strasse.de/c", "Three."),
]


class _NamesAsked(SwitchableNetwork):
    """A network on which every name reaches the simulator, keeping the names looked up."""

    def __init__(self) -> None:
        super().__init__()
        self.online = True
        self.asked: list[str] = []

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[aiohttp.abc.ResolveResult]:
        self.asked.append(host)
        return await super().resolve(host, port, family)


@pytest.fixture
async def sim() -> AsyncIterator[Simulator]:
    async with Simulator(["brave"]) as simulator:
        simulator["brave"].honour_operators = False  # every result served: ours to filter
        simulator["brave"].results = list(_RESULTS)
        yield simulator


@pytest.mark.parametrize("name", ["straße.de", "Straße.DE.", "https://www.straße.de/"])
def test_a_sharp_s_is_kept_in_the_form_a_request_carries(name: str) -> None:
    (domain,) = SearchParams(query="q", include_domains=[name]).include_domains
    assert domain == URL.build(scheme="https", host="straße.de").raw_host == "xn--strae-oqa.de"


@pytest.mark.parametrize("name", ["bücher.de", "münchen.例え.jp", "☃.net"])
def test_names_both_idna_versions_encode_alike_read_as_before(name: str) -> None:
    """Guard: where IDNA 2003 and 2008 agree (or 2008 refuses, ``☃``), the form is unchanged."""
    (domain,) = SearchParams(query="q", include_domains=[name]).include_domains
    assert domain == URL.build(scheme="https", host=name).raw_host


async def test_a_sharp_s_site_is_searched_and_kept_as_itself(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        given = await ws.search("buch", provider="brave", include_domains=["straße.de"])
        typed = await ws.search("buch site:straße.de", provider="brave")
    sent = [request.query_dict()["q"] for request in sim["brave"].requests]
    assert sent == ["buch site:xn--strae-oqa.de"] * 2
    for found in (given, typed):
        assert [source.title for source in found.sources] == ["Unicode host", "IDNA 2008 host"]


async def test_a_sharp_s_site_excluded_drops_itself_not_the_other_domain(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        found = await ws.search("buch", provider="brave", exclude_domains=["straße.de"])
    assert [source.title for source in found.sources] == ["Another domain"]


async def test_one_request_names_a_sharp_s_host_in_one_form(sim: Simulator) -> None:
    network = _NamesAsked()
    base_url = sim["brave"].base_url.replace("127.0.0.1", "straße.de")
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(resolver=network)) as session:
        settings = sim.settings(base_urls={"brave": base_url}, providers=["brave"], cache=False)
        async with WebSearch(settings, session=session, api_keys=sim.api_keys()) as ws:
            await ws.search("buch", provider="brave", include_domains=["straße.de"])
    (request,) = sim["brave"].requests
    host = request.headers["Host"].rsplit(":", 1)[0]
    assert network.asked == [host]
    assert request.query_dict()["q"] == f"buch site:{host}"


def test_the_aggregate_same_page_key_tells_a_sharp_s_from_ss() -> None:
    assert canonical_key("https://straße.de/a") == canonical_key("https://xn--strae-oqa.de/a")
    assert canonical_key("https://straße.de/a") != canonical_key("https://strasse.de/a")
