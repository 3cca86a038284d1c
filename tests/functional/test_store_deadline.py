"""A state store that does not answer holds no search past the call's deadline.

Real stores only: a SQLite file whose write lock another connection holds (as another
process mid-transaction would), a loopback server that accepts and never answers in place
of Redis, and a loopback proxy in front of a real redis-server that goes silent at a
chosen request. Each fault used to cost the store's own timeout (10 s busy timeout, 5 s
socket timeout) on top of a deadline of 1 s; the bounds below leave generous slack.
"""

import asyncio
import logging
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from tests.functional._locked_store import write_lock_held
from tests.sqlite_holder import held_by_another_process
from tests.stalling_proxy import silent_server, stalling_proxy
from websearch_core import WebSearch
from websearch_core.deadline import STORE_SETTING_CAP
from websearch_core.testing import Fault, Simulator

DEADLINE = 1.0
BOUND = 3 * DEADLINE
"""The deadline with slack for a loaded machine; every fault below took 5 s or more."""


def _settings(sim: Simulator, **state: Any) -> Any:
    return sim.settings(timeout_seconds=None, deadline_seconds=DEADLINE, provider="brave", **state)


async def test_a_write_lock_held_elsewhere_holds_no_failing_search_past_its_deadline(
    tmp_path: Path, locked_file: sqlite3.Connection
) -> None:
    # A 503 is counted towards the provider's circuit breaker: a write, which waited out
    # the 10 s busy timeout behind the lock (10.03 s measured for this 1 s search).
    async with Simulator(["brave"]) as sim:
        settings = _settings(sim, state_backend="sqlite", state_dir=tmp_path)
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            assert not (await ws.run("python asyncio")).is_error  # opens the store
            sim["brave"].always(Fault.server_error(503))
            with write_lock_held(locked_file):
                started = time.monotonic()
                result = await ws.run("rust tokio")
                elapsed = time.monotonic() - started
    assert result.text == "Error: Brave API error (503): internal error"
    assert elapsed < BOUND


async def test_an_answer_does_not_wait_for_its_cache_write_which_lands_later(
    tmp_path: Path, locked_file: sqlite3.Connection
) -> None:
    # The write waited out the busy timeout before the answer was returned (10 s for this
    # 1 s search). It is no longer waited for past the deadline, and it is not lost: it
    # stays with the store (SQLite holds it in memory, written behind), which writes it
    # once the lock is released.
    async with Simulator(["brave"]) as sim:
        settings = _settings(sim, state_backend="sqlite", state_dir=tmp_path)
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            assert not (await ws.run("python asyncio")).is_error  # opens the store
            with write_lock_held(locked_file):
                started = time.monotonic()
                result = await ws.run("rust tokio")
                elapsed = time.monotonic() - started
                started = time.monotonic()
                assert not (await ws.run("go goroutines")).is_error
                following = time.monotonic() - started
            # All three: a write held in memory leaves the store answering, so the third
            # search's entry is kept too (when the write itself waited, the store was
            # searched without after it and only the first two reached the file).
            assert await _cache_rows(locked_file, want=3) == 3
        sim["brave"].always(Fault.server_error(503))
        async with WebSearch(settings, api_keys=sim.api_keys()) as later:
            cached = await later.search("rust tokio")
    assert not result.is_error
    assert elapsed < BOUND
    # The next answer waits for nothing either.
    assert following < DEADLINE / 2
    assert cached.cached and not cached.stale


async def _cache_rows(observer: sqlite3.Connection, want: int = 2) -> int:
    """The cache's row count once it reaches ``want`` (or after 5 s, whatever it is then)."""
    give_up = time.monotonic() + 5.0
    while True:
        (rows,) = observer.execute("SELECT count(*) FROM cache").fetchone()
        if rows >= want or time.monotonic() > give_up:
            return int(rows)
        await asyncio.sleep(0.02)


@pytest.mark.parametrize("use_cache", [True, False])
async def test_a_state_file_locked_before_its_first_use_leaves_the_providers_their_time(
    tmp_path: Path, use_cache: bool
) -> None:
    # Opening the file takes the write lock (to migrate it), on the cache lookup before any
    # provider is asked (without a cache, on the reservation): 10.04 s measured for 1 s,
    # then the whole deadline and the error "the 1s deadline for the whole search ran out;
    # not tried: brave". Either now gets a share of the deadline (0.25 s here), and the
    # search goes on without the store.
    async with Simulator(["brave"]) as sim:
        settings = _settings(sim, state_backend="sqlite", state_dir=tmp_path)
        with held_by_another_process(tmp_path / "state.sqlite3"):
            async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
                started = time.monotonic()
                result = await ws.run("python asyncio", use_cache=use_cache)
                elapsed = time.monotonic() - started
    assert not result.is_error, result.text
    assert elapsed < BOUND


async def test_an_answer_is_not_held_until_the_deadline_by_its_cache_write(
    tmp_path: Path,
) -> None:
    # The provider answers at once; the cache write behind another process's lock then
    # waited for the rest of the deadline: 10.0 s for this 10 s search (55 s by default).
    async with Simulator(["brave"]) as sim:
        settings = sim.settings(
            timeout_seconds=None,
            deadline_seconds=10.0,
            provider="brave",
            state_backend="sqlite",
            state_dir=tmp_path,
        )
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            assert not (await ws.run("python asyncio")).is_error  # opens the store
            with held_by_another_process(tmp_path / "state.sqlite3"):
                started = time.monotonic()
                result = await ws.run("rust tokio")
                elapsed = time.monotonic() - started
    assert not result.is_error, result.text
    assert elapsed < 5.0


async def test_a_redis_that_never_answers_leaves_the_providers_their_time(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # The cache lookup, the first thing a search asks the store, waited out Redis's 5 s
    # socket timeout, then the deadline: "the 1s deadline for the whole search ran out".
    pytest.importorskip("redis")
    with silent_server() as port:
        async with Simulator(["brave"]) as sim:
            url = f"redis://:hunter2-redis-secret@127.0.0.1:{port}/0"
            settings = _settings(sim, state_backend="redis", redis_url=url)
            async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
                started = time.monotonic()
                with caplog.at_level(logging.DEBUG):
                    result = await ws.run("python asyncio")
                elapsed = time.monotonic() - started
    assert not result.is_error, result.text
    assert elapsed < BOUND
    assert "hunter2" not in caplog.text + result.text


async def test_a_stale_lookup_the_store_never_answers_ends_with_the_spec_error(
    redis_url: str,
) -> None:
    # Every provider fails at once; the lookup of a stale answer then hangs (the proxy goes
    # silent at the cache key's second request: the first is the fresh lookup). It waited
    # out Redis's 5 s socket timeout; now the call ends at its deadline, with the error it
    # gives without a cache.
    port = int(redis_url.rsplit(":", 1)[1].split("/")[0])
    async with Simulator(["brave"]) as sim:
        seeded = _settings(sim, state_backend="redis", redis_url=redis_url, cache_ttl_seconds=0.1)
        async with WebSearch(seeded, api_keys=sim.api_keys()) as ws:
            assert not (await ws.run("stale python asyncio")).is_error
        await asyncio.sleep(0.3)  # the entry is stale now, kept for serve-stale
        sim["brave"].always(Fault.http(400, "bad request"))
        with stalling_proxy(port, marker=b"cache:", passes=1) as proxy_port:
            url = redis_url.replace(f":{port}/", f":{proxy_port}/")
            settings = _settings(sim, state_backend="redis", redis_url=url)
            async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
                started = time.monotonic()
                result = await ws.run("stale python asyncio")
                elapsed = time.monotonic() - started
        async with WebSearch(_settings(sim), api_keys=sim.api_keys()) as plain:
            uncached = await plain.run("stale python asyncio", use_cache=False)
    assert result.is_error
    assert result.text == uncached.text
    assert elapsed < BOUND


async def test_a_provider_that_hangs_until_the_deadline_still_has_its_failures_counted(
    redis_url: str,
) -> None:
    # Guards the grace a store call begun at the deadline gets: a Redis needs a moment to
    # count the timeout that took all of the call's time. Given up at once, the count
    # would be read as the first failure every time and the breaker would never open.
    async with Simulator(["brave"]) as sim:
        sim["brave"].always(Fault.hang())
        settings = _settings(sim, state_backend="redis", redis_url=redis_url)
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            await (await ws.state()).clear("brave")
            for _ in range(2):
                result = await ws.run("python asyncio", use_cache=False)
                assert "Brave request timed out" in result.text
            mark = await (await ws.state()).get_mark("brave", time.time())
            await (await ws.state()).clear("brave")
    assert mark is not None and mark.kind == "circuit_open"


async def test_a_budgeted_reservation_held_up_leaves_the_provider_its_time(
    tmp_path: Path, locked_file: sqlite3.Connection
) -> None:
    # With a budget the reservation is a write. Behind the lock it used up the deadline,
    # and the provider, never asked, was then reported as "Brave request timed out after
    # 0s" (before the store's waits were bounded: after 10 s), then as "the 1s deadline
    # for the whole search ran out". It now waits a share of the deadline; the budget it
    # could not check is only spent when nothing else can answer (here: nothing else is
    # there), uncounted and saying so, rather than the search failing for the store.
    async with Simulator(["brave"]) as sim:
        settings = _settings(
            sim, state_backend="sqlite", state_dir=tmp_path, budget={"brave": "1000/month"}
        )
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            assert not (await ws.run("python asyncio")).is_error  # opens the store
            with write_lock_held(locked_file):
                started = time.monotonic()
                result = await ws.run("rust tokio")
                elapsed = time.monotonic() - started
    assert not result.is_error, result.text
    assert [(a.provider, a.outcome) for a in result.response.attempts] == [("brave", "success")]
    assert "asked as the last resort, the request uncounted" in " ".join(result.response.notes)
    assert len(sim["brave"].requests) == 2
    assert elapsed < BOUND


def _chain_behind_the_lock(sim: Simulator, tmp_path: Path) -> Any:
    """Brave, then Tavily, under a 10 s deadline: a store's wait a tenth of it (1 s)."""
    return sim.settings(
        timeout_seconds=None,
        deadline_seconds=10.0,
        providers=("brave", "tavily"),
        state_backend="sqlite",
        state_dir=tmp_path,
    )


async def test_a_failure_counted_behind_the_lock_leaves_the_next_provider_its_time(
    tmp_path: Path, locked_file: sqlite3.Connection
) -> None:
    # Brave's 503 is counted towards its circuit breaker, a write. Behind the lock it
    # waited what remained of the deadline, so Tavily, which could answer, was never
    # asked: "the 10s deadline for the whole search ran out; not tried: tavily". It now
    # waits a reservation's share of the deadline, and the chain goes on.
    async with Simulator(["brave", "tavily"]) as sim:
        settings = _chain_behind_the_lock(sim, tmp_path)
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            assert not (await ws.run("python asyncio")).is_error  # opens the store
            sim["brave"].always(Fault.server_error(503))
            with write_lock_held(locked_file):
                result = await ws.run("rust tokio", use_cache=False)
    assert not result.is_error, result.text
    attempts = [(a.provider, a.outcome) for a in result.response.attempts]
    assert attempts == [("brave", "failed"), ("tavily", "success")]


async def test_a_success_forgiving_a_failure_behind_the_lock_is_not_held_to_the_deadline(
    tmp_path: Path, locked_file: sqlite3.Connection
) -> None:
    # A success after a failure clears the failure count, a write. Behind the lock the
    # answer, ready at once, waited for it until the deadline (10 s here). It now waits a
    # reservation's share (1 s); the bound is half the deadline, the most any store wait
    # may take (STORE_SETTING_CAP, README's WEBSEARCH_STATE_WAIT_SECONDS).
    async with Simulator(["brave", "tavily"]) as sim:
        settings = _chain_behind_the_lock(sim, tmp_path)
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            sim["brave"].enqueue(Fault.server_error(503))
            assert not (await ws.run("python asyncio")).is_error  # one failure counted
            with write_lock_held(locked_file):
                started = time.monotonic()
                result = await ws.run("rust tokio", use_cache=False)
                elapsed = time.monotonic() - started
    assert not result.is_error, result.text
    assert [(a.provider, a.outcome) for a in result.response.attempts] == [("brave", "success")]
    assert elapsed < settings.deadline_seconds * STORE_SETTING_CAP
