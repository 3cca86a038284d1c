"""A store wrapper that never lets a broken ledger cost an answer.

Searching matters more than bookkeeping: when the SQLite file is unreadable or Redis is
down, the chain should still search (without skips, budgets or cache) rather than fail.
:class:`FailSafeStore` turns each :class:`StateStoreError` into a logged warning and a
neutral result: no mark, a zero count, a cache miss.
"""

import logging
from collections.abc import Awaitable
from typing import TypeVar

from .base import CachedEntry, ProviderMark, StateStore, StateStoreError

__all__ = ["FailSafeStore"]

logger = logging.getLogger("websearch_core")
_T = TypeVar("_T")


class FailSafeStore(StateStore):
    """Delegates to ``inner``; a failing call is logged and answered neutrally.

    Args:
        inner: The real store (closed by :meth:`aclose`).
    """

    def __init__(self, inner: StateStore) -> None:
        self.inner = inner
        self._warned = False

    def __repr__(self) -> str:
        return f"FailSafeStore({self.inner!r})"

    async def _safe(self, call: Awaitable[_T], fallback: _T) -> _T:
        try:
            return await call
        except StateStoreError as exc:
            # One warning per client is enough to say state is off; more would flood logs.
            if not self._warned:
                logger.warning("web search state store unavailable; searching without it: %s", exc)
                self._warned = True
            return fallback

    async def get_mark(self, provider: str, now: float) -> ProviderMark | None:
        """See :meth:`StateStore.get_mark`; no mark when the store fails."""
        return await self._safe(self.inner.get_mark(provider, now), None)

    async def set_mark(self, provider: str, mark: ProviderMark) -> None:
        """See :meth:`StateStore.set_mark`."""
        await self._safe(self.inner.set_mark(provider, mark), None)

    async def clear_mark(self, provider: str) -> None:
        """See :meth:`StateStore.clear_mark`."""
        await self._safe(self.inner.clear_mark(provider), None)

    async def all_marks(self, now: float) -> dict[str, ProviderMark]:
        """See :meth:`StateStore.all_marks`."""
        return await self._safe(self.inner.all_marks(now), {})

    async def record_failure(self, provider: str) -> int:
        """See :meth:`StateStore.record_failure`; counts one when the store fails."""
        return await self._safe(self.inner.record_failure(provider), 1)

    async def reset_failures(self, provider: str) -> None:
        """See :meth:`StateStore.reset_failures`."""
        await self._safe(self.inner.reset_failures(provider), None)

    async def increment_usage(self, provider: str, period: str, expires_at: float) -> int:
        """See :meth:`StateStore.increment_usage`."""
        return await self._safe(self.inner.increment_usage(provider, period, expires_at), 0)

    async def get_usage(self, provider: str, period: str) -> int:
        """See :meth:`StateStore.get_usage`."""
        return await self._safe(self.inner.get_usage(provider, period), 0)

    async def cache_get(
        self, key: str, now: float, *, allow_stale: bool = False
    ) -> CachedEntry | None:
        """See :meth:`StateStore.cache_get`; a miss when the store fails."""
        return await self._safe(self.inner.cache_get(key, now, allow_stale=allow_stale), None)

    async def cache_set(
        self, key: str, value: bytes, *, now: float, ttl: float, keep_stale_for: float
    ) -> None:
        """See :meth:`StateStore.cache_set`."""
        call = self.inner.cache_set(key, value, now=now, ttl=ttl, keep_stale_for=keep_stale_for)
        await self._safe(call, None)

    async def clear(self, provider: str) -> None:
        """See :meth:`StateStore.clear`."""
        await self._safe(self.inner.clear(provider), None)

    async def aclose(self) -> None:
        """Close the real store (errors while closing are logged, not raised)."""
        await self._safe(self.inner.aclose(), None)
