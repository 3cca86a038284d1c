"""A result's URL is trimmed by the one field rule, as the spec's ``url.trim()`` trims it.

Most JSON parsers read a URL through the field rule (:func:`websearch_core.js_trim.trim`,
JavaScript's ``trim()`` and the separators no output keeps); the shared ``item_url``
reader (Tavily, Firecrawl, TinyFish, Parallel, Jina, Kimi) and Brave's used
``str.strip``, which keeps U+FEFF. A byte-order mark at a URL's ends then failed the URL
check and the whole result was dropped, where SearXNG or Exa kept the same result.

Each search serves a real capture from ``../shared/fixtures`` through the loopback
simulator with the first result's URL wrapped, and reads the first source.
"""

import json
from collections.abc import Callable
from typing import Any, Final

import pytest

from tests.conftest import read_capture
from tests.functional._sim_helpers import sim_client
from websearch_core.testing import Fault, Simulator

BOM: Final = "\ufeff"
JSON: Final = {"Content-Type": "application/json"}

_Pick = Callable[[dict[str, Any]], dict[str, Any]]

FIXED: Final[dict[str, tuple[str, _Pick]]] = {
    "brave": ("brave/web_search_laravel_2024.json", lambda b: b["web"]["results"][0]),
    "firecrawl": (
        "firecrawl/v2_search_firecrawl_with_markdown.json",
        lambda b: b["data"]["web"][0],
    ),
    "jina": ("jina/s_jina_ai_search_doc_example.json", lambda b: b["data"][0]),
    "parallel": ("parallel/v1_search_doc_example.json", lambda b: b["results"][0]),
    "tavily": ("tavily/search_basic_pydantic_ai.json", lambda b: b["results"][0]),
    "tinyfish": ("tinyfish/search_doc_example.json", lambda b: b["results"][0]),
}
"""The parsers that read a URL with ``str.strip`` before: their capture, its first item."""
ALREADY: Final[dict[str, tuple[str, _Pick]]] = {
    "exa": ("exa/search_doc_example_latest_llm_research.json", lambda b: b["results"][0]),
    "searxng": ("searxng/search_format_json_espresso_2026.json", lambda b: b["results"][0]),
}
"""Parsers that read it by the field rule already (guards)."""


async def _first_url(provider_id: str, capture: str, pick: _Pick, wrap: str) -> tuple[str, str]:
    """The first source's URL when the capture's first URL is wrapped in ``wrap``, and the
    capture's own URL."""
    body = json.loads(read_capture(capture))
    first = pick(body)
    url = first["url"]
    first["url"] = f"{wrap}{url}{wrap}"
    async with Simulator([provider_id]) as sim:
        sim[provider_id].enqueue(Fault.http(200, json.dumps(body), JSON))
        async with sim_client(sim) as ws:
            result = await ws.run("url trim rule", provider=provider_id, use_cache=False)
    assert result.error is None, result.error
    return result.response.sources[0].url, url


@pytest.mark.parametrize("provider_id", sorted(FIXED))
@pytest.mark.parametrize("wrap", [BOM, f" {BOM}\n"])
async def test_a_bom_around_a_url_is_trimmed_and_the_result_kept(
    provider_id: str, wrap: str
) -> None:
    """Failed before: the URL kept its BOM, failed the check, and its result was dropped
    (the first source shown was the capture's second)."""
    capture, pick = FIXED[provider_id]

    shown, url = await _first_url(provider_id, capture, pick, wrap)

    assert shown == url


@pytest.mark.parametrize("provider_id", sorted(ALREADY))
async def test_the_parsers_that_trimmed_by_the_rule_keep_it_too(provider_id: str) -> None:
    """A guard (held before): the rule the fixed readers now share."""
    capture, pick = ALREADY[provider_id]

    shown, url = await _first_url(provider_id, capture, pick, BOM)

    assert shown == url


@pytest.mark.parametrize("provider_id", ["brave", "tavily"])
async def test_a_separator_around_a_url_is_still_trimmed(provider_id: str) -> None:
    """A guard (held before): ``str.strip`` took U+001C and U+0085 too, and so does the
    rule; ``trim()`` alone would keep them, and the URL check would drop the result."""
    capture, pick = FIXED[provider_id]

    shown, url = await _first_url(provider_id, capture, pick, "\x1c\x85")

    assert shown == url
