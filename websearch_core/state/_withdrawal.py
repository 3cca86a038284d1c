"""A write its caller may withdraw while it waits its turn, for a clear given up on.

A reset that stops waiting for a store that does not answer (a SQLite file another process
holds locked, a silent Redis) said its provider was "not cleared", and its clear stayed
queued on the store's thread: once the lock went, the clear landed all the same, so the
message was wrong whenever the store answered before the process ended. A clear carries a
:class:`Withdrawal` instead: the caller that gives up withdraws it, and the store's thread
checks it just before the first irreversible step (with SQLite, once it holds the write
lock, inside the transaction), so the two never disagree on whether it happened.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

__all__ = ["Withdrawal", "WithdrawnError"]

_C = TypeVar("_C")
_T = TypeVar("_T")

_STARTED = "started"
_WITHDRAWN = "withdrawn"


class WithdrawnError(Exception):
    """Raised on the store's thread by a write that was withdrawn before it started.

    Nobody waits for it any more (the caller gave up): it only rolls the transaction back.
    """


class Withdrawal:
    """Who comes first, the write starting or its caller giving up: the other loses.

    Both sides ask under one lock, so the answer is the same on both threads.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._state: str | None = None

    def start(self) -> bool:
        """On the store's thread: ``True`` if the write may go ahead (now beyond withdrawal)."""
        with self._lock:
            if self._state is None:
                self._state = _STARTED
            return self._state == _STARTED

    def withdraw(self) -> bool:
        """For the caller giving up: ``True`` if the write will not be made at all."""
        with self._lock:
            if self._state is None:
                self._state = _WITHDRAWN
            return self._state == _WITHDRAWN

    def guard(self, func: Callable[[_C], _T]) -> Callable[[_C], _T]:
        """``func``, preceded by :meth:`start`: raises :class:`WithdrawnError` when withdrawn."""

        def guarded(client: _C) -> _T:
            if not self.start():
                raise WithdrawnError("withdrawn by its caller before it started")
            return func(client)

        return guarded
