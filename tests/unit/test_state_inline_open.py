"""The SQLite store's inline connection is opened on the store's thread, never the caller's.

Short reads and writes run on the caller's thread (an event loop's) through a connection
of their own. Its opening (``connect``, two pragmas, the ``-shm`` file's reader) ran there
too, at its first call and again after an error closed it: file-system calls on the loop.
The store's thread now opens it, with the file, or at the next queued call; until then,
and while it cannot open at all, calls are served there, answered all the same.
"""

import asyncio
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from websearch_core.state import SQLiteStore

_OpenInline = Callable[[SQLiteStore], sqlite3.Connection]


def _recording(threads: list[int], open_inline: _OpenInline) -> _OpenInline:
    def recorded(store: SQLiteStore) -> sqlite3.Connection:
        threads.append(threading.get_ident())
        return open_inline(store)

    return recorded


def test_the_inline_connection_reopens_off_the_callers_thread_after_an_error_closed_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[int] = []
    monkeypatch.setattr(SQLiteStore, "_open_inline", _recording(threads, SQLiteStore._open_inline))

    async def main() -> tuple[int, int | None]:
        store = SQLiteStore(tmp_path / "state.sqlite3")
        try:
            await store.increment_usage("brave", "month", 4_000_000_000.0)
            store._close_inline()  # what an inline call's error does
            count = await store.get_usage("brave", "month")
            await store.get_usage("brave", "month")
            return count, None if store._inline is None else threading.get_ident()
        finally:
            await store.aclose()

    count, caller = asyncio.run(main())
    assert count == 1
    assert caller is not None  # open again: later calls run inline
    assert len(threads) == 2, threads  # with the file, then after the close
    assert caller not in threads


def test_a_store_whose_inline_connection_cannot_open_answers_from_its_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(store: SQLiteStore) -> sqlite3.Connection:
        raise sqlite3.OperationalError("unable to open database file")

    monkeypatch.setattr(SQLiteStore, "_open_inline", refused)

    async def main() -> tuple[int, int]:
        store = SQLiteStore(tmp_path / "state.sqlite3")
        try:
            first = await store.increment_usage("brave", "month", 4_000_000_000.0)
            await store.increment_usage("brave", "month", 4_000_000_000.0)
            return first, await store.get_usage("brave", "month")
        finally:
            await store.aclose()

    assert asyncio.run(main()) == (1, 2)
