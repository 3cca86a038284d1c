"""A one-line field of a 200 body cannot fill the model's text, whatever its length.

The spec cuts snippets, cited text (240) and search queries (120) in the model's text but
writes ``[n] <title>`` whole; only Brave's reference caps a title (300, ``299`` and ``…``)
and a date (100). An upstream (buggy, hostile, or a gateway's page) that sends a 1 MB title
would otherwise put all of it before the model. :mod:`websearch_core.sanitize` cuts every
provider's one-line text by Brave's rule; these searches go through the loopback simulator,
an API provider's sources and an answer engine's citations, and read the tool's text.
"""

import json
from typing import Final

import pytest

from websearch_core import WebSearch
from websearch_core.redaction import MASK
from websearch_core.testing import Fault, Simulator
from websearch_core.testing.simulator import SimResult
from websearch_core.utf16_text import utf16_len

MEGABYTE: Final = 1_000_000
TITLE: Final = "T" * MEGABYTE
NOT_A_DATE: Final = "not a date " * (MEGABYTE // 11)
SHORT: Final = SimResult(
    title="A short title", url="https://b.example/y", snippet="s", published="2026-01-02"
)
LINE_LIMIT: Final = 300
DATE_LIMIT: Final = 100


async def _tool_text(provider: str, title: str, published: str | None = None) -> str:
    """The tool's text for a search whose first result has ``title`` and ``published``."""
    async with Simulator([provider]) as sim:
        first = SimResult(title=title, url="https://a.example/x", snippet="s", published=published)
        sim[provider].results = [first, SHORT]
        settings = sim.settings(provider=provider, cache=False, rate_limit_wait_seconds=0)
        async with WebSearch(settings, api_keys=sim.api_keys()) as search:
            result = await search.run("python asyncio")
    assert not result.text.startswith("Error:"), result.text[:300]
    return result.text


def _title_lines(text: str) -> list[str]:
    """The ``[n] <title> (<date>)`` lines of sources and citations."""
    return [line for line in text.split("\n") if line.startswith("[")]


@pytest.mark.parametrize("provider", ["tavily", "perplexity", "anthropic"])
async def test_a_megabyte_title_is_cut_to_brave_s_rule(provider: str) -> None:
    text = await _tool_text(provider, TITLE)
    titled = [line for line in _title_lines(text) if "TTT" in line]
    assert titled, text[:500]
    for line in titled:
        title = line.split(" ", 1)[1].split(" (", 1)[0]
        assert title == "T" * (LINE_LIMIT - 1) + "…"
    assert "T" * LINE_LIMIT not in text
    assert len(text) < 5_000  # a megabyte before
    assert "[2] A short title" in text


@pytest.mark.parametrize("provider", ["exa", "serper"])
async def test_a_title_the_answer_repeats_is_cut_there_too(provider: str) -> None:
    """Exa's answer is ``**<title>**: <summary>``, Serper's starts with its box's title."""
    text = await _tool_text(provider, TITLE)
    answer = text.split("\n## Sources", 1)[0]
    assert f"{'T' * (LINE_LIMIT - 1)}…" in answer
    assert "T" * LINE_LIMIT not in text
    assert len(text) < 5_000  # two or three megabytes before


async def test_a_citation_title_of_an_answer_engine_is_cut() -> None:
    text = await _tool_text("perplexity", TITLE)
    citations = text.split("## Citations", 1)[1]
    assert f"[1] {'T' * (LINE_LIMIT - 1)}…\n" in citations


@pytest.mark.parametrize("provider", ["searxng", "anthropic"])
async def test_a_megabyte_of_text_in_a_date_field_is_cut_to_a_hundred(provider: str) -> None:
    text = await _tool_text(provider, "Dated", NOT_A_DATE)
    line = next(line for line in _title_lines(text) if line.startswith("[1] Dated"))
    shown = line.removeprefix("[1] Dated (").removesuffix(")")
    assert utf16_len(shown) == DATE_LIMIT
    assert shown.endswith("…")
    assert len(text) < 2_000


async def test_the_cut_counts_utf16_units() -> None:
    text = await _tool_text("tavily", "😀" * 400)
    title = _title_lines(text)[0].removeprefix("[1] ")
    assert title == "😀" * ((LINE_LIMIT - 1) // 2) + "…"
    assert utf16_len(title) <= LINE_LIMIT


async def test_a_key_across_the_cut_is_masked_whole() -> None:
    async with Simulator(["tavily"]) as sim:
        key = sim.api_keys()["tavily"]
        title = "a" * (LINE_LIMIT - 5) + key + "b" * MEGABYTE
        sim["tavily"].results = [SimResult(title=title, url="https://a.example/x", snippet="s")]
        settings = sim.settings(provider="tavily", cache=False, rate_limit_wait_seconds=0)
        async with WebSearch(settings, api_keys=sim.api_keys()) as search:
            result = await search.run("python asyncio")
    shown = _title_lines(result.text)[0].removeprefix("[1] ")
    assert utf16_len(shown) <= LINE_LIMIT
    assert shown.endswith("…")
    assert key[:4] not in shown  # the head the cut would have left, had it come first
    assert MASK in shown


async def test_a_megabyte_author_is_cut_in_the_details() -> None:
    body = {
        "requestId": "r",
        "results": [
            {"id": "1", "title": "t", "url": "https://a.example/", "author": "A" * MEGABYTE}
        ],
    }
    async with Simulator(["exa"]) as sim:
        sim["exa"].always(Fault.http(200, json.dumps(body), {"Content-Type": "application/json"}))
        settings = sim.settings(provider="exa", cache=False, rate_limit_wait_seconds=0)
        async with WebSearch(settings, api_keys=sim.api_keys()) as search:
            result = await search.run("python asyncio")
    assert result.response.sources[0].author == "A" * (LINE_LIMIT - 1) + "…"


async def test_titles_within_the_limit_reach_the_model_whole() -> None:
    """A guard: a title of exactly 300 units, and ordinary ones, are not touched."""
    text = await _tool_text("tavily", "W" * LINE_LIMIT)
    assert f"[1] {'W' * LINE_LIMIT}\n" in text
    assert "[2] A short title" in text


@pytest.mark.parametrize("provider", ["exa", "serper"])
@pytest.mark.parametrize("shown", [1, 4, 7])
async def test_a_key_across_the_cut_of_an_answers_title_is_masked_whole(
    provider: str, shown: int
) -> None:
    """The title Exa's and Serper's answers repeat is masked before it is cut, as a line is.

    Failed before for each provider and head: the parser cut the title first, leaving the
    key's first ``shown`` characters, too few for the mask's head rule (8), before ``…``.
    """
    async with Simulator([provider]) as sim:
        key = sim.api_keys()[provider]
        title = "a" * (LINE_LIMIT - 1 - shown) + key + "b" * MEGABYTE
        sim[provider].results = [SimResult(title=title, url="https://a.example/x", snippet="s")]
        settings = sim.settings(provider=provider, cache=False, rate_limit_wait_seconds=0)
        async with WebSearch(settings, api_keys=sim.api_keys()) as search:
            result = await search.run("python asyncio")
    answer = result.text.split("\n## Sources", 1)[0]
    assert "a" * 200 in answer, "the answer repeats the title"
    assert f"a{key[:shown]}…" not in answer
    assert f"a{(MASK + 'b' * 9)[:shown]}…" in answer, "masked first, then cut"
    assert "b" * LINE_LIMIT not in result.text
