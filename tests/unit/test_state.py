"""The state layer of the fallback chain: one suite, run against every backend.

Each behavioural test runs on memory, SQLite and Redis with the same assertions; the
cross-process tests (restart, SIGKILL, concurrent increments) run on the persistent two.
Times are real wall-clock values because Redis expires keys by its own clock.
"""

import asyncio
import json
import os
import signal
import sqlite3
import stat
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs
import pytest

from tests.redis_server import free_loopback_port, unavailable
from websearch_core.errors import ConfigurationError, WebSearchError
from websearch_core.state import (
    CachedEntry,
    CorruptStateError,
    MarkKind,
    MemoryStore,
    ProviderMark,
    SQLiteStore,
    StateStore,
    StateStoreError,
    UsageGrant,
    UsageWindow,
    default_state_path,
    open_store,
)
from websearch_core.state.base import check_provider
from websearch_core.state.failsafe import FailSafeStore

ALL_BACKENDS = ("memory", "sqlite", "redis")
PERSISTENT_BACKENDS = ("sqlite", "redis")


@dataclass(frozen=True)
class Backend:
    """How to open (and reopen) one backend's store for a test."""

    name: str
    sqlite_path: Path | None = None
    redis_url: str | None = None
    prefix: str = "websearch:"

    def open(self) -> StateStore:
        if self.name == "memory":
            return MemoryStore()
        return open_store(
            redis_url=self.redis_url, sqlite_path=self.sqlite_path, redis_prefix=self.prefix
        )

    def child_config(self, **extra: object) -> str:
        config = {
            "redis_url": self.redis_url,
            "sqlite_path": str(self.sqlite_path) if self.sqlite_path else None,
            "prefix": self.prefix,
            **extra,
        }
        return json.dumps(config)


def _backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    name: str = request.param
    if name == "redis":
        url: str = request.getfixturevalue("redis_url")
        return Backend(name, redis_url=url, prefix=f"wstest-{uuid.uuid4().hex[:12]}:")
    if name == "sqlite":
        return Backend(name, sqlite_path=tmp_path / "state" / "state.sqlite3")
    return Backend(name)


@pytest.fixture(params=ALL_BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    return _backend(request, tmp_path)


@pytest.fixture(params=PERSISTENT_BACKENDS)
def persistent(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    return _backend(request, tmp_path)


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[StateStore]:
    opened = backend.open()
    yield opened
    await opened.aclose()


def need_redis_package() -> None:
    try:
        import redis  # noqa: F401
    except ImportError:
        unavailable("the redis package is not installed")


def mark(kind: MarkKind = "rate_limited", *, until: float, failures: int = 0) -> ProviderMark:
    return ProviderMark(kind=kind, until=until, reason=f"{kind} by test", failures=failures)


# -- marks ------------------------------------------------------------------------------


async def test_mark_round_trips(store: StateStore) -> None:
    now = time.time()
    assert await store.get_mark("brave", now) is None
    stored = ProviderMark(
        kind="exhausted", until=now + 60, reason="monthly quota spent", failures=3, set_at=now
    )
    await store.set_mark("brave", stored)
    assert await store.get_mark("brave", now) == stored
    assert await store.get_mark("tavily", now) is None


async def test_mark_expires_at_until(store: StateStore) -> None:
    now = time.time()
    await store.set_mark("brave", mark(until=now + 30))
    assert await store.get_mark("brave", now + 29.9) is not None
    assert await store.get_mark("brave", now + 30) is None
    assert await store.all_marks(now + 30) == {}


async def test_set_mark_replaces_previous(store: StateStore) -> None:
    now = time.time()
    await store.set_mark("brave", mark("rate_limited", until=now + 10))
    replacement = mark("circuit_open", until=now + 120, failures=5)
    await store.set_mark("brave", replacement)
    assert await store.get_mark("brave", now) == replacement
    assert await store.all_marks(now) == {"brave": replacement}


async def test_clear_mark(store: StateStore) -> None:
    now = time.time()
    await store.clear_mark("brave")  # absent: no error
    await store.set_mark("brave", mark(until=now + 60))
    await store.clear_mark("brave")
    assert await store.get_mark("brave", now) is None
    assert await store.all_marks(now) == {}


async def test_clear_mark_if_unchanged_removes_only_the_mark_read(store: StateStore) -> None:
    """A compare-and-clear: a mark set after the read stays; the one read goes."""
    now = time.time()
    await store.clear_mark_if_unchanged("brave", mark(until=now + 60), now)  # none: no error
    await store.set_mark("brave", ProviderMark("exhausted", now + 60, "spent", set_at=now))
    read = await store.get_mark("brave", now)
    assert read is not None
    newer = ProviderMark("exhausted", now + 61, "spent", set_at=now + 1)
    await store.set_mark("brave", newer)
    await store.clear_mark_if_unchanged("brave", read, now)
    assert await store.all_marks(now) == {"brave": newer}
    await store.clear_mark_if_unchanged("brave", newer, now)
    assert await store.get_mark("brave", now) is None
    assert await store.all_marks(now) == {}


async def test_redis_compare_and_clear_keeps_a_mark_set_after_the_stores_own_read(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Redis reads the mark, then its script clears: another process's mark set in between
    stays, because the script compares the very bytes read (a hook on the client's GET)."""
    need_redis_package()
    import redis

    from websearch_core.state.redis import RedisStore

    prefix = f"wstest-{uuid.uuid4().hex[:12]}:"
    client = redis.Redis.from_url(redis_url)
    now = time.time()
    read = ProviderMark("exhausted", now + 60, "spent", set_at=now)
    newer = ProviderMark("exhausted", now + 61, "spent again", set_at=now + 1)
    loop = asyncio.get_running_loop()
    other = RedisStore.from_url(redis_url, prefix=prefix)  # another process's
    async with RedisStore(client, prefix=prefix) as store:
        await store.set_mark("brave", read)
        fetch = client.get

        def get_then_remark(name: Any) -> Any:
            monkeypatch.setattr(client, "get", fetch)  # only the first read
            held = fetch(name)
            asyncio.run_coroutine_threadsafe(other.set_mark("brave", newer), loop).result()
            return held

        monkeypatch.setattr(client, "get", get_then_remark)
        await store.clear_mark_if_unchanged("brave", read, now)
        assert await store.get_mark("brave", now) == newer
    await other.aclose()


async def test_all_marks_lists_only_active_marks(store: StateStore) -> None:
    now = time.time()
    brave = mark("unauthorized", until=now + 600)
    tavily = mark("rate_limited", until=now + 5)
    await store.set_mark("brave", brave)
    await store.set_mark("tavily", tavily)
    await store.set_mark("exa", mark("exhausted", until=now + 60))
    await store.clear_mark("exa")
    assert await store.all_marks(now) == {"brave": brave, "tavily": tavily}
    assert await store.all_marks(now + 10) == {"brave": brave}


def test_mark_rejects_unknown_kind_and_bad_values() -> None:
    with pytest.raises(ValueError, match="unknown mark kind"):
        ProviderMark(kind="banned", until=1.0, reason="x")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="finite"):
        ProviderMark(kind="exhausted", until=float("nan"), reason="x")
    with pytest.raises(ValueError, match="negative"):
        ProviderMark(kind="exhausted", until=1.0, reason="x", failures=-1)


# -- failure counters -------------------------------------------------------------------


async def test_failure_counter_counts_and_resets(store: StateStore) -> None:
    assert [await store.record_failure("brave") for _ in range(3)] == [1, 2, 3]
    assert await store.record_failure("tavily") == 1
    await store.reset_failures("brave")
    await store.reset_failures("never-failed")
    assert await store.record_failure("brave") == 1
    assert await store.record_failure("tavily") == 2


# -- usage counters ---------------------------------------------------------------------


async def test_usage_counters_are_per_provider_and_period(store: StateStore) -> None:
    expires = time.time() + 3600
    assert await store.get_usage("brave", "2025-06") == 0
    assert [await store.increment_usage("brave", "2025-06", expires) for _ in range(3)] == [1, 2, 3]
    assert await store.increment_usage("brave", "day:2025-06-01", expires) == 1
    assert await store.increment_usage("tavily", "2025-06", expires) == 1
    assert await store.get_usage("brave", "2025-06") == 3
    assert await store.get_usage("brave", "day:2025-06-01") == 1
    assert await store.get_usage("tavily", "2025-06") == 1
    assert await store.get_usage("tavily", "2025-07") == 0


async def test_expired_usage_counter_is_gone_and_restarts(store: StateStore) -> None:
    expires = time.time() + 3600
    for _ in range(5):
        await store.increment_usage("brave", "old", expires)
    # The latest expiry wins; one in the past removes the counter.
    assert await store.increment_usage("brave", "old", time.time() - 1) == 6
    assert await store.get_usage("brave", "old") == 0
    assert await store.increment_usage("brave", "old", expires) == 1
    assert await store.get_usage("brave", "old") == 1


async def test_usage_counter_expires_by_the_wall_clock(store: StateStore) -> None:
    # Open the backend first (a first SQLite call creates the file and its schema). The
    # counter must read 1 before its expiry and 0 after it; a loaded machine can take the
    # whole window before the first read returns (0.2 s lapsed once, then 1 s), so a read
    # that ended past the expiry proves nothing and the window doubles, up to 8 s.
    assert await store.get_usage("brave", "warm-up") == 0
    for attempt, window in enumerate((1.0, 2.0, 4.0, 8.0)):
        key = f"short-{attempt}"
        expires = time.time() + window
        assert await store.increment_usage("brave", key, expires) == 1
        before_expiry = await store.get_usage("brave", key)
        if time.time() < expires:
            break
    else:
        pytest.fail("no read of the counter ended before its expiry, even with 8 s")
    assert before_expiry == 1
    await asyncio.sleep(max(0.0, expires - time.time()) + 0.1)
    assert await store.get_usage("brave", key) == 0
    assert await store.increment_usage("brave", key, time.time() + 60) == 1


async def test_memory_store_usage_follows_an_injected_clock() -> None:
    fake_now = 1_000_000.0
    store = MemoryStore(clock=lambda: fake_now)
    assert await store.increment_usage("brave", "p", fake_now + 10) == 1
    assert await store.get_usage("brave", "p") == 1
    fake_now += 10
    assert await store.get_usage("brave", "p") == 0
    assert await store.increment_usage("brave", "p", fake_now + 10) == 1


async def test_concurrent_increments_in_one_process_are_atomic(store: StateStore) -> None:
    expires = time.time() + 60
    usage, failures = await asyncio.gather(
        asyncio.gather(*(store.increment_usage("brave", "p", expires) for _ in range(50))),
        asyncio.gather(*(store.record_failure("brave") for _ in range(50))),
    )
    assert sorted(usage) == list(range(1, 51))
    assert sorted(failures) == list(range(1, 51))
    assert await store.get_usage("brave", "p") == 50


# -- cache ------------------------------------------------------------------------------


async def test_cache_fresh_then_stale_then_removed(store: StateStore) -> None:
    now = time.time()
    assert await store.cache_get("k", now) is None
    await store.cache_set("k", b"response", now=now, ttl=60, keep_stale_for=300)
    fresh = CachedEntry(value=b"response", stored_at=now, fresh_until=now + 60)

    assert await store.cache_get("k", now) == fresh
    assert await store.cache_get("k", now + 59.9) == fresh
    assert await store.cache_get("k", now + 60) is None  # stale: hidden by default
    assert await store.cache_get("k", now + 60, allow_stale=True) == fresh
    assert await store.cache_get("k", now + 359.9, allow_stale=True) == fresh
    assert await store.cache_get("k", now + 360, allow_stale=True) is None  # removed


async def test_cache_overwrites_and_keeps_bytes_exact(store: StateStore) -> None:
    now = time.time()
    every_byte = bytes(range(256)) * 4
    await store.cache_set("k", b"first", now=now, ttl=60, keep_stale_for=0)
    await store.cache_set("k", every_byte, now=now + 1, ttl=30, keep_stale_for=0)
    await store.cache_set("empty", b"", now=now, ttl=60, keep_stale_for=0)
    assert await store.cache_get("k", now + 1) == CachedEntry(every_byte, now + 1, now + 31)
    assert await store.cache_get("empty", now) == CachedEntry(b"", now, now + 60)
    assert await store.cache_get("other", now) is None


async def test_cache_with_zero_ttl_is_stale_at_once(store: StateStore) -> None:
    now = time.time()
    await store.cache_set("k", b"v", now=now, ttl=0, keep_stale_for=60)
    assert await store.cache_get("k", now) is None
    assert await store.cache_get("k", now, allow_stale=True) == CachedEntry(b"v", now, now)


async def test_cache_rejects_bad_durations(store: StateStore) -> None:
    now = time.time()
    with pytest.raises(ValueError):
        await store.cache_set("k", b"v", now=now, ttl=-1, keep_stale_for=0)
    with pytest.raises(ValueError):
        await store.cache_set("k", b"v", now=now, ttl=1, keep_stale_for=float("inf"))
    assert await store.cache_get("k", now, allow_stale=True) is None


# -- notes ------------------------------------------------------------------------------


async def test_a_note_round_trips_is_replaced_and_is_per_provider_and_name(
    store: StateStore,
) -> None:
    now = time.time()
    assert await store.get_note("gemini", "gemini-cli:abc", now) is None
    await store.set_note("gemini", "gemini-cli:abc", "searches with 'm-1'", now + 60)
    await store.set_note("gemini", "gemini:def", "searches with 'm-2'", now + 60)
    await store.set_note("codex", "gemini-cli:abc", "another provider's", now + 60)
    assert await store.get_note("gemini", "gemini-cli:abc", now) == "searches with 'm-1'"
    await store.set_note("gemini", "gemini-cli:abc", "searches with 'm-3'", now + 60)
    assert await store.get_note("gemini", "gemini-cli:abc", now) == "searches with 'm-3'"
    assert await store.get_note("gemini", "gemini:def", now) == "searches with 'm-2'"
    assert await store.get_note("codex", "gemini-cli:abc", now) == "another provider's"


async def test_a_note_expires_at_its_until(store: StateStore) -> None:
    now = time.time()
    await store.set_note("gemini", "n", "kept a while", now + 30)
    assert await store.get_note("gemini", "n", now + 29.9) == "kept a while"
    assert await store.get_note("gemini", "n", now + 30) is None
    assert await store.get_note("gemini", "n", now + 3600) is None


async def test_a_note_that_expired_by_the_wall_clock_is_gone(store: StateStore) -> None:
    # Redis drops the key itself (PXAT); the others judge the reader's clock.
    await store.set_note("gemini", "n", "short-lived", time.time() + 0.2)
    await asyncio.sleep(0.3)
    assert await store.get_note("gemini", "n", time.time()) is None


async def test_clear_and_clear_all_forget_notes(store: StateStore) -> None:
    now = time.time()
    for provider in ("gemini", "codex"):
        await store.set_note(provider, "n", f"{provider} note", now + 60)
    await store.clear("gemini")
    assert await store.get_note("gemini", "n", now) is None
    assert await store.get_note("codex", "n", now) == "codex note"
    await store.clear_all()
    assert await store.get_note("codex", "n", now) is None


@pytest.mark.parametrize(
    ("name", "text", "until", "problem"),
    [
        ("", "t", 1e10, "note name"),
        ("x" * 201, "t", 1e10, "note name"),
        ("a\nb", "t", 1e10, "note name must be printable"),
        ("n", "", 1e10, "note's text"),
        ("n", "x" * 1001, 1e10, "note's text"),
        ("n", "two\nlines", 1e10, "one printable line"),
        ("n", "t", float("inf"), "finite unix timestamp"),
        ("n", "t", float("nan"), "finite unix timestamp"),
    ],
)
async def test_bad_notes_are_refused_with_what_is_wrong(
    store: StateStore, name: str, text: str, until: float, problem: str
) -> None:
    with pytest.raises(ValueError, match=problem):
        await store.set_note("gemini", name, text, until)
    with pytest.raises(ValueError, match="invalid provider id"):
        await store.set_note("a:b", "n", "t", 1e10)
    with pytest.raises(ValueError, match="invalid provider id"):
        await store.get_note("a:b", "n", time.time())


async def test_a_store_without_notes_keeps_none_and_the_fail_safe_one_reads_none() -> None:
    # A third-party backend written before notes existed still works (nothing kept), and a
    # failing store costs the note, never the caller an exception.
    class Broken(MemoryStore):
        async def get_note(self, provider: str, name: str, now: float) -> str | None:
            raise StateStoreError("down")

        async def set_note(self, provider: str, name: str, text: str, until: float) -> None:
            raise StateStoreError("down")

    safe = FailSafeStore(Broken())
    await safe.set_note("gemini", "n", "t", time.time() + 60)
    assert await safe.get_note("gemini", "n", time.time()) is None
    await StateStore.set_note(MemoryStore(), "gemini", "n", "t", time.time() + 60)
    assert await StateStore.get_note(MemoryStore(), "gemini", "n", time.time()) is None


# -- housekeeping -----------------------------------------------------------------------


async def test_clear_forgets_one_provider_only(store: StateStore) -> None:
    now = time.time()
    expires = now + 3600
    for provider in ("brave", "tavily"):
        await store.set_mark(provider, mark(until=now + 60))
        await store.record_failure(provider)
        await store.increment_usage(provider, "2025-06", expires)
        await store.increment_usage(provider, "day:1", expires)
    await store.cache_set("k", b"v", now=now, ttl=60, keep_stale_for=0)

    await store.clear("brave")

    assert await store.get_mark("brave", now) is None
    assert await store.get_usage("brave", "2025-06") == 0
    assert await store.get_usage("brave", "day:1") == 0
    assert await store.record_failure("brave") == 1
    assert list(await store.all_marks(now)) == ["tavily"]
    assert await store.get_usage("tavily", "2025-06") == 1
    assert await store.record_failure("tavily") == 2
    assert await store.cache_get("k", now) is not None


@pytest.mark.parametrize("provider", ["", "a:b", "a b", "x" * 65, "-lead", "a*"])
async def test_invalid_provider_ids_are_rejected(store: StateStore, provider: str) -> None:
    with pytest.raises(ValueError, match="invalid provider id"):
        await store.get_mark(provider, time.time())
    with pytest.raises(ValueError, match="invalid provider id"):
        await store.increment_usage(provider, "p", time.time() + 1)


def test_guard_remembered_provider_ids_never_let_an_invalid_one_through() -> None:
    """Guard (passes before and after valid ids were remembered, past how many are kept)."""

    class Lenient(str):
        """A ``str`` that equals everything and hashes as ``"brave"``."""

        __slots__ = ()

        def __eq__(self, other: object) -> bool:
            return True

        def __hash__(self) -> int:
            return hash("brave")

    assert check_provider("brave") == "brave"
    for bad in ["brave ", "a:b", Lenient("a:b")]:
        with pytest.raises(ValueError, match="invalid provider id"):
            check_provider(bad)
    for number in range(300):  # more than are remembered: still every one checked right
        assert check_provider(f"p{number}") == f"p{number}"
    with pytest.raises(ValueError, match="invalid provider id"):
        check_provider("p1:")
    assert check_provider("brave") == "brave"


async def test_invalid_period_and_cache_key_are_rejected(store: StateStore) -> None:
    with pytest.raises(ValueError, match="period"):
        await store.increment_usage("brave", "", time.time() + 1)
    with pytest.raises(ValueError, match="cache key"):
        await store.cache_get("bad\nkey", time.time())


async def test_closed_store_raises_state_error(backend: Backend) -> None:
    async with backend.open() as opened:
        await opened.record_failure("brave")
    await opened.aclose()  # idempotent
    with pytest.raises(StateStoreError, match="closed"):
        await opened.get_mark("brave", time.time())
    assert issubclass(StateStoreError, WebSearchError)


def test_one_store_serves_several_event_loops(backend: Backend) -> None:
    """The sync bridge runs a fresh loop per call, in other threads: the store must follow."""
    opened = backend.open()
    asyncio.run(opened.record_failure("brave"))
    assert asyncio.run(opened.record_failure("brave")) == 2
    results: list[int] = []
    worker = threading.Thread(
        target=lambda: results.append(asyncio.run(opened.record_failure("brave")))
    )
    worker.start()
    worker.join(timeout=30)
    assert results == [3]
    asyncio.run(opened.aclose())


# -- persistence and processes ----------------------------------------------------------

CHILD = r"""
import asyncio, json, sqlite3, sys
from pathlib import Path
from websearch_core.state import ProviderMark, open_store

cfg = json.loads(sys.argv[1])

def store():
    path = Path(cfg["sqlite_path"]) if cfg["sqlite_path"] else None
    return open_store(redis_url=cfg["redis_url"], sqlite_path=path, redis_prefix=cfg["prefix"])

async def write_then_hang():
    s = store()
    mark = ProviderMark("exhausted", until=cfg["until"], reason="quota spent", set_at=cfg["now"])
    await s.set_mark("brave", mark)
    await s.increment_usage("brave", "2025-06", cfg["until"])
    await s.cache_set("k", b"payload", now=cfg["now"], ttl=60, keep_stale_for=60)
    if cfg["sqlite_path"]:  # SQLite writes cache entries behind: in the file within FLUSH_AFTER
        while not in_file(cfg["sqlite_path"], "SELECT 1 FROM cache WHERE key = 'k'"):
            await asyncio.sleep(0.02)
    print("committed", flush=True)
    await asyncio.sleep(60)

def in_file(path, sql):
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql).fetchone() is not None
    finally:
        conn.close()

async def increment():
    s = store()
    await s.get_usage("tavily", "p")  # open the file / connection before the race
    print("ready", flush=True)
    sys.stdin.readline()
    counts = [await s.increment_usage("tavily", "p", cfg["until"]) for _ in range(cfg["n"])]
    await s.aclose()
    print(json.dumps(counts), flush=True)

asyncio.run({"hang": write_then_hang, "increment": increment}[cfg["mode"]]())
"""


@pytest.fixture
def children() -> Iterator[list["subprocess.Popen[str]"]]:
    """Child processes of a test; a watchdog kills them if the test hangs."""
    procs: list[subprocess.Popen[str]] = []

    def kill_all() -> None:
        for proc in procs:
            proc.kill()

    watchdog = threading.Timer(60, kill_all)
    watchdog.start()
    yield procs
    watchdog.cancel()
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)
        for stream in (proc.stdin, proc.stdout):
            if stream:
                stream.close()


def spawn(
    procs: list["subprocess.Popen[str]"], config: str, *, stdin: bool = False
) -> "subprocess.Popen[str]":
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, config],
        stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        text=True,
    )
    procs.append(proc)
    return proc


async def test_state_survives_a_restart(persistent: Backend) -> None:
    now = time.time()
    async with persistent.open() as first:
        await first.set_mark("brave", mark(until=now + 60))
        await first.increment_usage("brave", "2025-06", now + 60)
        await first.record_failure("brave")
        await first.cache_set("k", b"v", now=now, ttl=60, keep_stale_for=0)
    async with persistent.open() as second:
        assert await second.get_mark("brave", now) == mark(until=now + 60)
        assert await second.get_usage("brave", "2025-06") == 1
        assert await second.record_failure("brave") == 2
        assert await second.cache_get("k", now) == CachedEntry(b"v", now, now + 60)


async def test_state_survives_a_killed_process(
    persistent: Backend, children: list["subprocess.Popen[str]"]
) -> None:
    now = time.time()
    child = spawn(children, persistent.child_config(mode="hang", now=now, until=now + 600))
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "committed"
    os.kill(child.pid, signal.SIGKILL)
    assert child.wait(timeout=10) == -signal.SIGKILL

    async with persistent.open() as reopened:
        expected = ProviderMark("exhausted", until=now + 600, reason="quota spent", set_at=now)
        assert await reopened.get_mark("brave", now) == expected
        assert await reopened.get_usage("brave", "2025-06") == 1
        assert await reopened.cache_get("k", now) == CachedEntry(b"payload", now, now + 60)


async def test_two_processes_lose_no_increments(
    persistent: Backend, children: list["subprocess.Popen[str]"]
) -> None:
    config = persistent.child_config(mode="increment", n=200, until=time.time() + 600)
    racers = [spawn(children, config, stdin=True) for _ in range(2)]
    for racer in racers:
        assert racer.stdout is not None
        assert racer.stdout.readline().strip() == "ready"
    for racer in racers:  # release both at once
        assert racer.stdin is not None
        racer.stdin.write("go\n")
        racer.stdin.flush()
    counts: list[int] = []
    for racer in racers:
        out, _ = racer.communicate(timeout=60)
        assert racer.returncode == 0
        counts += json.loads(out)
    assert sorted(counts) == list(range(1, 401))  # every increment saw a distinct value
    async with persistent.open() as reopened:
        assert await reopened.get_usage("tavily", "p") == 400


# -- backend selection and backend specifics --------------------------------------------


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


async def test_default_store_is_private_sqlite_in_the_state_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state_dir = tmp_path / "home" / "state" / "websearch-tools"
    seen: list[str] = []

    def fake_user_state_path(appname: str) -> Path:
        seen.append(appname)
        return state_dir

    monkeypatch.setattr(platformdirs, "user_state_path", fake_user_state_path)
    assert default_state_path() == state_dir / "state.sqlite3"
    async with open_store(redis_url=None, sqlite_path=None) as opened:
        assert isinstance(opened, SQLiteStore)
        assert opened.path == state_dir / "state.sqlite3"
        assert not state_dir.exists()  # nothing touches the disk before the first operation
        await opened.record_failure("brave")
    assert seen and set(seen) == {"websearch-tools"}
    for created in (tmp_path / "home", state_dir.parent, state_dir):
        assert _mode(created) & 0o077 == 0, created
    assert _mode(state_dir / "state.sqlite3") & 0o077 == 0
    with sqlite3.connect(state_dir / "state.sqlite3") as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_sqlite_refuses_a_newer_schema(tmp_path: Path) -> None:
    path = tmp_path / "state.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version = 99")
    async with open_store(redis_url=None, sqlite_path=path) as opened:
        with pytest.raises(StateStoreError, match="newer"):
            await opened.get_usage("brave", "p")


async def test_sqlite_failure_is_a_state_error(tmp_path: Path) -> None:
    async with open_store(redis_url=None, sqlite_path=tmp_path) as opened:  # a directory
        with pytest.raises(StateStoreError, match="SQLite state store"):
            await opened.record_failure("brave")


async def test_redis_url_selects_redis_and_hides_the_password() -> None:
    need_redis_package()
    from websearch_core.state import RedisStore

    opened = open_store(redis_url="redis://:s3cret@127.0.0.1:1/0", sqlite_path=None)
    assert isinstance(opened, RedisStore)
    assert opened.prefix == "websearch:"
    assert "s3cret" not in repr(opened)
    await opened.aclose()


async def test_missing_redis_package_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "redis", None)
    monkeypatch.delitem(sys.modules, "websearch_core.state.redis", raising=False)
    with pytest.raises(ConfigurationError, match=r'pip install "websearch-tools\[redis\]"'):
        open_store(redis_url="redis://127.0.0.1:6379/0", sqlite_path=None)


async def test_unreachable_redis_is_a_state_error() -> None:
    need_redis_package()
    url = f"redis://127.0.0.1:{free_loopback_port()}/0"
    options = {"socket_connect_timeout": 0.5, "retry_on_timeout": False, "retry": None}
    async with open_store(redis_url=url, sqlite_path=None, redis_options=options) as opened:
        with pytest.raises(StateStoreError, match="Redis state store failed") as caught:
            await opened.record_failure("brave")
    assert "s3cret" not in str(caught.value)


async def test_redis_keys_are_namespaced_and_expire(redis_url: str) -> None:
    import redis

    prefix = f"wstest-{uuid.uuid4().hex[:12]}:"
    now = time.time()
    async with open_store(redis_url=redis_url, sqlite_path=None, redis_prefix=prefix) as opened:
        await opened.set_mark("brave", mark(until=now + 60))
        await opened.record_failure("brave")
        await opened.increment_usage("brave", "2025-06", now + 120)
        await opened.cache_set("abc", b"v", now=now, ttl=10, keep_stale_for=20)
        await opened.set_note("gemini", "gemini-cli:f00d", "a note", now + 90)

    raw = redis.Redis.from_url(redis_url, decode_responses=True)
    try:
        keys = sorted(str(key) for key in raw.keys(prefix + "*"))
        assert keys == [
            f"{prefix}cache:abc",
            f"{prefix}failures:brave",
            f"{prefix}index:brave",  # its usage, note, failure and rate keys
            f"{prefix}index:gemini",
            f"{prefix}indexes",  # the indexes clear_all() reads
            f"{prefix}mark:brave",
            f"{prefix}marks",
            f"{prefix}note:gemini:gemini-cli:f00d",
            f"{prefix}usage:brave:2025-06",
        ]
        assert 85_000 < raw.pttl(f"{prefix}note:gemini:gemini-cli:f00d") <= 90_000
        assert 55_000 < raw.pttl(f"{prefix}mark:brave") <= 60_000
        assert 115_000 < raw.pttl(f"{prefix}usage:brave:2025-06") <= 120_000
        # An index goes a second after its last key: brave's is the failure count.
        assert 7_195_000 < raw.pttl(f"{prefix}index:brave") <= 7_201_000
        assert 85_000 < raw.pttl(f"{prefix}index:gemini") <= 91_000
        assert 7_195_000 < raw.pttl(f"{prefix}indexes") <= 7_202_000  # a second after its last
        assert 25_000 < raw.pttl(f"{prefix}cache:abc") <= 30_000
        assert 7_195_000 < raw.pttl(f"{prefix}failures:brave") <= 7_200_000  # FAILURE_WINDOW
    finally:
        raw.close()


# -- reservations, rate slots, scopes ---------------------------------------------------


def _windows(limit: int | None, expires_in: float = 600) -> tuple[UsageWindow, ...]:
    until = time.time() + expires_in
    return (UsageWindow("month:test", until), UsageWindow("budget:test", until, limit=limit))


async def test_reserve_counts_every_window_until_a_cap_refuses(store: StateStore) -> None:
    windows = _windows(limit=2)
    first = await store.reserve_usage("brave", windows)
    second = await store.reserve_usage("brave", windows)
    third = await store.reserve_usage("brave", windows)
    assert (first.granted, first.counts) == (True, (1, 1))
    assert (second.granted, second.counts) == (True, (2, 2))
    assert (third.granted, third.counts) == (False, (2, 2))  # refused: nothing counted
    assert await store.get_usage("brave", "month:test") == 2
    assert await store.get_usage("tavily", "month:test") == 0


async def test_reserve_reports_the_failure_counter(store: StateStore) -> None:
    assert (await store.reserve_usage("brave", _windows(None))).failures == 0
    await store.record_failure("brave")
    await store.record_failure("brave")
    assert (await store.reserve_usage("brave", _windows(None))).failures == 2


async def test_release_gives_back_one_and_never_goes_below_zero(store: StateStore) -> None:
    windows = _windows(limit=1)
    assert (await store.reserve_usage("brave", windows)).granted
    assert not (await store.reserve_usage("brave", windows)).granted
    await store.release_usage("brave", windows)
    assert await store.get_usage("brave", "budget:test") == 0
    await store.release_usage("brave", windows)  # nothing left to give back
    assert await store.get_usage("brave", "budget:test") == 0
    assert (await store.reserve_usage("brave", windows)).granted


async def test_concurrent_reservations_never_pass_the_cap(store: StateStore) -> None:
    windows = _windows(limit=30)
    grants = await asyncio.gather(*(store.reserve_usage("brave", windows) for _ in range(120)))
    assert sum(grant.granted for grant in grants) == 30
    assert sorted(g.counts[1] for g in grants if g.granted) == list(range(1, 31))
    assert await store.get_usage("brave", "budget:test") == 30


@pytest.mark.parametrize("limit", [5, None], ids=["budget", "no-budget"])
async def test_reserve_unless_marked_counts_nothing_for_an_active_mark(
    store: StateStore, limit: int | None
) -> None:
    now = time.time()
    windows = _windows(limit=limit)
    await store.record_failure("brave")
    unmarked = await store.reserve_unless_marked("brave", windows, now)
    assert (unmarked.granted, unmarked.counts, unmarked.failures) == (True, (1, 1), 1)
    assert unmarked.mark is None
    stored = mark("circuit_open", until=now + 60, failures=2)
    await store.set_mark("brave", stored)
    marked = await store.reserve_unless_marked("brave", windows, now)
    assert (marked.granted, marked.counts, marked.mark) == (False, (), stored)
    assert await store.get_usage("brave", "budget:test") == 1  # the marked call counted none
    # Judged at the caller's instant: at ``until`` the mark no longer holds.
    later = await store.reserve_unless_marked("brave", windows, now + 60)
    assert (later.granted, later.counts, later.mark) == (True, (2, 2), None)
    other = await store.reserve_unless_marked("tavily", windows, now)
    assert (other.granted, other.counts, other.mark, other.failures) == (True, (1, 1), None, 0)


async def test_reserve_unless_marked_still_refuses_a_spent_budget(store: StateStore) -> None:
    windows = _windows(limit=1)
    now = time.time()
    assert (await store.reserve_unless_marked("brave", windows, now)).granted
    refused = await store.reserve_unless_marked("brave", windows, now)
    assert (refused.granted, refused.counts, refused.mark) == (False, (1, 1), None)
    assert await store.get_usage("brave", "month:test") == 1


class _TwoStepStore(MemoryStore):
    """A store that only has the two abstract steps: the base class's default combines them."""

    async def reserve_unless_marked(
        self, provider: str, windows: Sequence[UsageWindow], now: float
    ) -> UsageGrant:
        return await StateStore.reserve_unless_marked(self, provider, windows, now)


async def test_the_default_reserve_unless_marked_reads_the_mark_then_reserves() -> None:
    now = time.time()
    store = _TwoStepStore()
    windows = _windows(limit=None)
    assert (await store.reserve_unless_marked("brave", windows, now)).counts == (1, 1)
    stored = mark(until=now + 60)
    await store.set_mark("brave", stored)
    marked = await store.reserve_unless_marked("brave", windows, now)
    assert (marked.granted, marked.counts, marked.mark) == (False, (), stored)
    assert (await store.reserve_unless_marked("brave", windows, now + 61)).counts == (2, 2)


async def test_rate_slots_are_spaced_and_refused_beyond_max_wait(store: StateStore) -> None:
    # Slots a minute apart and 150 s to wait: 0, 60 and 120 s fit, 180 s does not (30 s
    # spare). Each wait is its slot less the time since the first booking: bound by that
    # time as measured, which a busy machine only widens (a 0.05 s tolerance failed when a
    # store call came 0.06 s after the one before).
    before = time.time()
    waits = [await store.take_rate_slot("brave", 60.0, 150.0) for _ in range(4)]
    again = await store.take_rate_slot("brave", 60.0, 200.0)
    took = time.time() - before
    assert waits[0] is not None and waits[0] == pytest.approx(0.0, abs=0.01)  # free: now
    for nth, wait in enumerate([*waits[1:3], again], start=1):  # again: the refused one's
        assert wait is not None and nth * 60.0 - took - 0.01 <= wait <= nth * 60.0 + 0.01
    assert waits[3] is None  # 180 s away: more than max_wait, and nothing booked
    other = await store.take_rate_slot("tavily", 60.0, 0.0)
    assert other is not None and other == pytest.approx(0.0, abs=0.01)


async def test_rate_slot_wait_reads_the_booking_without_taking_a_slot(store: StateStore) -> None:
    """What ``websearch providers`` says of a rate-limited provider: when it may send next."""
    assert await store.rate_slot_wait("brave") == 0.0  # nothing booked: free now
    before = time.time()
    await store.take_rate_slot("brave", 60.0, 0.0)
    first = await store.rate_slot_wait("brave")
    again = await store.rate_slot_wait("brave")
    booked = await store.take_rate_slot("brave", 60.0, 61.0)
    failsafe = await FailSafeStore(store).rate_slot_wait("brave")
    took = time.time() - before  # each reading is its slot less at most this (see above)
    assert 60.0 - took - 0.01 <= first <= 60.0 + 0.01
    assert again <= first + 0.01  # reading took no slot: not a minute further
    assert booked is not None and 60.0 - took - 0.01 <= booked <= 60.0 + 0.01
    assert await store.rate_slot_wait("tavily") == 0.0
    assert 120.0 - took - 0.01 <= failsafe <= 120.0 + 0.01


async def test_rate_slot_arguments_are_checked(store: StateStore) -> None:
    with pytest.raises(ValueError, match="rate interval"):
        await store.take_rate_slot("brave", 0.0, 1.0)
    with pytest.raises(ValueError, match="max_wait"):
        await store.take_rate_slot("brave", 1.0, -1.0)


async def test_mark_scope_round_trips(store: StateStore) -> None:
    now = time.time()
    scoped = ProviderMark("unauthorized", until=now + 60, reason="401", set_at=now, scope="abc")
    await store.set_mark("searxng", scoped)
    assert await store.get_mark("searxng", now) == scoped
    assert (await store.all_marks(now))["searxng"].scope == "abc"
    assert scoped.applies_to("abc") and not scoped.applies_to("xyz")
    assert scoped.applies_to(None)  # unknown current scope: the cautious answer


async def test_clear_all_forgets_every_provider_but_keeps_the_cache(store: StateStore) -> None:
    now = time.time()
    for provider in ("brave", "tavily"):
        await store.set_mark(provider, mark(until=now + 60))
        await store.reserve_usage(provider, _windows(limit=5))
        await store.record_failure(provider)
    await store.take_rate_slot("brave", 60.0, 0.0)
    await store.cache_set("k", b"v", now=now, ttl=60, keep_stale_for=0)
    await store.clear_all()
    assert await store.all_marks(now) == {}
    assert await store.get_usage("brave", "budget:test") == 0
    assert await store.record_failure("tavily") == 1
    assert await store.take_rate_slot("brave", 60.0, 0.0) == pytest.approx(0.0, abs=0.05)
    assert await store.cache_get("k", now) is not None


async def test_sqlite_migrates_a_version_one_file(tmp_path: Path) -> None:
    path = tmp_path / "state.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript(
        "CREATE TABLE marks (provider TEXT PRIMARY KEY, kind TEXT NOT NULL, until REAL NOT NULL,"
        " reason TEXT NOT NULL, failures INTEGER NOT NULL, set_at REAL NOT NULL) WITHOUT ROWID;"
        "PRAGMA user_version = 1;"
    )
    now = time.time()
    conn.execute("INSERT INTO marks VALUES ('brave', 'exhausted', ?, 'old', 0, ?)", (now + 60, now))
    conn.commit()
    conn.close()
    async with SQLiteStore(path) as migrated:
        old = await migrated.get_mark("brave", now)
        assert old is not None and old.scope == "" and old.reason == "old"
        assert (await migrated.reserve_usage("brave", _windows(limit=1))).granted
        await migrated.set_note("gemini", "n", "kept", now + 60)  # version 4's table
        assert await migrated.get_note("gemini", "n", now) == "kept"


async def test_sqlite_refuses_a_foreign_database_without_touching_it(tmp_path: Path) -> None:
    path = tmp_path / "state.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    async with SQLiteStore(path) as foreign:
        with pytest.raises(CorruptStateError, match="not a websearch-tools state file"):
            await foreign.get_mark("brave", time.time())
    assert path.read_bytes() == before
    assert not path.with_name("state.sqlite3-wal").exists()


async def test_sqlite_never_reads_a_schema_half_created_by_another_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes opening a new file at once: the check reads one snapshot.

    Here the other process creates the schema just between the check's reads of the
    version and of the table list. Read outside one transaction, the check saw our tables
    without our version, took the file for someone else's and moved it aside.
    """
    path = tmp_path / "state.sqlite3"
    other: list[str] = []
    connect = sqlite3.connect

    class Interleaved(sqlite3.Connection):
        def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
            if sql.startswith("SELECT name FROM sqlite_master") and not other:
                racer = connect(path, timeout=0, isolation_level=None)
                try:
                    SQLiteStore._migrate(racer)  # what the other process's open does
                    other.append("created")
                except sqlite3.OperationalError as exc:
                    other.append(str(exc))  # it waits for our snapshot to end
                finally:
                    racer.close()
            return super().execute(sql, *args)

    def interleaved_connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        return connect(*args, **kwargs, factory=Interleaved)

    monkeypatch.setattr(sqlite3, "connect", interleaved_connect)
    async with SQLiteStore(path) as store:
        assert await store.get_usage("brave", "p") == 0
    assert other == ["database is locked"]
    left = sorted(entry.name for entry in tmp_path.iterdir() if entry.name != "config.toml")
    assert left == ["state.sqlite3"]  # config.toml: the empty one every test is given


async def test_sqlite_success_path_writes_once(tmp_path: Path) -> None:
    """A reservation is the one write; resetting failures that are zero writes nothing."""
    path = tmp_path / "state.sqlite3"
    async with SQLiteStore(path) as opened:
        await opened.reserve_usage("brave", _windows(None))
        observer = sqlite3.connect(path)
        before = observer.execute("PRAGMA data_version").fetchone()[0]
        await opened.reset_failures("brave")
        await opened.get_usage("brave", "month:test")
        assert observer.execute("PRAGMA data_version").fetchone()[0] == before
        await opened.reserve_usage("brave", _windows(None))
        assert observer.execute("PRAGMA data_version").fetchone()[0] == before + 1
        observer.close()


async def test_sqlite_write_waits_off_the_loop_while_another_process_holds_the_lock(
    tmp_path: Path,
) -> None:
    """The inline connection never waits: a held lock sends the write to the store's thread."""
    path = tmp_path / "state.sqlite3"
    async with SQLiteStore(path) as opened:
        await opened.reserve_usage("brave", _windows(None))  # opens and creates the file
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # as another process would, mid-reservation
        try:
            pending = asyncio.create_task(opened.reserve_usage("brave", _windows(None)))
            ticks = 0
            for _ in range(20):  # the loop keeps running while the write waits its turn
                await asyncio.sleep(0.005)
                ticks += 1
            assert ticks == 20 and not pending.done()
            holder.execute("COMMIT")
            grant = await asyncio.wait_for(pending, 5)
        finally:
            holder.close()
        assert (grant.granted, grant.counts) == (True, (2, 2))
        assert await opened.get_usage("brave", "month:test") == 2


async def test_sqlite_inline_writes_keep_the_wal_checkpointed(tmp_path: Path) -> None:
    """Inline writes never checkpoint on the loop, yet the WAL does not grow without bound."""
    path = tmp_path / "state.sqlite3"
    wal = path.with_name("state.sqlite3-wal")
    async with SQLiteStore(path) as opened:
        windows = _windows(None)
        sizes = []
        for round_ in range(6):
            for _ in range(400):
                await opened.reserve_usage("brave", windows)
            await opened.get_usage("brave", "month:test")  # a queued checkpoint has run by now
            await asyncio.sleep(0.05)
            sizes.append(wal.stat().st_size)
            assert await opened.get_usage("brave", "month:test") == 400 * (round_ + 1)
    # One reservation appends a few pages; 2,400 of them without a checkpoint pass
    # 9 MiB. Checkpointed, the WAL is reused from its start and stops growing.
    assert sizes[-1] == max(sizes[2:])
    assert max(sizes) < 4 * 1024 * 1024
