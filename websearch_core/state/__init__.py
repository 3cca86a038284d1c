"""Persistent state for the quota-aware fallback chain: marks, counters, usage and cache.

Pick a backend with :func:`open_store`::

    store = open_store(redis_url=settings.redis_url, sqlite_path=None)
    async with store:
        await store.set_mark("brave", ProviderMark("rate_limited", until=now + 60, reason="429"))

* :class:`MemoryStore`: this process only (tests, no persistence).
* :class:`SQLiteStore`: the default, one file under the user's state directory, shared
  safely by every process of the user.
* :class:`RedisStore`: shared by processes on many machines; needs the ``redis`` extra
  (``pip install "websearch-tools[redis]"``) and is imported only when used.
"""

from typing import TYPE_CHECKING, Any

from .base import (
    DEFAULT_REDIS_PREFIX,
    MARK_KINDS,
    CachedEntry,
    CorruptStateError,
    MarkKind,
    MemoryStore,
    ProviderMark,
    StateStore,
    StateStoreClosedError,
    StateStoreError,
    StateStoreTimeoutError,
    UsageGrant,
    UsageWindow,
    WriteHandedOverError,
    default_state_path,
)
from .open import open_store
from .sqlite import SQLiteStore

if TYPE_CHECKING:
    from .redis import RedisStore

__all__ = [
    "DEFAULT_REDIS_PREFIX",
    "MARK_KINDS",
    "CachedEntry",
    "CorruptStateError",
    "MarkKind",
    "MemoryStore",
    "ProviderMark",
    "RedisStore",
    "SQLiteStore",
    "StateStore",
    "StateStoreClosedError",
    "StateStoreError",
    "StateStoreTimeoutError",
    "UsageGrant",
    "UsageWindow",
    "WriteHandedOverError",
    "default_state_path",
    "open_store",
]


def __getattr__(name: str) -> Any:
    # RedisStore needs the optional redis package: import it only when asked for.
    if name == "RedisStore":
        from .redis import RedisStore

        return RedisStore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
