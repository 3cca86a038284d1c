"""A test's fault (a lock held, a silent server) that lets go by itself: its hang guard.

A test of "the search answered without waiting for the stuck store" bounded the time taken
(``elapsed < 3 s``), which flips on a loaded machine. Without that bound, a search that does
wait for the store must still fail rather than hang; but a guard's cancel does not free a
call stuck on the store's own thread (behind the file's lock, on a socket that never
answers), so a test guarded by ``asyncio.timeout`` hung instead of failing. The fault is
the thing to end: armed with a :class:`SelfRelease`, the helpers that make one
(:func:`tests.functional._locked_store.write_lock_held`,
:func:`tests.sqlite_holder.held_by_another_process`, :mod:`tests.stalling_proxy`'s servers)
let go after :attr:`SelfRelease.seconds`, whatever waited on them ends, and the test reads
:attr:`SelfRelease.held`: an answer seen while it is ``True`` came while the fault held.
"""

import threading
from collections.abc import Callable

from websearch_core.testing import Fault
from websearch_core.testing.faults import Framing

__all__ = ["HANG_GUARD_SECONDS", "SelfRelease", "held_until_guard"]

HANG_GUARD_SECONDS = 30.0
"""When a fault lets go by itself: thirty times the longest wait these tests expect (1 s)."""


class SelfRelease:
    """When a fault lets go by itself, and whether it has begun to.

    Args:
        seconds: How long after :meth:`arm` the fault lets go.
    """

    def __init__(self, seconds: float = HANG_GUARD_SECONDS) -> None:
        self.seconds = seconds
        self.let_go = threading.Event()
        """Set before the fault is let go, so it is never unset once the fault has ended."""
        self._timer: threading.Timer | None = None

    @property
    def held(self) -> bool:
        """Whether the fault still holds: read right after an answer, it says the answer
        did not wait for the fault to end."""
        return not self.let_go.is_set()

    def arm(self, release: Callable[[], None]) -> None:
        """Call ``release`` (idempotent, thread-safe) :attr:`seconds` from now, on a timer.

        Args:
            release: Ends the fault: rolls the lock back, closes the server's connections.
        """

        def fire() -> None:
            self.let_go.set()  # first: an answer that saw it unset came while held
            release()

        self._timer = threading.Timer(self.seconds, fire)
        self._timer.daemon = True
        self._timer.start()

    def disarm(self) -> None:
        """Stop the timer (the fault's own block ends it now); it may have fired already."""
        if self._timer is not None:
            self._timer.cancel()


def held_until_guard(
    *,
    before: bytes = b"",
    after: bytes = b"",
    content_type: str | None = None,
    framing: Framing = "chunked",
    first: int = 0,
) -> Fault:
    """The simulator's own answer, then its socket held open until the hang guard lets go.

    A stream whose reader waited for the close instead of its own end fails at the guard,
    never hangs the run; the arguments are :meth:`Fault.held_open`'s.
    """
    return Fault.held_open(
        before=before,
        after=after,
        content_type=content_type,
        framing=framing,
        first=first,
        seconds=HANG_GUARD_SECONDS,
    )
