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
import concurrent.futures
import contextlib
import logging
import os
import threading
import time
import weakref
from collections.abc import Callable
from typing import Any, ClassVar, Final, Generic, TypeVar

from ..deadline import format_seconds, store_patience, store_queue_expiry, store_wait_optional
from ._withdrawal import Withdrawal
from ._workers import DaemonPool
from .base import StateStore, StateStoreClosedError, StateStoreTimeoutError

__all__ = ["CLOSE_GRACE_SECONDS", "ThreadedStore"]

logger = logging.getLogger("websearch_core.state")

CLOSE_GRACE_SECONDS: Final = 1.0
"""How long :meth:`ThreadedStore.aclose` waits for the store's thread to finish its work.

Closing writes what the store still owes (SQLite's pending usage counts) and frees the
client, on the store's thread, behind every call queued there. A healthy store does that
in milliseconds; one that does not answer (a SQLite file another process holds locked, a
Redis that accepts and never replies) held ``async with WebSearch(...)``'s exit, and the
command's, for its own timeout per queued call: 10 s per SQLite write behind another
process's lock (29 s measured after one search: its cache write, then its usage count).
Past this grace the work is left to the thread, which finishes it if the store answers
while the process lives (see :mod:`._workers`).
"""

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

    _silent_why: ClassVar[str] = ""
    """Why the store may not answer, for the timeout's message (``" (...)"``, or nothing)."""

    def __init__(self, *, max_workers: int, thread_name_prefix: str) -> None:
        self._max_workers = max_workers
        self._thread_name_prefix = thread_name_prefix
        self._executor = self._new_executor()
        self._closed = False
        self._close_lock = threading.Lock()
        self._given_up: concurrent.futures.Future[Any] | None = None
        """The last call its caller stopped waiting for: while it runs, the store is stuck."""
        self._waits: set[_Wait] = set()
        """The bounded waits under way (see :meth:`_within`), on any loop."""
        self._waits_lock = threading.Lock()
        self._calls = _CallCount()
        """Callers' calls queued or running on the thread (not the store's own jobs)."""
        _OPEN_STORES.add(self)

    def _new_executor(self) -> DaemonPool:
        return DaemonPool(self._max_workers, self._thread_name_prefix)

    def _after_fork_in_child(self) -> None:
        """Start over in a forked child, whose copy of the pool has no threads.

        ``fork()`` copies the pool but none of its threads, and the copy believes its
        workers are idle: every call queued there would wait forever (gunicorn
        ``--preload``, Celery's prefork workers and ``multiprocessing``'s default start
        method on Linux all fork a process that may hold an open store). The child gets a
        pool, locks (another thread may have held one at the fork) and whatever else
        :meth:`_forget_parent_state` says of its own.
        """
        self._executor = self._new_executor()
        self._close_lock = threading.Lock()
        self._given_up = None  # the parent's call: never answered here
        self._waits = set()  # the parent's waits: their loops did not come along
        self._waits_lock = threading.Lock()
        self._calls = _CallCount()  # the parent's calls run in the parent
        self._forget_parent_state()

    def _forget_parent_state(self) -> None:
        """Drop what belonged to the parent process (its connections, counts, timers)."""

    def _before_fork(self) -> None:
        """In the parent, about to fork: hand over what only its memory holds, if anything.

        The child starts without it (:meth:`_forget_parent_state`), so what the parent
        held for a later write is written now, where the child can read it.
        """

    async def _run(
        self, func: Callable[[_Client], _T], *, withdrawal: Withdrawal | None = None
    ) -> _T:
        """``func`` on the store's thread; within a search, waited for only so long.

        Inside a search (:func:`~websearch_core.deadline.store_patience`) the wait ends
        with the search's deadline: a store that does not answer (a lock another process
        holds, a server that accepts and never replies) cost its own timeout on top of the
        deadline, 10 s for SQLite's busy wait and 5 s for Redis's socket. The request is
        not withdrawn when the wait ends: a write still lands on the store's thread once
        the store answers, and the search goes on without it (see
        :class:`~websearch_core.state.base.StateStoreTimeoutError`), unless ``func``
        checks a ``withdrawal``: it is withdrawn if it has not started, and undone once it
        lands if it is :meth:`~._withdrawal.Withdrawal.undoable`.
        """
        if self._closed:
            raise StateStoreClosedError()
        patience = store_patience()
        calls = self._calls
        turn = _Turn(calls.enter())
        try:
            if patience is None:
                loop = asyncio.get_running_loop()
                return await loop.run_in_executor(self._executor, self._counted, calls, turn, func)
            job = self._executor.submit(self._counted, calls, turn, func)
        except RuntimeError as exc:  # executor shut down by a concurrent aclose()
            calls.leave()
            if self._closed:
                raise StateStoreClosedError() from exc
            raise
        return await self._within(job, turn, patience, withdrawal)

    def _counted(self, calls: _CallCount, turn: _Turn, func: Callable[[_Client], _T]) -> _T:
        """:meth:`_call`, on the thread: when its turn came, and counted until it ends.

        Both the start and the end are the thread's progress (see :meth:`_within`).
        """
        turn.started_at = time.monotonic()
        calls.progress += 1
        try:
            return self._call(func)
        finally:
            calls.leave()

    async def _within(
        self,
        job: concurrent.futures.Future[_T],
        turn: _Turn,
        patience: float,
        withdrawal: Withdrawal | None,
    ) -> _T:
        """``job``'s result if the store answers in time; else withdrawn if it can be.

        A store is given up on when it is silent, not when it is busy. The calls of one
        process queue on the store's thread (one for SQLite): 120 searches begun at once
        queue 120 calls, and under load the last waited past their ``patience`` (a second)
        while the thread answered the others in milliseconds each; the store was then
        bypassed for 30 s, as if it were stuck. So a call not begun yet looks again every
        ``patience``: when a call of this process began or ended on the thread since its
        last look, the store is busy and it waits on, up to
        :func:`~websearch_core.deadline.store_queue_expiry` (the search's deadline; given
        up there, the error says ``busy`` and the fail-safe store does not bypass it).
        Once begun, it waits ``patience`` from its turn. A thread stuck on one call (a
        file lock another process holds, a server that never replies) makes no progress:
        a call behind it is given up ``patience`` after its submission, as before, one
        that saw the stuck call begin within two, and nothing hangs.

        An optional call (:class:`~websearch_core.deadline.OptionalStoreWaits`: the result
        cache's lookup and write) waits its turn only to its own bound, and one whose turn
        came within ``patience`` of that bound is not waited for past it either: either
        way the store was answering, so it ends ``busy``, not given up on. A search need not
        wait long for an optimisation; a silent store is still given up on as above.

        Why a count of progress, not the time of the last: a look that finds progress
        waits a whole ``patience`` more, so one answer per ``patience`` keeps the wait
        going however the answers fall in time, and tests can drive it by events.

        Why one count for the whole store, not one per thread: a pool of several threads
        (Redis's 4) takes calls from one queue, first come first served (:mod:`._workers`).
        A call not begun waits on that queue, not on a thread: whichever thread answers
        takes the next call ahead of it, so progress on any thread is progress toward its
        turn, and a thread stuck on one call holds that call only (its wait counts from its
        turn). When every thread is stuck, nothing moves and the call is given up as above.

        The job itself is never cancelled: one whose ``withdrawal`` could not be withdrawn
        (it had started) still runs. The first wait to find the store silent ends every
        other one under way (:meth:`_stop_waiting`): the store is known not to answer, and
        each page of a ``fetch_many`` that began its wait a moment later waited out its own
        share too.
        """
        answer = asyncio.wrap_future(job)
        # Once given up on (or the caller cancelled), nobody reads its error: read it here,
        # or asyncio would log "exception was never retrieved" for a store's passing fault.
        answer.add_done_callback(_retrieve)
        calls = self._calls
        queue_end = max(store_queue_expiry() or 0.0, turn.submitted_at + patience)
        optional = store_wait_optional()
        until = turn.submitted_at + patience
        wait = _Wait(asyncio.get_running_loop())
        with self._waits_lock:
            self._waits.add(wait)
        try:
            while True:
                try:
                    async with asyncio.timeout(until - time.monotonic()) as wait.scope:
                        return await asyncio.shield(answer)
                except TimeoutError:
                    if answer.done():  # it answered as the time ran out, or raised a timeout
                        return answer.result()
                    now = time.monotonic()
                    silent_from = turn.look(calls, patience, now)
                    if wait.stopped or silent_from <= now:
                        busy = False
                        break
                    if queue_end <= now:  # busy if still queued; begun, it may be stuck
                        # An optional call begun less than its share ago: answering still.
                        busy = optional or turn.started_at is None
                        break
                    until = min(silent_from, queue_end)
        except asyncio.CancelledError:  # the caller went away (Ctrl-C): it gave up as well
            if withdrawal is not None:
                withdrawal.withdraw()
            raise
        finally:
            with self._waits_lock:
                self._waits.discard(wait)
        withdrawn = withdrawal is not None and withdrawal.withdraw()
        if withdrawal is not None and withdrawal.landed:
            # It landed as the time ran out, and nothing undoes it now: its result, on its
            # way to this loop, is the caller's.
            return await answer
        if busy:
            raise self._busy_error(turn, withdrawn=withdrawn) from None
        raise self._given_up_on(job, turn, wait, patience, withdrawn=withdrawn) from None

    def _busy_error(self, turn: _Turn, *, withdrawn: bool) -> StateStoreTimeoutError:
        """The error of a call still waiting its turn at its queue's end, the store answering.

        The store is busy, not silent: nothing is given up on and no other wait ends. An
        optional call whose turn came shortly before its end says when it came instead.
        """
        now = time.monotonic()
        waited = format_seconds(now - turn.submitted_at)
        started = turn.started_at
        if started is not None:
            queued = format_seconds(started - turn.submitted_at)
            return StateStoreTimeoutError(
                f"{self!r} did not answer within {waited} s: its turn came after {queued} s "
                "queued behind calls from this process, which it was answering (busy, not "
                "stuck)",
                withdrawn=withdrawn,
                busy=True,
            )
        ahead = _calls_text(turn.ahead(self._calls))
        return StateStoreTimeoutError(
            f"{self!r} did not answer within {waited} s: still queued behind {ahead} from "
            "this process, which it was answering (busy, not stuck)",
            withdrawn=withdrawn,
            busy=True,
        )

    def _given_up_on(
        self,
        job: concurrent.futures.Future[Any],
        turn: _Turn,
        wait: _Wait,
        patience: float,
        *,
        withdrawn: bool,
    ) -> StateStoreTimeoutError:
        """The error of a wait that found the store silent, saying where it stuck.

        The call is remembered as given up on (:meth:`known_silent`), and every other wait
        under way ends, unless another wait's finding ended this one.
        """
        self._given_up = job
        if wait.ended_by_another:
            why = "another call to it was given up on before this one was answered"
            return StateStoreTimeoutError(
                f"{self!r} is not answering: {why}{self._silent_why}", withdrawn=withdrawn
            )
        self._stop_waiting()
        share = format_seconds(patience)
        why = ""
        if turn.started_at is None:
            ahead = _calls_text(turn.ahead(self._calls))
            why = f": queued behind {ahead} from this process, and it answered nothing in that time"
        return StateStoreTimeoutError(
            f"{self!r} did not answer within {share} s{why}{self._silent_why}",
            withdrawn=withdrawn,
        )

    def known_silent(self) -> StateStoreTimeoutError | None:
        """See :meth:`StateStore.known_silent`: a call given up on is still unanswered."""
        if not self._stuck():
            return None
        why = "a call to it given up on before is still unanswered"
        return StateStoreTimeoutError(f"{self!r} is not answering: {why}{self._silent_why}")

    def _stuck(self) -> bool:
        """Whether the last call given up on is still unanswered: the store is not answering."""
        given_up = self._given_up
        return given_up is not None and not given_up.done()

    def _stop_waiting(self) -> None:
        """End every bounded wait under way now, on its own loop: the store is stuck."""
        with self._waits_lock:
            waits = list(self._waits)
        for wait in waits:
            wait.end()

    @abc.abstractmethod
    def _call(self, func: Callable[[_Client], _T]) -> _T:
        """Run ``func`` with the client on the pool's thread (never after :meth:`aclose`)."""

    @abc.abstractmethod
    def _release(self) -> None:
        """Free the client; runs on the pool's thread, once."""

    def _owed_in_memory(self) -> str | None:
        """What the store holds in memory only, to be written on close (``None``: nothing)."""
        return None

    def _hand_over(self) -> tuple[str | None, int]:
        """The close stops waiting: leave what the store owes where a later process finds it.

        Called when the release did not finish (the store is not answering). A store that
        can (SQLite's journal) takes what it owes out of memory and out of the thread's
        queue, so that none of it is lost with the process.

        Returns:
            What it left and where (``None``: nothing), and how many of the calls queued
            on the thread it withdrew (they write nothing when they run). The default
            leaves everything to the thread.
        """
        return None, 0

    async def aclose(self) -> None:
        """See :meth:`StateStore.aclose`: waits :data:`CLOSE_GRACE_SECONDS` at most, or not at all.

        The release runs on the store's thread, after the calls queued there (writes
        a search stopped waiting for included). When it has not finished within the
        grace, the close returns: the work stays with the thread, which finishes it if
        the store answers before the process exits, and is lost if it does not. One
        warning names the store and what was still undone; what the store could hand over
        instead (:meth:`_hand_over`: SQLite's journal) is not lost, and said at INFO.

        A store with a call its caller already gave up on, still unanswered, is known not
        to answer: the release is queued behind that call, and waiting the grace for it
        made ``websearch providers`` take 1 s longer for nothing. The close then does not
        wait; what it leaves is the same as after the grace.
        """
        with self._close_lock:
            if self._closed:
                return
            self._closed = True
        try:
            job = self._executor.submit(self._release)
        finally:
            self._executor.shutdown(wait=False)  # its threads end once the queue is done
        answer = asyncio.wrap_future(job)
        answer.add_done_callback(_retrieve)
        stuck = self._stuck()
        if not stuck:
            try:
                async with asyncio.timeout(CLOSE_GRACE_SECONDS):
                    await asyncio.shield(answer)
                    return
            except TimeoutError:
                pass
        if job.done():  # it finished as the time ran out
            job.result()
            return
        handed, withdrawn = self._hand_over()
        undone = max(0, self._calls.value - withdrawn)  # a withdrawn call writes nothing
        owed = self._owed_in_memory()
        waited = (
            "without waiting (a call given up on before is still unanswered)"
            if stuck
            else f"within {format_seconds(CLOSE_GRACE_SECONDS)} s"
        )
        if undone <= 0 and not owed:  # nothing is lost: said, not warned about
            left = handed or "nothing was left to write"
            logger.info("web search state store %r closed %s; %s", self, waited, left)
            return
        logger.warning(
            "web search state store %r did not finish closing %s; %sleft to its thread: %d "
            "call%s it had not answered%s. They are written if the store answers before this "
            "process exits, and lost if it does not.",
            self,
            waited,
            f"{handed}; " if handed else "",
            undone,
            "" if undone == 1 else "s",
            f" and {owed}" if owed else "",
        )


class _CallCount:
    """The callers' calls on the store's thread, shared by the callers' threads and the store's.

    Attributes:
        value: Calls queued or running (for the close's message).
        submitted: Calls ever queued (the next call's place in the queue).
        finished: Calls ever ended (run, or refused by a pool shut down meanwhile).
        progress: Calls ever begun plus calls ever ended on the thread: a waiter that sees
            it change knows the store answers (see :meth:`ThreadedStore._within`).
    """

    __slots__ = ("_lock", "finished", "progress", "submitted", "value")

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.value = 0
        self.submitted = 0
        self.finished = 0
        self.progress = 0

    def enter(self) -> tuple[int, int]:
        """Count a call about to be queued: its place (calls queued before it), and the progress."""
        with self._lock:
            place = self.submitted
            self.submitted = place + 1
            self.value += 1
            return place, self.progress

    def leave(self) -> None:
        """Count a call ended, on the thread (or refused before it was queued)."""
        with self._lock:
            self.value -= 1
            self.finished += 1
            self.progress += 1


class _Turn:
    """One call's place in the store's queue, and when its turn came (``None``: not yet).

    Args:
        entered: :meth:`_CallCount.enter`'s answer for the call.
    """

    __slots__ = ("place", "progress_seen", "started_at", "submitted_at")

    def __init__(self, entered: tuple[int, int]) -> None:
        self.place, self.progress_seen = entered
        self.submitted_at = time.monotonic()
        self.started_at: float | None = None

    def look(self, calls: _CallCount, patience: float, now: float) -> float:
        """When the store is taken for silent, as this call sees it ``now``.

        ``patience`` from the call's turn once it came; before that, ``patience`` from now
        if the thread made progress since the call's last look, else now.
        """
        started = self.started_at
        if started is not None:
            return started + patience
        progress = calls.progress
        if progress == self.progress_seen:
            return now
        self.progress_seen = progress
        return now + patience

    def ahead(self, calls: _CallCount) -> int:
        """Calls queued before this one and not ended yet (none once its turn came).

        Calls start in the order queued, so none queued after this one ends before its turn.
        """
        if self.started_at is not None:
            return 0
        return max(0, self.place - calls.finished)


def _calls_text(count: int) -> str:
    """``N calls`` ahead in the queue; none: the store's own work (a flush) is ahead."""
    if count == 0:
        return "the store's own work (no call)"
    return f"{count} call{'' if count == 1 else 's'}"


class _Wait:
    """One bounded wait for the store: its loop and its current timeout, which another may end.

    ``stopped`` once another wait found the store silent; ``ended_by_another`` when that
    cut this wait's own timeout short.
    """

    __slots__ = ("ended_by_another", "loop", "scope", "stopped")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.scope: asyncio.Timeout | None = None
        self.stopped = False
        self.ended_by_another = False

    def end(self) -> None:
        """Run the wait's timeout out now, from any thread (a loop that closed is left be)."""
        with contextlib.suppress(RuntimeError):  # the loop is closed: nothing waits there
            self.loop.call_soon_threadsafe(self._expire)

    def _expire(self) -> None:
        self.stopped = True
        scope = self.scope
        if scope is None or scope.expired():
            return
        try:
            scope.reschedule(self.loop.time())
        except RuntimeError:  # the wait had ended meanwhile
            return
        self.ended_by_another = True


def _retrieve(answer: asyncio.Future[Any]) -> None:
    if not answer.cancelled():
        answer.exception()


_OPEN_STORES: weakref.WeakSet[ThreadedStore[Any]] = weakref.WeakSet()
"""Every threaded store alive in this process, for the fork hook below."""


def _restart_stores_in_child() -> None:
    for store in list(_OPEN_STORES):
        store._after_fork_in_child()


def _hand_over_before_fork() -> None:
    for store in list(_OPEN_STORES):
        if not store._closed:
            store._before_fork()


os.register_at_fork(before=_hand_over_before_fork, after_in_child=_restart_stores_in_child)
