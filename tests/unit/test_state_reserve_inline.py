"""A reservation without a cap reads inline with no coroutine in between, and queues when busy.

``SQLiteStore.reserve_unless_marked`` runs before every request. Its uncapped path tries
the inline connection itself rather than through ``_read_with_pending``'s coroutine (one
frame and await less a search); while the inline connection is busy it still runs on the
store's thread, with the same answer. The guard holds that second way.
"""

import asyncio
import time
from pathlib import Path

import pytest

from websearch_core.state import SQLiteStore, UsageWindow

MONTH = "month:2099-01"


def _uncapped() -> tuple[UsageWindow, ...]:
    return (UsageWindow(MONTH, time.time() + 600),)


async def test_an_uncapped_reservation_reads_inline_without_the_readers_coroutine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with SQLiteStore(tmp_path / "state.db") as store:
        await store.reserve_unless_marked("brave", _uncapped(), time.time())  # opens inline
        read_with_pending = store._read_with_pending
        coroutines: list[object] = []

        def counted(func: object) -> object:
            coroutines.append(func)
            return read_with_pending(func)  # type: ignore[arg-type]

        monkeypatch.setattr(store, "_read_with_pending", counted)
        grants = [
            await store.reserve_unless_marked("brave", _uncapped(), time.time()) for _ in range(3)
        ]
        assert [grant.counts for grant in grants] == [(2,), (3,), (4,)]
        assert all(grant.granted for grant in grants)
        assert coroutines == []


async def test_an_uncapped_reservation_runs_on_the_stores_thread_while_inline_is_busy(
    tmp_path: Path,
) -> None:
    """Guard: with the inline connection's lock held elsewhere, the thread answers alike."""
    async with SQLiteStore(tmp_path / "state.db") as store:
        await store.reserve_unless_marked("brave", _uncapped(), time.time())  # opens inline
        threads: list[str] = []
        run = store._run

        async def recorded(func: object) -> object:
            threads.append("thread")
            return await run(func)  # type: ignore[arg-type]

        store._run = recorded  # type: ignore[method-assign]
        held = store._inline_lock
        assert held.acquire(False)
        try:
            grant = await asyncio.wait_for(
                store.reserve_unless_marked("brave", _uncapped(), time.time()), 10
            )
        finally:
            held.release()
            del store._run
        assert threads == ["thread"]
        assert grant.granted and grant.counts == (2,)
        again = await store.reserve_unless_marked("brave", _uncapped(), time.time())
        assert again.counts == (3,)
