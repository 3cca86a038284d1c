"""A store wrapper that never lets a broken ledger cost an answer.

Searching matters more than bookkeeping: when the SQLite file is damaged or unreadable or
Redis is down, the chain should still search (without skips, counts or cache) rather than
fail. :class:`FailSafeStore` turns each :class:`StateStoreError` into a neutral result: no
mark, a zero count, a granted reservation, a cache miss. The one exception is a budget: its
reservation is refused as unchecked (:func:`unchecked_grant`), so the provider is skipped
while another provider may answer, and asked (uncounted) only as the last resort, when none
did (:mod:`websearch_core.orchestration.last_resort`): a search still never fails for the
store.

Two details keep a broken store cheap and quiet:

* One warning per broken store, however many wrappers and calls see it fail (the client
  wraps its store anew for every search).
* After a failure the store is left alone for :data:`RETRY_AFTER` seconds: an unreachable
  Redis would otherwise cost a connection timeout on every one of a search's calls. A
  store that was only busy with this process's other calls is not a failure.
"""

import logging
import time
import weakref
from collections.abc import Awaitable, Callable, Sequence
from typing import Final, TypeVar

from ..deadline import OptionalStoreWaits
from .base import (
    CachedEntry,
    ProviderMark,
    StateStore,
    StateStoreClosedError,
    StateStoreError,
    StateStoreTimeoutError,
    UsageGrant,
    UsageWindow,
    WriteHandedOverError,
)

__all__ = ["RETRY_AFTER", "FailSafeStore", "FreshLookStore", "unchecked_grant"]

logger = logging.getLogger("websearch_core.state")
_T = TypeVar("_T")

RETRY_AFTER: Final = 30.0
"""Seconds a failed store is bypassed before it is tried again."""

# Per broken store (not per wrapper): when to try it again, and whether it was reported.
_down_until: "weakref.WeakKeyDictionary[StateStore, float]" = weakref.WeakKeyDictionary()
_warned: "weakref.WeakSet[StateStore]" = weakref.WeakSet()
_cache_write_warned: "weakref.WeakSet[StateStore]" = weakref.WeakSet()
_any_failed = False
"""Whether any store was ever taken for down in this process: until one is, ``degraded``
is this flag alone (``bool()`` of a weak dictionary runs its Python ``__len__``, 0.2 us
before every request)."""


def unchecked_grant(windows: Sequence[UsageWindow]) -> UsageGrant:
    """The answer to a reservation the store could not be asked about.

    Granted, with a zero count per window, when no window has a ``limit``: the counts are
    statistics, and searching matters more. Refused as ``unchecked`` when one has: a
    budget is a promise not to spend, the store is its only witness, and a provider
    asked unchecked while the store is down (30 s after every timeout, for as long as a
    file stays broken) could overspend it without anyone knowing. The chain skips that
    provider and asks the next, which usually has the answer; when no other provider
    answers, the ledger accepts the refusal for the last resort and the provider is asked
    uncounted, with a warning (``Ledger.reserve(accept_unchecked=True)``), rather than
    the search failing for a broken store.
    """
    if any(window.limit is not None for window in windows):
        return UsageGrant(granted=False, counts=(), unchecked=True)
    return UsageGrant(granted=True, counts=tuple(0 for _ in windows))


class FailSafeStore(StateStore):
    """Delegates to ``inner``; a failing call is answered neutrally (and logged once).

    Args:
        inner: The real store (closed by :meth:`aclose`).
        clock: Monotonic seconds, for the retry pause (injectable for tests).
    """

    def __init__(self, inner: StateStore, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.inner = inner
        self._clock = clock

    def __repr__(self) -> str:
        return f"FailSafeStore({self.inner!r})"

    @property
    def degraded(self) -> bool:
        """Whether the inner store failed recently and is being bypassed."""
        # Until a store fails, the answer is the flag: no weak reference or clock read.
        return _any_failed and _down_until.get(self.inner, 0.0) > self._clock()

    async def _safe(self, call: Callable[[], Awaitable[_T]], fallback: _T) -> _T:
        if self.degraded:
            return fallback
        try:
            return await call()
        except StateStoreClosedError:  # its owner closed it: nothing failed
            logger.debug("web search state store closed; searching without it")
            return fallback
        except WriteHandedOverError as exc:
            if not exc.kept:
                self._failed(exc)
            else:  # kept for the next process: the store did not fail
                logger.debug("web search state write handed over at close: %s", exc)
            return fallback
        except StateStoreError as exc:
            self._failed(exc)
            return fallback

    def report_failure(self, exc: StateStoreError) -> None:
        """Take the store for down, as a failed call would: for a caller that asked it directly.

        ``websearch providers`` asks the store itself first, for the error's own words;
        without this, every row's reads would then wait for the store once more.
        """
        self._failed(exc)

    def _failed(self, exc: StateStoreError) -> None:
        """Leave the store alone for a while; warn once per store, then only debug.

        Not a store that was busy (:attr:`StateStoreTimeoutError.busy`): it answered this
        process's other calls all the while, and bypassing it would skip every budgeted
        provider unchecked and lose counts for :data:`RETRY_AFTER` seconds for nothing.
        """
        global _any_failed
        if isinstance(exc, StateStoreTimeoutError) and exc.busy:
            logger.debug("web search state store busy; this call went without it: %s", exc)
            return
        _down_until[self.inner] = self._clock() + RETRY_AFTER
        _any_failed = True
        if self.inner not in _warned:
            _warned.add(self.inner)
            logger.warning("web search state store unavailable; searching without it: %s", exc)
        else:
            logger.debug("web search state store still unavailable: %s", exc)

    def known_silent(self) -> StateStoreTimeoutError | None:
        """See :meth:`StateStore.known_silent`: the inner store's answer."""
        return self.inner.known_silent()

    async def get_mark(self, provider: str, now: float) -> ProviderMark | None:
        """See :meth:`StateStore.get_mark`; no mark when the store fails."""
        return await self._safe(lambda: self.inner.get_mark(provider, now), None)

    async def set_mark(self, provider: str, mark: ProviderMark) -> None:
        """See :meth:`StateStore.set_mark`."""
        await self._safe(lambda: self.inner.set_mark(provider, mark), None)

    async def clear_mark(self, provider: str) -> None:
        """See :meth:`StateStore.clear_mark`."""
        await self._safe(lambda: self.inner.clear_mark(provider), None)

    async def clear_mark_if_unchanged(self, provider: str, mark: ProviderMark, now: float) -> None:
        """See :meth:`StateStore.clear_mark_if_unchanged`."""
        await self._safe(lambda: self.inner.clear_mark_if_unchanged(provider, mark, now), None)

    async def all_marks(self, now: float) -> dict[str, ProviderMark]:
        """See :meth:`StateStore.all_marks`."""
        return await self._safe(lambda: self.inner.all_marks(now), {})

    async def record_failure(self, provider: str) -> int:
        """See :meth:`StateStore.record_failure`; counts one when the store fails."""
        return await self._safe(lambda: self.inner.record_failure(provider), 1)

    async def reset_failures(self, provider: str) -> None:
        """See :meth:`StateStore.reset_failures`."""
        await self._safe(lambda: self.inner.reset_failures(provider), None)

    async def increment_usage(self, provider: str, period: str, expires_at: float) -> int:
        """See :meth:`StateStore.increment_usage`."""
        return await self._safe(lambda: self.inner.increment_usage(provider, period, expires_at), 0)

    async def get_usage(self, provider: str, period: str) -> int:
        """See :meth:`StateStore.get_usage`."""
        return await self._safe(lambda: self.inner.get_usage(provider, period), 0)

    async def reserve_usage(self, provider: str, windows: Sequence[UsageWindow]) -> UsageGrant:
        """See :meth:`StateStore.reserve_usage`; :func:`unchecked_grant` when the store fails."""
        return await self._safe(
            lambda: self.inner.reserve_usage(provider, windows), unchecked_grant(windows)
        )

    async def reserve_unless_marked(
        self, provider: str, windows: Sequence[UsageWindow], now: float
    ) -> UsageGrant:
        """See :meth:`StateStore.reserve_unless_marked`; unmarked when the store fails.

        The grant is then :func:`unchecked_grant`'s.

        Spelled out rather than through ``_safe``: it runs before every request, and the
        neutral grant is only built when it is the answer.
        """
        if not self.degraded:
            try:
                return await self.inner.reserve_unless_marked(provider, windows, now)
            except StateStoreError as exc:
                self._failed(exc)
        return unchecked_grant(windows)

    async def release_usage(self, provider: str, windows: Sequence[UsageWindow]) -> None:
        """See :meth:`StateStore.release_usage`."""
        await self._safe(lambda: self.inner.release_usage(provider, windows), None)

    async def take_rate_slot(self, provider: str, interval: float, max_wait: float) -> float | None:
        """See :meth:`StateStore.take_rate_slot`; no wait when the store fails.

        The in-process limiter of the ledger still spaces this process's requests.
        """
        return await self._safe(
            lambda: self.inner.take_rate_slot(provider, interval, max_wait), 0.0
        )

    async def rate_slot_wait(self, provider: str) -> float:
        """See :meth:`StateStore.rate_slot_wait`; 0 when the store fails (nothing known)."""
        return await self._safe(lambda: self.inner.rate_slot_wait(provider), 0.0)

    async def set_note(self, provider: str, name: str, text: str, until: float) -> None:
        """See :meth:`StateStore.set_note`; a note the store cannot keep is lost, not raised."""
        await self._safe(lambda: self.inner.set_note(provider, name, text, until), None)

    async def get_note(self, provider: str, name: str, now: float) -> str | None:
        """See :meth:`StateStore.get_note`; no note when the store fails."""
        return await self._safe(lambda: self.inner.get_note(provider, name, now), None)

    async def cache_get(
        self, key: str, now: float, *, allow_stale: bool = False
    ) -> CachedEntry | None:
        """See :meth:`StateStore.cache_get`; a miss when the store fails.

        Optional (:class:`~websearch_core.deadline.OptionalStoreWaits`): behind a long
        queue of this process's calls, the lookup held the search until the queue drained
        (up to its deadline); it now ends busy at its own bound, a miss (debug log only).
        """
        with OptionalStoreWaits():
            return await self._safe(
                lambda: self.inner.cache_get(key, now, allow_stale=allow_stale), None
            )

    async def cache_set(
        self, key: str, value: bytes, *, now: float, ttl: float, keep_stale_for: float
    ) -> None:
        """See :meth:`StateStore.cache_set`; a refused write costs the cache, nothing else.

        A store that refuses writes of cache entries may still count and mark (a Redis at
        ``maxmemory`` with ``noeviction`` refuses every write that grows it, and the cache
        is what grows): taking the whole store for down would switch the budgets off with
        the cache. A store that is really down has failed its reservation before this. One
        that did not answer in time is taken for down, as for any other call: the next
        searches' writes would queue behind the one it is still busy with.
        """
        await self._write_cache(
            lambda: self.inner.cache_set(
                key, value, now=now, ttl=ttl, keep_stale_for=keep_stale_for
            )
        )

    async def cache_set_deferred(
        self,
        key: str,
        serialise: Callable[[], bytes],
        *,
        now: float,
        ttl: float,
        keep_stale_for: float,
    ) -> None:
        """See :meth:`StateStore.cache_set_deferred`; refused as :meth:`cache_set` is."""
        await self._write_cache(
            lambda: self.inner.cache_set_deferred(
                key, serialise, now=now, ttl=ttl, keep_stale_for=keep_stale_for
            )
        )

    async def _write_cache(self, write: Callable[[], Awaitable[None]]) -> None:
        """Run a cache write; a refusal costs the cache only (see :meth:`cache_set`).

        Optional as the lookup is (:meth:`cache_get`): behind a long queue of this
        process's calls it held a ready answer until the queue drained. Refused as busy,
        the write still lands on the store's thread in its turn.
        """
        if self.degraded:
            return
        try:
            with OptionalStoreWaits():
                await write()
        except StateStoreTimeoutError as exc:
            self._failed(exc)
        except StateStoreError as exc:
            if self.inner not in _cache_write_warned:
                _cache_write_warned.add(self.inner)
                logger.warning("web search result cache not written; searching on: %s", exc)
            else:
                logger.debug("web search result cache still not written: %s", exc)

    async def clear(self, provider: str) -> None:
        """See :meth:`StateStore.clear`."""
        await self._safe(lambda: self.inner.clear(provider), None)

    async def clear_all(self) -> None:
        """See :meth:`StateStore.clear_all`."""
        await self._safe(self.inner.clear_all, None)

    async def aclose(self) -> None:
        """Close the real store (errors while closing are logged, not raised)."""
        try:
            await self.inner.aclose()
        except StateStoreError as exc:
            logger.debug("web search state store failed to close: %s", exc)


class FreshLookStore(FailSafeStore):
    """A fail-safe view that asks the store anew, for a reader that shows what it holds now.

    Searches leave a store that failed them alone for :data:`RETRY_AFTER` seconds, which
    spares each of them a timeout; a reader that shows the state (the status table) must
    not inherit that pause. Read through the plain view, the table showed every count as
    0 and a spent budget as ``ready`` for 30 s after one search gave up on a store that
    answered in milliseconds again (120 searches at once on a loaded machine, the last
    queued behind the others for more than its 1 s). This view bypasses the store only
    when it is made ``given_up`` (a store known silent: asking would queue behind the
    call still unanswered) or once one of its own calls failed; that failure is taken
    for the store's as any other wrapper's is, so searches leave it alone too.

    Args:
        inner: The real store.
        given_up: Answer neutrally from the start, without asking.
    """

    def __init__(self, inner: StateStore, *, given_up: bool = False) -> None:
        super().__init__(inner)
        self._given_up = given_up

    @property
    def degraded(self) -> bool:
        """Whether this view gave the store up: when made so, or after a call of its own failed."""
        return self._given_up

    def _failed(self, exc: StateStoreError) -> None:
        self._given_up = True
        super()._failed(exc)
