"""Firecrawl end to end through ``WebSearch`` against the loopback simulator.

Every call forces ``provider="firecrawl"`` so only Firecrawl runs, whatever else is registered.
"""

import hashlib
import uuid
from datetime import date
from typing import Any

import pytest

from tests.functional._sim_helpers import fault_failure, sim_client, simulator_fixture
from websearch_core import WebSearch
from websearch_core.errors import (
    AllProvidersFailedError,
    ConfigurationError,
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.providers import SEARCH_PROVIDER_ORDER
from websearch_core.testing import Fault, RecordedRequest, SimResult, Simulator
from websearch_core.testing.protocols.firecrawl import FirecrawlProtocol

QUERY = "web scraping api"


@pytest.fixture(autouse=True)
def _no_base_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FIRECRAWL_BASE_URL", raising=False)
    monkeypatch.delenv("FIRECRAWL_API_URL", raising=False)


sim = simulator_fixture("firecrawl")


OTHERS = tuple(pid for pid in SEARCH_PROVIDER_ORDER if pid != "firecrawl")
"""Excluded where the auto chain runs, so no other provider can reach the network."""


async def _failure(sim: Simulator, fault: Fault, **overrides: Any) -> SearchProviderError:
    return await fault_failure(sim, "firecrawl", QUERY, fault, overrides)


def _request_id(query: str) -> str:
    return str(uuid.UUID(bytes=hashlib.sha256(query.encode()).digest()[:16], version=4))


# --- request shape and success ----------------------------------------------------------------


async def test_request_shape_and_parsed_results(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="firecrawl", limit=3)

    (request,) = sim["firecrawl"].requests
    assert request.method == "POST"
    assert request.path == "/v2/search"
    assert request.query == ()
    assert request.header("Authorization") == "Bearer sim-key-firecrawl"
    assert request.header("Content-Type") == "application/json"
    assert request.json() == {"query": QUERY, "limit": 3, "sources": [{"type": "web"}]}

    assert response.provider == "firecrawl"
    assert response.auth_mode == "api_key"
    assert response.request_id == _request_id(QUERY)
    assert [(s.title, s.url, s.snippet) for s in response.sources] == [
        (
            f"{QUERY} result 1",
            "https://site1.example.org/web-scraping-api",
            f"Snippet 1 about {QUERY}.",
        ),
        (
            f"{QUERY} result 2",
            "https://site2.example.org/web-scraping-api",
            f"Snippet 2 about {QUERY}.",
        ),
        (
            f"{QUERY} result 3",
            "https://site3.example.org/web-scraping-api",
            f"Snippet 3 about {QUERY}.",
        ),
    ]
    assert all(s.published_date is None for s in response.sources)
    assert [(a.provider, a.outcome) for a in response.attempts] == [("firecrawl", "success")]


async def test_tool_text_lists_the_sources(sim: Simulator) -> None:
    sim["firecrawl"].results = [
        SimResult(title="Docs", url="https://docs.firecrawl.dev/", snippet="Search the web."),
    ]
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="firecrawl")
    assert result.text == "[1] Docs\n    https://docs.firecrawl.dev/\n    Search the web."


async def test_limit_defaults_to_10_and_caps_at_100(sim: Simulator) -> None:
    sim["firecrawl"].results = [
        SimResult(title=f"r{i}", url=f"https://r{i}.example.org/", snippet="s") for i in range(120)
    ]
    async with sim_client(sim) as ws:
        default = await ws.search(QUERY, provider="firecrawl")
        capped = await ws.search(QUERY, provider="firecrawl", num_search_results=100, limit=2)
        small = await ws.search(QUERY, provider="firecrawl", limit=1)
    assert [r.json()["limit"] for r in sim["firecrawl"].requests] == [10, 100, 1]
    assert (len(default.sources), len(capped.sources), len(small.sources)) == (10, 100, 1)


async def test_time_filters_on_the_wire(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        await ws.search(QUERY, provider="firecrawl", recency="year")
        await ws.search(
            QUERY,
            provider="firecrawl",
            recency="day",
            date_after=date(2025, 2, 1),
            date_before=date(2025, 2, 28),
        )
    first, second = (r.json() for r in sim["firecrawl"].requests)
    assert first["tbs"] == "qdr:y"
    assert second["tbs"] == "cdr:1,cd_min:02/01/2025,cd_max:02/28/2025"


async def test_country_goes_upper_case_and_is_recorded_native(sim: Simulator) -> None:
    # Firecrawl's v2 /search takes country as an ISO 3166-1 alpha-2 code (default "US").
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="firecrawl", country="de")
    assert sim["firecrawl"].requests[0].json()["country"] == "DE"
    assert [(f.name, f.applied) for f in response.filters] == [("country", ("native",))]


ON_SITE = SimResult("Guide", "https://docs.example.com/guide", "The guide.")
OFF_SITE = SimResult("Post", "https://blog.example.net/post", "A post.")


async def test_included_domains_go_as_include_domains_and_are_recorded_native(
    sim: Simulator,
) -> None:
    # Firecrawl's v2 schema and SDK: includeDomains, bare hostnames. Before, the domains went
    # only as site: in the query, recorded "query + post".
    sim["firecrawl"].results = [OFF_SITE, ON_SITE]
    async with sim_client(sim) as ws:
        response = await ws.search(
            "guide site:docs.example.com", provider="firecrawl", include_domains=["example.com"]
        )
    body = sim["firecrawl"].requests[0].json()
    assert body["includeDomains"] == ["example.com", "docs.example.com"]
    assert body["query"] == "guide"
    assert [s.url for s in response.sources] == [ON_SITE.url]
    assert [(f.name, f.applied) for f in response.filters] == [
        ("include_domains", ("native", "post")),
        ("include_domains", ("native", "post")),
    ]


async def test_with_both_lists_the_excluded_go_as_site_operators(sim: Simulator) -> None:
    # The server refuses includeDomains with excludeDomains; the excluded go as -site:.
    sim["firecrawl"].results = [ON_SITE, OFF_SITE]
    async with sim_client(sim) as ws:
        response = await ws.search(
            "guide",
            provider="firecrawl",
            include_domains=["example.com", "example.net"],
            exclude_domains=["blog.example.net"],
        )
    body = sim["firecrawl"].requests[0].json()
    assert body["includeDomains"] == ["example.com", "example.net"]
    assert "excludeDomains" not in body
    assert body["query"] == "guide -site:blog.example.net"
    assert [s.url for s in response.sources] == [ON_SITE.url]
    applied = {f.name: f.applied for f in response.filters}
    assert applied == {
        "include_domains": ("native", "post"),
        "exclude_domains": ("query", "post"),
    }


async def test_a_self_hosted_v1_base_gets_the_domains_in_the_query(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Guard (passes before and after): a /v1 base keeps the lists where they always went.
    monkeypatch.setenv("FIRECRAWL_API_URL", sim["firecrawl"].base_url + "/v1")
    sim["firecrawl"].results = [OFF_SITE, ON_SITE]
    async with WebSearch(sim.settings(base_urls={}), api_keys={"firecrawl": "self-key"}) as ws:
        response = await ws.search("guide", provider="firecrawl", exclude_domains=["example.net"])
    body = sim["firecrawl"].requests[0].json()
    assert body["query"] == "guide -site:example.net"
    assert "excludeDomains" not in body
    assert [s.url for s in response.sources] == [ON_SITE.url]


async def test_explicit_selection_without_a_key_runs_keyless(sim: Simulator) -> None:
    async with WebSearch(sim.settings()) as ws:
        response = await ws.search(QUERY, provider="firecrawl", limit=2)
    (request,) = sim["firecrawl"].requests
    assert request.header("Authorization") is None
    assert response.auth_mode == "keyless"
    assert len(response.sources) == 2


async def test_preferred_provider_without_a_key_runs_keyless(sim: Simulator) -> None:
    async with WebSearch(sim.settings(provider="firecrawl", exclude=OTHERS)) as ws:
        response = await ws.search(QUERY)
    assert response.provider == "firecrawl"
    assert response.auth_mode == "keyless"


async def test_the_auto_chain_skips_firecrawl_without_key_or_base(sim: Simulator) -> None:
    async with WebSearch(sim.settings(exclude=OTHERS)) as ws:
        result = await ws.run(QUERY)
    assert sim["firecrawl"].requests == []
    assert result.text == "Error: No web search provider configured."


async def test_self_hosted_base_url_from_the_environment(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FIRECRAWL_BASE_URL", sim["firecrawl"].base_url + "/firecrawl/")
    async with WebSearch(sim.settings(base_urls={}, exclude=OTHERS)) as ws:
        response = await ws.run(QUERY)  # the auto chain: a base alone makes it available
    assert response.response.provider == "firecrawl"
    assert response.response.auth_mode == "keyless"
    (request,) = sim["firecrawl"].requests
    assert request.path == "/firecrawl/v2/search"


async def test_self_hosted_v1_base_gets_the_v1_shape(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FIRECRAWL_API_URL", sim["firecrawl"].base_url + "/v1")
    async with WebSearch(sim.settings(base_urls={}), api_keys={"firecrawl": "self-key"}) as ws:
        response = await ws.search(QUERY, provider="firecrawl", limit=4)
    (request,) = sim["firecrawl"].requests
    assert request.path == "/v1/search"
    assert request.header("Authorization") == "Bearer self-key"
    assert response.request_id is None  # the v1 shape carries no id
    assert [s.title for s in response.sources] == [f"{QUERY} result {i}" for i in range(1, 5)]


async def test_an_invalid_base_url_fails_before_any_request(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FIRECRAWL_BASE_URL", "http://user:secret@127.0.0.1:1/")
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="firecrawl")
        with pytest.raises(AllProvidersFailedError) as caught:
            await ws.search(QUERY, provider="firecrawl")
    assert result.text == "Error: Invalid Firecrawl base URL: URL credentials are not allowed"
    assert isinstance(caught.value.failures[0], ConfigurationError | SearchProviderError)
    assert sim["firecrawl"].requests == []


async def test_no_results_is_an_empty_response_error(sim: Simulator) -> None:
    sim["firecrawl"].results = []
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="firecrawl")
    assert result.text == "Error: Firecrawl returned no renderable search content."


# --- faults -----------------------------------------------------------------------------------


async def test_malformed_body(sim: Simulator) -> None:
    failure = await _failure(sim, Fault.malformed())
    assert isinstance(failure, ResponseParseError)
    assert failure.message.startswith("Firecrawl API returned an unexpected response shape")


# --- the protocol itself ----------------------------------------------------------------------


def _recorded(body: bytes, headers: dict[str, str] | None = None) -> RecordedRequest:
    return RecordedRequest(
        method="POST", path="/v2/search", query=(), headers=headers or {}, body=body
    )


def test_the_protocol_refuses_a_malformed_bearer_and_a_bad_limit() -> None:
    protocol = FirecrawlProtocol()
    bad_auth = protocol.answer(_recorded(b'{"query": "x"}', {"Authorization": "Basic x"}), [])
    assert bad_auth.status == 401
    bad_limit = protocol.answer(_recorded(b'{"query": "x", "limit": 101}'), [])
    assert bad_limit.status == 400
    no_query = protocol.answer(_recorded(b'{"limit": 5}'), [])
    assert no_query.status == 400
    bad_country = protocol.answer(_recorded(b'{"query": "x", "country": "Germany"}'), [])
    assert bad_country.status == 400


@pytest.mark.parametrize(
    "lists",
    [
        b'"includeDomains": ["a.com"], "excludeDomains": ["b.com"]',
        b'"includeDomains": ["https://a.com"]',
        b'"excludeDomains": ["a.com/path"]',
        b'"includeDomains": "a.com"',
    ],
)
def test_the_protocol_refuses_domain_lists_the_v2_schema_refuses(lists: bytes) -> None:
    response = FirecrawlProtocol().answer(_recorded(b'{"query": "x", ' + lists + b"}"), [])
    assert response.status == 400
