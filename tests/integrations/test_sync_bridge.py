"""``run_sync`` and ``search_sync`` take the same per-call options as ``run`` and ``search``."""

from pathlib import Path

from websearch_core import WebSearch
from websearch_core.testing import Simulator


def _client(sim: Simulator, state: Path) -> WebSearch:
    # The sync bridge opens a fresh client per call: the cache must outlive it (SQLite).
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
