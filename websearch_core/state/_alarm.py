"""A delayed call on one thread kept for its owner's life, armed again and again cheaply.

Why not :class:`threading.Timer`: it is a new thread per call, and
:meth:`threading.Thread.start` returns only once that thread has run. The SQLite store
schedules a flush of its pending counts every half second under traffic, from the event
loop's thread: each start held the loop (and every search on it) 0.3 ms on an idle
machine and up to 91 ms on a loaded one (``benchmarks/RESULTS.md``, "Flush alarm"). Here
one thread, started by the first arm, waits on a condition with a timeout; arming again
sets a time and notifies it. Its owner may start that thread before the first arm
(:meth:`Alarm.start`), where a thread start is harmless: the SQLite store does as it opens
its file, on its own thread, as its first arm often came from the event loop's thread.

Like the store's workers (see :mod:`._workers`) the thread is a daemon: a process exiting
with the owner open is not held by it. It keeps the owner's method only weakly, so an
owner dropped unclosed is still collected, and collecting the alarm ends the thread.
"""

from __future__ import annotations

import logging
import threading
import time
import weakref
from collections.abc import Callable

__all__ = ["Alarm"]

logger = logging.getLogger("websearch_core.state")

_Ring = weakref.WeakMethod[Callable[[], None]]


class _Schedule:
    """What the alarm and its thread share (never the alarm itself, so it can be collected)."""

    def __init__(self) -> None:
        self.changed = threading.Condition(threading.Lock())
        self.due: float | None = None  # time.monotonic() of the next ring; None: none
        self.stopped = False

    def stop(self) -> None:
        """Drop the ring due, if any, and let the thread end."""
        with self.changed:
            self.stopped = True
            self.due = None
            self.changed.notify()


class Alarm:
    """Calls ``ring`` once, on its own thread, at least ``delay`` seconds after :meth:`arm`.

    Args:
        ring: A bound method (held weakly: the alarm never keeps its owner alive).
        name: Names the thread, for debugging and thread dumps.
    """

    def __init__(self, ring: Callable[[], None], name: str) -> None:
        self._ring: _Ring = weakref.WeakMethod(ring)
        self._name = name
        self._schedule = _Schedule()
        self._thread: threading.Thread | None = None
        # Collected without close() (its owner dropped unclosed): the thread ends too.
        self._stop_on_collect = weakref.finalize(self, self._schedule.stop)

    @property
    def armed(self) -> bool:
        """Whether a ring is due."""
        with self._schedule.changed:
            return self._schedule.due is not None

    @property
    def thread(self) -> threading.Thread | None:
        """The thread, once :meth:`start` or the first :meth:`arm` started it."""
        return self._thread

    def arm(self, delay: float) -> None:
        """Ring ``delay`` seconds from now, or sooner if a ring is already due sooner.

        Cheap but for a first call before :meth:`start`, which starts the thread. Does
        nothing once closed.
        """
        schedule = self._schedule
        with schedule.changed:
            if schedule.stopped:
                return
            due = time.monotonic() + delay
            if schedule.due is None or due < schedule.due:
                schedule.due = due
                schedule.changed.notify()
            self._start_thread()

    def start(self) -> None:
        """Start the thread now, if it is not running: the first :meth:`arm` is then cheap.

        Why: :meth:`threading.Thread.start` returns once the new thread has run, which on a
        loaded machine held an event loop arming the alarm first for milliseconds. Does
        nothing once closed.
        """
        with self._schedule.changed:
            if not self._schedule.stopped:
                self._start_thread()

    def _start_thread(self) -> None:
        # Under the schedule's lock: one thread, started once.
        if self._thread is None:
            self._thread = threading.Thread(
                target=_keep_time, args=(self._schedule, self._ring), name=self._name, daemon=True
            )
            self._thread.start()

    def close(self) -> None:
        """Drop the ring due, if any, and end the thread (waiting for a ring under way)."""
        self._stop_on_collect()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join()

    def abandon(self) -> None:
        """In a forked child: forget this copy, which has no thread, without touching it.

        Its lock may have been held by the parent's thread at the fork, and nothing here
        would ever release it: the copy is left as it is and its finalizer never runs.
        """
        self._stop_on_collect.detach()


def _keep_time(schedule: _Schedule, ring: _Ring) -> None:
    """The alarm's thread: ring when due, until stopped or the owner is gone."""
    while True:
        with schedule.changed:
            while not schedule.stopped:
                if schedule.due is None:
                    schedule.changed.wait()
                    continue
                left = schedule.due - time.monotonic()
                if left <= 0:
                    break
                schedule.changed.wait(left)
            if schedule.stopped:
                return
            schedule.due = None  # an arm from now on schedules the next ring
        method = ring()
        if method is None:  # the owner was collected
            return
        try:
            method()
        except Exception:  # the next arm must still ring
            logger.exception("web search state: a scheduled call failed")
        del method  # never keep the owner alive while waiting
