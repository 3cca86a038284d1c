"""A reset that gives up on the state store withdraws its clear, and the library's is bounded.

Behind another process's lock on the SQLite file, ``reset_state`` (``websearch providers
reset``) gave up after 3 s and said the provider was "not cleared", but left its clear
queued on the store's thread: the lock released while the store was closing, the clear
landed (the mark was gone), contradicting the message. ``WebSearch.reset_provider`` had no
bound at all: it waited out the busy timeout (10.1 s measured), then failed with
"database is locked", naming neither what it waited for nor what was left undone.

Bound by states, not by the time taken (``elapsed < 8`` s, which a loaded machine could
flip, and a fixed 0.5 s sleep for "waiting behind the lock by now"): the store waits an
hour for the lock here, so a reset that waited for it would hang to a 30 s guard, and one
that gave up leaves the store's call still unanswered; the cancel comes once the callers'
call is queued on the store's thread.
"""

import asyncio
import functools
import sqlite3
import time
import uuid
from pathlib import Path

import pytest

from tests.sqlite_holder import held_by_another_process
from tests.store_threads import join_new_store_threads, store_threads, until_queued
from websearch_core import WebSearch
from websearch_core.settings import Settings
from websearch_core.state import StateStoreTimeoutError
from websearch_core.state.base import ProviderMark
from websearch_core.state.sqlite import SQLiteStore
from websearch_core.status import reset_state

_LOCKED = "did not answer within 3 s (another process may be holding the file locked)"
_NOT_CLEARED = "brave's cooldowns, quota marks and usage counters were not cleared"
HOUR = 3600.0
"""The store's own wait for another process's lock here (10 s by default)."""
HANG_GUARD = 30.0
"""Seconds a reset that waited for the lock rather than give up at 3 s may hang: ten times."""


async def _mark_brave(path: Path) -> None:
    store = SQLiteStore(path)
    mark = ProviderMark(kind="rate_limited", until=time.time() + 3600, reason="HTTP 429")
    await store.set_mark("brave", mark)
    await store.increment_usage("brave", "month:2026-12", time.time() + 86400)
    await store.aclose()


def _brave_rows(path: Path) -> tuple[int, int]:
    """Brave's marks and usage rows in the file, as another process sees them."""
    with sqlite3.connect(path) as observer:
        (marks,) = observer.execute(
            "SELECT count(*) FROM marks WHERE provider = 'brave'"
        ).fetchone()
        (usage,) = observer.execute(
            "SELECT count(*) FROM usage WHERE provider = 'brave'"
        ).fetchone()
    return int(marks), int(usage)


async def test_a_reset_given_up_on_does_not_clear_when_the_lock_goes_during_the_close(
    tmp_path: Path,
) -> None:
    path = tmp_path / "state.sqlite3"
    await _mark_brave(path)
    before = store_threads()
    store = SQLiteStore(path)
    with held_by_another_process(path) as lock:
        outcome = await reset_state(store, "brave")
        lock.release()  # the store's thread now gets the lock, during the close or after
        await store.aclose()
    assert join_new_store_threads(before)
    assert outcome.error == f"SQLiteStore({str(path)!r}) {_LOCKED}; {_NOT_CLEARED}"
    assert not outcome.cleared
    assert _brave_rows(path) == (1, 1)  # as the message says: nothing was cleared


async def test_reset_provider_gives_up_after_3_s_names_the_store_and_clears_nothing_later(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "state.sqlite3"
    await _mark_brave(path)
    before = store_threads()
    patient = functools.partial(SQLiteStore, busy_timeout=HOUR)
    monkeypatch.setattr("websearch_core.state.open.SQLiteStore", patient)
    ws = WebSearch(Settings(state_backend="sqlite", state_dir=tmp_path))
    store = await ws.state()
    with held_by_another_process(path) as lock:
        with pytest.raises(StateStoreTimeoutError) as raised:
            async with asyncio.timeout(HANG_GUARD):  # it waited for the lock, not its 3 s
                await ws.reset_provider("brave")
        still_waiting = store.known_silent() is not None
        lock.release()
        await ws.aclose()
    assert join_new_store_threads(before)
    assert still_waiting  # given up on: the store's call was still behind the lock
    assert str(raised.value) == f"SQLiteStore({str(path)!r}) {_LOCKED}; {_NOT_CLEARED}"
    assert raised.value.withdrawn
    assert _brave_rows(path) == (1, 1)


async def test_reset_provider_still_clears_a_store_that_answers(tmp_path: Path) -> None:
    path = tmp_path / "state.sqlite3"
    await _mark_brave(path)
    async with WebSearch(Settings(state_backend="sqlite", state_dir=tmp_path)) as ws:
        await ws.reset_provider("brave")
    assert _brave_rows(path) == (0, 0)


async def test_a_reset_cancelled_while_it_waits_clears_nothing_once_the_lock_goes(
    tmp_path: Path,
) -> None:
    # Ctrl-C during the wait: the clear stayed queued and landed once the lock went.
    path = tmp_path / "state.sqlite3"
    await _mark_brave(path)
    before = store_threads()
    store = SQLiteStore(path)
    with held_by_another_process(path) as lock:
        reset = asyncio.create_task(reset_state(store, "brave"))
        await until_queued(store, 1)  # waiting behind the lock (3 s before it gives up)
        reset.cancel()
        with pytest.raises(asyncio.CancelledError):
            await reset
        lock.release()
        await store.aclose()
    assert join_new_store_threads(before)
    assert _brave_rows(path) == (1, 1)


async def test_a_redis_reset_given_up_on_makes_no_delete_once_the_server_answers(
    redis_url: str,
) -> None:
    redis = pytest.importorskip("redis")
    from websearch_core.state.redis import RedisStore

    prefix = f"wstest-{uuid.uuid4().hex[:12]}:"
    # Its socket outwaits the pause: the scan then answers, late, and the clear would go on.
    store = RedisStore(redis.Redis.from_url(redis_url, socket_timeout=30), prefix=prefix)
    mark = ProviderMark(kind="rate_limited", until=time.time() + 3600, reason="HTTP 429")
    await store.set_mark("brave", mark)
    observer = redis.Redis.from_url(redis_url)
    observer.execute_command("CLIENT", "PAUSE", 7000, "ALL")  # silent for 7 s, then answers
    outcome = await reset_state(store, "brave")
    observer.ping()  # returns once the pause is over
    # The store's thread has its scan's answer now; let it finish what it does with it.
    # (Not closed first: the close frees the connection the scan waits on.)
    give_up = time.monotonic() + 15.0
    while store._executor.unfinished and time.monotonic() < give_up:
        await asyncio.sleep(0.05)
    await store.aclose()
    still_marked = observer.exists(f"{prefix}mark:brave")
    observer.delete(f"{prefix}mark:brave", f"{prefix}marks")
    observer.close()
    assert still_marked == 1
    assert (
        outcome.error == f"RedisStore(prefix={prefix!r}) did not answer within 3 s; {_NOT_CLEARED}"
    )
