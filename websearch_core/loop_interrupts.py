"""Ctrl-C on the main thread during a synchronous call: the first cancels, the second waits.

A plain script's synchronous search (and every command) runs on an :class:`asyncio.Runner`
on the main thread, whose own SIGINT handler cancels the call on the first Ctrl-C and raises
``KeyboardInterrupt`` wherever the thread is on the second. The cancelled call is then
closing what it opened (the HTTP session, the state store's last write and connection), and
the second interrupt cut that short: raised inside ``WebSearch.aclose``, the store was never
closed and its pending counts and cache entries reached the file only through the store's
exit finalizer (:func:`websearch_core.state._sqlite_orphan.flush_orphaned`), the session was
never closed. A person pressing Ctrl-C twice wants out now, not a half-closed library.

:class:`Interrupts` replaces the runner's handler for the call: the first Ctrl-C cancels it,
as before; the second lets the clean-up finish, for :data:`CLOSE_BOUND_SECONDS` at most
(then the call is cancelled once more, which ends its clean-up where it is, as the second
Ctrl-C did before); a third raises ``KeyboardInterrupt`` at once, as asyncio's own handler
does on its second. Every step of the clean-up is bounded already (the store's close waits
:data:`~websearch_core.state._threaded.CLOSE_GRACE_SECONDS` at most), so the bound is a
backstop, not the usual end. Installed only where the runner would install its own: on the
main thread, over Python's default handler (a handler the application set stays in charge).
"""

import asyncio
import logging
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any, Final

__all__ = ["CLOSE_BOUND_SECONDS", "Interrupts", "interrupts_handled"]

logger = logging.getLogger("websearch_core")

CLOSE_BOUND_SECONDS: Final = 3.0
"""Seconds a call interrupted twice is given to finish closing: the store's close grace
(1 s) and the sessions' close, with room for a loaded machine."""


class Interrupts:
    """The SIGINT handler of one synchronous call on ``loop`` (see the module).

    Args:
        loop: The runner's loop, which the call's task runs on.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._task: asyncio.Task[Any] | None = None
        self.count = 0
        """Ctrl-Cs received so far."""

    def watch(self, task: asyncio.Task[Any]) -> None:
        """Cancel ``task`` on the first Ctrl-C (set as the call's task starts)."""
        self._task = task

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        """Count a Ctrl-C and act on it: cancel, then let the clean-up end, then raise.

        Raises:
            KeyboardInterrupt: The third Ctrl-C, or one before the call's task started or
                after it ended.
        """
        self.count += 1
        task = self._task
        if task is None or task.done() or self.count > 2:
            raise KeyboardInterrupt
        if self.count == 1:
            task.cancel()
        else:
            self._loop.call_soon_threadsafe(self._bound_clean_up, task)
        self._loop.call_soon_threadsafe(_nothing)  # wakes a loop waiting in select()

    def _bound_clean_up(self, task: asyncio.Task[Any]) -> None:
        """On the loop: cancel ``task`` again if its clean-up outlasts the bound."""
        logger.warning(
            "Interrupted again: closing the web search's connections and state store "
            "(%s s at most); press Ctrl-C once more to stop at once",
            f"{CLOSE_BOUND_SECONDS:g}",
        )
        self._loop.call_later(CLOSE_BOUND_SECONDS, task.cancel)


def _nothing() -> None:
    """A callback that only wakes the loop."""


@contextmanager
def interrupts_handled(loop: asyncio.AbstractEventLoop) -> Iterator[Interrupts | None]:
    """Handle Ctrl-C with an :class:`Interrupts` while the block runs, where asyncio would.

    Yields ``None`` (nothing installed) off the main thread, or when SIGINT has a handler
    other than Python's default (the application's, or none at all); the previous handler
    is put back after the block.
    """
    if threading.current_thread() is not threading.main_thread():
        yield None
        return
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield None
        return
    handler = Interrupts(loop)
    try:
        signal.signal(signal.SIGINT, handler)
    except ValueError:  # an embedded interpreter without signals (as asyncio allows)
        yield None
        return
    try:
        yield handler
    finally:
        if signal.getsignal(signal.SIGINT) is handler:
            signal.signal(signal.SIGINT, signal.default_int_handler)
