"""Every provider's timeout reads ``<Label> search timed out ...``, the engines' stem.

The reference gives the browser engines ``<Engine> search timed out.`` (504) and is silent
on the rest, which said ``<Label> request timed out after <N>s``: a slow search listed its
timeouts in two wordings. Now the plain engines and the API providers say ``<Label> search
timed out after <N>s`` (the seconds kept); the browser engines keep the reference's text.
"""

import pytest

from websearch_core import WebSearch
from websearch_core.providers import get_provider, provider_ids
from websearch_core.providers._html_engine import HtmlEngineProvider
from websearch_core.testing import Fault, Simulator

ENGINES = [pid for pid in provider_ids() if isinstance(get_provider(pid), HtmlEngineProvider)]
PLAIN = [pid for pid in ENGINES if not get_provider(pid).escalates_to_browser]
BROWSER = [pid for pid in ENGINES if get_provider(pid).escalates_to_browser]
KEYED = ["brave", "tavily", "exa"]


async def _timed_out(chain: list[str]) -> dict[str, str]:
    """Each provider of ``chain`` hung past its 0.5 s: what each failure said."""
    async with Simulator(chain) as sim:
        for pid in chain:
            sim[pid].always(Fault.hang(5))
        settings = sim.settings(
            providers=chain, timeout_seconds=0.5, cache=False, deadline_seconds=20
        )
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            result = await ws.run("python asyncio")
    assert result.error is not None
    return {failure.provider: failure.error for failure in result.failures}


def test_the_engines_split_as_the_reference_does() -> None:
    """A guard: four plain engines, three that escalate to the browser."""
    assert PLAIN == ["duckduckgo", "bing", "yahoo", "startpage"]
    assert BROWSER == ["google", "ecosia", "mojeek"]


@pytest.mark.parametrize("pid", [*PLAIN, *KEYED])
async def test_a_plain_engine_or_api_provider_says_search_timed_out(pid: str) -> None:
    """Failed before: ``<Label> request timed out after 0.5s``."""
    said = await _timed_out([pid])
    assert said[pid] == f"{get_provider(pid).info.label} search timed out after 0.5s"


async def test_a_slow_chain_lists_one_stem() -> None:
    """Failed before: Brave's and DuckDuckGo's rows said ``request timed out``; Ecosia's
    ``Ecosia search timed out.`` stood (the reference's text, a guard within)."""
    said = await _timed_out(["brave", "duckduckgo", "ecosia"])
    assert said == {
        "brave": "Brave search timed out after 0.5s",
        "duckduckgo": "DuckDuckGo search timed out after 0.5s",
        "ecosia": "Ecosia search timed out.",
    }
