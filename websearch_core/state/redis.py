"""The shared state backend: Redis, for quotas shared by many processes and machines.

Selected when ``WEBSEARCH_REDIS_URL`` is set. Key layout, all under one prefix
(default ``websearch:``) so a server can host other data or several setups::

    {prefix}mark:{provider}            JSON mark, expires at the mark's ``until`` (PXAT)
    {prefix}marks                      set of providers that have had a mark (index)
    {prefix}failures:{provider}        consecutive-failure counter (INCR), gone FAILURE_WINDOW
                                       after the last failure
    {prefix}usage:{provider}:{period}  usage counter (checked and counted by one Lua script)
    {prefix}rate:{provider}            next free send time, microseconds of the server clock
    {prefix}rate:{provider}:booked_at  when that booking was made, same clock (a separate key:
                                       an older release reading the first one still works)
    {prefix}cache:{key}                header + cached bytes, removed at expiry (PXAT)
    {prefix}note:{provider}:{name}     a provider's note: JSON text and expiry, removed at
                                       that expiry (PXAT)
    {prefix}index:{provider}           sorted set of the provider's usage, note, failure and
                                       rate keys, each scored by its expiry (epoch ms): what
                                       ``clear`` and ``clear_all`` delete
    {prefix}indexes                    sorted set of those indexes, each scored by its expiry:
                                       what ``clear_all`` deletes (with the marks index)
    {prefix}reset:{provider}           when the provider was last reset (``clear``),
                                       microseconds of the server clock, kept
                                       :data:`RESET_KEPT_SECONDS`
    {prefix}reset                      when every provider was last reset (``clear_all``),
                                       kept as long

Why it is built this way:

* Every write is one command, one ``MULTI``/``EXEC`` transaction or one Lua script, so
  counters and mark/index pairs stay consistent when many processes write at once. A
  reservation (check every budget, then count) must decide on what it read, which only a
  script can do atomically; rate bookings use the server's ``TIME`` so machines whose
  clocks differ still space their requests correctly.
* The mark index avoids ``SCAN`` over a shared keyspace on the hot path; it only ever holds
  provider ids, so it stays tiny and is never pruned (expired marks are filtered on read).
* The per-provider key index lets ``clear`` find, in the script that records the reset,
  every usage counter and note made before it (:data:`CLEAR_LUA`); the scripts that
  create those keys add them to it and drop the names of expired ones
  (:data:`._redis_scripts.INDEX_KEY`), so it holds no more than the keys alive. The
  index of those indexes does the same for ``clear_all`` (:data:`CLEAR_ALL_LUA`), which
  deletes in batches of at most :data:`CLEAR_ALL_BATCH` keys a script run.
* The synchronous ``redis`` client runs on a small thread pool instead of ``redis.asyncio``:
  an asyncio client is bound to the loop that made its connections, while this store must
  serve any loop (the sync bridge of :class:`~websearch_core.WebSearch` runs a fresh loop
  per call). A command takes well under a millisecond next to a web search's hundreds.
* Expiry is also checked against the caller's ``now`` on read, so all backends agree even
  when the caller's clock and the server's differ slightly.
* A reset keeps its time, and what it would have cleared, made before it but written after
  it (a mark, a failure, a note or an uncapped request's count left queued on the thread
  while another process reset), is not written: see
  :data:`._redis_scripts.RESET_CHECK`. The time is kept a day; such a write that waited
  longer than :data:`MAX_WRITE_AGE_SECONDS` is never written, reset or not.

Redis Cluster is not supported: the ``MULTI`` blocks span several keys without hash tags,
and ``clear``'s and ``clear_all``'s scripts delete keys they read from the indexes rather
than are given.
"""

from __future__ import annotations

import json
import logging
import math
import struct
import time
from collections.abc import Callable, Sequence
from typing import Any, Final, TypeVar, cast

import redis
import redis.exceptions

from ._redis_scripts import (
    CLEAR_ALL_BATCH,
    CLEAR_ALL_LUA,
    CLEAR_ALL_ROUNDS,
    CLEAR_LUA,
    CLEAR_UNCHANGED_MARK_LUA,
    FORGOTTEN,
    INCREMENT_LUA,
    MARKED,
    MAX_WRITE_AGE_SECONDS,
    MOVE_MARK_LUA,
    RATE_LUA,
    RATE_WAIT_LUA,
    RECORD_FAILURE_LUA,
    RELEASE_LUA,
    RESET_KEPT_SECONDS,
    SET_MARK_LUA,
    SET_NOTE_LUA,
    reserve_lua,
)
from ._threaded import ThreadedStore
from ._withdrawal import Withdrawal
from .base import (
    DEFAULT_REDIS_PREFIX,
    FAILURE_WINDOW,
    CachedEntry,
    MarkKind,
    ProviderMark,
    StateStoreClosedError,
    StateStoreError,
    UsageGrant,
    UsageWindow,
    cache_times,
    check_cache_key,
    check_note,
    check_note_name,
    check_period,
    check_provider,
    check_rate_args,
    select_cached,
)

__all__ = ["RedisStore"]

logger = logging.getLogger("websearch_core.state")
_T = TypeVar("_T")

# Cached value layout: version byte, then stored_at, fresh_until, expires_at as big-endian
# doubles, then the caller's bytes. A fixed header keeps values binary-safe with no escaping.
_CACHE_VERSION: Final = 1
_CACHE_HEADER: Final = struct.Struct("!Bddd")
_DEFAULT_TIMEOUT: Final = 5.0
_GLOB_SPECIALS: Final = frozenset("*?[]\\")
_NEAR_WINDOW_SECONDS: Final = 60.0
"""How far from the reset's clock ``clear`` looks for the windows a request counts in: a
window ending between the scan and the script, another machine's clock a minute off."""


def _epoch_ms(seconds: float) -> int:
    """Unix seconds as the positive integer milliseconds PXAT / PEXPIREAT require."""
    return max(1, math.ceil(seconds * 1000))


def _waited_us(asked: float) -> int:
    """Microseconds since ``asked`` (``time.monotonic()`` at the call), for the reset check.

    :data:`FORGOTTEN` past :data:`MAX_WRITE_AGE_SECONDS`: the script then drops the write,
    since a reset that came while it waited may no longer be kept.
    """
    waited = time.monotonic() - asked
    if waited >= MAX_WRITE_AGE_SECONDS:
        return FORGOTTEN
    return max(0, int(waited * 1e6))


def _grant(reply: object) -> UsageGrant:
    """A reservation script's reply (``{granted, failures, counts...}``) as a grant."""
    granted, failures, *counts = (int(value) for value in cast(list[int], reply))
    return UsageGrant(granted=bool(granted), counts=tuple(counts), failures=failures)


def _glob_escape(text: str) -> str:
    return "".join("\\" + ch if ch in _GLOB_SPECIALS else ch for ch in text)


def _as_bytes(value: object) -> bytes | None:
    if value is None:
        return None
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value)
    if isinstance(value, str):  # only if someone passed decode_responses=True anyway
        return value.encode()
    raise TypeError(f"unexpected Redis reply type {type(value).__name__}")


def _encode_mark(mark: ProviderMark) -> bytes:
    data = {
        "kind": mark.kind,
        "until": mark.until,
        "reason": mark.reason,
        "failures": mark.failures,
        "set_at": mark.set_at,
        "scope": mark.scope,
    }
    return json.dumps(data, separators=(",", ":")).encode()


def _decode_mark(raw: bytes) -> ProviderMark:
    data = json.loads(raw)
    return ProviderMark(
        kind=cast(MarkKind, str(data["kind"])),
        until=float(data["until"]),
        reason=str(data["reason"]),
        failures=int(data.get("failures", 0)),
        set_at=float(data.get("set_at", 0.0)),
        scope=str(data.get("scope", "")),
    )


class RedisStore(ThreadedStore[redis.Redis]):
    """State in Redis, shared by every process that uses the same server and prefix.

    Construct with :meth:`from_url` (what :func:`~websearch_core.state.open_store` does) or
    pass a ready ``redis.Redis`` client (``decode_responses`` must be off). The client's
    connection pool is closed by :meth:`aclose`.

    Args:
        client: A synchronous ``redis.Redis`` client.
        prefix: Prepended to every key.
        max_workers: Threads running Redis commands; bounds concurrent connections too.
    """

    def __init__(
        self,
        client: redis.Redis,
        *,
        prefix: str = DEFAULT_REDIS_PREFIX,
        max_workers: int = 4,
    ) -> None:
        if not prefix:
            raise ValueError("the Redis key prefix must not be empty")
        super().__init__(max_workers=max_workers, thread_name_prefix="websearch-redis")
        self._client = client
        self._prefix = prefix
        self._reserve_script = client.register_script(reserve_lua(check_mark=False))
        self._marked_reserve_script = client.register_script(reserve_lua(check_mark=True))
        self._release_script = client.register_script(RELEASE_LUA)
        self._rate_script = client.register_script(RATE_LUA)
        self._rate_wait_script = client.register_script(RATE_WAIT_LUA)
        self._move_mark_script = client.register_script(MOVE_MARK_LUA)
        self._clear_unchanged_script = client.register_script(CLEAR_UNCHANGED_MARK_LUA)
        self._clear_script = client.register_script(CLEAR_LUA)
        self._clear_all_script = client.register_script(CLEAR_ALL_LUA)
        self._increment_script = client.register_script(INCREMENT_LUA)
        self._set_mark_script = client.register_script(SET_MARK_LUA)
        self._record_failure_script = client.register_script(RECORD_FAILURE_LUA)
        self._set_note_script = client.register_script(SET_NOTE_LUA)

    @classmethod
    def from_url(
        cls, url: str, *, prefix: str = DEFAULT_REDIS_PREFIX, **options: Any
    ) -> RedisStore:
        """A store on a new client for ``url``; nothing connects until the first command.

        Args:
            url: ``redis://``, ``rediss://`` or ``unix://`` URL, credentials included.
            prefix: Prepended to every key.
            **options: More ``redis.Redis.from_url`` options; socket timeouts default to
                5 seconds so an unreachable server cannot stall a search for long.
        """
        options.setdefault("socket_timeout", _DEFAULT_TIMEOUT)
        options.setdefault("socket_connect_timeout", _DEFAULT_TIMEOUT)
        options["decode_responses"] = False  # cached values are raw bytes
        return cls(redis.Redis.from_url(url, **options), prefix=prefix)

    def __repr__(self) -> str:
        # Never the URL: it may carry a password.
        return f"RedisStore(prefix={self._prefix!r})"

    @property
    def prefix(self) -> str:
        """The key namespace."""
        return self._prefix

    # -- plumbing -------------------------------------------------------------------------

    def _key(self, *parts: str) -> str:
        return self._prefix + ":".join(parts)

    def _reset_keys(self, provider: str) -> list[str]:
        """The provider's last reset time and every provider's (``RESET_CHECK``)."""
        return [self._key("reset", provider), self._key("reset")]

    def _index_key(self, provider: str) -> str:
        """The index of the provider's usage, note, failure and rate keys (``INDEX_KEY``)."""
        return self._key("index", provider)

    def _index_keys(self, provider: str) -> list[str]:
        """The provider's key index and the index of every provider's (``INDEX_KEY``)."""
        return [self._index_key(provider), self._key("indexes")]

    def _call(self, func: Callable[[redis.Redis], _T]) -> _T:
        if self._closed:  # queued before aclose(): the pool would silently reconnect
            raise StateStoreClosedError()
        try:
            return func(self._client)
        except (redis.exceptions.RedisError, ValueError, TypeError, KeyError) as exc:
            # ValueError/TypeError/KeyError: a value that is not ours (corrupt or foreign).
            raise StateStoreError(f"Redis state store failed: {type(exc).__name__}: {exc}") from exc

    # -- marks ----------------------------------------------------------------------------

    def _current_mark(
        self, client: redis.Redis, key: str, raw: bytes, now: float
    ) -> ProviderMark | None:
        """The stored mark ``raw`` active at ``now``, as :meth:`ProviderMark.as_of` says.

        A mark moved after a clock step is saved (unless it was replaced meanwhile) to
        live out its duration from now by the server's clock, whatever the caller's.
        """
        mark = _decode_mark(raw)
        if not mark.is_active(now):
            return None
        moved = mark.as_of(now)
        if moved is not mark:
            life_ms = max(1, math.ceil((moved.until - now) * 1000))
            args: list[bytes | int] = [raw, _encode_mark(moved), life_ms]
            self._move_mark_script(keys=[key], args=args, client=client)
        return moved if moved.is_active(now) else None

    async def get_mark(self, provider: str, now: float) -> ProviderMark | None:
        """See :meth:`StateStore.get_mark`."""
        key = self._key("mark", check_provider(provider))

        def query(client: redis.Redis) -> ProviderMark | None:
            raw = _as_bytes(client.get(key))
            return None if raw is None else self._current_mark(client, key, raw, now)

        return await self._run(query)

    async def set_mark(self, provider: str, mark: ProviderMark) -> None:
        """See :meth:`StateStore.set_mark`: not written if made before a reset (one script).

        Made is when this was called, not ``mark.set_at`` (the caller's clock, which tests
        set freely): see :data:`._redis_scripts.RESET_CHECK`.
        """
        keys = self._reset_keys(check_provider(provider))
        keys += [self._key("mark", provider), self._key("marks")]
        payload = _encode_mark(mark)
        asked = time.monotonic()

        def write(client: redis.Redis) -> None:
            until_ms = _epoch_ms(mark.until)
            args: list[bytes | int | str] = [_waited_us(asked), payload, until_ms, provider]
            self._set_mark_script(keys=keys, args=args, client=client)

        await self._run(write)

    async def clear_mark(self, provider: str) -> None:
        """See :meth:`StateStore.clear_mark`."""
        key = self._key("mark", check_provider(provider))
        index = self._key("marks")

        def write(client: redis.Redis) -> None:
            with client.pipeline(transaction=True) as pipe:
                pipe.delete(key)
                pipe.srem(index, provider)
                pipe.execute()

        await self._run(write)

    async def clear_mark_if_unchanged(self, provider: str, mark: ProviderMark, now: float) -> None:
        """See :meth:`StateStore.clear_mark_if_unchanged`: read, then one script.

        The stored bytes are read and decoded to compare with ``mark`` (an earlier
        release's encoding of the same mark still matches); the script then removes the
        mark only if those very bytes are still stored.
        """
        key = self._key("mark", check_provider(provider))
        index = self._key("marks")

        def write(client: redis.Redis) -> None:
            raw = _as_bytes(client.get(key))
            if raw is None or _decode_mark(raw) != mark:
                return
            args: list[bytes | str] = [raw, provider]
            self._clear_unchanged_script(keys=[key, index], args=args, client=client)

        await self._run(write)

    async def all_marks(self, now: float) -> dict[str, ProviderMark]:
        """See :meth:`StateStore.all_marks`."""
        index = self._key("marks")

        def query(client: redis.Redis) -> dict[str, ProviderMark]:
            members = cast(set[bytes], client.smembers(index))
            providers = sorted(bytes(m).decode() for m in members)
            if not providers:
                return {}
            keys = [self._key("mark", p) for p in providers]
            values = cast(list[object], client.mget(keys))
            marks: dict[str, ProviderMark] = {}
            for provider, key, value in zip(providers, keys, values, strict=True):
                raw = _as_bytes(value)
                mark = None if raw is None else self._current_mark(client, key, raw, now)
                if mark is not None:
                    marks[provider] = mark
            return marks

        return await self._run(query)

    # -- counters -------------------------------------------------------------------------

    async def record_failure(self, provider: str) -> int:
        """See :meth:`StateStore.record_failure`: one script, which indexes the counter.

        A failure made before a reset is not counted again (the reset cleared it): the
        count the server holds then is answered.
        """
        keys = [*self._reset_keys(check_provider(provider)), self._key("failures", provider)]
        keys += self._index_keys(provider)
        window_ms = math.ceil(FAILURE_WINDOW * 1000)
        asked = time.monotonic()

        def write(client: redis.Redis) -> int:
            args = [_waited_us(asked), window_ms]
            return int(cast(int, self._record_failure_script(keys=keys, args=args, client=client)))

        return await self._run(write)

    async def reset_failures(self, provider: str) -> None:
        """See :meth:`StateStore.reset_failures`."""
        key = self._key("failures", check_provider(provider))
        await self._run(lambda client: client.delete(key))

    async def increment_usage(self, provider: str, period: str, expires_at: float) -> int:
        """See :meth:`StateStore.increment_usage`: one script, which indexes the counter."""
        keys = [self._key("usage", check_provider(provider), check_period(period))]
        keys += self._index_keys(provider)
        args = [_epoch_ms(expires_at)]

        def write(client: redis.Redis) -> int:
            return int(cast(int, self._increment_script(keys=keys, args=args, client=client)))

        return await self._run(write)

    async def get_usage(self, provider: str, period: str) -> int:
        """See :meth:`StateStore.get_usage`."""
        key = self._key("usage", check_provider(provider), check_period(period))

        def query(client: redis.Redis) -> int:
            raw = _as_bytes(client.get(key))
            return 0 if raw is None else int(raw)

        return await self._run(query)

    async def reserve_usage(self, provider: str, windows: Sequence[UsageWindow]) -> UsageGrant:
        """See :meth:`StateStore.reserve_usage`: one Lua script, atomic on the server."""
        keys, args = self._reservation(check_provider(provider), windows)
        asked = time.monotonic()

        def reserve(client: redis.Redis) -> UsageGrant:
            waited = [_waited_us(asked), *args]
            return _grant(self._reserve_script(keys=keys, args=waited, client=client))

        return await self._run_reservation(provider, windows, reserve)

    async def reserve_unless_marked(
        self, provider: str, windows: Sequence[UsageWindow], now: float
    ) -> UsageGrant:
        """See :meth:`StateStore.reserve_unless_marked`: the mark read by the same script.

        A mark key that exists but has expired by ``now`` (the server drops it at its
        ``until`` by its own clock) is ignored and the reservation made with the plain
        script, still in one trip to the store's thread.
        """
        keys, args = self._reservation(check_provider(provider), windows)
        mark_key = self._key("mark", provider)
        asked = time.monotonic()

        def reserve(client: redis.Redis) -> UsageGrant:
            waited = [_waited_us(asked), *args]
            reply = cast(
                list[object],
                self._marked_reserve_script(keys=[mark_key, *keys], args=waited, client=client),
            )
            if reply[0] == MARKED:
                mark = self._current_mark(client, mark_key, _as_bytes(reply[1]) or b"", now)
                if mark is not None:
                    return UsageGrant(granted=False, counts=(), mark=mark)
                waited[0] = _waited_us(asked)
                return _grant(self._reserve_script(keys=keys, args=waited, client=client))
            return _grant(reply)

        return await self._run_reservation(provider, windows, reserve)

    async def _run_reservation(
        self,
        provider: str,
        windows: Sequence[UsageWindow],
        reserve: Callable[[redis.Redis], UsageGrant],
    ) -> UsageGrant:
        """``reserve`` on the store's thread; with a budget, not kept when given up on.

        Given up on before its script is sent, it is withdrawn (never sent); after (the
        server slow to reply), its count is given back once the reply comes (see
        :mod:`._withdrawal`). A reply that never comes leaves the count unknown: it may
        stand, one more than was sent, never fewer. Without a budget the count is kept:
        the fail-safe store grants such a request all the same, and it is sent.
        """
        if not any(w.limit is not None for w in windows):
            return await self._run(reserve)
        usage_keys = [self._key("usage", provider, w.period) for w in windows]

        def undo(client: redis.Redis, grant: UsageGrant) -> None:
            if not grant.granted:  # refused or marked: nothing was counted
                return
            try:
                self._release_script(keys=usage_keys, args=[], client=client)
            except redis.exceptions.RedisError as exc:
                logger.warning(
                    "web search state: a %s reservation given up on could not be given "
                    "back; its budget counts one request more than was sent: %s: %s",
                    provider,
                    type(exc).__name__,
                    exc,
                )

        withdrawal = Withdrawal()
        guarded = withdrawal.undoable(withdrawal.guard(reserve), undo)
        return await self._run(guarded, withdrawal=withdrawal)

    def _reservation(
        self, provider: str, windows: Sequence[UsageWindow]
    ) -> tuple[list[str], list[int]]:
        """The reservation script's keys and arguments but the wait (see :func:`reserve_lua`)."""
        keys = [*self._reset_keys(provider), *self._index_keys(provider)]
        keys += [self._key("failures", provider)]
        keys += [self._key("usage", provider, w.period) for w in windows]
        args: list[int] = []
        for window in windows:
            args += [-1 if window.limit is None else window.limit, _epoch_ms(window.expires_at)]
        return keys, args

    async def release_usage(self, provider: str, windows: Sequence[UsageWindow]) -> None:
        """See :meth:`StateStore.release_usage`."""
        check_provider(provider)
        keys = [self._key("usage", provider, w.period) for w in windows]
        await self._run(lambda client: self._release_script(keys=keys, args=[], client=client))

    async def take_rate_slot(self, provider: str, interval: float, max_wait: float) -> float | None:
        """See :meth:`StateStore.take_rate_slot`: one Lua script on the server's clock.

        The script indexes the booking's keys (:data:`._redis_scripts.INDEX_KEY`), so a
        ``clear_all`` whose ``SCAN`` ran before it still deletes them.
        """
        keys = [*self._rate_keys(check_provider(provider)), *self._index_keys(provider)]
        check_rate_args(interval, max_wait)
        args = [math.ceil(interval * 1e6), math.floor(min(max_wait, 1e9) * 1e6)]

        def book(client: redis.Redis) -> float | None:
            wait = int(cast(int, self._rate_script(keys=keys, args=args, client=client)))
            return None if wait < 0 else wait / 1e6

        return await self._run(book)

    async def rate_slot_wait(self, provider: str) -> float:
        """See :meth:`StateStore.rate_slot_wait`: on the server's clock, as bookings are."""
        keys = self._rate_keys(check_provider(provider))

        def query(client: redis.Redis) -> float:
            return int(cast(int, self._rate_wait_script(keys=keys, args=[], client=client))) / 1e6

        return await self._run(query)

    def _rate_keys(self, provider: str) -> list[str]:
        """A provider's rate booking and the key holding when it was made."""
        booking = self._key("rate", provider)
        return [booking, booking + ":booked_at"]

    # -- notes ----------------------------------------------------------------------------

    async def set_note(self, provider: str, name: str, text: str, until: float) -> None:
        """See :meth:`StateStore.set_note`: one key, removed by Redis at ``until``.

        Not written if made before a reset of the provider
        (:data:`._redis_scripts.RESET_CHECK`).
        """
        check_note(provider, name, text, until)
        keys = [*self._reset_keys(provider), self._key("note", provider, name)]
        keys += self._index_keys(provider)
        payload = json.dumps({"text": text, "until": until}, separators=(",", ":")).encode()
        asked = time.monotonic()

        def write(client: redis.Redis) -> None:
            args: list[bytes | int] = [_waited_us(asked), payload, _epoch_ms(until)]
            self._set_note_script(keys=keys, args=args, client=client)

        await self._run(write)

    async def get_note(self, provider: str, name: str, now: float) -> str | None:
        """See :meth:`StateStore.get_note`: expiry judged by ``now`` too, as marks are."""
        check_note_name(provider, name)
        key = self._key("note", provider, name)

        def query(client: redis.Redis) -> str | None:
            raw = _as_bytes(client.get(key))
            if raw is None:
                return None
            data = json.loads(raw)
            return str(data["text"]) if float(data["until"]) > now else None

        return await self._run(query)

    # -- cache ----------------------------------------------------------------------------

    async def cache_get(
        self, key: str, now: float, *, allow_stale: bool = False
    ) -> CachedEntry | None:
        """See :meth:`StateStore.cache_get`."""
        redis_key = self._key("cache", check_cache_key(key))

        def query(client: redis.Redis) -> CachedEntry | None:
            raw = _as_bytes(client.get(redis_key))
            if raw is None or len(raw) < _CACHE_HEADER.size:
                return None
            version, stored_at, fresh_until, expires_at = _CACHE_HEADER.unpack_from(raw)
            if version != _CACHE_VERSION:
                return None  # written by another release: a miss, overwritten on next set
            entry = CachedEntry(
                value=raw[_CACHE_HEADER.size :], stored_at=stored_at, fresh_until=fresh_until
            )
            return select_cached(entry, expires_at, now, allow_stale)

        return await self._run(query)

    async def cache_set(
        self, key: str, value: bytes, *, now: float, ttl: float, keep_stale_for: float
    ) -> None:
        """See :meth:`StateStore.cache_set`."""
        redis_key = self._key("cache", check_cache_key(key))
        fresh_until, expires_at = cache_times(now, ttl, keep_stale_for)
        blob = _CACHE_HEADER.pack(_CACHE_VERSION, now, fresh_until, expires_at) + bytes(value)
        await self._run(lambda client: client.set(redis_key, blob, pxat=_epoch_ms(expires_at)))

    # -- housekeeping ---------------------------------------------------------------------

    async def clear(self, provider: str) -> None:
        """See :meth:`StateStore.clear`: the reset recorded and the deletes in one script.

        What was made before it and is written after it is then not written (see
        :data:`._redis_scripts.RESET_CHECK`); rate slots and capped reservations still
        are. The ``SCAN`` first finds the usage and note keys an older release wrote
        without the index (:data:`CLEAR_LUA`). A counter such a release creates after the
        scan, before the script, is most likely a window's first (its first request this
        month, or this budget window): the script is also given the names of the counters
        a request within a minute of now counts in, and deletes those
        that exist when it runs.
        """
        # Here, not at the top: the ledger's window names, without loading it with the store.
        from ..orchestration.quota import usage_periods_near

        check_provider(provider)
        usage, note = self._key("usage", provider, ""), self._key("note", provider, "")
        patterns = [_glob_escape(usage) + "*", _glob_escape(note) + "*"]
        near = usage_periods_near(time.time(), _NEAR_WINDOW_SECONDS)
        keys = [self._key("reset", provider), self._index_key(provider), self._key("marks")]
        keys += [self._key("mark", provider), self._key("failures", provider)]
        keys += self._rate_keys(provider)
        args: list[int | str] = [RESET_KEPT_SECONDS * 1000, provider, usage, note]

        withdrawal = Withdrawal()  # given up on before its script, it deletes nothing

        def write(client: redis.Redis) -> None:
            unindexed = [
                key for pattern in patterns for key in client.scan_iter(match=pattern, count=500)
            ]
            if not withdrawal.start():
                return
            named = dict.fromkeys([*unindexed, *(usage + period for period in near)])
            self._clear_script(keys=[*keys, *named], args=args, client=client)

        await self._run(write, withdrawal=withdrawal)

    async def clear_all(self) -> None:
        """See :meth:`StateStore.clear_all`: every non-cache key under the prefix.

        But the reset times: every provider's is recorded (:data:`CLEAR_ALL_LUA`, in the
        script that deletes what the indexes name), and each provider's own, older, stays
        until it expires; both are kept :data:`RESET_KEPT_SECONDS` (see
        :data:`._redis_scripts.RESET_CHECK`). The ``SCAN`` first finds the keys no index
        names (only an older release writes those) and deletes them, 500 to a command,
        before the script runs: one such key written between the two survives.
        """
        prefix = _glob_escape(self._prefix)
        patterns = [prefix + kind + ":*" for kind in ("mark", "failures", "usage", "rate", "note")]
        keys = [self._key("reset"), self._key("indexes"), self._key("marks")]
        kept_ms = RESET_KEPT_SECONDS * 1000

        def write(client: redis.Redis) -> None:
            doomed = [
                key for pattern in patterns for key in client.scan_iter(match=pattern, count=500)
            ]
            unlisted = list(client.scan_iter(match=prefix + "index:*", count=500))
            if not withdrawal.start():  # as in clear()
                return
            for start in range(0, len(doomed), 500):
                client.delete(*doomed[start : start + 500])
            for run in range(1, CLEAR_ALL_ROUNDS + 1):
                finish = 1 if run == CLEAR_ALL_ROUNDS else 0
                args: list[int | str] = [kept_ms, self._prefix, CLEAR_ALL_BATCH, finish]
                script_keys = [*keys, *unlisted]
                if self._clear_all_script(keys=script_keys, args=args, client=client) == 0:
                    return

        withdrawal = Withdrawal()
        await self._run(write, withdrawal=withdrawal)

    def _release(self) -> None:
        self._client.close()
