"""An attempt's hard stop: every attempt of an event loop watched by one timer.

An attempt (:func:`~websearch_core.orchestration.attempt.answer_attempt`) ends whatever its
provider still runs once its time and a short grace after it are spent. It used to enter
an ``asyncio.timeout`` and set a timer of its own for that, then cancel the timer when the
provider answered: about 7 us of every search (the context manager's two coroutines, the
timer's handle pushed on the loop's heap and cancelled again), for a stop that almost
never fires.

Here each event loop keeps one :class:`_Watch` of its attempts under way and one timer,
set for the nearest time any of them must be looked at. Starting an attempt adds it to a
set (the timer is set only when none is set early enough) and ending it takes it out;
the timer is never cancelled. When it rings it looks at each attempt still under way:
one whose time has come starts its grace (:data:`~websearch_core.orchestration.attempt.
HARD_STOP_GRACE_SECONDS`, counted from when the ring actually ran, as the first step of
the former two timers did), and one whose grace is spent has its task cancelled. The
attempt then turns that cancel into :class:`TimeoutError`'s case exactly as
``asyncio.timeout`` did: only when no other cancel was asked of the task meanwhile, and
the stop's own cancel is withdrawn (:meth:`asyncio.Task.uncancel`) on every way out.
"""

from __future__ import annotations

import asyncio
import math
import weakref

__all__ = ["HardStop", "start_hard_stop"]


class HardStop:
    """One attempt's stop: when it is due, and whether it has cancelled the attempt's task.

    Made by :func:`start_hard_stop`; the attempt calls :meth:`end` on every way out.

    Attributes:
        due: Loop time at which the ring next acts on this stop (its grace, then the cancel).
        grace: Seconds the provider has after its own time before the cancel.
        in_grace: The attempt's own time is spent; ``due`` is the grace's end.
        fired: The stop has cancelled the task.
    """

    __slots__ = ("_cancelling", "_task", "_watch", "due", "fired", "grace", "in_grace")

    def __init__(self, watch: _Watch, task: asyncio.Task[object], due: float, grace: float) -> None:
        self._watch = watch
        # Weakly: a loop dropped with an attempt still under way is not kept by its stop.
        self._task = weakref.ref(task)
        self._cancelling = task.cancelling()
        self.due = due
        self.grace = grace
        self.in_grace = False
        self.fired = False

    def _act(self, now: float) -> None:
        """The ring found this stop due: start its grace, or, once spent, cancel the task."""
        if not self.in_grace:
            self.in_grace = True
            self.due = now + self.grace
            return
        self._watch.stops.discard(self)
        task = self._task()
        if task is not None and not task.done():
            task.cancel()
            self.fired = True

    def end(self, error: BaseException | None) -> bool:
        """Stop watching; whether ``error``, the attempt's way out, is this stop's cancel.

        As ``asyncio.timeout`` on leaving: a cancel the stop asked for is withdrawn whatever
        ended the attempt, and a :class:`asyncio.CancelledError` is the stop's only when
        no other cancel of the task is still pending (the caller's wins).

        Args:
            error: What the attempt raised, or ``None`` when it returned.
        """
        self._watch.stops.discard(self)
        if not self.fired:
            return False
        self.fired = False
        task = self._task()
        if task is None:
            return False
        withdrawn = task.uncancel() <= self._cancelling
        return withdrawn and isinstance(error, asyncio.CancelledError)


class _Watch:
    """The stops of one event loop under way, and when its timer rings next.

    Holds neither the loop nor the timer's handle, so that the registry's entry never keeps
    its loop alive (the loop holds the handle, and the handle this watch).
    """

    __slots__ = ("armed", "stops")

    def __init__(self) -> None:
        self.stops: set[HardStop] = set()
        self.armed = math.inf  # loop time of the nearest timer set; inf: none is

    def arm(self, loop: asyncio.AbstractEventLoop, when: float) -> None:
        """Set a timer for ``when``; a later one already set rings too, and finds nothing."""
        self.armed = when
        loop.call_at(when, self._ring, when)

    def _ring(self, when: float) -> None:
        if when == self.armed:
            self.armed = math.inf  # the nearest timer was this one
        loop = asyncio.get_running_loop()
        now = loop.time()
        for stop in tuple(self.stops):
            if stop.due <= now:
                stop._act(now)
        nearest = min((stop.due for stop in self.stops), default=math.inf)
        if nearest < self.armed:
            self.arm(loop, nearest)


_WATCHES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Watch] = weakref.WeakKeyDictionary()

_last_watch: tuple[weakref.ref[asyncio.AbstractEventLoop], _Watch] | None = None
"""The last loop asked for (weakly) and its watch: a search finds its loop's watch with
one call of a reference, where :data:`_WATCHES` builds a weak reference of the loop to
look it up (0.59 against 0.06 us at load 6, on every attempt). Another loop, or one
collected (the reference then gives ``None``), is looked up in :data:`_WATCHES` as
before; a loop collected leaves its watch here, not itself, until another loop's search."""


def start_hard_stop(seconds: float, grace: float) -> HardStop:
    """Watch the current task: cancelled ``grace`` seconds after ``seconds`` have passed.

    The grace starts when the loop actually gets to the attempt's end, not when it was due:
    a loop running late gives the provider's own deadline its turn first (see
    :mod:`websearch_core.orchestration.attempt`).

    Raises:
        RuntimeError: Not called inside a task (as ``asyncio.timeout`` says).
    """
    loop = asyncio.get_running_loop()
    task = asyncio.current_task(loop)
    if task is None:
        raise RuntimeError("an attempt's hard stop must be used inside a task")
    global _last_watch
    last = _last_watch  # one read: another thread's search may replace it meanwhile
    watch = last[1] if last is not None and last[0]() is loop else None
    if watch is None:
        watch = _WATCHES.get(loop)
        if watch is None:
            watch = _WATCHES[loop] = _Watch()
        _last_watch = (weakref.ref(loop), watch)
    stop = HardStop(watch, task, loop.time() + seconds, grace)
    watch.stops.add(stop)
    if stop.due < watch.armed:
        watch.arm(loop, stop.due)
    return stop
