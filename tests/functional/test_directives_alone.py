"""A query of directives alone searches for what it wants, never for what it keeps out.

Stop 51 (inputs52) drove each provider with a query holding one directive and no word.
A provider that takes the directive out of its text (a native field, a local check) is
sent the directives' values instead of an empty query, and that took every value:
``-site:x.com`` went to Tavily, Exa, Perplexity and Parallel as the query ``x.com`` beside
their ``exclude_domains`` (searching for the one site kept out), and ``-tutorial`` to Exa
as ``tutorial``, the very word its local check then dropped results for. Reference 6.3
searches the wanted values only (sites, words in a URL, title or text, file types) and
otherwise sends the query as typed; so does this now.
"""

from collections.abc import AsyncIterator

import pytest

from tests.functional._sim_helpers import sim_client
from websearch_core.testing import Simulator
from websearch_core.testing.simulator import SimResult

_PROVIDERS = ("tavily", "exa", "perplexity", "parallel")


@pytest.fixture
async def sim() -> AsyncIterator[Simulator]:
    async with Simulator(list(_PROVIDERS)) as simulator:
        for provider in _PROVIDERS:
            simulator[provider].honour_operators = False  # what was sent is what counts
            simulator[provider].results = [
                SimResult("Guide", "https://y.org/guide", "A guide for beginners."),
                SimResult("Faq", "https://z.net/faq", "Questions and answers."),
            ]
        yield simulator


async def _sent(sim: Simulator, provider: str, query: str) -> str:
    async with sim_client(sim) as ws:
        await ws.run(query, provider=provider, use_cache=False)
    (request,) = sim[provider].requests
    query_of = getattr(sim[provider].protocol, "query_of", None)  # an answer engine's
    return str(query_of(request)) if callable(query_of) else str(request.json()["query"])


@pytest.mark.parametrize("provider", _PROVIDERS)
async def test_a_site_kept_out_alone_is_not_searched_for(sim: Simulator, provider: str) -> None:
    # Before: the query sent was "x.com".
    assert await _sent(sim, provider, "-site:x.com") == "-site:x.com"


async def test_a_term_kept_out_alone_is_not_searched_for(sim: Simulator) -> None:
    # Before: Exa, which checks -term here, was sent "tutorial".
    assert await _sent(sim, "exa", "-tutorial") == "-tutorial"


async def test_a_site_kept_out_beside_a_wanted_one_is_not_searched_for(sim: Simulator) -> None:
    # Before: Exa was sent "y.org x.com", both lists beside it.
    assert await _sent(sim, "exa", "site:y.org -site:x.com") == "y.org"


@pytest.mark.parametrize(
    ("provider", "query", "sent"),
    [
        ("tavily", "site:y.org", "y.org"),
        ("exa", "filetype:pdf", "pdf"),
        ("tavily", "intitle:faq", "faq"),
    ],
)
async def test_guard_a_wanted_value_alone_is_searched_for(
    sim: Simulator, provider: str, query: str, sent: str
) -> None:
    """Guard: a wanted site, file type or title word alone is the words searched."""
    assert await _sent(sim, provider, query) == sent
