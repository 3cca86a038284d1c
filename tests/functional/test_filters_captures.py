"""Local filter checks on real captured answers, served by the simulator as they came.

For each provider with a captured one-request answer naming several sites (the Exa,
Parallel and TinyFish captures name one, Perplexity's none; Z.AI's search is an MCP
session), the capture is served twice: once unfiltered, then under a filter. Whatever the
upstream sent, what reaches the caller must satisfy the filter, and a domain that was in
the answer must survive its own ``site:``.
"""

from collections.abc import AsyncIterator
from urllib.parse import urlsplit

import pytest

from tests.conftest import read_capture
from tests.functional._sim_helpers import sim_client
from websearch_core.models import SearchResponse
from websearch_core.testing import Fault, Simulator

JSON = {"Content-Type": "application/json"}
HTML = {"Content-Type": "text/html; charset=utf-8"}
CAPTURES = {
    "brave": ("brave/web_search_laravel_2024.json", JSON),
    "tavily": ("tavily/search_basic_pydantic_ai.json", JSON),
    "firecrawl": ("firecrawl/v2_search_firecrawl_with_markdown.json", JSON),
    "jina": ("jina/s_jina_ai_search_doc_example.json", JSON),
    "kagi": ("kagi/v0_search_doc_example_steve_jobs_2024.json", JSON),
    "searxng": ("searxng/search_format_json_espresso_2026.json", JSON),
    "serper": ("serper/search_amazon_knowledge_graph_2023.json", JSON),
    "xai": ("xai/responses_web_search_tool.json", JSON),
    "duckduckgo": ("duckduckgo/html_results_eino_2025.html", HTML),
    "bing": ("bing/serp_javascript_tutorial_http_2026.html", HTML),
    "yahoo": ("yahoo/serp_javascript_tutorial_2026.html", HTML),
    "mojeek": ("mojeek/serp_javascript_tutorial_2026.html", HTML),
    "ecosia": ("ecosia/serp_javascript_tutorial_2026.html", HTML),
}


def _host(url: str) -> str:
    return (urlsplit(url).hostname or "").removeprefix("www.")


def _on(host: str, domain: str) -> bool:
    return host == domain or host.endswith(f".{domain}")


@pytest.fixture
async def sim(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Simulator]:
    monkeypatch.setenv("WEBSEARCH_BROWSER", "off")
    async with Simulator(list(CAPTURES)) as simulator:
        yield simulator


async def _served(sim: Simulator, provider_id: str, query: str, **params: object) -> SearchResponse:
    path, headers = CAPTURES[provider_id]
    sim[provider_id].enqueue(Fault.http(200, read_capture(path).decode("utf-8"), headers))
    async with sim_client(sim) as ws:
        result = await ws.run(query, provider=provider_id, use_cache=False, **params)
    return result.response


def _domain_with_company(response: SearchResponse) -> str:
    """The answer's most frequent site that is not all of it, so the filter has work to do."""
    hosts = [_host(source.url) for source in response.sources]
    by_count = sorted(dict.fromkeys(hosts), key=lambda host: -hosts.count(host))
    for host in by_count:
        inside = sum(_on(other, host) for other in hosts)
        if 0 < inside < len(hosts):
            return host
    raise AssertionError(f"every result of the capture is on one site: {by_count}")


@pytest.mark.conformance
@pytest.mark.parametrize("provider_id", list(CAPTURES))
async def test_site_keeps_exactly_that_sites_results(sim: Simulator, provider_id: str) -> None:
    unfiltered = await _served(sim, provider_id, "search")
    assert unfiltered.provider == provider_id
    domain = _domain_with_company(unfiltered)
    expected = [s.url for s in unfiltered.sources if _on(_host(s.url), domain)]

    filtered = await _served(sim, provider_id, f"search site:{domain}")
    assert [s.url for s in filtered.sources] == expected
    (record,) = filtered.filters
    assert (record.name, record.value) == ("include_domains", domain)
    assert record.applied[-1] == "post"


@pytest.mark.conformance
@pytest.mark.parametrize("provider_id", list(CAPTURES))
async def test_excluded_site_is_gone_and_the_rest_keep_their_order(
    sim: Simulator, provider_id: str
) -> None:
    unfiltered = await _served(sim, provider_id, "search")
    domain = _domain_with_company(unfiltered)
    expected = [s.url for s in unfiltered.sources if not _on(_host(s.url), domain)]

    filtered = await _served(sim, provider_id, f"search -site:{domain}")
    assert [s.url for s in filtered.sources] == expected
    assert [(f.name, f.value) for f in filtered.filters] == [("exclude_domains", domain)]


@pytest.mark.conformance
async def test_brave_site_github_drops_the_other_sites_it_returned(sim: Simulator) -> None:
    # The measured case: Brave answered "site:github.com laravel" with builtin.com,
    # wikipedia.org and javatpoint.com among github.com.
    filtered = await _served(sim, "brave", "site:github.com laravel")
    assert [s.url for s in filtered.sources] == [
        "https://github.com/laravel/laravel",
        "https://github.com/laravel/framework",
    ]
    (request,) = sim["brave"].requests
    assert request.query_dict()["q"] == "laravel site:github.com"
    (record,) = filtered.filters
    assert record.applied == ("query", "post")
