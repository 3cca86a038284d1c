"""A state store that does not answer holds no search past the call's deadline.

Real stores only: a SQLite file whose write lock another connection holds (as another
process mid-transaction would), a loopback server that accepts and never answers in place
of Redis, and a loopback proxy in front of a real redis-server that goes silent at a
chosen request. Each fault used to cost the store's own timeout (10 s busy timeout, 5 s
socket timeout) on top of a deadline of 1 s.

No time is measured against a bound (``elapsed < 3 s`` flips on a loaded machine). The
store's own wait is an hour here (busy timeout, socket timeout), and each fault lets go by
itself after a hang guard (:mod:`tests.fault_release`): the search's answer must arrive
while the fault still holds. A search that waits for the store instead ends when the
fault lets go, and fails its test then rather than hanging it: a guard's cancel does not
free a call stuck on the store's thread, the fault's end does.
"""

import asyncio
import functools
import logging
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from tests.fault_release import HANG_GUARD_SECONDS, SelfRelease
from tests.functional._locked_store import write_lock_held
from tests.sqlite_holder import held_by_another_process
from tests.stalling_proxy import silent_server, stalling_proxy
from websearch_core import WebSearch
from websearch_core.settings import MAX_DEADLINE_SECONDS
from websearch_core.state.sqlite import SQLiteStore
from websearch_core.testing import Fault, Simulator

DEADLINE = 1.0

HOUR = 3600.0
"""The store's own wait for the lock or the socket: longer than any guard, so only the
deadline's bound ends it before the fault lets go."""


@pytest.fixture
def patient_sqlite(monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite stores that wait an hour for another connection's lock (10 s by default)."""
    patient = functools.partial(SQLiteStore, busy_timeout=HOUR)
    monkeypatch.setattr("websearch_core.state.open.SQLiteStore", patient)


def _patient_redis(url: str) -> str:
    """``url`` with Redis's socket timeout an hour (5 s by default)."""
    return f"{url}?socket_timeout={HOUR:.0f}"


def _settings(sim: Simulator, **state: Any) -> Any:
    return sim.settings(timeout_seconds=None, deadline_seconds=DEADLINE, provider="brave", **state)


async def test_a_write_lock_held_elsewhere_holds_no_failing_search_past_its_deadline(
    tmp_path: Path, locked_file: sqlite3.Connection, patient_sqlite: None
) -> None:
    # A 503 is counted towards the provider's circuit breaker: a write, which waited out
    # the 10 s busy timeout behind the lock (10.03 s measured for this 1 s search).
    async with Simulator(["brave"]) as sim:
        settings = _settings(sim, state_backend="sqlite", state_dir=tmp_path)
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            assert not (await ws.run("python asyncio")).is_error  # opens the store
            sim["brave"].always(Fault.server_error(503))
            release = SelfRelease()
            with write_lock_held(locked_file, release):
                result = await ws.run("rust tokio")
                answered_while_locked = release.held
    assert result.text == "Error: Brave API error (503): internal error"
    assert answered_while_locked


async def test_an_answer_does_not_wait_for_its_cache_write_which_lands_later(
    tmp_path: Path, locked_file: sqlite3.Connection, patient_sqlite: None
) -> None:
    # The write waited out the busy timeout before the answer was returned (10 s for this
    # 1 s search). It is no longer waited for past the deadline, and it is not lost: it
    # stays with the store (SQLite holds it in memory, written behind), which writes it
    # once the lock is released.
    async with Simulator(["brave"]) as sim:
        settings = _settings(sim, state_backend="sqlite", state_dir=tmp_path)
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            assert not (await ws.run("python asyncio")).is_error  # opens the store
            store = await ws.state()
            release = SelfRelease()
            with write_lock_held(locked_file, release):
                result = await ws.run("rust tokio")
                assert not (await ws.run("go goroutines")).is_error
                answered_while_locked = release.held
                # The next answer waits for nothing either: no call of either search was
                # given up on behind the lock (a write that waited would still be there).
                silent = store.known_silent()
            # All three: a write held in memory leaves the store answering, so the third
            # search's entry is kept too (when the write itself waited, the store was
            # searched without after it and only the first two reached the file).
            assert await _cache_rows(locked_file, want=3) == 3
        sim["brave"].always(Fault.server_error(503))
        async with WebSearch(settings, api_keys=sim.api_keys()) as later:
            cached = await later.search("rust tokio")
    assert not result.is_error
    assert answered_while_locked
    assert silent is None
    assert cached.cached and not cached.stale


async def _cache_rows(observer: sqlite3.Connection, want: int = 2) -> int:
    """The cache's row count once it reaches ``want`` (or at the hang guard, whatever it is).

    Polled: the write lands on the store's thread once the lock is gone; the guard only
    turns a write that never lands into a failure instead of a hang.
    """
    give_up = time.monotonic() + HANG_GUARD_SECONDS
    while True:
        (rows,) = observer.execute("SELECT count(*) FROM cache").fetchone()
        if rows >= want or time.monotonic() > give_up:
            return int(rows)
        await asyncio.sleep(0.02)


@pytest.mark.parametrize("use_cache", [True, False])
async def test_a_state_file_locked_before_its_first_use_leaves_the_providers_their_time(
    tmp_path: Path, use_cache: bool, patient_sqlite: None
) -> None:
    # Opening the file takes the write lock (to migrate it), on the cache lookup before any
    # provider is asked (without a cache, on the reservation): 10.04 s measured for 1 s,
    # then the whole deadline and the error "the 1s deadline for the whole search ran out;
    # not tried: brave". Either now gets a share of the deadline (0.25 s here), and the
    # search goes on without the store.
    async with Simulator(["brave"]) as sim:
        settings = _settings(sim, state_backend="sqlite", state_dir=tmp_path)
        release = SelfRelease()
        with held_by_another_process(tmp_path / "state.sqlite3", release):
            async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
                result = await ws.run("python asyncio", use_cache=use_cache)
                answered_while_locked = release.held
    assert not result.is_error, result.text
    assert answered_while_locked


async def test_an_answer_is_not_held_until_the_deadline_by_its_cache_write(
    tmp_path: Path, patient_sqlite: None
) -> None:
    # The provider answers at once; the cache write behind another process's lock then
    # waited for the rest of the deadline: 10.0 s for a 10 s search (55 s by default).
    # Here the deadline is the most allowed (900 s), so an answer held until it would
    # still be held when the lock lets go; the write's share is 1 s.
    async with Simulator(["brave"]) as sim:
        settings = sim.settings(
            timeout_seconds=None,
            deadline_seconds=MAX_DEADLINE_SECONDS,
            provider="brave",
            state_backend="sqlite",
            state_dir=tmp_path,
        )
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            assert not (await ws.run("python asyncio")).is_error  # opens the store
            release = SelfRelease()
            with held_by_another_process(tmp_path / "state.sqlite3", release):
                result = await ws.run("rust tokio")
                answered_while_locked = release.held
    assert not result.is_error, result.text
    assert answered_while_locked


async def test_a_redis_that_never_answers_leaves_the_providers_their_time(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # The cache lookup, the first thing a search asks the store, waited out Redis's 5 s
    # socket timeout, then the deadline: "the 1s deadline for the whole search ran out".
    pytest.importorskip("redis")
    release = SelfRelease()
    with silent_server(release) as port:
        async with Simulator(["brave"]) as sim:
            url = _patient_redis(f"redis://:hunter2-redis-secret@127.0.0.1:{port}/0")
            settings = _settings(sim, state_backend="redis", redis_url=url)
            async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
                with caplog.at_level(logging.DEBUG):
                    result = await ws.run("python asyncio")
                answered_while_silent = release.held
    assert not result.is_error, result.text
    assert answered_while_silent
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
        release = SelfRelease()
        with stalling_proxy(port, marker=b"cache:", passes=1, release=release) as proxy_port:
            url = _patient_redis(redis_url.replace(f":{port}/", f":{proxy_port}/"))
            settings = _settings(sim, state_backend="redis", redis_url=url)
            async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
                result = await ws.run("stale python asyncio")
                answered_while_silent = release.held
        async with WebSearch(_settings(sim), api_keys=sim.api_keys()) as plain:
            uncached = await plain.run("stale python asyncio", use_cache=False)
    assert result.is_error
    assert result.text == uncached.text
    assert answered_while_silent


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
                assert "Brave search timed out" in result.text
            mark = await (await ws.state()).get_mark("brave", time.time())
            await (await ws.state()).clear("brave")
    assert mark is not None and mark.kind == "circuit_open"


async def test_a_budgeted_reservation_held_up_leaves_the_provider_its_time(
    tmp_path: Path, locked_file: sqlite3.Connection, patient_sqlite: None
) -> None:
    # With a budget the reservation is a write. Behind the lock it used up the deadline,
    # and the provider, never asked, was then reported as "Brave search timed out after
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
            release = SelfRelease()
            with write_lock_held(locked_file, release):
                result = await ws.run("rust tokio")
                answered_while_locked = release.held
    assert not result.is_error, result.text
    assert [(a.provider, a.outcome) for a in result.response.attempts] == [("brave", "success")]
    assert "asked as the last resort, the request uncounted" in " ".join(result.response.notes)
    assert len(sim["brave"].requests) == 2
    assert answered_while_locked


def _chain_behind_the_lock(sim: Simulator, tmp_path: Path, deadline: float = 10.0) -> Any:
    """Brave, then Tavily, under a 10 s deadline: a store's wait a tenth of it (1 s)."""
    return sim.settings(
        timeout_seconds=None,
        deadline_seconds=deadline,
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
    tmp_path: Path, locked_file: sqlite3.Connection, patient_sqlite: None
) -> None:
    # A success after a failure clears the failure count, a write. Behind the lock the
    # answer, ready at once, waited for it until the deadline (10 s of a 10 s search). It
    # now waits a reservation's share (1 s). The deadline here is the most allowed (900 s):
    # an answer held until it, or until half of it (the most any store wait may take,
    # STORE_SETTING_CAP), would still be held when the lock lets go.
    async with Simulator(["brave", "tavily"]) as sim:
        settings = _chain_behind_the_lock(sim, tmp_path, MAX_DEADLINE_SECONDS)
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            sim["brave"].enqueue(Fault.server_error(503))
            assert not (await ws.run("python asyncio")).is_error  # one failure counted
            release = SelfRelease()
            with write_lock_held(locked_file, release):
                result = await ws.run("rust tokio", use_cache=False)
                answered_while_locked = release.held
    assert not result.is_error, result.text
    assert [(a.provider, a.outcome) for a in result.response.attempts] == [("brave", "success")]
    assert answered_while_locked
