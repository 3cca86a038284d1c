"""Spec §Modes and §Limits lengths, counted in UTF-16 units end to end, at and past each cap.

The reference counts every length in JavaScript's ``.length``: UTF-16 code units (behaviour
reference §12.1), so an astral character such as an emoji is two. The format tests prove the
cuts on a built response; these drive the real wire through ``WebSearch.run`` against the
loopback simulator, with text whose code point count and unit count disagree, so a length
measured in code points shows as a different answer.
"""

from collections.abc import AsyncIterator

import pytest

from websearch_core import WebSearch
from websearch_core.provider_ids import FREE_ENGINE_ORDER
from websearch_core.testing import SimResult, Simulator
from websearch_core.utf16_text import utf16_len

QUERY = "astral text"
EMOJI = "\N{GRINNING FACE}"  # one code point, two UTF-16 units
ENGINES = ("duckduckgo", "bing")


@pytest.fixture
async def engines() -> AsyncIterator[Simulator]:
    async with Simulator(list(ENGINES)) as simulator:
        yield simulator


def _public(sim: Simulator) -> WebSearch:
    """A client whose Public Web fans out to the two simulated engines alone."""
    others = tuple(engine for engine in FREE_ENGINE_ORDER if engine not in ENGINES)
    return WebSearch(sim.settings(exclude=others))


async def test_public_web_s_longest_snippet_is_measured_in_utf16_units(
    engines: Simulator,
) -> None:
    """Spec §Modes, Public Web: "the longest snippet wins", longest as JavaScript measures.

    DuckDuckGo (first in priority) gives the page seven ASCII letters; Bing gives it four
    emoji: four code points, eight units. The reference keeps Bing's (8 > 7); counting code
    points kept DuckDuckGo's (4 < 7).
    """
    url = "https://page.example/"
    ascii_snippet, astral_snippet = "seventy", EMOJI * 4
    assert len(astral_snippet) < len(ascii_snippet) < utf16_len(astral_snippet)
    engines["duckduckgo"].results = [SimResult("Page", url, ascii_snippet)]
    engines["bing"].results = [SimResult("Page", url, astral_snippet)]
    async with _public(engines) as ws:
        result = await ws.run(QUERY, provider="public")
    assert result.error is None, result.error
    (source,) = result.response.sources
    assert [rank.engine for rank in source.engines] == list(ENGINES)
    assert source.snippet == astral_snippet


async def test_public_web_keeps_the_first_snippet_when_the_units_are_equal(
    engines: Simulator,
) -> None:
    """Guard: a tie is no win ("longest", strictly), so the earlier engine's snippet stays.

    Four ASCII letters and two emoji are four units each; a count in code points would
    also keep DuckDuckGo's, so this passes both ways and pins the strict comparison.
    """
    url = "https://tie.example/"
    engines["duckduckgo"].results = [SimResult("Tie", url, "four")]
    engines["bing"].results = [SimResult("Tie", url, EMOJI * 2)]
    async with _public(engines) as ws:
        result = await ws.run(QUERY, provider="public")
    assert result.error is None, result.error
    assert [source.snippet for source in result.response.sources] == ["four"]


@pytest.mark.parametrize(
    ("snippet", "shown"),
    [
        (EMOJI * 120, EMOJI * 120),  # 240 units: at the cap, kept whole
        (EMOJI * 120 + "x", EMOJI * 119 + "\N{HORIZONTAL ELLIPSIS}"),  # 241: half a pair dropped
        ("x" + EMOJI * 120, "x" + EMOJI * 119 + "\N{HORIZONTAL ELLIPSIS}"),  # 241: 239 + the mark
    ],
    ids=["240-units", "241-units-pair-at-the-cut", "241-units"],
)
async def test_a_snippet_is_cut_at_240_utf16_units_over_the_wire(snippet: str, shown: str) -> None:
    """Guard: spec §Limits, ``formatForLLM()`` truncates source snippets to 240 chars."""
    async with Simulator(["brave"]) as sim:
        sim["brave"].results = [SimResult("Cut", "https://cut.example/", snippet)]
        async with WebSearch(sim.settings(), api_keys=sim.api_keys()) as ws:
            result = await ws.run(QUERY, provider="brave")
    assert result.error is None, result.error
    assert result.text.split("\n")[2] == "    " + shown


@pytest.mark.parametrize(
    ("query", "shown"),
    [
        (EMOJI * 60, EMOJI * 60),  # 120 units: at the cap, kept whole
        ("x" + EMOJI * 60, "x" + EMOJI * 59 + "\N{HORIZONTAL ELLIPSIS}"),  # 121: cut to 120
    ],
    ids=["120-units", "121-units"],
)
async def test_a_search_query_is_cut_at_120_utf16_units_over_the_wire(
    query: str, shown: str
) -> None:
    """Guard: spec §Limits, each search query shown is truncated to 120 chars.

    Anthropic's simulated turn searches for the query it was asked, so the query comes back
    as the answer's one search query.
    """
    async with (
        Simulator(["anthropic"]) as sim,
        WebSearch(sim.settings(), api_keys=sim.api_keys()) as ws,
    ):
        result = await ws.run(query, provider="anthropic")
    assert result.error is None, result.error
    lines = result.text.split("\n")
    at = lines.index("Search queries: 1")
    assert lines[at + 1 :] == ["- " + shown]


# --- §Limits counts: at each provider's maximum and one past it --------------------------------

MAXIMA = {
    "brave": 20,
    "tinyfish": 20,
    "duckduckgo": 20,
    "bing": 20,
    "yahoo": 20,
    "startpage": 20,
    "mojeek": 20,
    "tavily": 20,
    "kimi": 20,
    "searxng": 20,
    "parallel": 40,
    "kagi": 40,
    "xai": 30,
}
"""Spec §Limits: each provider's result count maximum (Firecrawl's 100 is the input's own
maximum, so one past it is refused before any provider is asked)."""


@pytest.mark.parametrize("provider", sorted(MAXIMA))
async def test_a_count_at_the_maximum_is_kept_and_one_past_it_is_clamped(provider: str) -> None:
    """Guard: ``limit`` at a provider's maximum returns that many sources; one more, the same.

    Each simulated server serves 120 results, more than any maximum, so the count shown is
    the provider's own cut (xAI's is its local cap on sources and citations alike).
    """
    most = MAXIMA[provider]
    async with Simulator([provider]) as sim:
        sim[provider].results = [
            SimResult(f"R{i}", f"https://r{i}.example/", f"S{i}") for i in range(120)
        ]
        async with WebSearch(sim.settings(), api_keys=sim.api_keys()) as ws:
            at = await ws.search(QUERY, provider=provider, limit=most)
            past = await ws.search(QUERY, provider=provider, limit=most + 1)
            breadth = await ws.search(QUERY, provider=provider, num_search_results=most + 1)
    assert [len(r.sources) for r in (at, past, breadth)] == [most, most, most]
    if provider == "xai":
        assert [len(r.citations) for r in (at, past, breadth)] == [most, most, most]


@pytest.mark.parametrize(("limit", "shown"), [(29, 29), (30, 30), (31, 30)])
async def test_public_web_merges_at_most_30(engines: Simulator, limit: int, shown: int) -> None:
    """Guard: spec §Limits, Public Web's count is at most 30, from two engines' 20 each."""
    for engine in ENGINES:
        engines[engine].results = [
            SimResult(f"{engine} {i}", f"https://{engine}.example/{i}", "s") for i in range(20)
        ]
    async with _public(engines) as ws:
        response = await ws.search(QUERY, provider="public", limit=limit)
    assert len(response.sources) == shown
