"""The auto chain says once when it passed over a provider whose key it could not read.

A ``Credentials`` given an ``environ`` of its own reads that mapping in place of
``os.environ``, so a key set in ``os.environ`` alone is not found. Stop 52 (signins5) made
each text naming a provider as not set up say so (forced, preferred, explicit, the status
rows); the auto chain names no provider it passes over, so the user of it read nothing:
the search was answered by another provider, or failed with the others' texts alone. The
outcome now says it once: the answer's last note, or the end of the failure text.

The simulator answers Brave and Tavily on loopback, through the real transport; Tavily's
key is the one the credentials are given.
"""

import asyncio
import json
from collections.abc import Mapping
from typing import Final

import pytest

from tests.conftest import read_capture
from tests.functional._sim_helpers import environ_context
from websearch_core import SearchParams, WebSearch
from websearch_core.chain_plan import ChainOrder
from websearch_core.credentials import Credentials, CredentialStore
from websearch_core.models import SearchToolResult
from websearch_core.note_bound import MAX_NOTES, notes_left_out
from websearch_core.orchestration.chain import ChainOutcome, ChainRunner
from websearch_core.providers.base import ProviderContext
from websearch_core.state.base import MemoryStore
from websearch_core.testing import Fault, Simulator

KEY: Final = "BSA-set-in-os-environ-alone-0123456789"
"""Brave's key, set in ``os.environ`` only."""
GIVEN: Final = {"TAVILY_API_KEY": "tvly-given-in-environ-0123456789"}
"""What the credentials are given: Tavily's key."""
PASSED: Final = "The auto chain passed over Brave, whose key it did not find."
UNSEEN: Final = "BRAVE_API_KEY is set in os.environ, which these Credentials do not read"
ORDER: Final = ("brave", "tavily")
"""The auto order searched: Brave first, then Tavily (no list: each is the auto chain's)."""


async def _auto(context: ProviderContext) -> ChainOutcome:
    """The auto chain over :data:`ORDER`, run once."""
    order = ChainOrder.of(preferred=None, excluded=(), listed=(), fallback=True, order=ORDER)
    return await ChainRunner(MemoryStore()).run(
        order.resolve(context), SearchParams(query="python asyncio"), context
    )


async def test_an_answer_from_another_provider_says_it_once(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Failed before: Tavily answered and no note named Brave or its key."""
    monkeypatch.setenv("BRAVE_API_KEY", KEY)
    async with Simulator(list(ORDER)) as sim, environ_context(sim, GIVEN) as context:
        outcome = await _auto(context)
        assert not sim["brave"].requests
    assert outcome.response is not None and outcome.response.provider == "tavily"
    said = [note for note in outcome.response.notes if PASSED in note]
    assert len(said) == 1
    assert UNSEEN in said[0] and "collections.ChainMap(environ, os.environ)" in said[0]
    assert KEY not in " ".join(outcome.response.notes) + caplog.text


async def test_a_failed_search_ends_its_text_with_it_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Failed before: the text was Tavily's failure alone, Brave never named."""
    monkeypatch.setenv("BRAVE_API_KEY", KEY)
    async with Simulator(list(ORDER)) as sim, environ_context(sim, GIVEN) as context:
        sim["tavily"].enqueue(Fault.server_error(503, "down"), Fault.server_error(503, "down"))
        outcome = await _auto(context)
        assert len(sim["tavily"].requests) >= 1 and not sim["brave"].requests
    assert outcome.response is None
    message = outcome.failure_message()
    assert message.count(PASSED) == 1 and UNSEEN in message
    assert message.index("Tavily") < message.index(PASSED)
    assert KEY not in message


@pytest.mark.parametrize(
    ("environ", "brave_key"),
    [(GIVEN, None), ({**GIVEN, "BRAVE_API_KEY": KEY}, KEY), (None, KEY)],
    ids=["set-nowhere", "given", "os-environ-read"],
)
async def test_guard_nothing_is_said_when_the_key_is_unset_or_read(
    environ: Mapping[str, str] | None, brave_key: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A guard (passes before and after): with the key set nowhere Tavily answers with no
    such note; given, or read from ``os.environ`` itself, Brave answers, with none."""
    if brave_key is None:
        monkeypatch.delenv("BRAVE_API_KEY", raising=False)
    else:
        monkeypatch.setenv("BRAVE_API_KEY", brave_key)
    monkeypatch.setenv("TAVILY_API_KEY", GIVEN["TAVILY_API_KEY"])
    async with Simulator(list(ORDER)) as sim, environ_context(sim, environ) as context:
        outcome = await _auto(context)
    assert outcome.response is not None
    assert outcome.response.provider == ("tavily" if brave_key is None else "brave")
    assert not any("os.environ" in note for note in outcome.response.notes)


async def test_the_note_is_held_to_the_notes_bound_with_an_answer_full_of_notes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An answer already holding the bound's 20 notes keeps 20, the count last, the note kept.

    Failed before: the auto chain's note was put after the bounded notes by hand, so
    SearXNG's 30 unresponsive engines gave 21 notes, the count no longer last.
    """
    monkeypatch.setenv("BRAVE_API_KEY", KEY)
    body = json.loads(read_capture("searxng/search_format_json_espresso_2026.json"))
    body["unresponsive_engines"] = [[f"engine{n}", "timeout"] for n in range(30)]
    order = ("brave", "searxng")
    async with Simulator(list(order)) as sim, environ_context(sim, GIVEN) as context:
        sim["searxng"].always(
            Fault.http(200, json.dumps(body), {"Content-Type": "application/json"})
        )
        chain = ChainOrder.of(preferred=None, excluded=(), listed=(), fallback=True, order=order)
        outcome = await ChainRunner(MemoryStore()).run(
            chain.resolve(context), SearchParams(query="python asyncio"), context
        )
    assert outcome.response is not None and outcome.response.provider == "searxng"
    notes = outcome.response.notes
    assert len(notes) == MAX_NOTES
    assert sum(PASSED in note for note in notes) == 1
    assert notes[-1] == notes_left_out(outcome.response.notes_left_out)
    assert outcome.response.notes_left_out > 0


# --- a WebSearch whose credentials were given an environ of their own -----------------------


def _web_search(sim: Simulator, **overrides: float) -> WebSearch:
    """A client on the simulator (the auto chain, its cache on), its credentials reading GIVEN.

    ``WebSearch`` builds credentials that read ``os.environ``, where the note is never
    true; a user who sets its public ``credentials`` to ones given an ``environ`` of their
    own meets it as the chain's users do.
    """
    settings = sim.settings(rate_limit_wait_seconds=0, **overrides)
    ws = WebSearch(settings)
    store = CredentialStore(settings.resolved_credentials_file())
    ws.credentials = Credentials(environ=GIVEN, store=store)
    return ws


def _said(result: SearchToolResult) -> list[str]:
    assert result.response is not None, result.text
    return [note for note in result.response.notes if note.startswith(PASSED)]


async def test_a_cache_hit_says_the_note_its_plan_says(monkeypatch: pytest.MonkeyPatch) -> None:
    """Failed before: the answer stored before the key was set in ``os.environ`` came back
    from the cache with no note, though the search's plan had passed Brave over."""
    monkeypatch.delenv("BRAVE_API_KEY", raising=False)
    async with Simulator(list(ORDER)) as sim, _web_search(sim) as ws:
        first = await ws.run("python asyncio")
        assert not _said(first)
        monkeypatch.setenv("BRAVE_API_KEY", KEY)
        hit = await ws.run("python asyncio")
        assert not sim["brave"].requests
    assert hit.response is not None and hit.response.cached
    assert len(_said(hit)) == 1 and UNSEEN in _said(hit)[0]
    assert KEY not in hit.text + " ".join(hit.response.notes)


async def test_a_cache_hit_drops_the_note_its_plan_no_longer_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Failed before: the answer stored while the key was set in ``os.environ`` alone came
    back from the cache still naming Brave and the variable, after the key was removed."""
    monkeypatch.setenv("BRAVE_API_KEY", KEY)
    async with Simulator(list(ORDER)) as sim, _web_search(sim) as ws:
        first = await ws.run("python asyncio")
        assert len(_said(first)) == 1
        monkeypatch.delenv("BRAVE_API_KEY")
        hit = await ws.run("python asyncio")
    assert hit.response is not None and hit.response.cached
    assert not _said(hit), hit.response.notes


async def test_a_stale_answer_after_a_failure_says_the_failed_plans_note(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Failed before: Tavily down, the stale answer stored before the key was set came back
    with no note, though the failed chain had passed Brave over."""
    monkeypatch.delenv("BRAVE_API_KEY", raising=False)
    async with Simulator(list(ORDER)) as sim, _web_search(sim, cache_ttl_seconds=0.01) as ws:
        await ws.run("python asyncio")
        await asyncio.sleep(0.05)  # past the answer's time to live: only a stale one is left
        monkeypatch.setenv("BRAVE_API_KEY", KEY)
        sim["tavily"].always(Fault.server_error(503, "down"))
        stale = await ws.run("python asyncio")
    assert stale.response is not None and stale.response.stale, stale.text
    assert len(_said(stale)) == 1
