"""Time limits: the whole call's deadline and the budget of the provider attempt in progress.

A search has one deadline (``deadline_seconds``) for everything it does: the chain, retries,
back-off, headless escalation and the Public Web fan-out. Each provider attempt gets the
lesser of its own timeout and what remains of that deadline. The attempt's expiry is kept in
a context variable, so every piece of code below the chain (the transport, a provider's own
retry loop, the fan-out's engines, which run as tasks that inherit the context) reads the
same limit without it being threaded through every signature.

The call's own deadline is kept the same way (:func:`enter_call`) for the state store:
opening it, the cache lookups, the ledger's writes and the cache write all happen outside
any attempt, and a store that does not answer (a SQLite file another process holds locked,
a Redis that accepts and never replies) must not hold the call past its deadline either
(:func:`store_patience`).

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
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar, Token
from typing import NamedTuple

__all__ = [
    "CANDIDATES_NAMED",
    "STORE_GRACE_SECONDS",
    "STORE_SETTING_CAP",
    "STORE_SHARE",
    "STORE_SHARE_CAP_SECONDS",
    "CallBounds",
    "CallClock",
    "Deadline",
    "OptionalStoreWaits",
    "StoreWaitsWithin",
    "attempt_scope",
    "bound_store_waits",
    "call_started",
    "deadline_clause",
    "enter_attempt",
    "enter_call",
    "format_seconds",
    "leave_attempt",
    "leave_call",
    "not_tried_text",
    "remaining_budget",
    "store_patience",
    "store_queue_expiry",
    "store_share",
    "store_wait_optional",
    "timed_out_text",
]

STORE_GRACE_SECONDS = 0.25
"""How long a state store call begun at (or past) the call's deadline is still waited for.

A search whose providers hung until the deadline still has bookkeeping to do: the failure
count that opens the provider's circuit breaker, its cooldown mark, the stale answer that
may save the call. A Redis answers those in a millisecond but never in zero seconds, so
without this they would all be given up at once. A quarter of a second is hundreds of
times what a healthy store takes, and short enough to keep "ends at its deadline" true
for a person waiting.
"""

STORE_SHARE = 0.1
"""The part of a search's deadline its cache lookup, and its cache write, may wait for.

The lookup comes before any provider is asked and the write after the answer is ready:
a store that does not answer must not cost the search its providers' time, nor hold an
answer it already has. Given the whole deadline, a SQLite file another process held
locked before its first use spent all of it on the lookup, and the search failed with
"the deadline ran out" without asking anyone; a write behind the lock held a ready
answer until the deadline.
"""

STORE_SHARE_CAP_SECONDS = 1.0
"""The most :data:`STORE_SHARE` grants (a 55 s deadline's tenth would be 5.5 s): a healthy
store answers a lookup in milliseconds, opening the file on first use included."""

STORE_SETTING_CAP = 0.5
"""The most of a call's deadline ``state_wait_seconds`` may take: the other half is the
providers' (or the page's), behind a store that never answers."""

_attempt_expiry: ContextVar[float | None] = ContextVar("websearch_attempt_expiry", default=None)
"""``time.monotonic()`` value at which the current provider attempt runs out of time."""


class CallBounds(NamedTuple):
    """The running search's time limits, as ``time.monotonic()`` values (see :func:`enter_call`).

    Attributes:
        store_expiry: When a wait on the state store ends (:func:`store_patience`): the
            deadline, or sooner inside :func:`bound_store_waits`.
        deadline_expiry: When the search's deadline passes; ``None`` outside a search (a
            command that only reads the store).
        deadline_seconds: That deadline as set (``deadline_seconds``), for messages.
        optional: The store calls in the scope are an optimisation (the result cache's
            lookup and write, :class:`OptionalStoreWaits`): one queued behind this
            process's busy calls does not wait its turn past ``store_expiry``.
    """

    store_expiry: float
    deadline_expiry: float | None = None
    deadline_seconds: float | None = None
    optional: bool = False


_call_bounds: ContextVar[CallBounds | None] = ContextVar("websearch_call_bounds", default=None)
"""The running search's limits (see :func:`enter_call`)."""

_SAME_INSTANT_SECONDS = 0.001
"""An attempt ending this close to the search's deadline ends with it: its budget was what
remained of the deadline, read off the clock a few microseconds apart."""


class Deadline:
    """A point in monotonic time by which a whole call must have ended.

    Args:
        seconds: How long the call may take from its start.
        clock: Monotonic seconds (injectable for tests).
        started: When the call started, on ``clock``; ``None`` is now. A tool's call
            starts before its client is built (:class:`CallClock`).
    """

    __slots__ = ("_clock", "expires_at", "seconds")

    def __init__(
        self,
        seconds: float,
        *,
        clock: Callable[[], float] = time.monotonic,
        started: float | None = None,
    ) -> None:
        self.seconds = seconds
        self._clock = clock
        self.expires_at = (clock() if started is None else started) + seconds

    def __repr__(self) -> str:
        return f"Deadline(seconds={self.seconds:g}, remaining={self.remaining():.3f})"

    def remaining(self) -> float:
        """Seconds left (never negative)."""
        return max(0.0, self.expires_at - self._clock())

    @property
    def expired(self) -> bool:
        """Whether no useful time is left: :meth:`remaining` would be 0.

        Asked after every reservation, so the test is written out (one clock read, no
        ``max``); ``not left > 0`` is ``remaining() <= 0`` for every float, NaN included.
        """
        return not self.expires_at - self._clock() > 0.0


_call_started: ContextVar[float | None] = ContextVar("websearch_call_started", default=None)
"""``time.monotonic()`` when the call that contains this code started (:class:`CallClock`)."""


class CallClock:
    """``with CallClock():`` a search's deadline made in the block counts from its start.

    A tool's or retriever's first call on a loop imports what building its client needs
    before the client, whose settings hold the deadline, exists; its deadline then began
    only at the search, after those imports. The call's own start is kept here for the
    search to count from. A block inside another keeps the outer block's start.
    """

    __slots__ = ("_token",)

    def __enter__(self) -> None:
        outer = _call_started.get() is not None
        self._token = None if outer else _call_started.set(time.monotonic())

    def __exit__(self, *exc_info: object) -> None:
        if self._token is not None:
            _call_started.reset(self._token)


def call_started() -> float | None:
    """When the enclosing :class:`CallClock` block began (monotonic); ``None`` outside one."""
    return _call_started.get()


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


def enter_call(deadline: Deadline) -> Token[CallBounds | None]:
    """Make ``deadline`` the running search's; undo with :func:`leave_call`.

    The state store's waits end by it, and a timeout that it cut short says so
    (:func:`timed_out_text`). Plain calls rather than a context manager, as
    :func:`enter_attempt`: it runs on every search.
    """
    expiry = time.monotonic() + deadline.remaining()
    return _call_bounds.set(CallBounds(expiry, expiry, deadline.seconds))


def leave_call(token: Token[CallBounds | None]) -> None:
    """Forget the deadline :func:`enter_call` set, or the bound :func:`bound_store_waits` set."""
    _call_bounds.reset(token)


def store_share(deadline: Deadline, setting: float | None = None) -> float:
    """Seconds the cache lookup or write of a search with ``deadline`` may wait for the store.

    ``setting`` (``state_wait_seconds``) when given, but never more than half the
    deadline (a fetch given a shorter one than the settings' keeps the other half for its
    page); else :data:`STORE_SHARE` of the deadline, between :data:`STORE_GRACE_SECONDS`
    and :data:`STORE_SHARE_CAP_SECONDS` (0.25 s for a 1 s deadline, 0.5 s for 5 s, 1 s from
    10 s).

    Example:
        >>> store_share(Deadline(5.0)), store_share(Deadline(55.0), 3.0)
        (0.5, 3.0)
        >>> store_share(Deadline(4.0), 3.0)
        2.0
    """
    if setting is not None:
        return min(setting, deadline.seconds * STORE_SETTING_CAP)
    return min(STORE_SHARE_CAP_SECONDS, max(STORE_GRACE_SECONDS, deadline.seconds * STORE_SHARE))


def bound_store_waits(seconds: float) -> Token[CallBounds | None]:
    """Wait for the state store at most ``seconds`` from now; undo with :func:`leave_call`.

    Never longer than an enclosing call's deadline allows; optional inside an optional
    block (:class:`OptionalStoreWaits`). Bounds a search's cache lookup
    (:func:`store_share`), and the commands that only read or clear the state
    (``websearch providers``, its ``reset``), which have no deadline of their own.
    """
    expiry = time.monotonic() + max(0.0, seconds)
    outer = _call_bounds.get()
    if outer is None:
        return _call_bounds.set(CallBounds(expiry))
    # The first field replaced by hand: ``outer._replace`` took 1.2 us of the 2.2 a
    # reservation's bound cost (it runs before every request), this 0.4.
    return _call_bounds.set(CallBounds(min(expiry, outer.store_expiry), *outer[1:]))


class StoreWaitsWithin:
    """``with StoreWaitsWithin(seconds):`` bounds the state store's waits in the block.

    :func:`bound_store_waits` and :func:`leave_call` as a context manager, for the places
    that bound one store call (a cache lookup or write, a command's read or clear); a
    small class rather than ``contextlib.contextmanager``, whose generator costs more.

    Example:
        >>> with StoreWaitsWithin(3.0):
        ...     0 < store_patience() <= 3.0
        True
        >>> store_patience() is None
        True
    """

    __slots__ = ("_seconds", "_token")

    def __init__(self, seconds: float) -> None:
        self._seconds = seconds

    def __enter__(self) -> None:
        self._token = bound_store_waits(self._seconds)

    def __exit__(self, *exc_info: object) -> None:
        leave_call(self._token)


class OptionalStoreWaits:
    """``with OptionalStoreWaits():`` the store calls in the block are an optimisation.

    For the result cache, whose lookup a search can do without (a miss: the providers
    are asked) and whose write is for later searches. A call in the block that is still
    queued behind this process's busy calls when its bound (:func:`bound_store_waits`)
    ends is refused as busy (:func:`store_queue_expiry`) rather than waited for until the
    search's deadline: the fail-safe store then answers a miss, or leaves the entry
    unwritten, and does not bypass the store. Budget reservations are not optional: they
    decide whether a request may be sent. Outside any bound (no search, no command's
    bound) it changes nothing: the call is not bounded at all.

    Example:
        >>> with StoreWaitsWithin(1.0), OptionalStoreWaits():
        ...     store_wait_optional()
        True
        >>> store_wait_optional()
        False
    """

    __slots__ = ("_token",)

    def __enter__(self) -> None:
        bounds = _call_bounds.get()
        # Built by hand, as in bound_store_waits: ``_replace`` costs three times as much.
        self._token = None if bounds is None else _call_bounds.set(CallBounds(*bounds[:3], True))

    def __exit__(self, *exc_info: object) -> None:
        if self._token is not None:
            _call_bounds.reset(self._token)


def store_patience() -> float | None:
    """Seconds a state store call begun now may be waited for; ``None`` outside a search.

    What remains of the search's deadline, but never less than :data:`STORE_GRACE_SECONDS`,
    so a call begun at the deadline still gets its answer from a store that is merely not
    instant. A store that cannot answer in that time is taken as unavailable.
    """
    bounds = _call_bounds.get()
    if bounds is None:
        return None
    return max(bounds.store_expiry - time.monotonic(), STORE_GRACE_SECONDS)


def store_queue_expiry() -> float | None:
    """When a state store call still queued behind this process's answered calls stops waiting.

    A ``time.monotonic()`` value: the search's deadline, or outside a search (a command's
    read, a fetch) the bound set around the call; ``None`` outside both. A store whose
    thread is answering other calls is busy, not silent: a call queued there waits for its
    turn until this, and only then for its own :func:`store_patience` (see
    :meth:`~websearch_core.state._threaded.ThreadedStore._within`). An optional call
    (:class:`OptionalStoreWaits`: the cache's lookup and write) waits its own bound only:
    behind a long queue, the lookup held the search (the write its ready answer) until the
    queue drained, to save at most one provider's request.
    """
    bounds = _call_bounds.get()
    if bounds is None:
        return None
    if bounds.deadline_expiry is None or bounds.optional:
        return bounds.store_expiry
    return bounds.deadline_expiry


def store_wait_optional() -> bool:
    """Whether the state store call made now is optional (:class:`OptionalStoreWaits`)."""
    bounds = _call_bounds.get()
    return bounds is not None and bounds.optional


def timed_out_text(label: str, seconds: float) -> str:
    """``<label> search timed out after <seconds>s``, saying so when the deadline set it.

    A provider cut short by the search's deadline read ``timed out after 0.3s`` as if 0.3 s
    were its own timeout; the text now adds ``, the time left of the 10s deadline``. Every
    timeout of a provider's request is worded here (the transport's, the attempt's hard
    stop, an HTML engine's whole budget).

    The stem is the reference's for the browser engines (``Ecosia search timed out.``,
    which they say as given when their fetch or browser ran out), with the seconds the
    reference leaves to us where it is silent: the plain engines and the API providers,
    which said ``<label> request timed out after ...``, so one slow search listed its
    timeouts in two wordings, as its failed connections read alike
    (:func:`~websearch_core.connection_causes.connection_failed`).

    Args:
        label: The provider's label.
        seconds: The time the request had.
    """
    return f"{label} search timed out after {format_seconds(seconds)}s{deadline_clause()}"


def deadline_clause() -> str:
    """``, the time left of the <N>s deadline`` when the search's deadline set a time limit.

    Empty when no search is running or the attempt's own timeout ends first. One wording for
    every text that names the time a request had: a plain timeout's
    (:func:`timed_out_text`), and a name with no answer from DNS or a connection not made
    in that time, which read ``within 0.3s`` as if 0.3 s were the provider's timeout.
    """
    bounds = _call_bounds.get()
    attempt_expiry = _attempt_expiry.get()
    if bounds is None or bounds.deadline_expiry is None or bounds.deadline_seconds is None:
        return ""
    if attempt_expiry is None or attempt_expiry < bounds.deadline_expiry - _SAME_INSTANT_SECONDS:
        return ""  # the attempt's own timeout ended it first
    return f", the time left of the {format_seconds(bounds.deadline_seconds)}s deadline"


def not_tried_text(
    deadline: Deadline, provider_ids: Iterable[str], more: int = 0, *, unknown: Sequence[str] = ()
) -> str:
    """What a search says when its deadline ran out before ``provider_ids`` were asked.

    One wording for the chain, which ran out between providers, and for a first search
    whose imports outlasted its deadline before any was asked. That search may know its
    plan only in part (the rest of its providers were still being imported): ``more``, or
    ``unknown``, are the providers it looked at whose part it cannot tell. They are
    counted, and ``unknown`` named in the plan's order as candidates: after named ones
    "maybe" (some would never have been tried: no key, or one before them answering), with
    none named "any of". A count alone ("brave, and 1 more") told the user less than the
    settings they wrote. At most :data:`CANDIDATES_NAMED` are named, then "...": the auto
    chain's two dozen would bury the sentence; the count says how many there are.

    Example:
        >>> not_tried_text(Deadline(4.0), ["brave", "tavily"])
        'the 4s deadline for the whole search ran out; not tried: brave, tavily'
        >>> not_tried_text(Deadline(4.0), ["brave"], more=3)[-28:]
        'not tried: brave, and 3 more'
        >>> not_tried_text(Deadline(4.0), [], more=3)[-29:]
        'not tried: any of 3 providers'
        >>> not_tried_text(Deadline(4.0), [], unknown=["exa", "brave"])[-42:]
        'not tried: any of 2 providers (exa, brave)'
        >>> not_tried_text(Deadline(4.0), ["brave"], unknown=["tavily"])[-43:]
        'not tried: brave, and maybe 1 more (tavily)'
    """
    names = ", ".join(provider_ids)
    count = more or len(unknown)
    listed = f" ({_candidates(unknown)})" if unknown else ""
    if count and names:
        maybe = "maybe " if unknown else ""
        names = f"{names}, and {maybe}{count} more{listed}"
    elif count:
        names = f"any of {count} providers{listed}"
    return f"the {deadline.seconds:g}s deadline for the whole search ran out; not tried: {names}"


CANDIDATES_NAMED = 5
"""Candidates a "not tried" text names at most, in the plan's order, before "..."."""


def _candidates(unknown: Sequence[str]) -> str:
    """``unknown`` as the text lists them: the first :data:`CANDIDATES_NAMED`, then "..."."""
    shown = ", ".join(unknown[:CANDIDATES_NAMED])
    return f"{shown}, ..." if len(unknown) > CANDIDATES_NAMED else shown


def format_seconds(seconds: float) -> str:
    """A time limit as people write it: to a tenth of a second, without trailing zeros.

    A budget read off the clock is a hair under what was granted (0.999 s of 1 s); messages
    should say the limit, not the clock's noise.

    Example:
        >>> format_seconds(0.99983), format_seconds(0.5), format_seconds(55.0)
        ('1', '0.5', '55')
    """
    return f"{round(seconds, 1):g}"
