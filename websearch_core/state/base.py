"""The state interface the quota-aware fallback chain talks to, and the in-memory backend.

The chain needs five kinds of shared, short-lived facts: provider marks (rate limited,
exhausted, unauthorized, circuit open), a consecutive-failure counter per provider (circuit
breaker backoff), usage counters per provider and period (budgets, reserved atomically
before a request is sent), the next free send time per rate-limited provider, and a result
cache.
They live behind :class:`StateStore` so the same chain code runs on an in-memory store (tests,
no persistence), SQLite (one machine, several processes) or Redis (many machines sharing
quotas).

Design rules every backend follows, so they can be swapped without the chain noticing:

* Every method is ``async`` and every value is plain data (frozen dataclasses, ``bytes``,
  ``int``). Nothing is bound to an event loop: one store may serve several loops and threads,
  which the synchronous bridge of :class:`~websearch_core.WebSearch` relies on.
* Expiry is decided from the caller's ``now`` where a method takes one (marks, cache), so
  tests and the chain see one consistent clock. Backends may also drop expired data
  physically by the wall clock; usage counters, which take no ``now``, expire by the wall
  clock alone.
* Counters are atomic across processes: two processes incrementing the same counter never
  lose an increment.
* Nothing secret is stored: marks carry a caller-written, secret-free ``reason``; cache keys
  arrive already hashed and values already serialized.
* Backend failures (a locked or unreadable file, an unreachable server) surface as
  :class:`StateStoreError`, one type the chain can catch to degrade to stateless operation.
"""

from __future__ import annotations

import abc
import math
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Final, Literal, get_args

import platformdirs

from ..closing import AsyncClosing
from ..errors import WebSearchError

__all__ = [
    "APP_NAME",
    "CLOCK_STEP_TOLERANCE",
    "DEFAULT_MAX_CACHE_ENTRIES",
    "DEFAULT_REDIS_PREFIX",
    "FAILURE_WINDOW",
    "MARK_KINDS",
    "NOTE_NAME_MAX",
    "NOTE_TEXT_MAX",
    "CachedEntry",
    "CorruptStateError",
    "MarkKind",
    "MemoryStore",
    "ProviderMark",
    "StateStore",
    "StateStoreError",
    "StateStoreTimeoutError",
    "UsageGrant",
    "UsageWindow",
    "default_state_path",
]

APP_NAME: Final = "websearch-tools"
DEFAULT_REDIS_PREFIX: Final = "websearch:"
STATE_FILE_NAME: Final = "state.sqlite3"
REDIS_INSTALL_HINT: Final = 'pip install "websearch-tools[redis]"'
DEFAULT_MAX_CACHE_ENTRIES: Final = 10_000
"""How many result-cache entries the memory and SQLite stores keep at most (the latest
written). A search's entry is a few KB and is kept a week past its freshness for
serve-stale, so without a bound a busy agent's state grew without limit; 10,000 is a
few tens of MB at most. Redis entries carry their expiry as a TTL instead."""

CLOCK_STEP_TOLERANCE: Final = 60.0
"""Seconds a mark's ``set_at`` may lie ahead of a reader's ``now`` before the reader takes
it for a step back of the wall clock (see :meth:`ProviderMark.as_of`). Processes on
several machines sharing one Redis judge marks by their own clocks, which may disagree by
a little: no mark is moved for that."""

FAILURE_WINDOW: Final = 2 * 3600.0
"""Seconds a provider's consecutive-failure counter outlives its last failure.

The counter feeds the circuit breaker, whose cooldown doubles with each consecutive
transient failure up to ``FailurePolicy.circuit_max`` (an hour): a failure soon after
the longest cooldown ends must still count as consecutive, or the breaker would forget
its back-off just when it matters. Past that, failures are not a streak: one from last
week and one today are two separate blips, and the count starts again at 1."""

NOTE_NAME_MAX: Final = 200
"""Characters a note's name may have (it becomes part of a Redis key and a SQLite key)."""
NOTE_TEXT_MAX: Final = 1000
"""Characters a note's text may have: one line for the providers table, never a payload."""

MarkKind = Literal["rate_limited", "exhausted", "unauthorized", "circuit_open"]
MARK_KINDS: Final[frozenset[str]] = frozenset(get_args(MarkKind))

# Provider ids become parts of Redis keys and glob patterns; keeping them to a plain
# alphabet makes key layouts unambiguous and pattern-safe in every backend.
_PROVIDER_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}")
_CHECKED_IDS_KEPT: Final = 256
"""Provider ids :func:`check_provider` remembers as valid, at most (a handful in use)."""
_checked_ids: set[str] = set()


class StateStoreError(WebSearchError):
    """The state backend failed (file locked or unreadable, server unreachable, closed store).

    The chain treats state as advisory: on this error it may carry on without marks, budgets
    or cache rather than fail a search. Messages never contain connection secrets.
    """


class StateStoreTimeoutError(StateStoreError):
    """The backend did not answer within the time its caller waits (a search's deadline, 3 s).

    Most requests are not withdrawn: they still run on the store's own thread, so a write
    lands when the store gets to it (a lock released, a server that wakes up); only the
    caller stopped waiting for it. A clear (:meth:`StateStore.clear`,
    :meth:`StateStore.clear_all`) is withdrawn when it had not started: a reset that says
    "not cleared" must not clear later. A reservation with a budget (a window with a
    ``limit``) is withdrawn likewise, or given back once it lands: its caller takes the
    budget for unchecked and does not send the request as counted. :attr:`withdrawn` says
    which.

    A store can be busy rather than silent: its thread answered this process's other
    calls, queued before this one, all the while, and the call waited for its turn until
    the search's deadline. :attr:`busy` says so: the store works, and
    :class:`~websearch_core.state.failsafe.FailSafeStore` does not bypass it for that.

    Args:
        message: What did not answer, and for how long it was waited for.
        withdrawn: The request will not stand: never made, or undone once it lands
            (``False``: it may still land).
        busy: The store answered other calls all the while (``False``: it stopped answering).
    """

    def __init__(self, message: str, *, withdrawn: bool = False, busy: bool = False) -> None:
        super().__init__(message)
        self.withdrawn = withdrawn
        self.busy = busy


class StateStoreClosedError(StateStoreError):
    """The store was closed before this call: its client was closed while a search ran.

    Not a store failing: :class:`~websearch_core.state.failsafe.FailSafeStore` answers
    the search as for a failure, without taking the store for down or warning that it is
    unavailable (its owner closed it).
    """

    def __init__(self, message: str = "the state store is closed") -> None:
        super().__init__(message)


class WriteHandedOverError(StateStoreError):
    """A write waited for another process's write lock and its store was closed meanwhile.

    The close took the write from the queue and either kept it (journaled for the next
    process, or written as the store was dropped) or lost it. A kept write is not a store
    failing: :class:`~websearch_core.state.failsafe.FailSafeStore` answers its caller as
    for a failure, without taking the store for down or warning that it is unavailable.

    Args:
        message: What became of the write, and where it is kept.
        kept: Whether the write stands (``False``: lost; do it again).
    """

    def __init__(self, message: str, *, kept: bool) -> None:
        super().__init__(message)
        self.kept = kept


class CorruptStateError(StateStoreError):
    """The state is damaged or not ours (a truncated or foreign file, a directory in its place).

    Distinct from a passing failure (a lock held too long, a server restarting) because
    the only cure is to move the state aside: ``websearch providers reset --all`` does that.
    """


@dataclass(frozen=True, slots=True)
class ProviderMark:
    """Why a provider is being skipped, and until when.

    Attributes:
        kind: What happened: ``rate_limited`` (429), ``exhausted`` (quota or credits spent),
            ``unauthorized`` (bad key), ``circuit_open`` (too many transient failures).
        until: Unix epoch seconds; at and after this instant the mark is ignored.
        reason: Secret-free text shown by ``websearch providers``.
        failures: Consecutive transient failures when the mark was set (backoff input).
        set_at: Unix epoch seconds when the mark was set.
        scope: A secret-free fingerprint of the credential and endpoint the mark was earned
            with (``""``: any). A mark only holds while the provider is still used that way:
            a new key or another endpoint is a different door and is tried again at once.
    """

    kind: MarkKind
    until: float
    reason: str
    failures: int = 0
    set_at: float = 0.0
    scope: str = ""

    def __post_init__(self) -> None:
        # Marks cross process and machine boundaries; reject garbage before it is shared.
        if self.kind not in MARK_KINDS:
            raise ValueError(
                f"unknown mark kind {self.kind!r}; expected one of {sorted(MARK_KINDS)}"
            )
        if not math.isfinite(self.until) or not math.isfinite(self.set_at):
            raise ValueError("mark times must be finite unix timestamps")
        if self.failures < 0:
            raise ValueError("mark failures must not be negative")

    def is_active(self, now: float) -> bool:
        """Whether the mark still applies at ``now`` (it expires at ``until``)."""
        return now < self.until

    def as_of(self, now: float) -> ProviderMark:
        """The mark as it stands at ``now``: itself, unless the wall clock stepped back.

        A mark keeps its provider out for ``until - set_at`` seconds from when it was set.
        When ``now`` lies before ``set_at`` (by more than :data:`CLOCK_STEP_TOLERANCE`),
        the clock has stepped back since (an NTP correction, a resumed virtual machine) and
        ``until`` lies that much further ahead: taken as it is, a one-minute cooldown set
        just before a one-hour step kept its provider out for an hour and a minute. The
        mark is moved to start at ``now`` instead, so it ends no later than its whole
        duration from now. The stores save the moved mark, so that the clock's progress
        from here on counts against it. A mark without ``set_at`` (``0``) is kept as it is.
        """
        if self.set_at <= 0 or self.set_at - now <= CLOCK_STEP_TOLERANCE:
            return self
        return replace(self, set_at=now, until=now + (self.until - self.set_at))

    def applies_to(self, scope: str | None) -> bool:
        """Whether the mark holds for a provider used with ``scope`` (``None``: unknown).

        An unscoped mark, or an unknown current scope, always applies: without knowing
        what changed, keeping the provider out is the cautious choice.
        """
        return not self.scope or scope is None or scope == self.scope


@dataclass(frozen=True, slots=True)
class UsageWindow:
    """One usage counter a reservation checks and counts in.

    Attributes:
        period: The counter's period key (``"month:2025-06"``, ``"budget:day:2025-06-01"``).
        expires_at: Unix epoch seconds when the counter is gone (as for ``increment_usage``).
        limit: Refuse the reservation when the counter already reached this; ``None``
            counts without a cap (the monthly usage shown by ``websearch providers``).
    """

    period: str
    expires_at: float
    limit: int | None = None

    def __post_init__(self) -> None:
        check_period(self.period)
        if not math.isfinite(self.expires_at):
            raise ValueError("usage window expiry must be a finite unix timestamp")
        if self.limit is not None and self.limit < 0:
            raise ValueError("usage window limit must not be negative")


@dataclass(frozen=True, slots=True)
class UsageGrant:
    """The answer to :meth:`StateStore.reserve_usage`.

    Attributes:
        granted: Whether every window had room and was counted.
        counts: Each window's count: after the increment when granted, as found when not.
        failures: The provider's consecutive-failure counter as read in the same step (0
            once its window has passed), so a success need not write anything when there
            is nothing to forgive.
        mark: From :meth:`StateStore.reserve_unless_marked` only: the provider's active
            mark, found in the same step; nothing was counted (``granted`` is false and
            ``counts`` is empty).
        unchecked: The store could not be asked (a fail-safe answer: see
            :class:`~websearch_core.state.failsafe.FailSafeStore`) and a window has a
            ``limit``: a budget nobody can check is not granted, and nothing was counted
            (``granted`` is false and ``counts`` is empty).
    """

    granted: bool
    counts: tuple[int, ...]
    failures: int = 0
    mark: ProviderMark | None = None
    unchecked: bool = False


@dataclass(frozen=True, slots=True)
class CachedEntry:
    """A cached response as the caller serialized it.

    Attributes:
        value: The serialized response.
        stored_at: Unix epoch seconds when it was stored.
        fresh_until: Unix epoch seconds; from then on the entry is stale and only returned
            by ``cache_get(..., allow_stale=True)`` (serve-stale when every provider fails).
    """

    value: bytes
    stored_at: float
    fresh_until: float

    def is_fresh(self, now: float) -> bool:
        """Whether ``now`` is still inside the entry's freshness window."""
        return now < self.fresh_until


class StateStore(AsyncClosing, abc.ABC):
    """The persistent state of the fallback chain: marks, failure counters, usage, cache.

    Implementations are safe to share between tasks, threads and event loops, and the
    persistent ones between processes. Use as an async context manager, or call
    :meth:`aclose` when done; every method raises :class:`StateStoreError` after that.
    """

    @property
    def degraded(self) -> bool:
        """Whether answers are stand-ins because the backend failed (a wrapper's concern).

        A store answers for itself, so ``False``; :class:`FailSafeStore` says ``True``
        while it bypasses a failed backend, and the ledger then paces sends on its own.
        """
        return False

    @abc.abstractmethod
    async def get_mark(self, provider: str, now: float) -> ProviderMark | None:
        """The provider's mark, or ``None`` when there is none or it expired at ``now``.

        Every method that reads marks at ``now`` returns them as :meth:`ProviderMark.as_of`
        says, and saves a mark it moved that way.
        """

    @abc.abstractmethod
    async def set_mark(self, provider: str, mark: ProviderMark) -> None:
        """Store ``mark`` for ``provider``, replacing any previous one.

        Backends may drop the mark physically once the wall clock passes ``mark.until``.
        """

    @abc.abstractmethod
    async def clear_mark(self, provider: str) -> None:
        """Remove the provider's mark (a no-op when there is none)."""

    async def clear_mark_if_unchanged(self, provider: str, mark: ProviderMark, now: float) -> None:
        """Remove the provider's mark only if the store still holds ``mark`` (compare-and-clear).

        Why: a re-check's success clears the spent balance's mark it has just read back;
        a search that failed meanwhile may have set a newer mark, which must stay. The
        built-in backends compare and remove in one step (memory: one lock; SQLite: one
        ``DELETE`` matching every column; Redis: one script matching the stored bytes).
        This default, for other stores, reads the mark active at ``now`` and clears it:
        two steps, so a mark set between them is lost there.
        """
        if await self.get_mark(provider, now) == mark:
            await self.clear_mark(provider)

    @abc.abstractmethod
    async def all_marks(self, now: float) -> dict[str, ProviderMark]:
        """Every mark still active at ``now``, by provider id (for ``websearch providers``)."""

    @abc.abstractmethod
    async def record_failure(self, provider: str) -> int:
        """Atomically add one to the provider's consecutive-failure counter and return it.

        The counter is gone (read as 0, and counting again from 1) :data:`FAILURE_WINDOW`
        seconds after its last failure, by the backend's wall clock.
        """

    @abc.abstractmethod
    async def reset_failures(self, provider: str) -> None:
        """Zero the provider's consecutive-failure counter (after a success)."""

    @abc.abstractmethod
    async def increment_usage(self, provider: str, period: str, expires_at: float) -> int:
        """Atomically add one to a usage counter and return the new count.

        Args:
            provider: The provider id.
            period: The budget period the counter belongs to (``"2025-06"``, ``"day:2025-06-01"``).
            expires_at: Unix epoch seconds after which the counter is gone (read as 0, and the
                next increment starts again at 1). The latest call's value wins.
        """

    @abc.abstractmethod
    async def get_usage(self, provider: str, period: str) -> int:
        """The current count of a usage counter; 0 when absent or expired."""

    @abc.abstractmethod
    async def reserve_usage(self, provider: str, windows: Sequence[UsageWindow]) -> UsageGrant:
        """Atomically check every capped window and, only if all have room, count in each.

        This is the reserve-before-send step: concurrent callers in any process can never
        together pass a limit, because the check and the increments are one indivisible
        step (SQLite: one ``BEGIN IMMEDIATE`` transaction; Redis: one Lua script).
        """

    async def reserve_unless_marked(
        self, provider: str, windows: Sequence[UsageWindow], now: float
    ) -> UsageGrant:
        """:meth:`reserve_usage`, unless the provider carries a mark active at ``now``.

        The chain's usual step before a request: the mark check and the reservation it
        would otherwise make one after the other. With a mark, nothing is counted and the
        grant carries it (``granted`` false, no counts); the caller decides whether the
        mark applies to it (see :meth:`ProviderMark.applies_to`). The built-in backends do
        both in one step (one lock, one transaction, one script), which saves a round trip
        on every search; this default, for other stores, makes the two calls. Where no
        window has a cap, a backend may count behind (SQLite does: one read, the counts
        written in batches), as long as its own reads include those counts.
        """
        mark = await self.get_mark(provider, now)
        if mark is not None:
            return UsageGrant(granted=False, counts=(), mark=mark)
        return await self.reserve_usage(provider, windows)

    @abc.abstractmethod
    async def release_usage(self, provider: str, windows: Sequence[UsageWindow]) -> None:
        """Give back one count in each window (a reserved request that was never sent).

        A counter never goes below zero, and an expired one is left alone.
        """

    @abc.abstractmethod
    async def take_rate_slot(self, provider: str, interval: float, max_wait: float) -> float | None:
        """Book the provider's next send time under a rate limit, shared by every process.

        Sends are spaced at least ``interval`` seconds apart: the slot is the later of now
        and the previous booking plus ``interval``. Returns the seconds to wait before
        sending, or ``None`` (booking nothing) when that would be more than ``max_wait``.
        A step back of the backend's clock since the previous booking does not add to the
        wait (see :func:`next_free_slot`).
        """

    async def rate_slot_wait(self, provider: str) -> float:
        """Seconds until the provider's next send slot is free under its rate (0: now).

        Read only: nothing is booked. ``websearch providers`` said ``ready`` of a provider
        whose next slot was a minute away, and a search then waited (or was skipped).
        A backend that keeps no bookings answers 0.
        """
        check_provider(provider)
        return 0.0

    async def set_note(self, provider: str, name: str, text: str, until: float) -> None:
        """Keep ``text`` as the provider's note ``name`` until ``until`` (epoch seconds).

        A note is what a provider learnt about itself that the providers table shows and a
        later process cannot know otherwise (Gemini's model in place of a default its
        sign-in is not served). The latest write wins; :meth:`clear` and :meth:`clear_all`
        forget notes with the rest. ``name`` tells one credential's note from another's
        and, like ``text``, is written by the caller free of secrets (a fingerprint, never
        a token). A backend that keeps no notes validates and forgets (this default).

        Raises:
            ValueError: A bad provider id, an empty or overlong name or text (see
                :data:`NOTE_NAME_MAX`, :data:`NOTE_TEXT_MAX`), a control character in
                either, or an ``until`` that is not finite.
        """
        check_note(provider, name, text, until)

    async def get_note(self, provider: str, name: str, now: float) -> str | None:
        """The provider's note ``name`` if it has not expired at ``now``; else ``None``.

        Raises:
            ValueError: A bad provider id, or an empty, overlong or unprintable name.
        """
        check_note_name(provider, name)
        return None

    @abc.abstractmethod
    async def cache_get(
        self, key: str, now: float, *, allow_stale: bool = False
    ) -> CachedEntry | None:
        """A cached entry: fresh ones always, stale ones only with ``allow_stale``.

        Args:
            key: The caller's (already hashed) cache key.
            now: Unix epoch seconds to judge freshness and removal by.
            allow_stale: Also return an entry past ``fresh_until`` but not yet removed.
        """

    @abc.abstractmethod
    async def cache_set(
        self, key: str, value: bytes, *, now: float, ttl: float, keep_stale_for: float
    ) -> None:
        """Store a cache entry, fresh for ``ttl`` seconds and kept stale ``keep_stale_for`` more.

        Args:
            key: The caller's (already hashed) cache key.
            value: The serialized response.
            now: Unix epoch seconds recorded as ``stored_at``.
            ttl: Seconds the entry is fresh (``fresh_until = now + ttl``).
            keep_stale_for: Seconds it is kept after that; it is removed at
                ``now + ttl + keep_stale_for``, or sooner where the backend bounds the
                cache's size (memory and SQLite keep the latest ``max_cache_entries``).

        Raises:
            ValueError: ``ttl`` or ``keep_stale_for`` is negative or not finite.
        """

    async def cache_set_deferred(
        self,
        key: str,
        serialise: Callable[[], bytes],
        *,
        now: float,
        ttl: float,
        keep_stale_for: float,
    ) -> None:
        """:meth:`cache_set` of ``serialise()``, which a store writing behind calls later.

        Why: serialising an answer costs a search that missed the cache 10-20 us on the
        event loop's thread, for an entry a store writing behind (SQLite) keeps in memory
        until its next flush anyway. Such a store holds ``serialise`` and calls it when it
        writes the entry, on its own thread, or when this process reads the entry first.
        Any other store serialises now, as here (a store of one's own need not override
        this). ``serialise`` must give the same bytes whenever and on whatever thread it is
        called (it serialises a frozen response).

        Args:
            key: The caller's (already hashed) cache key.
            serialise: Gives the serialized response.
            now: As for :meth:`cache_set`.
            ttl: As for :meth:`cache_set`.
            keep_stale_for: As for :meth:`cache_set`.

        Raises:
            ValueError: ``ttl`` or ``keep_stale_for`` is negative or not finite.
        """
        await self.cache_set(key, serialise(), now=now, ttl=ttl, keep_stale_for=keep_stale_for)

    @abc.abstractmethod
    async def clear(self, provider: str) -> None:
        """Forget everything about a provider: its mark, failure counter, usage and notes.

        Cache entries are not per provider and are left alone.
        """

    @abc.abstractmethod
    async def clear_all(self) -> None:
        """Forget every provider's marks, failure counters, usage, rate bookings and notes.

        The cache is left alone, as in :meth:`clear`.
        """

    def known_silent(self) -> StateStoreTimeoutError | None:
        """Why the store is known not to answer now, without asking it; ``None`` if it is not.

        A store that gave up on a call still unanswered (a SQLite file another process
        holds locked, a Redis that never replies) knows a new call would wait as long: a
        caller with a wait of its own (``websearch providers``, 3 s) says so at once
        instead, and a reset is refused before it is queued, so it cannot clear later. A
        store whose calls never wait knows nothing of the kind.
        """
        return None

    @abc.abstractmethod
    async def aclose(self) -> None:
        """Release connections and threads. Idempotent."""


def check_provider(provider: str) -> str:
    """Validate a provider id the way every backend does, so they reject the same input.

    Raises:
        ValueError: The id is empty, too long, or has characters outside ``[A-Za-z0-9_.-]``.
    """
    # Every store call checks its id; the same few ids come back on every search, so a
    # plain ``str`` once matched is not matched again (a subclass could compare equal
    # to one and still be checked as itself).
    if type(provider) is str and provider in _checked_ids:
        return provider
    if not isinstance(provider, str) or not _PROVIDER_ID.fullmatch(provider):
        raise ValueError(f"invalid provider id {provider!r}")
    if type(provider) is str:
        if len(_checked_ids) >= _CHECKED_IDS_KEPT:
            _checked_ids.clear()
        _checked_ids.add(provider)
    return provider


def check_period(period: str) -> str:
    """Validate a usage period: any non-empty text without control characters.

    Raises:
        ValueError: The period is empty or contains control characters.
    """
    if not isinstance(period, str) or not period or not period.isprintable():
        raise ValueError(f"invalid usage period {period!r}")
    return period


def check_cache_key(key: str) -> str:
    """Validate a cache key: non-empty printable text (callers pass a hash).

    Raises:
        ValueError: The key is empty or contains control characters.
    """
    if not isinstance(key, str) or not key or not key.isprintable():
        raise ValueError(f"invalid cache key {key!r}")
    return key


def check_note_name(provider: str, name: str) -> str:
    """Validate a note's provider id and name the same way in every backend.

    Raises:
        ValueError: The provider id is invalid, or the name is empty, longer than
            :data:`NOTE_NAME_MAX` or holds a control character.
    """
    check_provider(provider)
    if not isinstance(name, str) or not name or len(name) > NOTE_NAME_MAX:
        raise ValueError(f"a note name must be 1 to {NOTE_NAME_MAX} characters, got {name!r}")
    if not name.isprintable():
        raise ValueError(f"a note name must be printable, got {name!r}")
    return name


def check_note(provider: str, name: str, text: str, until: float) -> None:
    """Validate :meth:`StateStore.set_note` arguments the same way in every backend.

    Raises:
        ValueError: See :func:`check_note_name`; or the text is empty, longer than
            :data:`NOTE_TEXT_MAX` or holds a control character; or ``until`` is not a
            finite number.
    """
    check_note_name(provider, name)
    if not isinstance(text, str) or not text or len(text) > NOTE_TEXT_MAX:
        raise ValueError(f"a note's text must be 1 to {NOTE_TEXT_MAX} characters")
    if not text.isprintable():
        raise ValueError("a note's text must be one printable line")
    if isinstance(until, bool) or not isinstance(until, int | float) or not math.isfinite(until):
        raise ValueError(f"a note's expiry must be a finite unix timestamp, got {until!r}")


def check_rate_args(interval: float, max_wait: float) -> None:
    """Validate :meth:`StateStore.take_rate_slot` arguments the same way in every backend.

    Raises:
        ValueError: ``interval`` is not a positive finite number or ``max_wait`` is negative
            or not a number.
    """
    if not math.isfinite(interval) or interval <= 0:
        raise ValueError(f"rate interval must be a positive number of seconds, got {interval!r}")
    if math.isnan(max_wait) or max_wait < 0:
        raise ValueError(f"max_wait must be zero or more seconds, got {max_wait!r}")


def next_free_slot(next_at: float, booked_at: float, now: float) -> float:
    """A rate booking's next free send time as it stands at ``now`` (wall-clock seconds).

    A booking made at ``booked_at`` lies ahead of that moment by the queue of sends before
    it. When the wall clock has since stepped back (an NTP correction, a resumed virtual
    machine), ``now`` is before ``booked_at`` and ``next_at`` lies ahead of now by the
    queue *and* the step: taken as it is, a step of an hour refused every request for an
    hour. The booking moves back by the step instead, so it never lies further ahead of
    now than it lay ahead of the moment it was made; the spacing of sends already booked
    is kept. The rate backends keep ``booked_at`` with each booking for this (``0``: an
    older booking without it, taken as it is).
    """
    return next_at - max(0.0, booked_at - now)


def cache_times(now: float, ttl: float, keep_stale_for: float) -> tuple[float, float]:
    """``(fresh_until, expires_at)`` for a cache write, after validating the durations.

    Raises:
        ValueError: A duration is negative or not finite.
    """
    for name, value in (("now", now), ("ttl", ttl), ("keep_stale_for", keep_stale_for)):
        if not math.isfinite(value):
            raise ValueError(f"cache {name} must be finite")
    if ttl < 0 or keep_stale_for < 0:
        raise ValueError("cache ttl and keep_stale_for must not be negative")
    fresh_until = now + ttl
    return fresh_until, fresh_until + keep_stale_for


def select_cached(
    entry: CachedEntry, expires_at: float, now: float, allow_stale: bool
) -> CachedEntry | None:
    """Apply the freshness rules shared by every backend to one stored entry."""
    if now >= expires_at:
        return None
    if entry.is_fresh(now) or allow_stale:
        return entry
    return None


class MemoryStore(StateStore):
    """State kept in this process only: for tests and for users who want no persistence.

    A lock guards the dictionaries so one instance can be shared across threads and event
    loops (the sync bridge runs its own loop). The cache is bounded: past ``max_cache_entries``
    the oldest writes are dropped first.

    Args:
        max_cache_entries: How many cache entries to keep at most.
        clock: What usage-counter expiry, rate bookings and the failure window are judged
            by (the persistent backends use the wall clock); tests that drive the chain
            with a fake clock pass the same one here.
    """

    def __init__(
        self,
        *,
        max_cache_entries: int = DEFAULT_MAX_CACHE_ENTRIES,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if max_cache_entries < 1:
            raise ValueError("max_cache_entries must be at least 1")
        self._clock = clock
        self._lock = threading.Lock()
        self._closed = False
        self._max_cache_entries = max_cache_entries
        self._marks: dict[str, ProviderMark] = {}
        self._failures: dict[str, tuple[int, float]] = {}  # (count, expires_at)
        self._usage: dict[tuple[str, str], tuple[int, float]] = {}
        self._cache: dict[str, tuple[CachedEntry, float]] = {}
        self._next_slot: dict[str, tuple[float, float]] = {}  # (next_at, booked_at)
        self._notes: dict[tuple[str, str], tuple[str, float]] = {}  # (text, until)

    def __repr__(self) -> str:
        return f"MemoryStore(max_cache_entries={self._max_cache_entries})"

    def _check_open(self) -> None:
        if self._closed:
            raise StateStoreClosedError()

    def _mark_at(self, provider: str, now: float) -> ProviderMark | None:
        """The provider's mark active at ``now``, moved and kept as ``as_of`` says (lock held)."""
        mark = self._marks.get(provider)
        if mark is None or not mark.is_active(now):
            return None
        moved = mark.as_of(now)
        if moved is not mark:
            self._marks[provider] = moved
        return moved if moved.is_active(now) else None

    async def get_mark(self, provider: str, now: float) -> ProviderMark | None:
        """See :meth:`StateStore.get_mark`."""
        check_provider(provider)
        with self._lock:
            self._check_open()
            return self._mark_at(provider, now)

    async def set_mark(self, provider: str, mark: ProviderMark) -> None:
        """See :meth:`StateStore.set_mark`."""
        check_provider(provider)
        with self._lock:
            self._check_open()
            self._marks[provider] = mark

    async def clear_mark(self, provider: str) -> None:
        """See :meth:`StateStore.clear_mark`."""
        check_provider(provider)
        with self._lock:
            self._check_open()
            self._marks.pop(provider, None)

    async def clear_mark_if_unchanged(self, provider: str, mark: ProviderMark, now: float) -> None:
        """See :meth:`StateStore.clear_mark_if_unchanged`: compared and removed under the lock."""
        check_provider(provider)
        with self._lock:
            self._check_open()
            if self._marks.get(provider) == mark:
                del self._marks[provider]

    async def all_marks(self, now: float) -> dict[str, ProviderMark]:
        """See :meth:`StateStore.all_marks`."""
        with self._lock:
            self._check_open()
            marks = {p: self._mark_at(p, now) for p in sorted(self._marks)}
        return {provider: mark for provider, mark in marks.items() if mark is not None}

    async def record_failure(self, provider: str) -> int:
        """See :meth:`StateStore.record_failure`."""
        check_provider(provider)
        with self._lock:
            self._check_open()
            wall_now = self._clock()
            count = self._live_failures(provider, wall_now) + 1
            self._failures[provider] = (count, wall_now + FAILURE_WINDOW)
            return count

    def _live_failures(self, provider: str, wall_now: float) -> int:
        """The provider's failure counter, 0 once its window passed (the caller holds the lock)."""
        count, expires_at = self._failures.get(provider, (0, math.inf))
        return count if expires_at > wall_now else 0

    async def reset_failures(self, provider: str) -> None:
        """See :meth:`StateStore.reset_failures`."""
        check_provider(provider)
        with self._lock:
            self._check_open()
            self._failures.pop(provider, None)

    async def increment_usage(self, provider: str, period: str, expires_at: float) -> int:
        """See :meth:`StateStore.increment_usage`."""
        check_provider(provider)
        check_period(period)
        with self._lock:
            self._check_open()
            count, old_expiry = self._usage.get((provider, period), (0, math.inf))
            if old_expiry <= self._clock():
                count = 0
            count += 1
            self._usage[(provider, period)] = (count, expires_at)
            return count

    async def get_usage(self, provider: str, period: str) -> int:
        """See :meth:`StateStore.get_usage`."""
        check_provider(provider)
        check_period(period)
        with self._lock:
            self._check_open()
            count, expires_at = self._usage.get((provider, period), (0, math.inf))
        return count if expires_at > self._clock() else 0

    def _live_usage(self, provider: str, period: str, wall_now: float) -> int:
        count, expires_at = self._usage.get((provider, period), (0, math.inf))
        return count if expires_at > wall_now else 0

    async def reserve_usage(self, provider: str, windows: Sequence[UsageWindow]) -> UsageGrant:
        """See :meth:`StateStore.reserve_usage`."""
        check_provider(provider)
        with self._lock:
            self._check_open()
            return self._reserve(provider, windows)

    def _reserve(self, provider: str, windows: Sequence[UsageWindow]) -> UsageGrant:
        """The reservation itself; the caller holds the lock."""
        wall_now = self._clock()
        found = tuple(self._live_usage(provider, w.period, wall_now) for w in windows)
        failures = self._live_failures(provider, wall_now)
        if any(w.limit is not None and n >= w.limit for w, n in zip(windows, found, strict=True)):
            return UsageGrant(granted=False, counts=found, failures=failures)
        counts = tuple(n + 1 for n in found)
        for window, count in zip(windows, counts, strict=True):
            self._usage[(provider, window.period)] = (count, window.expires_at)
        return UsageGrant(granted=True, counts=counts, failures=failures)

    async def reserve_unless_marked(
        self, provider: str, windows: Sequence[UsageWindow], now: float
    ) -> UsageGrant:
        """See :meth:`StateStore.reserve_unless_marked`: the mark read under the same lock."""
        check_provider(provider)
        with self._lock:
            self._check_open()
            mark = self._mark_at(provider, now)
            if mark is not None:
                return UsageGrant(granted=False, counts=(), mark=mark)
            return self._reserve(provider, windows)

    async def release_usage(self, provider: str, windows: Sequence[UsageWindow]) -> None:
        """See :meth:`StateStore.release_usage`."""
        check_provider(provider)
        with self._lock:
            self._check_open()
            wall_now = self._clock()
            for window in windows:
                key = (provider, window.period)
                count, expires_at = self._usage.get(key, (0, math.inf))
                if count > 0 and expires_at > wall_now:
                    self._usage[key] = (count - 1, expires_at)

    async def take_rate_slot(self, provider: str, interval: float, max_wait: float) -> float | None:
        """See :meth:`StateStore.take_rate_slot`."""
        check_provider(provider)
        check_rate_args(interval, max_wait)
        with self._lock:
            self._check_open()
            now = self._clock()
            booking = self._next_slot.get(provider)
            slot = now if booking is None else max(now, next_free_slot(*booking, now))
            if slot - now > max_wait:
                return None
            self._next_slot[provider] = (slot + interval, now)
            return slot - now

    async def rate_slot_wait(self, provider: str) -> float:
        """See :meth:`StateStore.rate_slot_wait`."""
        check_provider(provider)
        with self._lock:
            self._check_open()
            now = self._clock()
            booking = self._next_slot.get(provider)
            return 0.0 if booking is None else max(0.0, next_free_slot(*booking, now) - now)

    async def set_note(self, provider: str, name: str, text: str, until: float) -> None:
        """See :meth:`StateStore.set_note`."""
        check_note(provider, name, text, until)
        with self._lock:
            self._check_open()
            self._notes[(provider, name)] = (text, until)

    async def get_note(self, provider: str, name: str, now: float) -> str | None:
        """See :meth:`StateStore.get_note`."""
        check_note_name(provider, name)
        with self._lock:
            self._check_open()
            text, until = self._notes.get((provider, name), ("", -math.inf))
            if until <= now:
                self._notes.pop((provider, name), None)
                return None
            return text

    async def cache_get(
        self, key: str, now: float, *, allow_stale: bool = False
    ) -> CachedEntry | None:
        """See :meth:`StateStore.cache_get`."""
        check_cache_key(key)
        with self._lock:
            self._check_open()
            stored = self._cache.get(key)
            if stored is None:
                return None
            entry, expires_at = stored
            if expires_at <= now:
                del self._cache[key]
                return None
        return select_cached(entry, expires_at, now, allow_stale)

    async def cache_set(
        self, key: str, value: bytes, *, now: float, ttl: float, keep_stale_for: float
    ) -> None:
        """See :meth:`StateStore.cache_set`."""
        check_cache_key(key)
        fresh_until, expires_at = cache_times(now, ttl, keep_stale_for)
        entry = CachedEntry(value=bytes(value), stored_at=now, fresh_until=fresh_until)
        with self._lock:
            self._check_open()
            self._cache.pop(key, None)  # re-insert so dict order stays oldest-write first
            self._cache[key] = (entry, expires_at)
            while len(self._cache) > self._max_cache_entries:
                del self._cache[next(iter(self._cache))]

    async def clear(self, provider: str) -> None:
        """See :meth:`StateStore.clear`."""
        check_provider(provider)
        with self._lock:
            self._check_open()
            self._marks.pop(provider, None)
            self._failures.pop(provider, None)
            self._next_slot.pop(provider, None)
            for usage_key in [k for k in self._usage if k[0] == provider]:
                del self._usage[usage_key]
            for note_key in [k for k in self._notes if k[0] == provider]:
                del self._notes[note_key]

    async def clear_all(self) -> None:
        """See :meth:`StateStore.clear_all`."""
        with self._lock:
            self._check_open()
            self._marks.clear()
            self._failures.clear()
            self._usage.clear()
            self._next_slot.clear()
            self._notes.clear()

    async def aclose(self) -> None:
        """See :meth:`StateStore.aclose`."""
        with self._lock:
            self._closed = True


def default_state_path() -> Path:
    """Where the SQLite state file lives by default: the user's state directory.

    ``platformdirs.user_state_path`` follows each platform's convention
    (``~/.local/state/websearch-tools`` on Linux, honouring ``XDG_STATE_HOME``).
    """
    return platformdirs.user_state_path(APP_NAME) / STATE_FILE_NAME
