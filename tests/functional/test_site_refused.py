"""A ``site:`` no filter can read is refused, naming the word, not sent as plain text.

Stop 49 (siteforms) left a ``site:`` whose value the domain lists refuse (a port, a user
name, another scheme, an IP address) in the query as plain text, filtering nothing of
ours; but an engine reads ``site:`` in its query as its own operator, so the simulated
Brave and DuckDuckGo (which read it as the real ones do) kept the search to a site with
no pages and the search failed as the engine's (``Brave returned no renderable search
content``). ``site:x.com?y=1`` was read as the site ``x.com``, its ``?y=1`` dropped
unsaid. Both are now refused before any request, the error naming the word and what to
write; a quoted word, ``site:`` with a space after it and the aliases stay words.
"""

from collections.abc import AsyncIterator

import pytest
from pydantic import ValidationError

from tests.functional._sim_helpers import sim_client
from websearch_core.filters.query import tokenize
from websearch_core.models import SearchParams
from websearch_core.testing import Simulator
from websearch_core.testing.simulator import SimResult

_REFUSED = [
    # (the query, the word named, the problem named)
    ("docs site:example.com:8080", "site:example.com:8080", "has a port or a user name"),
    ("docs -site:user@example.com", "-site:user@example.com", "has a port or a user name"),
    ("docs site:ftp://example.com", "site:ftp://example.com", "is not a web address"),
    ("docs site:1.2.3.4", "site:1.2.3.4", "is an IP address"),
    ("docs SITE:wordpress", "SITE:wordpress", "'wordpress' (write one such as"),
    ("docs site:x.com?y=1", "site:x.com?y=1", "has a query or fragment ('?y=1')"),
    ("docs site:github.com/a?tab=repos", "site:github.com/a?tab=repos", "('?tab=repos')"),
    ("docs site:x.com#top", "site:x.com#top", "has a query or fragment ('#top')"),
    ("docs NOT site:example.com:8080", "site:example.com:8080", "has a port"),
    ("(site:example.com:8080 OR rust)", "site:example.com:8080", "has a port"),
    ('docs site:"example.com:8080"', 'site:"example.com:8080"', "has a port"),
]


@pytest.mark.parametrize(("query", "word", "problem"), _REFUSED)
def test_a_site_no_filter_reads_is_refused_naming_the_word(
    query: str, word: str, problem: str
) -> None:
    with pytest.raises(ValidationError) as caught:
        SearchParams(query=query)
    message = caught.value.errors()[0]["msg"]
    assert f"query: {word} keeps the search to no site (not a domain name: " in message
    assert problem in message
    assert message.endswith(
        "write site:<domain>, or put the whole word in quotes to search it as text"
    )


@pytest.mark.parametrize("value", ["x.com?y=1", "x.com/docs?y=1", "x.com#top"])
def test_a_query_string_is_not_dropped_from_a_site(value: str) -> None:
    # Before: read as the site x.com (its path kept, the rest dropped unsaid).
    assert [token.kind for token in tokenize(f"site:{value}")] == ["text"]


@pytest.fixture
async def sim() -> AsyncIterator[Simulator]:
    async with Simulator(["brave", "duckduckgo"]) as simulator:
        for provider in ("brave", "duckduckgo"):
            simulator[provider].results = [  # read as the engine reads its site: operator
                SimResult("Elsewhere", "https://elsewhere.example/a", "One."),
                SimResult("On the site", "https://example.com/b", "Two."),
            ]
        yield simulator


@pytest.mark.parametrize("provider", ["brave", "duckduckgo"])
@pytest.mark.parametrize("typed", ["site:example.com:8080", "site:example.com?y=1"])
async def test_no_engine_is_asked_a_site_the_search_cannot_keep(
    sim: Simulator, provider: str, typed: str
) -> None:
    # Before: the first failed as the engine's (no results); the second searched
    # site:example.com, the ?y=1 dropped.
    async with sim_client(sim) as ws:
        with pytest.raises(ValidationError, match=f"query: {typed.replace('?', '[?]')} keeps"):
            await ws.search(f"docs {typed}", provider=provider)
    assert not sim[provider].requests


@pytest.mark.parametrize(
    "query",
    [
        'docs "site:example.com:8080"',
        "my site: wordpress or ghost",
        "nginx host:port syntax",
        "docs domain:example.com:8080",
    ],
)
async def test_words_that_are_no_site_operator_are_still_searched(
    sim: Simulator, query: str
) -> None:
    """A guard: a quoted word, ``site:`` before a space and the aliases were words before."""
    sim["brave"].honour_operators = False
    async with sim_client(sim) as ws:
        found = await ws.search(query, provider="brave")
    assert [source.title for source in found.sources] == ["Elsewhere", "On the site"]
    (request,) = sim["brave"].requests
    assert request.query_dict()["q"] == query
