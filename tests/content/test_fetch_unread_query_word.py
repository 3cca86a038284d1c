"""A word under a query name nothing reads stays in a fetched page.

Stop 54 took a word under a SearXNG endpoint's query name nothing reads (``?gw=coffee``)
for a gateway's key, and a fetched page about coffee lost every ``coffee`` to ``***``. A
fetch never sends the SearXNG endpoint's query, so no server it reaches can quote it;
the word on a page is the world's. The page is served by a loopback server.
"""

from tests.content._server import PageServer
from websearch_core import Settings, WebSearch

ARTICLE = (
    "<html><head><title>Coffee</title></head><body><article><p>"
    + "Good coffee needs a fresh grind and clean water. " * 8
    + "</p></article></body></html>"
)


async def _fetched(server: PageServer, query: str) -> str:
    """The page's text, fetched by a client whose SearXNG endpoint has ``query``."""
    settings = Settings(searxng={"endpoint": f"https://searx.example/{query}"})
    async with WebSearch(settings, state_backend="memory") as ws:
        page = await ws.fetch(
            server.url("/a"), allow_private_addresses=True, use_browser=False, use_cache=False
        )
    return page.text


async def test_a_fetched_page_keeps_a_word_under_an_unread_query_name(server: PageServer) -> None:
    """The page reads as it does with no such parameter.

    Failed before: each ``coffee`` of the page was ``***``.
    """
    server.page("/a", ARTICLE)
    plain = await _fetched(server, "")
    assert "coffee" in plain
    assert await _fetched(server, "?gw=coffee") == plain
