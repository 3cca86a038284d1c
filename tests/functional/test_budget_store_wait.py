"""A provider's budget that a stuck state store cannot check costs the search no answer.

A budgeted provider is reserved in one store write before its request. Behind a SQLite
file another process holds locked (or a loopback server that accepts and never answers in
place of Redis), that write used to be waited for as long as the whole deadline allowed:
the next provider, which another provider's answer could have come from, was never asked
("the 1s deadline for the whole search ran out; not tried: brave, tavily"). The write now
waits the share of the deadline a cache lookup gets, and the budgeted provider is skipped,
not asked unchecked: a budget is a promise not to spend, and the store is its only witness.
The chain's next provider answers. Outcomes are asserted, not times.

Behind the locked file the bound is a hang guard, not the time taken (``elapsed <``
the deadline, which a loaded machine could flip): the store waits an hour for the lock
and the search has the most deadline allowed, so a reservation that waited the deadline
rather than its share (at most 1 s) hangs to a 30 s guard; the store's call must still be
unanswered when the search returns.
"""

import asyncio
import functools
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.functional._locked_store import behind_a_held_lock, budgeted_brave_first
from tests.stalling_proxy import silent_server
from websearch_core import WebSearch
from websearch_core.settings import MAX_DEADLINE_SECONDS
from websearch_core.state.sqlite import SQLiteStore
from websearch_core.testing import Simulator

DEADLINE = 4.0
"""Well under SQLite's 10 s busy timeout and Redis's 5 s socket timeout, so a reservation
waited for as long as the deadline allowed leaves nothing for the second provider."""

HOUR = 3600.0
"""The store's own wait for another process's lock behind the locked file (10 s by default)."""
HANG_GUARD = 30.0
"""Seconds a search whose reservation waited the deadline, not its 1 s share, may hang."""

UNCHECKED = (
    "Brave budget of 1000/month cannot be checked while the state store is unavailable; "
    "skipped without a request."
)


def _settings(sim: Simulator, **state: Any) -> Any:
    return budgeted_brave_first(sim, deadline_seconds=DEADLINE, **state)


async def test_a_budget_behind_a_locked_file_skips_its_provider_and_the_next_answers(
    tmp_path: Path, locked_file: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    patient = functools.partial(SQLiteStore, busy_timeout=HOUR)
    monkeypatch.setattr("websearch_core.state.open.SQLiteStore", patient)
    async with Simulator(["brave", "tavily"]) as sim:
        settings = budgeted_brave_first(
            sim,
            deadline_seconds=MAX_DEADLINE_SECONDS,
            state_backend="sqlite",
            state_dir=tmp_path,
            cache=False,
        )
        async with behind_a_held_lock(sim, settings, locked_file) as (ws, first):
            assert first.provider == "brave"  # the search that opened the store
            store = await ws.state()
            async with asyncio.timeout(HANG_GUARD):  # waited the deadline, not its share
                response = await ws.search("rust tokio")
            still_waiting = store.known_silent() is not None
    assert response.provider == "tavily"
    outcomes = [(a.provider, a.outcome) for a in response.attempts]
    assert outcomes == [("brave", "skipped"), ("tavily", "success")]
    assert response.attempts[0].detail == UNCHECKED
    assert len(sim["brave"].requests) == 1  # the first search's only: no request unchecked
    assert still_waiting  # given up on: the reservation was still behind the lock


async def test_a_budget_a_silent_redis_cannot_check_is_not_spent(
    caplog: pytest.LogCaptureFixture,
) -> None:
    pytest.importorskip("redis")
    with silent_server() as port:
        async with Simulator(["brave", "tavily"]) as sim:
            url = f"redis://:hunter2-redis-secret@127.0.0.1:{port}/0"
            settings = _settings(sim, state_backend="redis", redis_url=url)
            async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
                first = await ws.search("python asyncio", use_cache=False)
                # The store is now bypassed as down: the budget is still not spent unchecked.
                second = await ws.search("rust tokio", use_cache=False)
    for response in (first, second):
        assert response.provider == "tavily"
        assert response.attempts[0].detail == UNCHECKED
    assert sim["brave"].requests == []
    assert "hunter2" not in caplog.text


async def test_a_public_engine_whose_budget_cannot_be_checked_is_skipped_not_cut_off(
    tmp_path: Path, locked_file: sqlite3.Connection
) -> None:
    # An engine's reservation waited for the call's deadline, not a share of it: behind
    # the lock Bing's budget write held it until the fan-out's soft deadline cut it off
    # (5 s, DuckDuckGo's answer waiting meanwhile), and the note said it did not answer.
    async with Simulator(["duckduckgo", "bing"]) as sim:
        settings = sim.settings(
            timeout_seconds=None,
            deadline_seconds=20.0,
            provider="public",
            budget={"bing": "100/day"},
            state_backend="sqlite",
            state_dir=tmp_path,
            cache=False,
        )
        async with behind_a_held_lock(sim, settings, locked_file) as (ws, first):
            assert not first.partial  # the search that opened the store
            response = await ws.search("rust tokio")
    assert response.partial
    assert "bing: budget of 100/day unchecked: state store unavailable" in " ".join(response.notes)
    assert len(sim["bing"].requests) == 1  # the first search's only
