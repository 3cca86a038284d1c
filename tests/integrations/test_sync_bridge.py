"""``run_sync`` and ``search_sync`` take the same per-call options as ``run`` and ``search``."""

import asyncio
from pathlib import Path

from websearch_core import WebSearch
from websearch_core.testing import Fault, Simulator


def _client(sim: Simulator, state: Path) -> WebSearch:
    # The sync bridge runs each call on a fresh instance: the cache must outlive it.
    return WebSearch(sim.settings(state_backend="sqlite", state_dir=state), api_keys=sim.api_keys())


def test_run_sync_uses_the_cache_unless_told_not_to(
    threaded_sim: Simulator, tmp_path: Path
) -> None:
    client = _client(threaded_sim, tmp_path)
    first = client.run_sync("python asyncio")
    cached = client.run_sync("python asyncio")
    fresh = client.run_sync("python asyncio", use_cache=False)
    assert not first.response.cached
    assert cached.response.cached
    assert not fresh.response.cached
    assert fresh.text == first.text
    assert len(threaded_sim["brave"].requests) == 2


def test_search_sync_uses_the_cache_unless_told_not_to(
    threaded_sim: Simulator, tmp_path: Path
) -> None:
    client = _client(threaded_sim, tmp_path)
    assert not client.search_sync("rust", limit=2).cached
    assert client.search_sync("rust", limit=2).cached
    fresh = client.search_sync("rust", limit=2, use_cache=False)
    assert not fresh.cached
    assert [s.url for s in fresh.sources] == [
        "https://site1.example.org/rust",
        "https://site2.example.org/rust",
    ]
    assert len(threaded_sim["brave"].requests) == 2


def test_sync_calls_share_one_memory_state(threaded_sim: Simulator) -> None:
    # Each sync call runs on an instance of its own; with in-memory state, cooldowns and
    # the cache must still outlive it, as they do for calls on one loop.
    threaded_sim["brave"].always(Fault.rate_limited(retry_after=600))
    client = WebSearch(threaded_sim.settings(), api_keys=threaded_sim.api_keys())
    first = client.run_sync("first")
    second = client.run_sync("second")
    again = client.run_sync("second")
    assert [a.provider for a in first.response.attempts] == ["brave", "duckduckgo"]
    assert [(a.provider, a.outcome) for a in second.response.attempts] == [
        ("brave", "skipped"),
        ("duckduckgo", "success"),
    ]
    assert again.response.cached
    assert len(threaded_sim["brave"].requests) == 1
    assert len(threaded_sim["duckduckgo"].requests) == 2
    asyncio.run(client.aclose())
