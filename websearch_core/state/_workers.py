"""The threads a blocking state store runs its client on, which never hold a process open.

Why not :class:`concurrent.futures.ThreadPoolExecutor`: its threads are joined at
interpreter exit, after every call still queued has run. A store that does not answer (a
SQLite file another process holds locked, a Redis that accepts and never replies) then
held the exiting process for its own timeout once per queued call: 10 s per SQLite write
behind the lock, however soon the store was closed. These threads are daemons: a call
still waiting on the store when the process exits is abandoned with it, and what it would
have written is lost (the store's :meth:`~._threaded.ThreadedStore.aclose` says so). While
the process lives, every call runs, in the order submitted, as with the standard pool.
"""

from __future__ import annotations

import queue
import threading
import weakref
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any, ParamSpec, TypeVar

__all__ = ["DaemonPool"]

_P = ParamSpec("_P")
_T = TypeVar("_T")

_Job = tuple[Future[Any], Callable[..., Any], tuple[Any, ...], dict[str, Any]]


class _Tally:
    """Calls submitted and not yet finished, shared with the threads (not the pool itself)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.unfinished = 0

    def add(self, count: int) -> None:
        with self.lock:
            self.unfinished += count


class DaemonPool(Executor):
    """Up to ``max_workers`` daemon threads running submitted calls first come, first served.

    Threads start as calls need them and end after :meth:`shutdown` once the queue before
    it is done, or when the pool is collected.

    Args:
        max_workers: Threads at most (1 for a client bound to its thread).
        thread_name_prefix: Names the threads, for debugging and thread dumps.
    """

    def __init__(self, max_workers: int, thread_name_prefix: str) -> None:
        if max_workers < 1:
            raise ValueError("max_workers must be at least 1")
        self._max_workers = max_workers
        self._prefix = thread_name_prefix
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._idle = threading.Semaphore(0)
        self._tally = _Tally()
        self._lock = threading.Lock()
        self._started: list[threading.Thread] = []
        self._shut = False
        # Collected without shutdown() (a store dropped unclosed): its threads end too.
        self._stop_on_collect = weakref.finalize(self, _stop, self._jobs, max_workers)

    @property
    def unfinished(self) -> int:
        """Calls submitted and not finished yet (queued or running)."""
        with self._tally.lock:
            return self._tally.unfinished

    def submit(self, fn: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> Future[_T]:
        """Queue ``fn(*args, **kwargs)``; a thread is started when none is free.

        Raises:
            RuntimeError: The pool was shut down.
        """
        future: Future[_T] = Future()
        with self._lock:
            if self._shut:
                raise RuntimeError("cannot schedule new futures after shutdown")
            self._tally.add(1)
            self._jobs.put((future, fn, args, kwargs))
            if not self._idle.acquire(blocking=False) and len(self._started) < self._max_workers:
                thread = threading.Thread(
                    target=_work,
                    args=(self._jobs, self._idle, self._tally),
                    name=f"{self._prefix}_{len(self._started)}",
                    daemon=True,
                )
                thread.start()
                self._started.append(thread)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Refuse new calls; the threads end once the calls queued before have run.

        Args:
            wait: Wait for that (never on a store that may not answer: see the module).
            cancel_futures: Cancel the calls not started yet instead of running them.
        """
        with self._lock:
            first, self._shut = not self._shut, True
        if first:
            if cancel_futures:
                _cancel_queued(self._jobs)
            self._stop_on_collect()  # a stop per thread, behind every queued call
        if wait:
            for thread in self._started:
                thread.join()


def _work(jobs: queue.SimpleQueue[_Job | None], idle: threading.Semaphore, tally: _Tally) -> None:
    """A thread's loop: run jobs until a stop (``None``) comes."""
    while True:
        job = jobs.get()
        if job is None:
            return
        future, fn, args, kwargs = job
        if future.set_running_or_notify_cancel():
            try:
                result = fn(*args, **kwargs)
            except BaseException as exc:  # handed to whoever waits, as the standard pool does
                future.set_exception(exc)
            else:
                future.set_result(result)
        del job, future, fn, args, kwargs
        tally.add(-1)
        idle.release()


def _stop(jobs: queue.SimpleQueue[_Job | None], threads: int) -> None:
    for _ in range(threads):
        jobs.put(None)


def _cancel_queued(jobs: queue.SimpleQueue[_Job | None]) -> None:
    """Cancel every job not started yet: it stays queued, and is skipped (and counted) there."""
    kept: list[_Job | None] = []
    while True:
        try:
            kept.append(jobs.get_nowait())
        except queue.Empty:
            break
    for job in kept:
        if job is not None:
            job[0].cancel()
        jobs.put(job)
