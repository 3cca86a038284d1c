"""The simulated search APIs keep to the domains a request asks for, as the real ones do.

Brave's and Kagi's docs list ``site:`` among the operators their query reads, Firecrawl's
list ``site:`` and ``-site:`` (no ``filetype:``), TinyFish's reference tells callers to
scope its ``query`` with ``site:`` and ``-site:``, Serper sends its ``q`` to Google, which
reads ``site:`` and ``filetype:``; Tavily, Exa, Parallel and Jina take the domains as a
parameter of their own (``include_domains``, ``includeDomains``, ``source_policy``,
``X-Site``), and so do the answer engines' search tools (Anthropic's ``allowed_domains`` /
``blocked_domains``, xAI's ``filters``); Perplexity's ``search_domain_filter`` holds both
kinds, an excluded one written ``-domain``. Before, the simulated Brave, Kagi, Firecrawl,
Tavily, Parallel and Perplexity (and, until stop 39, TinyFish and Serper) served every
result whatever the request said, so a test of the core's domain check met answers no real
API gives, and a filter the core failed to send went unnoticed. The expectations are
written out per provider here, not read from the simulator's declarations, so a wrong
declaration on either side shows.
"""

import json
from collections.abc import AsyncIterator

import aiohttp
import pytest

from tests.functional._sim_helpers import sim_client
from websearch_core import SearchToolResult
from websearch_core.providers import get_provider
from websearch_core.testing import SimResult, Simulator

ON_SITE = SimResult("Guide", "https://docs.example.com/guide", "The guide.", "2026-01-02")
OFF_SITE = [
    SimResult("Post", "https://blog.example.net/post", "A post.", "2026-01-03"),
    SimResult("News", "https://news.example.org/item", "An item.", "2026-01-04"),
]
SITE_APIS = (
    "brave",
    "kagi",
    "firecrawl",
    "tavily",
    "exa",
    "parallel",
    "jina",
    "tinyfish",
    "serper",
)
"""Search APIs whose docs say they keep to a site asked for, in the query or a parameter."""
EXCLUDING_APIS = ("brave", "kagi", "firecrawl", "tavily", "exa", "parallel", "tinyfish", "serper")
"""Those that also leave an excluded site out (Jina's ``X-Site`` names only sites to keep)."""
EXCLUDING = "guide -site:docs.example.com"
ANSWER_TOOLS = ("anthropic", "xai")
"""Answer engines whose search tool takes the domain lists (the request's own JSON)."""


@pytest.fixture
async def sim(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Simulator]:
    monkeypatch.setenv("WEBSEARCH_BROWSER", "off")
    async with Simulator([*SITE_APIS, *ANSWER_TOOLS, "perplexity"]) as simulator:
        yield simulator


def _assert_served_nothing(provider_id: str, result: SearchToolResult) -> None:
    """No page, and no answer about one: the API kept to the domains and found none."""
    assert not result.response.sources
    assert result.response.answer is None
    if provider_id in ("kagi", "serper"):
        # Their related searches make an answer of their own; a leak caught here would
        # have taken them away with the pages and ended in an error.
        assert result.error is None and result.response.related_questions
    else:
        label = get_provider(provider_id).info.label
        assert result.error == f"{label} returned no renderable search content."


def _assert_leak_caught(provider_id: str, result: SearchToolResult, dropped: str) -> None:
    """The leaked pages all dropped by the core's check, the filter named with its count.

    What an API made of those pages (Tavily's answer, Exa's summaries, Kagi's direct
    answer and related searches) goes with them: kept, it would read as an answer from the
    site asked for.
    """
    assert not result.response.sources
    assert result.response.answer is None and not result.response.related_questions
    label = get_provider(provider_id).info.label
    assert result.error == f"{label} returned no results matching the filters ({dropped})."


@pytest.mark.parametrize("provider_id", SITE_APIS)
@pytest.mark.parametrize("how", ["typed", "field"])
async def test_an_api_asked_for_a_site_serves_nothing_off_it_and_a_leak_is_caught(
    sim: Simulator, provider_id: str, how: str
) -> None:
    # Every page off the site: the API itself serves none of them, which reads as an
    # empty answer; one that leaks anyway is caught by the core's own check, which names
    # the filter and counts the pages it dropped.
    sim[provider_id].results = list(OFF_SITE)
    fields = {"include_domains": ["docs.example.com"]} if how == "field" else {}
    query = "guide site:docs.example.com" if how == "typed" else "guide"
    async with sim_client(sim) as ws:
        honoured = await ws.run(query, provider=provider_id, use_cache=False, **fields)
        sim[provider_id].honour_operators = False
        leaked = await ws.run(query, provider=provider_id, use_cache=False, **fields)
    _assert_served_nothing(provider_id, honoured)
    _assert_leak_caught(provider_id, leaked, f"include_domains dropped {len(OFF_SITE)}")


@pytest.mark.parametrize("provider_id", SITE_APIS)
async def test_an_api_asked_for_a_site_serves_the_pages_on_it(
    sim: Simulator, provider_id: str
) -> None:
    sim[provider_id].results = [*OFF_SITE, ON_SITE]
    async with sim_client(sim) as ws:
        result = await ws.run("guide site:docs.example.com", provider=provider_id)
    assert result.error is None, result.error
    assert [source.url for source in result.response.sources] == [ON_SITE.url]


@pytest.mark.parametrize("provider_id", EXCLUDING_APIS)
async def test_an_api_asked_to_leave_a_site_out_serves_nothing_on_it(
    sim: Simulator, provider_id: str
) -> None:
    sim[provider_id].results = [ON_SITE]
    async with sim_client(sim) as ws:
        honoured = await ws.run(
            "guide -site:docs.example.com", provider=provider_id, use_cache=False
        )
        sim[provider_id].honour_operators = False
        leaked = await ws.run("guide -site:docs.example.com", provider=provider_id, use_cache=False)
    _assert_served_nothing(provider_id, honoured)
    _assert_leak_caught(provider_id, leaked, "exclude_domains dropped 1")


@pytest.mark.parametrize(
    ("domain_filter", "served"),
    [
        (["docs.example.com"], [ON_SITE.url]),
        (["-docs.example.com"], [page.url for page in OFF_SITE]),
        (["example.net", "example.org"], [page.url for page in OFF_SITE]),
    ],
)
async def test_perplexitys_domain_filter_keeps_or_leaves_out_the_domains_it_lists(
    sim: Simulator, domain_filter: list[str], served: list[str]
) -> None:
    # The Sonar API's one list: a domain to keep, or one written "-domain" to leave out,
    # its subdomains with it. Asked directly, as the core never sends both kinds.
    sim["perplexity"].results = [ON_SITE, *OFF_SITE]
    body = {
        "model": "sonar-pro",
        "messages": [{"role": "user", "content": "guide"}],
        "search_domain_filter": domain_filter,
    }
    headers = {"Authorization": "Bearer pplx-test"}
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            sim["perplexity"].base_url + "/chat/completions", json=body, headers=headers
        ) as response,
    ):
        assert response.status == 200
        payload = json.loads(await response.text())
    assert [item["url"] for item in payload["search_results"]] == served


async def test_a_filetype_firecrawl_does_not_read_is_sent_and_checked_here(
    sim: Simulator,
) -> None:
    # Firecrawl's docs list site:, inurl:, intitle: and more among its query operators, but
    # no filetype:. Before, the core trusted Firecrawl with it as with site:, and the HTML
    # page it served for "filetype:pdf" reached the caller as if it were a PDF.
    pdf = SimResult("Guide", "https://docs.example.com/guide.pdf", "The guide.", "2026-01-02")
    sim["firecrawl"].results = [ON_SITE, pdf]
    async with sim_client(sim) as ws:
        result = await ws.run("guide filetype:pdf", provider="firecrawl", use_cache=False)
    assert result.error is None, result.error
    assert [source.url for source in result.response.sources] == [pdf.url]
    (record,) = result.response.filters
    assert (record.name, record.applied) == ("filetype", ("query", "post"))
    assert "filetype:pdf" in sim["firecrawl"].requests[-1].json()["query"]  # still sent


async def test_an_answer_engine_whose_sources_are_all_off_the_site_gives_no_answer(
    sim: Simulator,
) -> None:
    # Perplexity writes its answer from the pages it cites; when every one of them is off
    # the site asked for, the answer (and the follow-up questions) go with them.
    sim["perplexity"].results = list(OFF_SITE)
    sim["perplexity"].honour_operators = False
    async with sim_client(sim) as ws:
        result = await ws.run(
            "guide", provider="perplexity", include_domains=["docs.example.com"], use_cache=False
        )
    assert result.response.answer is None and not result.response.sources
    assert not result.response.related_questions
    assert result.error == (
        f"Perplexity returned no results matching the filters (include_domains dropped "
        f"{len(OFF_SITE)})."
    )


async def test_a_filetype_serper_sends_google_keeps_to(sim: Simulator) -> None:
    # Serper sends its q to Google, which reads filetype: as it reads site:, so the core
    # trusts it with the filter (query, no local check): an HTML page served for
    # "filetype:pdf" would reach the caller. The simulated Serper served every result.
    pdf = SimResult("Guide", "https://docs.example.com/guide.pdf", "The guide.", "2026-01-02")
    sim["serper"].results = [ON_SITE, pdf]
    async with sim_client(sim) as ws:
        result = await ws.run("guide filetype:pdf", provider="serper", use_cache=False)
    assert result.error is None, result.error
    assert [source.url for source in result.response.sources] == [pdf.url]
    (record,) = result.response.filters
    assert (record.name, record.applied) == ("filetype", ("query",))
    assert sim["serper"].requests[-1].json()["q"] == "guide filetype:pdf"


@pytest.mark.parametrize("provider_id", ANSWER_TOOLS)
@pytest.mark.parametrize(
    ("fields", "served", "dropped"),
    [
        ({"include_domains": ["docs.example.com"]}, OFF_SITE, "include_domains dropped 2"),
        ({"exclude_domains": ["docs.example.com"]}, [ON_SITE], "exclude_domains dropped 1"),
    ],
)
async def test_an_answer_engines_search_tool_keeps_to_its_domain_lists(
    sim: Simulator,
    provider_id: str,
    fields: dict[str, list[str]],
    served: list[SimResult],
    dropped: str,
) -> None:
    # Every page the engine finds is one its tool's list rules out: the tool serves none
    # (the model says it found nothing), and one that leaks anyway is caught by the core's
    # check. Before, the simulated tools filtered in code of their own that a test could
    # not turn off, so a leak could not be simulated for them.
    sim[provider_id].results = list(served)
    async with sim_client(sim) as ws:
        honoured = await ws.run("guide", provider=provider_id, use_cache=False, **fields)
        sim[provider_id].honour_operators = False
        leaked = await ws.run("guide", provider=provider_id, use_cache=False, **fields)
    assert not honoured.response.sources
    assert honoured.response.answer is not None and "found nothing" in honoured.response.answer
    _assert_leak_caught(provider_id, leaked, dropped)
