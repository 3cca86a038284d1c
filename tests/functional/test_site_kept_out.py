"""A site both asked for and kept out is refused before any provider is asked.

Stop 51 (inputs52) drove every provider through the simulator with ``site:x.com`` beside
``-site:x.com`` or ``exclude_domains=["x.com"]``: each was sent the contradiction (Brave
``python site:x.com -site:x.com``, Tavily and Exa the site in both of their lists,
Anthropic and xAI the allowed list and ``-site:x.com`` in the question), and with the
chain of Tavily, Brave, DuckDuckGo and Bing the search spent a request on each and said
``All web search providers failed: tavily: Tavily returned no renderable search content;
brave: ...``, blaming the providers for what the filters asked. It is now refused as
``after:`` later than ``before:`` is, naming both sides and where each was written.
"""

from collections.abc import AsyncIterator
from typing import Any

import pytest
from pydantic import ValidationError

from tests.functional._sim_helpers import sim_client
from websearch_core.models import SearchParams
from websearch_core.testing import Simulator
from websearch_core.testing.simulator import SimResult

_REFUSED: list[tuple[str, dict[str, Any], str]] = [
    ("python site:x.com -site:x.com", {}, "query: site:x.com is kept out by -site:x.com"),
    ("python site:x.com NOT site:X.com.", {}, "query: site:x.com is kept out by -site:x.com"),
    (
        "python site:x.com",
        {"exclude_domains": ["x.com"]},
        "query: site:x.com is kept out by exclude_domains x.com",
    ),
    (
        "python -site:x.com",
        {"include_domains": ["x.com"]},
        "include_domains: x.com is kept out by -site:x.com",
    ),
    (
        "python",
        {"include_domains": ["docs.x.com"], "exclude_domains": ["x.com"]},
        "include_domains: docs.x.com is kept out by exclude_domains x.com",
    ),
    (
        "python site:github.com/a/b -site:github.com/a",
        {},
        "query: site:github.com/a/b is kept out by -site:github.com/a",
    ),
    (
        "python (site:x.com OR site:y.org) -domain:x.com",
        {},
        "query: site:x.com is kept out by -site:x.com",
    ),
]


@pytest.mark.parametrize(("query", "params", "said"), _REFUSED)
def test_a_site_kept_out_of_itself_is_refused_naming_both(
    query: str, params: dict[str, Any], said: str
) -> None:
    # Before: built, and sent to the providers as asked.
    with pytest.raises(ValidationError) as caught:
        SearchParams(query=query, **params)
    message = caught.value.errors()[0]["msg"]
    assert message == f"Value error, {said}, so no page can match it; drop one of the two"


_NARROWED: list[tuple[str, dict[str, Any]]] = [
    ("python site:x.com -site:docs.x.com", {}),
    ("python site:x.com -site:x.com/forum", {}),
    ("python site:x.com", {"exclude_domains": ["y.org"]}),
    ("python -site:x.com", {"exclude_domains": ["y.org"]}),
    ("python site:notx.com -site:x.com", {}),
    ('python "site:x.com -site:x.com"', {}),
]


@pytest.mark.parametrize(("query", "params"), _NARROWED)
def test_guard_a_part_kept_out_of_a_site_narrows_it(query: str, params: dict[str, Any]) -> None:
    """Guard: a subdomain or a path kept out of a wanted site, another site kept out, a
    look-alike host and a quoted phrase are searches that may have results."""
    assert SearchParams(query=query, **params).query == query


_CHAIN = ("tavily", "brave", "duckduckgo", "bing")


@pytest.fixture
async def sim() -> AsyncIterator[Simulator]:
    async with Simulator(list(_CHAIN)) as simulator:
        for provider in _CHAIN:
            simulator[provider].results = [SimResult("Page", "https://x.com/a", "One.")]
        yield simulator


@pytest.mark.parametrize(
    ("query", "params"),
    [("python site:x.com -site:x.com", {}), ("python site:x.com", {"exclude_domains": ["x.com"]})],
)
async def test_no_provider_of_the_chain_is_asked_for_a_site_kept_out(
    sim: Simulator, query: str, params: dict[str, Any]
) -> None:
    # Before: one request to each of the four, each failing as "no renderable content".
    async with sim_client(sim) as ws:
        with pytest.raises(ValidationError, match=r"query: site:x\.com is kept out by "):
            await ws.run(query, use_cache=False, **params)
    assert [len(sim[provider].requests) for provider in _CHAIN] == [0, 0, 0, 0]


async def test_guard_a_narrowed_site_is_searched(sim: Simulator) -> None:
    """Guard: ``site:x.com -site:docs.x.com`` reaches the first provider and is answered."""
    async with sim_client(sim) as ws:
        result = await ws.run("python site:x.com -site:docs.x.com", use_cache=False)
    assert [source.url for source in result.response.sources] == ["https://x.com/a"]
