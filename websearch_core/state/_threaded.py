"""The thread-pool plumbing of the state stores whose client blocks (SQLite and Redis).

Both backends run a synchronous client on their own executor, so that one store serves
any event loop (the sync bridge of :class:`~websearch_core.WebSearch` runs a fresh loop per
call). How a call reaches that thread, and how closing races with calls already queued,
is the same for both and lives here once; the client, its errors and how it is released
stay in each backend.
"""

from __future__ import annotations

import abc
import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Generic, TypeVar

from .base import StateStore, StateStoreError

__all__ = ["ThreadedStore"]

_Client = TypeVar("_Client")
_T = TypeVar("_T")


class ThreadedStore(StateStore, Generic[_Client]):
    """A store whose blocking client is used only from its own thread pool.

    Subclasses implement :meth:`_call` (run one function with the client, turning the
    client's errors into :class:`~websearch_core.state.StateStoreError`) and
    :meth:`_release` (free the client; it runs on the pool, the last job before shutdown).

    Args:
        max_workers: Threads running client calls (1 for a client bound to its thread).
        thread_name_prefix: Names the threads, for debugging and thread dumps.
    """

    def __init__(self, *, max_workers: int, thread_name_prefix: str) -> None:
        self._executor = ThreadPoolExecutor(
            max_workers=max_workers, thread_name_prefix=thread_name_prefix
        )
        self._closed = False
        self._close_lock = threading.Lock()

    async def _run(self, func: Callable[[_Client], _T]) -> _T:
        if self._closed:
            raise StateStoreError("the state store is closed")
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor, self._call, func)
        except RuntimeError as exc:  # executor shut down by a concurrent aclose()
            if self._closed:
                raise StateStoreError("the state store is closed") from exc
            raise

    @abc.abstractmethod
    def _call(self, func: Callable[[_Client], _T]) -> _T:
        """Run ``func`` with the client on the pool's thread (never after :meth:`aclose`)."""

    @abc.abstractmethod
    def _release(self) -> None:
        """Free the client; runs on the pool's thread, once."""

    async def aclose(self) -> None:
        """See :meth:`StateStore.aclose`."""
        with self._close_lock:
            if self._closed:
                return
            self._closed = True
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(self._executor, self._release)
        finally:
            self._executor.shutdown(wait=False)
