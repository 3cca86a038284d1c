"""A write its caller may withdraw while it waits its turn, or undo once it lands late.

A reset that stops waiting for a store that does not answer (a SQLite file another process
holds locked, a silent Redis) said its provider was "not cleared", and its clear stayed
queued on the store's thread: once the lock went, the clear landed all the same, so the
message was wrong whenever the store answered before the process ended. A clear carries a
:class:`Withdrawal` instead: the caller that gives up withdraws it, and the store's thread
checks it just before the first irreversible step (with SQLite, once it holds the write
lock, inside the transaction), so the two never disagree on whether it happened.

A budget's reservation given up on had the same fault the other way round: the search
took the budget for unchecked and did not send the request as counted, and the count
landed anyway once the store answered, one more than was sent. A reservation is
withdrawn like a clear, and one that had started when its caller gave up (a Redis reply
on its way, a commit under way) is undone by the store's thread once it lands
(:meth:`Withdrawal.undoable`): either way the count the caller did not receive is not
kept.
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
_ABANDONED = "abandoned"  # given up on after it started: undone when it lands, if it can be
_LANDED = "landed"  # done, and its caller was still waiting: the caller takes the result


class WithdrawnError(Exception):
    """Raised on the store's thread by a write withdrawn before it started, or undone.

    Nobody waits for it any more (the caller gave up), or a close took the write for its
    journal and its caller is answered with what the close did (:mod:`._owed`): it only
    rolls the transaction back, and never reaches a caller.
    """


class Withdrawal:
    """Who comes first, the write or its caller giving up: both sides agree on the answer.

    Both sides ask under one lock, so the answer is the same on both threads. Before the
    write starts, giving up withdraws it; after, the write goes on, and an
    :meth:`undoable` one is undone once it lands; once it has landed, giving up comes too
    late and the caller takes the result (:attr:`landed`).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._state: str | None = None
        self._undoes = False  # set by undoable(): a write abandoned after its start is undone

    def start(self) -> bool:
        """On the store's thread: ``True`` if the write may go ahead (now beyond withdrawal)."""
        with self._lock:
            if self._state is None:
                self._state = _STARTED
            return self._state != _WITHDRAWN

    def withdraw(self) -> bool:
        """For the caller giving up: ``True`` if the write will not stand.

        It will not when it had not started (it is never made) or when it is
        :meth:`undoable` and has not landed yet (it is undone when it does). ``False``:
        it may still land (a plain write that had started), or it has landed
        (:attr:`landed`: take its result instead).
        """
        with self._lock:
            if self._state is None:
                self._state = _WITHDRAWN
            elif self._state == _STARTED:
                self._state = _ABANDONED
            return self._state == _WITHDRAWN or (self._state == _ABANDONED and self._undoes)

    @property
    def landed(self) -> bool:
        """Whether the write landed while its caller still waited: its result is the caller's.

        Seen by a caller whose wait ran out in the moment between the write landing and
        its result reaching the caller's loop: nothing undoes that write, so the caller
        must take its result rather than give up on it.
        """
        with self._lock:
            return self._state == _LANDED

    def _land(self) -> bool:
        """On the store's thread, once the write is in: ``False`` if its caller gave up."""
        with self._lock:
            if self._state == _ABANDONED:
                return False
            self._state = _LANDED
            return True

    def guard(self, func: Callable[[_C], _T]) -> Callable[[_C], _T]:
        """``func``, preceded by :meth:`start`: raises :class:`WithdrawnError` when withdrawn."""

        def guarded(client: _C) -> _T:
            if not self.start():
                raise WithdrawnError("withdrawn by its caller before it started")
            return func(client)

        return guarded

    def undoable(
        self, func: Callable[[_C], _T], undo: Callable[[_C, _T], None]
    ) -> Callable[[_C], _T]:
        """``func``, undone with ``undo`` right after it, on its thread, if given up on meanwhile.

        ``func`` must call :meth:`start` (through :meth:`guard`) before its first
        irreversible step. ``undo`` gets the client and what ``func`` returned; it runs on
        the same thread (the store's), where the caller can no longer take the result,
        and :class:`WithdrawnError` is raised after it.
        """
        with self._lock:
            self._undoes = True

        def undoing(client: _C) -> _T:
            result = func(client)
            if self._land():
                return result
            undo(client, result)
            raise WithdrawnError("given up on by its caller while it ran; undone")

        return undoing
