"""The simulator's Yahoo, Startpage and Jina answer a filtered search for the query asked.

Each keeps its query where the shared handler does not look (Yahoo's ``p``, Startpage's
POSTed ``query``, Jina's path), so the handler derived the results from no query and the
protocol derived them again from its own, but only when they were still the untouched
defaults: once ``--site`` (or a date window) had filtered them, the page served was
``result 1`` for an empty query (``https://site1.example.org/q``, ``Snippet 1 about .``).
``websearch "python" --provider public --site site1.example.org`` against ``serve
duckduckgo bing yahoo`` (the README's way to try the aggregate and a filter) then listed
that page beside the others' as a second, different result.
"""

import pytest

from websearch_core import SearchToolResult, WebSearch
from websearch_core.testing import Simulator

SITE = "site1.example.org"


async def _search(engine: str, **params: tuple[str, ...]) -> SearchToolResult:
    async with (
        Simulator([engine]) as sim,
        WebSearch(sim.settings(), api_keys=sim.api_keys()) as ws,
    ):
        return await ws.run("python", provider=engine, **params)


@pytest.mark.parametrize("engine", ["yahoo", "startpage", "jina"])
async def test_a_site_filtered_answer_is_for_the_query_asked(engine: str) -> None:
    result = await _search(engine, include_domains=(SITE,))
    assert not result.is_error, result.error
    assert result.response.sources
    for source in result.response.sources:
        assert source.url.startswith(f"https://{SITE}/python")
        assert "python" in source.title and "python" in (source.snippet or "")


@pytest.mark.parametrize("engine", ["yahoo", "startpage", "jina"])
async def test_an_unfiltered_answer_is_for_the_query_asked(engine: str) -> None:
    """A guard (passes before and after): the defaults were already derived again."""
    result = await _search(engine)
    assert not result.is_error, result.error
    assert result.response.sources
    for source in result.response.sources:
        assert "/python" in source.url and "python" in source.title
