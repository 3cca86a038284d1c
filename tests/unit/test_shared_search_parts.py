"""Parts every search used to build afresh and hold through its request, now shared.

Each was an object a search in flight held for the garbage collector to count and walk
(``benchmarks/bench_held_objects.py``), with nothing of the search's own in it: the empty
set of checks of a search without filters, and the client's kept plan, which the chain
only reads.
"""

from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from websearch_core import credentials
from websearch_core.call_setup import CallSetup
from websearch_core.credentials import Credentials, CredentialStore
from websearch_core.filters import plan_filters
from websearch_core.models import SearchParams
from websearch_core.providers import get_provider
from websearch_core.settings import Settings

BRAVE_KEY = "brave-key-given-in-code-0123456789"


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as opened:
        yield opened


def test_searches_without_filters_share_their_empty_checks() -> None:
    info = get_provider("brave").info
    first = plan_filters(SearchParams(query="first search"), info)
    second = plan_filters(SearchParams(query="second search"), info)
    assert first.checks == second.checks == frozenset()
    assert first.checks is second.checks
    # A colon looks like a directive and is read as one, but asks for no filter either.
    read = plan_filters(SearchParams(query="ratio: 3 to 1"), info)
    assert read.checks is first.checks


def test_a_filter_still_gets_its_own_checks() -> None:
    """Guard: only the empty set is shared; a checked filter is planned as before."""
    params = SearchParams(query="asyncio", include_domains=("python.org",))
    plan = plan_filters(params, get_provider("brave").info)
    assert "include_domains" in plan.checks


async def test_a_kept_plan_is_handed_out_whole(
    session: aiohttp.ClientSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(credentials, "SETTLED_NS", -1)  # the store's file counts as settled
    store = CredentialStore(tmp_path / "credentials.json")
    resolver = Credentials(explicit={"brave": BRAVE_KEY}, store=store, environ={})
    setup = CallSetup(session, Settings(state_backend="memory"), resolver, None)
    setup.plan(None)  # reads the store's file, so the next is worked out again and kept
    worked_out = setup.plan(None)
    kept = setup.plan(None)
    assert setup.plan(None) is kept
    # The plan the first search ran is not the one kept: what it did with it stays its own.
    assert kept is not worked_out
    assert kept.providers is not worked_out.providers
    assert kept.providers == worked_out.providers
    assert kept.skipped == kept.failures == []
    assert [p.info.id for p in setup.plan("brave").providers] == ["brave"]
