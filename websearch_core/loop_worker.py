"""Run a coroutine to its end on a worker thread's own loop, stoppable by an interrupt.

A synchronous call made where an event loop already runs (a notebook cell) cannot run its
coroutine on that loop, so it runs it on a new loop in a worker thread and waits. An
interrupt while it waits (Ctrl-C, Jupyter's stop button) must stop the work at once:
waiting for the search to end by itself takes its whole deadline, and the process cannot
exit before the worker thread ends.

The interrupt can land at any point of the handover, and under load it often lands early:
before the worker thread has started, or after it started but before its loop has made
the task to cancel. The caller and the worker therefore agree, under one lock, on who owns
the coroutine (:class:`_Handover`): a caller that gives up before the worker took it
closes it itself; a worker that takes it after the caller gave up never runs it; a task
made after the caller gave up is cancelled as it is made, before its first step.

After an interrupt the caller waits a little (:data:`_CLEAN_UP_WAIT_SECONDS`) for the
worker's clean-up, which closes the call's HTTP session and state store and its loop, so
that code which catches the interrupt and goes on (the next notebook cell, a retry, the
interpreter's exit) finds none of it still open; on an idle machine that takes a few
milliseconds. A clean-up still running at the bound is left to end in the background with
a warning naming its thread (the interpreter waits for that thread at exit, so what it
writes is not lost). A second interrupt while the call stops (Ctrl-C pressed twice) ends
the wait at once: the work is still told to stop, and the first interrupt is raised alone,
with no chained traceback.
"""

import asyncio
import concurrent.futures
import contextlib
import contextvars
import logging
import threading
from collections.abc import Coroutine
from typing import Any, Generic, TypeVar

from .loop_run import run_to_end

__all__ = ["run_on_worker_thread"]

logger = logging.getLogger("websearch_core")
_T = TypeVar("_T")

_CLEAN_UP_WAIT_SECONDS = 5.0
"""How long an interrupted call waits for its worker's clean-up before leaving it running.

Milliseconds are the norm; the most measured (stop 46: eight interrupted calls at once on
two cores) was a few seconds, process exit included. A second interrupt ends the wait."""

_WORKER_NAME = "websearch-sync-call"
"""The worker thread's name, which the warning about a slow clean-up gives."""


class _Handover(Generic[_T]):
    """The coroutine passed from the caller to the worker, and whether the caller gave up."""

    def __init__(self, coroutine: Coroutine[Any, Any, _T]) -> None:
        self._lock = threading.Lock()
        self._coroutine: Coroutine[Any, Any, _T] | None = coroutine
        """Until the worker takes it; the one who holds it closes it if it never runs."""
        self._taken = False
        self._task: asyncio.Task[_T] | None = None
        self._given_up = False

    def take(self) -> Coroutine[Any, Any, _T] | None:
        """The coroutine, for the worker; ``None`` if the caller gave up before this."""
        with self._lock:
            coroutine, self._coroutine = self._coroutine, None
            self._taken = not self._given_up
            return coroutine if self._taken else None

    def started(self, task: asyncio.Task[_T]) -> None:
        """Record the worker's task; cancel it now if the caller has given up meanwhile."""
        with self._lock:
            self._task = task
            given_up = self._given_up
        if given_up:
            task.cancel()

    def give_up(self) -> bool:
        """Stop the work wherever it has got to: not started, starting, or running.

        Safe to repeat, so that a give-up cut short by a second interrupt can be finished:
        closing a coroutine and cancelling a task twice do nothing more than once.

        Returns:
            Whether the worker had taken the coroutine, and so has clean-up to finish.
        """
        with self._lock:
            self._given_up = True
            unrun = None if self._taken else self._coroutine
            task = self._task
            taken = self._taken
        if unrun is not None:  # the worker never took it: it will not run
            unrun.close()
        if task is not None:
            with contextlib.suppress(RuntimeError):  # its loop already ended
                task.get_loop().call_soon_threadsafe(task.cancel)
        return taken


def run_on_worker_thread(coroutine: Coroutine[Any, Any, _T]) -> _T:
    """Run ``coroutine`` on a loop of its own in a worker thread, and wait for its value.

    An interrupt while waiting (or while the worker starts) cancels the work at its next
    step, not at its deadline, and is raised once the worker has closed what the call
    opened and its loop: at most :data:`_CLEAN_UP_WAIT_SECONDS` later (a warning then
    names the thread still cleaning up), or at once on a second interrupt. It runs in a
    copy of the caller's context, as it would on the caller's thread.

    Args:
        coroutine: What to run; it is run, or closed unrun, whatever happens.

    Raises:
        BaseException: What the coroutine raised, or the interrupt (``KeyboardInterrupt``)
            that stopped the wait.

    Example:
        >>> async def answer() -> int:
        ...     return 42
        >>> run_on_worker_thread(answer())
        42
    """
    handover = _Handover(coroutine)
    outcome: concurrent.futures.Future[_T] = concurrent.futures.Future()
    finished = threading.Event()
    # The caller's context goes with the work, as it goes with a coroutine run to its end
    # on the caller's thread: a tool's call started its clock (CallClock) before building
    # its client, and a search on a fresh thread's empty context counted its deadline
    # from its own start, the build's time not counted.
    context = contextvars.copy_context()
    worker = threading.Thread(
        target=context.run,
        args=(_work, handover, outcome, finished),
        name=_WORKER_NAME,
        daemon=False,
    )
    try:
        worker.start()
        return outcome.result()
    except BaseException:
        _stop(handover, worker, outcome, finished)
        raise  # the first interrupt, alone: _stop absorbs a second one


def _stop(
    handover: _Handover[_T],
    worker: threading.Thread,
    outcome: "concurrent.futures.Future[_T]",
    finished: threading.Event,
) -> None:
    """Stop the work an interrupt left behind, then wait a little for its clean-up.

    A second interrupt here (Ctrl-C pressed twice) must neither leave the work running to
    its deadline, which a give-up it cut short did, nor keep the caller waiting: the
    give-up is finished and the wait skipped or ended.
    """
    try:
        if outcome.done():  # the coroutine's own error, not an interrupt: nothing to stop
            return
        taken = handover.give_up()
    except KeyboardInterrupt:
        handover.give_up()
        logger.debug("sync call interrupted twice: not waiting for its worker's clean-up")
        return
    if taken:
        _wait_for_clean_up(worker, finished)


def _wait_for_clean_up(worker: threading.Thread, finished: threading.Event) -> None:
    """Wait up to :data:`_CLEAN_UP_WAIT_SECONDS` for ``worker``; say so if it is still busy.

    The wait is on ``finished``, not ``worker.join``: on Python 3.11 and 3.12 a join cut
    short by an interrupt marks the running thread as ended (CPython issue 90882), and the
    interpreter then no longer waits for its clean-up at exit. The join that follows only
    waits for the thread to return from its last line.
    """
    try:
        if finished.wait(_CLEAN_UP_WAIT_SECONDS):
            worker.join()
            return
    except KeyboardInterrupt:
        logger.debug(
            "sync call interrupted again: thread %r finishes its clean-up in the background",
            worker.name,
        )
        return
    logger.warning(
        "sync call interrupted: its clean-up on thread %r (closing the call's HTTP "
        "session, state store and event loop) is still running after %g s; it goes on "
        "in the background, and the interpreter waits for it at exit",
        worker.name,
        _CLEAN_UP_WAIT_SECONDS,
    )


def _work(
    handover: _Handover[_T], outcome: "concurrent.futures.Future[_T]", finished: threading.Event
) -> None:
    """The worker thread: run what the caller handed over, then say it has finished."""
    try:
        _run_handed_over(handover, outcome)
    finally:
        finished.set()


def _run_handed_over(handover: _Handover[_T], outcome: "concurrent.futures.Future[_T]") -> None:
    """Run what the caller handed over to its end, loop closed, unless the caller gave up."""
    coroutine = handover.take()
    if coroutine is None:
        return

    async def main() -> _T:
        task: asyncio.Task[_T] = asyncio.ensure_future(coroutine)
        handover.started(task)
        return await task

    entry = main()
    try:
        outcome.set_result(run_to_end(entry))  # not asyncio.run: nest_asyncio's leaves loops open
    except BaseException as error:  # handed to the caller, which raises it
        entry.close()  # no-ops once they ran; unrun (no loop could be made), no warning
        coroutine.close()
        outcome.set_exception(error)
