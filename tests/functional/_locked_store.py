"""A state store opened by a first search, then its SQLite file's write lock held elsewhere.

The tests of a store that stops answering mid-session all start the same way: a first
search opens the store (so its file exists and its reads go through), then another
connection takes the write lock, as another process's write would, and keeps it while the
test arranges its faults and searches. The lock must be let go before the client closes,
or its store would wait on the file at close; and it must be let go even when the search
raises, or the failure would show up as a hang instead of the assertion that failed.
"""

import contextlib
import sqlite3
import threading
from collections.abc import AsyncIterator, Iterator
from typing import Any, NamedTuple

from tests.fault_release import SelfRelease
from websearch_core import SearchResponse, WebSearch
from websearch_core.testing import Simulator

__all__ = [
    "OPENING_QUERY",
    "Locked",
    "behind_a_held_lock",
    "budgeted_brave_first",
    "write_lock_held",
]

OPENING_QUERY = "python asyncio"
"""The first search's query, the one that opens the store before the lock is taken."""


def budgeted_brave_first(
    sim: Simulator,
    providers: tuple[str, ...] = ("brave", "tavily"),
    deadline_seconds: float = 4.0,
    **more: Any,
) -> Any:
    """Settings of the chain these tests share: Brave under a 1000/month budget, first.

    No per-provider timeout, so only the deadline (well under SQLite's 10 s busy timeout
    and Redis's 5 s socket timeout) bounds a store that does not answer.

    Args:
        sim: The simulator serving the providers.
        providers: The chain; Tavily, unbudgeted, is the one that can answer instead.
        deadline_seconds: The whole search's deadline.
        **more: The store's settings and anything else (``cache``, ``state_backend``...).
    """
    return sim.settings(
        timeout_seconds=None,
        deadline_seconds=deadline_seconds,
        providers=providers,
        budget={"brave": "1000/month"},
        **more,
    )


@contextlib.contextmanager
def write_lock_held(
    holder: sqlite3.Connection, release: SelfRelease | None = None
) -> Iterator[None]:
    """Hold the state file's write lock through ``holder`` for the block, released always.

    Args:
        holder: A connection to the state file in autocommit mode (the ``locked_file``
            fixture, usable from any thread), standing for another process.
        release: Lets the lock go by itself once its time is up, even mid-block: a store
            call stuck behind the lock then ends, and a search that waited for it fails
            its test instead of hanging it.
    """
    guard = threading.Lock()  # the timer's rollback and the block's end may race

    def roll_back() -> None:
        with guard:
            if holder.in_transaction:
                holder.execute("ROLLBACK")

    holder.execute("BEGIN IMMEDIATE")  # what another process's write does, held
    if release is not None:
        release.arm(roll_back)
    try:
        yield
    finally:
        if release is not None:
            release.disarm()
        roll_back()


class Locked(NamedTuple):
    """The open client and what its first search, the one that opened the store, answered."""

    ws: WebSearch
    first: SearchResponse


@contextlib.asynccontextmanager
async def behind_a_held_lock(
    sim: Simulator, settings: Any, holder: sqlite3.Connection
) -> AsyncIterator[Locked]:
    """A client whose store a first search opened, with the file's write lock then held.

    The lock is released as the block ends, before the client closes.

    Args:
        sim: The simulator whose keys the client uses.
        settings: The client's settings (a SQLite store in the file ``holder`` opens).
        holder: The ``locked_file`` fixture's connection.
    """
    async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
        first = await ws.search(OPENING_QUERY)  # opens the store
        with write_lock_held(holder):
            yield Locked(ws, first)
