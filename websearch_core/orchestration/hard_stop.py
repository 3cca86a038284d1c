"""An attempt's hard stop: the time limit that ends a provider's code, in two steps.

The transport's own timeout (the same expiry as the attempt's) names the request; this
bound, a moment later, ends whatever else is still running (waits, a browser).

Two steps rather than one timer at ``granted + grace``: when the event loop runs late by
more than the grace (a loaded machine), a single timer is due in the same loop turn as the
provider's own deadline and cancels the provider while its own, more specific outcome
(the fan-out's cut-off answer) is being delivered, which the caller then saw as a generic
"request timed out". The first timer, at the attempt's time, only starts the grace, which
counts from when that timer actually ran; a provider that ignores its timeout is still
stopped at the grace's end, or as soon after it as the loop runs.

Written here rather than as ``asyncio.timeout(None)`` with a second timer beside it: every
search runs one, and the standard library's context manager costs two coroutines (its
enter and exit), a ``current_task`` and a reschedule on top of the timer this needs anyway.
What it does with the task's cancellation is the standard library's rule, kept to the
letter (:meth:`HardStop.close`), so a cancel from outside is never taken for a timeout.
"""

import asyncio
from typing import Final

__all__ = ["GRACE_SECONDS", "HardStop"]

GRACE_SECONDS: Final = 0.1
"""Loop time a provider has, after its own time ran out, to finish with its own answer."""


class HardStop:
    """The current task's hard stop, armed at construction for ``seconds`` plus the grace.

    Disarm it with :meth:`close` on every way out of the code it bounds (an answer, an
    error, a cancellation); it tells which cancellation was its own.

    Args:
        seconds: The attempt's time; the grace starts when the loop reaches its end.

    Raises:
        RuntimeError: Not called from inside a task (as ``asyncio.timeout`` would).
    """

    __slots__ = ("_cancelling", "_handle", "_loop", "_task", "fired")

    def __init__(self, seconds: float) -> None:
        loop = asyncio.get_running_loop()
        task = asyncio.current_task(loop)
        if task is None:
            raise RuntimeError("an attempt's hard stop must run inside a task")
        self._loop = loop
        self._task = task
        self._cancelling = task.cancelling()  # cancels already asked are not this stop's
        self.fired = False
        """Whether the stop cancelled the task (its grace ran out)."""
        self._handle: asyncio.TimerHandle | None = loop.call_at(
            loop.time() + seconds, self._start_grace
        )

    def _start_grace(self) -> None:
        """The attempt's time is up, as the loop sees it now: the grace starts from here."""
        self._handle = self._loop.call_at(self._loop.time() + GRACE_SECONDS, self._stop)

    def _stop(self) -> None:
        self._handle = None
        self.fired = True
        self._task.cancel()

    def close(self, error: BaseException | None) -> bool:
        """Disarm; whether ``error`` (what the bounded code raised) is this stop's timeout.

        As ``asyncio.timeout`` does on exit: once the stop fired, its cancel request is
        withdrawn from the task (``uncancel``) however the code ended, and a
        ``CancelledError`` is the stop's only when no other cancel was asked meanwhile
        (the caller's cancel wins and propagates).
        """
        handle = self._handle
        if handle is not None:
            handle.cancel()
            self._handle = None
        if not self.fired:
            return False
        return self._task.uncancel() <= self._cancelling and type(error) is asyncio.CancelledError
