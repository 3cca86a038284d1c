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
"""

import asyncio
import concurrent.futures
import contextlib
import threading
from collections.abc import Coroutine
from typing import Any, Generic, TypeVar

from .loop_run import run_to_end

__all__ = ["run_on_worker_thread"]

_T = TypeVar("_T")


class _Handover(Generic[_T]):
    """The coroutine passed from the caller to the worker, and whether the caller gave up."""

    def __init__(self, coroutine: Coroutine[Any, Any, _T]) -> None:
        self._lock = threading.Lock()
        self._coroutine: Coroutine[Any, Any, _T] | None = coroutine
        """Until the worker takes it; the one who holds it closes it if it never runs."""
        self._task: asyncio.Task[_T] | None = None
        self._given_up = False

    def take(self) -> Coroutine[Any, Any, _T] | None:
        """The coroutine, for the worker; ``None`` if the caller gave up before this."""
        with self._lock:
            coroutine, self._coroutine = self._coroutine, None
            return None if self._given_up else coroutine

    def started(self, task: asyncio.Task[_T]) -> None:
        """Record the worker's task; cancel it now if the caller has given up meanwhile."""
        with self._lock:
            self._task = task
            given_up = self._given_up
        if given_up:
            task.cancel()

    def give_up(self) -> None:
        """Stop the work wherever it has got to: not started, starting, or running."""
        with self._lock:
            self._given_up = True
            coroutine, self._coroutine = self._coroutine, None
            task = self._task
        if coroutine is not None:  # the worker never took it: it will not run
            coroutine.close()
        if task is not None:
            with contextlib.suppress(RuntimeError):  # its loop already ended
                task.get_loop().call_soon_threadsafe(task.cancel)


def run_on_worker_thread(coroutine: Coroutine[Any, Any, _T]) -> _T:
    """Run ``coroutine`` on a loop of its own in a worker thread, and wait for its value.

    An interrupt while waiting (or while the worker starts) cancels the work and is
    raised at once. The worker then finishes its clean-up (closing what the call opened,
    its loop) on its own: the work ends at its next step, not at its deadline.

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
    worker = threading.Thread(
        target=_work, args=(handover, outcome), name="websearch-sync-call", daemon=False
    )
    try:
        worker.start()
        return outcome.result()
    except BaseException:
        if not outcome.done():  # interrupted: the coroutine's own error leaves it as it is
            handover.give_up()
        raise


def _work(handover: _Handover[_T], outcome: "concurrent.futures.Future[_T]") -> None:
    """The worker thread: run what the caller handed over, unless the caller gave up."""
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
