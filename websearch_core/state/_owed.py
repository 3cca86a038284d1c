"""Writes queued behind another process's lock, and what became of those a close took away.

A cooldown mark, a failure count, a rate slot (see :data:`._journal.OwedWrite`) that could
not be written inline waits on the store's thread; the search stops waiting at its
deadline, and the write still lands if the lock goes while the process lives. A close or
an exit that cannot wait for it takes it here instead (:meth:`OwedWrites.take_unstarted`):
withdrawn, so that it never lands on the thread too, and journaled.

A caller may still be waiting for such a write (a search whose client another task closed,
a caller of the store outside any search, which waits without a deadline). Its job, once
the store's thread reaches it, only finds itself withdrawn: that caller got the internal
``WithdrawnError``, though the write was kept in the journal. The close now says what it
did with each write it took (:class:`Handover`), and the caller asks (:meth:`OwedWrites.fate`)
and is answered with that: kept (journaled, or written by the exit), or lost and why.
"""

from __future__ import annotations

import threading
import weakref
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path

from ._journal import OwedWrite
from ._withdrawal import Withdrawal

__all__ = ["HandedOver", "Handover", "OwedWrites"]


@dataclass(frozen=True, slots=True)
class HandedOver:
    """What a close (or an exit) did with a write it took from the thread's queue.

    Attributes:
        journal: The journal that holds it (``None``: not journaled).
        error: Why it is lost (``None``: it is kept, in ``journal`` or, when that is
            ``None`` too, in the file itself).
    """

    journal: Path | None = None
    error: str | None = None

    @property
    def kept(self) -> bool:
        """Whether the write stands: journaled for the next process, or written."""
        return self.error is None


class Handover:
    """The writes one close took, and the one answer every waiting caller of them gets.

    The close must end it with :meth:`journaled`, :meth:`written` or :meth:`lost`: a
    caller whose write was taken waits for that answer.
    """

    def __init__(self, writes: list[OwedWrite], outcome: Future[HandedOver]) -> None:
        self.writes = writes
        self._outcome = outcome

    def journaled(self, where: Path) -> None:
        """They are in the journal at ``where``, for the next process to write."""
        self._end(HandedOver(journal=where))

    def written(self) -> None:
        """They were written into the file (by the exit's own connection)."""
        self._end(HandedOver())

    def lost(self, why: str) -> None:
        """They could be neither written nor journaled (``why``: the error, one line)."""
        self._end(HandedOver(error=why))

    def _end(self, outcome: HandedOver) -> None:
        if not self._outcome.done():  # the first answer stands
            self._outcome.set_result(outcome)


class OwedWrites:
    """Writes queued on the store's thread, each with what replays it from a journal."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._held: dict[Withdrawal, OwedWrite] = {}
        # The answer awaited by each write taken by a close: kept as long as its caller
        # holds the withdrawal (a caller gone leaves nothing behind).
        self._taken: weakref.WeakKeyDictionary[Withdrawal, Future[HandedOver]] = (
            weakref.WeakKeyDictionary()
        )

    def hold(self, write: OwedWrite) -> Withdrawal:
        """Track ``write`` until :meth:`drop`; its job must run behind the returned guard."""
        withdrawal = Withdrawal()
        with self._lock:
            self._held[withdrawal] = write
        return withdrawal

    def drop(self, withdrawal: Withdrawal) -> None:
        """The write ran (landed, failed or was withdrawn): nothing more to journal."""
        with self._lock:
            self._held.pop(withdrawal, None)

    def take_unstarted(self) -> Handover:
        """Withdraw every write that has not taken the lock yet, and return them, in order.

        Withdrawn and registered under one lock: a caller that finds its write withdrawn
        (its job ran meanwhile) always finds the answer to wait for (:meth:`fate`).
        """
        outcome: Future[HandedOver] = Future()
        writes: list[OwedWrite] = []
        with self._lock:
            held, self._held = self._held, {}
            for withdrawal, write in held.items():
                if withdrawal.withdraw():
                    self._taken[withdrawal] = outcome
                    writes.append(write)
        return Handover(writes, outcome)

    def fate(self, withdrawal: Withdrawal) -> Future[HandedOver] | None:
        """The answer to wait for when a close took this write (``None``: it took nothing)."""
        with self._lock:
            return self._taken.pop(withdrawal, None)
