"""Resets and the library's status on a store this process already knows to be silent.

Once a search had given up on the store (a SQLite file another process holds locked, a
Redis that never replies), the status table named that at once, but a reset did not: its
clear queued behind the call still unanswered and waited its full 3 s
(``STATE_WAIT_SECONDS``) before saying "not cleared" (measured, locked file and silent
Redis: ``reset_state`` for one provider 3.00 s and 3.01 s, for all 3.01 s and 3.02 s,
``WebSearch.reset_provider`` 3.00 s each). ``WebSearch.provider_status()`` on its own
waited as long whenever the fail-safe wrapper did not already bypass the store, as after a
reset given up on (3.23 s and 3.01 s). Each now answers at once, and a reset refused so is
never queued: it cannot clear later.

Bound by counts, not by the time taken (``elapsed < 1.0`` s, which a loaded machine could
flip): an answer that waited had queued a call behind the unanswered one, so the callers'
calls made on the store's thread while they answer must be none.
"""

import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from tests.functional._sim_helpers import SILENT
from tests.sqlite_holder import held_by_another_process
from tests.store_threads import calls_made, join_new_store_threads, store_threads
from websearch_core import WebSearch
from websearch_core.settings import Settings
from websearch_core.state import StateStoreTimeoutError
from websearch_core.state.base import ProviderMark
from websearch_core.state.sqlite import SQLiteStore
from websearch_core.status import reset_state
from websearch_core.testing import Simulator

NOT_CLEARED = "cooldowns, quota marks and usage counters were not cleared"


def _search_settings(sim: Simulator, **state: Any) -> Settings:
    """Brave with a budget (its reservation waits for the store) before Tavily."""
    return sim.settings(
        timeout_seconds=None,
        deadline_seconds=4.0,
        providers=("brave", "tavily"),
        budget={"brave": "1000/month"},
        cache=False,
        **state,
    )


async def test_resets_on_a_store_known_silent_answer_at_once(silent_state: dict[str, Any]) -> None:
    async with (
        Simulator(["brave", "tavily"]) as sim,
        WebSearch(_search_settings(sim, **silent_state), api_keys=sim.api_keys()) as ws,
    ):
        assert (await ws.search("rust tokio")).provider == "tavily"  # gave up on the store
        store = await ws.state()
        calls = calls_made(store)
        one = await reset_state(store, "brave")
        every = await reset_state(store, None)
        with pytest.raises(StateStoreTimeoutError) as raised:
            await ws.reset_provider("brave")
        asked = calls_made(store) - calls
    assert asked == 0  # each queued its clear behind the unanswered call and waited 3 s
    assert not one.cleared and not every.cleared
    assert one.error == f"{store!r} {SILENT}{_why(store)}; brave's {NOT_CLEARED}"
    assert every.error == f"{store!r} {SILENT}{_why(store)}; every provider's {NOT_CLEARED}"
    assert str(raised.value) == one.error
    assert raised.value.withdrawn  # "not cleared" is final: nothing was queued


def _why(store: object) -> str:
    """What the store's messages add on why it may be silent (SQLite: a lock)."""
    return " (another process may be holding the file locked)" if "SQLite" in repr(store) else ""


async def test_a_reset_refused_on_a_store_known_silent_never_clears_later(tmp_path: Path) -> None:
    path = tmp_path / "state.sqlite3"
    marked = SQLiteStore(path)
    mark = ProviderMark(kind="rate_limited", until=time.time() + 3600, reason="HTTP 429")
    await marked.set_mark("brave", mark)
    await marked.increment_usage("brave", "month:2026-12", time.time() + 86400)
    await marked.aclose()
    before = store_threads()
    async with Simulator(["brave", "tavily"]) as sim:
        settings = _search_settings(sim, state_backend="sqlite", state_dir=tmp_path)
        ws = WebSearch(settings, api_keys=sim.api_keys())
        with held_by_another_process(path) as lock:
            assert (await ws.search("rust tokio")).provider == "tavily"  # gave up on the store
            with pytest.raises(StateStoreTimeoutError) as raised:
                await ws.reset_provider("brave")
            lock.release()  # the store's thread now runs what was queued there
            await ws.aclose()
    assert join_new_store_threads(before)
    assert raised.value.withdrawn and NOT_CLEARED in str(raised.value)
    with sqlite3.connect(path) as observer:
        marks = observer.execute("SELECT count(*) FROM marks WHERE provider = 'brave'").fetchone()
        usage = observer.execute("SELECT count(*) FROM usage WHERE provider = 'brave'").fetchone()
    assert (marks[0], usage[0]) == (1, 1)  # as the message says: nothing was cleared


async def test_provider_status_skips_its_wait_on_a_store_known_silent(
    silent_state: dict[str, Any],
) -> None:
    # A reset given up on leaves the store stuck without the fail-safe wrapper bypassing
    # it: the status's first read queued behind that reset and waited 3 s again. A
    # process's first table imports every provider (0.7 s to 3.9 s under load), no wait
    # for the store: a client of its own, with its state in memory, does that first.
    async with WebSearch(state_backend="memory") as other:
        assert len(await other.provider_status()) > 1  # every provider imported
    async with WebSearch(Settings(**silent_state)) as ws:
        with pytest.raises(StateStoreTimeoutError):
            await ws.reset_provider("brave")  # waits its 3 s, and gives up
        store = await ws.state()
        calls = calls_made(store)
        rows = {row.id: row for row in await ws.provider_status()}
        asked = calls_made(store) - calls
    assert asked == 0  # its first read queued behind the reset and waited the 3 s again
    assert rows["brave"].mark is None and rows["brave"].used_this_month == 0
