"""A budget's reservation given up on is not counted when the store answers after all.

Behind a SQLite file another process held locked, a budgeted provider's reservation was
given up on (the search skipped the provider as unchecked and asked the next one), but it
stayed queued on the store's thread: once the lock went it was made, and the budget
counted a request that was never sent (measured: Brave sent 1 request, its budget and
month counters read 2). The same with a Redis that answers late: the script ran when the
server woke up, its count kept. A reservation given up on is now withdrawn before it
starts, or given back once it lands, so the counts match the requests sent.
"""

import asyncio
import sqlite3
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from tests.functional._locked_store import behind_a_held_lock, budgeted_brave_first
from tests.store_threads import join_new_store_threads, store_threads
from websearch_core.deadline import StoreWaitsWithin
from websearch_core.state import StateStoreTimeoutError
from websearch_core.state.base import UsageWindow
from websearch_core.testing import Simulator


def _brave_counts(path: Path) -> dict[str, int]:
    """Brave's usage counters in the file, as another process reads them."""
    with sqlite3.connect(path) as observer:
        rows = observer.execute(
            "SELECT period, count FROM usage WHERE provider = 'brave'"
        ).fetchall()
    return {str(period): int(count) for period, count in rows}


async def test_a_budget_reservation_given_up_behind_a_locked_file_is_not_counted_later(
    tmp_path: Path, locked_file: sqlite3.Connection
) -> None:
    before = store_threads()
    async with Simulator(["brave", "tavily"]) as sim:
        settings = budgeted_brave_first(
            sim, state_backend="sqlite", state_dir=tmp_path, cache=False
        )
        # The first search counts one; the lock is let go as the block ends, and the
        # store's thread gets it then.
        async with behind_a_held_lock(sim, settings, locked_file) as (ws, first):
            second = await ws.search("rust tokio")
    # The store's thread has done what it was left (its reservation included).
    assert join_new_store_threads(before)
    assert (first.provider, second.provider) == ("brave", "tavily")
    assert len(sim["brave"].requests) == 1
    counts = _brave_counts(tmp_path / "state.sqlite3")
    assert sorted(counts.values()) == [1, 1], counts  # the month's and the budget's


async def test_a_redis_budget_reservation_answered_after_it_was_given_up_is_given_back(
    redis_url: str,
) -> None:
    redis = pytest.importorskip("redis")
    from websearch_core.state.redis import RedisStore

    prefix = f"wstest-{uuid.uuid4().hex[:12]}:"
    # Its socket outwaits the pause: the script's reply comes, late, and is not thrown away.
    store = RedisStore(redis.Redis.from_url(redis_url, socket_timeout=30), prefix=prefix)
    ends = time.time() + 86400
    windows = (UsageWindow("month:x", ends), UsageWindow("budget:day:x", ends, limit=5))
    assert await store.get_usage("brave", "month:x") == 0  # connected before the pause
    observer: Any = redis.Redis.from_url(redis_url)
    observer.execute_command("CLIENT", "PAUSE", 1500, "ALL")  # silent for 1.5 s, then answers
    with StoreWaitsWithin(0.3), pytest.raises(StateStoreTimeoutError) as given_up:
        await store.reserve_usage("brave", windows)
    observer.ping()  # returns once the pause is over
    # The store's thread has the script's reply now; let it finish what it does with it.
    give_up = time.monotonic() + 15.0
    while store._executor.unfinished and time.monotonic() < give_up:
        await asyncio.sleep(0.05)
    await store.aclose()
    keys = [f"{prefix}usage:brave:month:x", f"{prefix}usage:brave:budget:day:x"]
    counts = [int(observer.get(key) or 0) for key in keys]
    observer.delete(*keys)
    observer.close()
    assert counts == [0, 0]
    assert given_up.value.withdrawn  # it will not stand: the caller can count on that
