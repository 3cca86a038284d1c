"""Every text saying a provider's key is missing, when it is set in ``os.environ`` alone.

Stop 51 (signins4) named a key variable set in ``os.environ``, which a ``Credentials``
given an ``environ`` of its own does not read, after three ``credentials not found`` texts
(a provider's own search: Brave's, Kimi's, Anthropic's). Those are reached only when the
provider runs. A provider whose key is not found does not run: the chain's plan says why
first, and those texts (the spec's for an explicit provider, the forced and preferred
provider's) ended at ``set BRAVE_API_KEY``, to a user who had, as did the providers table
(``not configured (set BRAVE_API_KEY)``). Each now says where it is set and how to give
it, never its value.

The simulator answers each provider's API on loopback; Tavily, whose key is given,
answers the search the chain falls back to, through the real transport.
"""

import os
from collections import ChainMap

import pytest

from tests.functional._sim_helpers import environ_context
from websearch_core import SearchParams
from websearch_core.chain_plan import ChainOrder
from websearch_core.orchestration.chain import ChainRunner
from websearch_core.providers.base import ProviderContext
from websearch_core.state.base import MemoryStore
from websearch_core.status import collect_status
from websearch_core.testing import Simulator

KEY = "BSA-set-in-os-environ-alone-0123456789"
"""Brave's key, set in ``os.environ`` only."""
GIVEN = {"TAVILY_API_KEY": "tvly-given-in-environ-0123456789"}
"""What the credentials are given: Tavily's key, so the chain has somewhere to fall back."""
UNSEEN = "BRAVE_API_KEY is set in os.environ, which these Credentials do not read"
SPEC_EXPLICIT = (
    "Brave web search is unavailable. Configure its credentials or select the automatic "
    "provider chain."
)

PLANS: dict[str, tuple[str | None, str | None, str]] = {
    "preferred": ("brave", None, "Brave was preferred but cannot run (no API key"),
    "explicit": (None, None, SPEC_EXPLICIT),
    "forced": (None, "brave", "Brave was forced but cannot run (no API key"),
}
"""How Brave is chosen (the preferred id, the forced id) and how its text begins."""


async def _brave_detail(context: ProviderContext, how: str) -> tuple[str, str | None]:
    """What the chain says of Brave chosen ``how`` (its skipped attempt's detail), and
    which provider answered."""
    preferred, forced, _ = PLANS[how]
    order = ChainOrder.of(
        preferred=preferred, excluded=(), fallback=True, listed=["brave", "tavily"]
    )
    plan = order.resolve(context, forced)
    outcome = await ChainRunner(MemoryStore()).run(
        plan, SearchParams(query="python asyncio"), context
    )
    details = [a.detail or "" for a in outcome.attempts if a.provider == "brave"]
    assert len(details) == 1
    return details[0], outcome.response.provider if outcome.response else None


@pytest.mark.parametrize("how", sorted(PLANS))
async def test_the_plan_names_a_key_set_in_os_environ_alone(
    how: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Failed before (each text ended at ``set BRAVE_API_KEY``): Brave preferred, listed
    (the spec's text) or forced, its key in ``os.environ`` alone, is not run, and the
    chain's text of it says where the key is set and how to give it, after its own words;
    Tavily answers through the simulator. The key appears nowhere."""
    monkeypatch.setenv("BRAVE_API_KEY", KEY)
    async with Simulator(["brave", "tavily"]) as sim, environ_context(sim, GIVEN) as context:
        detail, answered = await _brave_detail(context, how)
        assert not sim["brave"].requests
    assert detail.startswith(PLANS[how][2])
    assert UNSEEN in detail and "collections.ChainMap(environ, os.environ)" in detail
    assert answered == "tavily"
    assert KEY not in detail + caplog.text


async def test_the_providers_table_names_a_key_set_in_os_environ_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Failed before (``not configured (set BRAVE_API_KEY)`` alone): the row says where the
    key is set; Perplexity's (which runs without a key, explicitly) names its own."""
    monkeypatch.setenv("BRAVE_API_KEY", KEY)
    monkeypatch.setenv("PERPLEXITY_API_KEY", "pplx-set-in-os-environ-alone-0123456789")
    async with Simulator(["brave", "perplexity"]) as sim, environ_context(sim, GIVEN) as context:
        rows = {
            row.id: row for row in await collect_status(context, MemoryStore(), context.settings)
        }
    brave, perplexity = rows["brave"], rows["perplexity"]
    assert brave.reason.startswith("not configured (set BRAVE_API_KEY")
    assert f"; {UNSEEN}" in brave.reason and not brave.available
    assert "PERPLEXITY_API_KEY is set in os.environ" in perplexity.reason
    assert KEY not in brave.reason + perplexity.reason


@pytest.mark.parametrize("how", sorted(PLANS))
async def test_the_texts_stand_alone_when_the_key_is_set_nowhere_or_read(
    how: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Guard (passed before too): with the key set nowhere the texts say nothing of
    ``os.environ``; layered with ``ChainMap`` it is read, and Brave answers."""
    monkeypatch.delenv("BRAVE_API_KEY", raising=False)
    async with Simulator(["brave", "tavily"]) as sim, environ_context(sim, GIVEN) as context:
        detail, _ = await _brave_detail(context, how)
    assert detail.startswith(PLANS[how][2]) and "os.environ" not in detail
    monkeypatch.setenv("BRAVE_API_KEY", KEY)
    layered = ChainMap(dict(GIVEN), os.environ)
    async with Simulator(["brave", "tavily"]) as sim, environ_context(sim, layered) as context:
        order = ChainOrder.of(
            preferred=PLANS[how][0], excluded=(), fallback=True, listed=["brave", "tavily"]
        )
        outcome = await ChainRunner(MemoryStore()).run(
            order.resolve(context, PLANS[how][1]), SearchParams(query="python asyncio"), context
        )
        assert outcome.response is not None and outcome.response.provider == "brave"
        assert len(sim["brave"].requests) == 1
