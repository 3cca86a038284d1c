"""Time limits: the whole call's deadline and the budget of the provider attempt in progress.

A search has one deadline (``deadline_seconds``) for everything it does: the chain, retries,
back-off, headless escalation and the Public Web fan-out. Each provider attempt gets the
lesser of its own timeout and what remains of that deadline. The attempt's expiry is kept in
a context variable, so every piece of code below the chain (the transport, a provider's own
retry loop, the fan-out's engines, which run as tasks that inherit the context) reads the
same limit without it being threaded through every signature.

Example:
    >>> deadline = Deadline(30.0)
    >>> with attempt_scope(min(10.0, deadline.remaining())):
    ...     remaining_budget(60.0) <= 10.0
    True
    >>> remaining_budget(60.0)
    60.0
"""

import math
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token

__all__ = [
    "Deadline",
    "attempt_scope",
    "enter_attempt",
    "format_seconds",
    "leave_attempt",
    "remaining_budget",
]

_attempt_expiry: ContextVar[float | None] = ContextVar("websearch_attempt_expiry", default=None)
"""``time.monotonic()`` value at which the current provider attempt runs out of time."""


class Deadline:
    """A point in monotonic time by which a whole call must have ended.

    Args:
        seconds: How long the call may take from now.
        clock: Monotonic seconds (injectable for tests).
    """

    __slots__ = ("_clock", "expires_at", "seconds")

    def __init__(self, seconds: float, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self._clock = clock
        self.expires_at = clock() + seconds

    def __repr__(self) -> str:
        return f"Deadline(seconds={self.seconds:g}, remaining={self.remaining():.3f})"

    def remaining(self) -> float:
        """Seconds left (never negative)."""
        return max(0.0, self.expires_at - self._clock())

    @property
    def expired(self) -> bool:
        """Whether no useful time is left."""
        return self.remaining() <= 0.0


@contextmanager
def attempt_scope(seconds: float) -> Iterator[float]:
    """Bound the code inside to ``seconds`` (never more than an enclosing scope allows).

    Yields:
        The budget actually granted, in seconds.
    """
    granted, token = enter_attempt(seconds)
    try:
        yield granted
    finally:
        leave_attempt(token)


def enter_attempt(seconds: float) -> tuple[float, Token[float | None]]:
    """Open an attempt scope without a context manager; close it with :func:`leave_attempt`.

    :func:`attempt_scope` as two plain calls, for the one caller that runs on every search
    (:func:`~websearch_core.orchestration.attempt.answer_attempt`): a generator-based
    context manager builds a generator and its wrapper per use, and the caller already
    holds a ``try``/``finally`` of its own.

    Returns:
        The budget actually granted, in seconds, and the token :func:`leave_attempt` takes.
    """
    now = time.monotonic()
    expiry = now + max(0.0, seconds)
    outer = _attempt_expiry.get()
    if outer is not None and outer < expiry:  # never more than the enclosing scope allows
        expiry = outer
    return expiry - now, _attempt_expiry.set(expiry)


def leave_attempt(token: Token[float | None]) -> None:
    """Close the scope :func:`enter_attempt` opened: the enclosing budget applies again."""
    _attempt_expiry.reset(token)


def remaining_budget(default: float) -> float:
    """The lesser of ``default`` and what remains of the current attempt's budget.

    Outside any attempt scope this is ``default``; inside one it never exceeds what the
    scope has left, so a request or a retry wait can never outlive the provider's time.
    """
    expiry = _attempt_expiry.get()
    if expiry is None:
        return default
    left = max(0.0, expiry - time.monotonic())
    return left if math.isnan(default) else min(default, left)


def format_seconds(seconds: float) -> str:
    """A time limit as people write it: to a tenth of a second, without trailing zeros.

    A budget read off the clock is a hair under what was granted (0.999 s of 1 s); messages
    should say the limit, not the clock's noise.

    Example:
        >>> format_seconds(0.99983), format_seconds(0.5), format_seconds(55.0)
        ('1', '0.5', '55')
    """
    return f"{round(seconds, 1):g}"
