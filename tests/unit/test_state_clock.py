"""The state stores when the wall clock steps back, and how long their counters last.

A wall clock is not monotonic: an NTP correction or a resumed virtual machine can set it
back by minutes or hours. Before, a rate booking made just before such a step lay "an
hour ahead" of every later request, which the store refused for that hour, and a
cooldown mark lasted the step longer. The rules now, the same in memory, SQLite and
Redis: a booking never lies further ahead of now than it lay ahead of the moment it was
made, and a mark never ends further from now than its whole duration.

The consecutive-failure counter behind the circuit breaker now lasts
:data:`FAILURE_WINDOW` after its last failure: a failure from last week no longer makes
one today the second of a streak.

The memory store takes its clock as an argument; the SQLite store reads ``time.time`` of
its module, which the tests replace (as in ``test_state_seen``); Redis books on the
server's clock, which a test cannot move: there a booking is written as one made before
the server's clock stepped back would be.
"""

import sqlite3
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from websearch_core.errors import ProviderUnavailableError
from websearch_core.orchestration import Ledger
from websearch_core.orchestration.quota import FailurePolicy
from websearch_core.state import (
    MemoryStore,
    ProviderMark,
    SQLiteStore,
    StateStore,
    UsageWindow,
    open_store,
)
from websearch_core.state.base import FAILURE_WINDOW
from websearch_core.state.sqlite import APPLICATION_ID, SCHEMA_VERSION

if TYPE_CHECKING:
    from websearch_core.state import RedisStore

HOUR = 3600.0


@dataclass
class SteppingClock:
    """A wall clock a test sets, back or forward (``time.time`` of the SQLite module)."""

    now: float

    # The rest of the ``time`` module the SQLite store uses, unchanged.
    monotonic = staticmethod(time.monotonic)
    sleep = staticmethod(time.sleep)

    def time(self) -> float:
        return self.now


@pytest.fixture
def clock() -> SteppingClock:
    return SteppingClock(1_750_000_000.0)


@pytest.fixture(params=["memory", "sqlite"])
async def stepping(
    request: pytest.FixtureRequest,
    clock: SteppingClock,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> AsyncIterator[StateStore]:
    """A store whose wall clock is ``clock``."""
    if request.param == "memory":
        store: StateStore = MemoryStore(clock=clock.time)
    else:
        monkeypatch.setattr("websearch_core.state.sqlite.time", clock)
        store = SQLiteStore(tmp_path / "state.sqlite3")
    async with store:
        yield store


@pytest.fixture
async def redis_store(redis_url: str, redis_client: Any) -> AsyncIterator["RedisStore"]:
    from websearch_core.state import RedisStore

    prefix = f"wstest-{uuid.uuid4().hex[:12]}:"
    async with open_store(redis_url=redis_url, sqlite_path=None, redis_prefix=prefix) as store:
        assert isinstance(store, RedisStore)
        yield store


@pytest.fixture(params=["memory", "sqlite", "redis"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[StateStore]:
    """Any store: marks are judged by the caller's ``now``, which a test sets freely."""
    if request.param == "memory":
        opened: StateStore = MemoryStore()
    elif request.param == "sqlite":
        opened = SQLiteStore(tmp_path / "state.sqlite3")
    else:
        url = request.getfixturevalue("redis_url")
        request.getfixturevalue("redis_client")  # skipped (or failed in CI) without redis
        prefix = f"wstest-{uuid.uuid4().hex[:12]}:"
        opened = open_store(redis_url=url, sqlite_path=None, redis_prefix=prefix)
    async with opened:
        yield opened


def _server_micros(client: Any) -> float:
    seconds, micros = client.time()
    return float(seconds) * 1e6 + float(micros)


# -- rate bookings ----------------------------------------------------------------------


async def test_a_clock_stepping_back_does_not_hold_up_the_rate_limit(
    stepping: StateStore, clock: SteppingClock
) -> None:
    assert await stepping.take_rate_slot("brave", 2.0, 10.0) == 0.0
    assert await stepping.take_rate_slot("brave", 2.0, 10.0) == 2.0  # next free: 4 s ahead
    clock.now -= HOUR  # NTP sets the wall clock back an hour
    assert await stepping.take_rate_slot("brave", 2.0, 10.0) == pytest.approx(4.0)  # not 1 h
    assert await stepping.take_rate_slot("brave", 2.0, 10.0) == pytest.approx(6.0)  # spaced
    clock.now += 6.0
    assert await stepping.take_rate_slot("brave", 2.0, 10.0) == pytest.approx(2.0)


async def test_redis_rate_booking_made_before_the_server_clock_stepped_back(
    redis_store: "RedisStore", redis_client: Any
) -> None:
    """As the server holds a booking after its clock stepped back an hour: made "later"."""
    prefix = redis_store.prefix
    made = _server_micros(redis_client) + HOUR * 1e6
    redis_client.set(f"{prefix}rate:brave", f"{made + 2e6:.0f}", px=int(2 * HOUR * 1000))
    redis_client.set(f"{prefix}rate:brave:booked_at", f"{made:.0f}", px=int(2 * HOUR * 1000))
    wait = await redis_store.take_rate_slot("brave", 2.0, 10.0)
    assert wait is not None and 0.0 < wait <= 2.0  # the queue, not the hour


async def test_redis_rate_booking_without_its_time_is_taken_as_it_is(
    redis_store: "RedisStore", redis_client: Any
) -> None:
    """A booking written by an older release (no time kept) spaces requests as before.

    A guard, not a defect: it passes before the change too, and keeps a rolling upgrade
    (old and new processes sharing one server) spaced.
    """
    prefix = redis_store.prefix
    next_at = _server_micros(redis_client) + 5e6
    redis_client.set(f"{prefix}rate:brave", f"{next_at:.0f}", px=10_000)
    wait = await redis_store.take_rate_slot("brave", 1.0, 10.0)
    assert wait is not None and 0.0 < wait <= 5.0


# -- cooldown marks ----------------------------------------------------------------------


def _cooldown(set_at: float, seconds: float = 60.0) -> ProviderMark:
    return ProviderMark("rate_limited", until=set_at + seconds, reason="429", set_at=set_at)


async def test_a_clock_stepping_back_does_not_stretch_a_mark(store: StateStore) -> None:
    set_at = time.time()
    stored = _cooldown(set_at)
    await store.set_mark("brave", stored)
    assert await store.get_mark("brave", set_at - 5) == stored  # clocks that merely disagree
    back = set_at - HOUR  # the wall clock steps back an hour
    seen = await store.get_mark("brave", back)
    assert seen is not None and seen.set_at == back
    assert seen.until == pytest.approx(
        back + 60, abs=1e-6
    )  # a minute from now, not an hour and one
    assert seen.kind == stored.kind and seen.reason == stored.reason
    assert await store.all_marks(back + 59) == {"brave": seen}
    assert await store.get_mark("brave", back + 61) is None  # over: the step is not waited out
    assert await store.all_marks(back + 61) == {}


@pytest.mark.parametrize("limit", [None, 5], ids=["no-budget", "budget"])
async def test_a_reservation_after_a_clock_step_back_waits_out_the_mark_only(
    store: StateStore, limit: int | None
) -> None:
    set_at = time.time()
    await store.set_mark("brave", _cooldown(set_at))
    windows = (UsageWindow("month:test", set_at + HOUR, limit=limit),)
    back = set_at - HOUR
    refused = await store.reserve_unless_marked("brave", windows, back + 30)
    assert refused.mark is not None and refused.mark.until == pytest.approx(back + 90, abs=1e-6)
    granted = await store.reserve_unless_marked("brave", windows, back + 91)
    assert (granted.granted, granted.mark, granted.counts) == (True, None, (1,))


async def test_every_mark_is_moved_when_listed(store: StateStore) -> None:
    set_at = time.time()
    await store.set_mark("brave", _cooldown(set_at, 60))
    await store.set_mark("tavily", _cooldown(set_at, 120))
    back = set_at - HOUR
    listed = await store.all_marks(back)
    ends = {provider: mark.until for provider, mark in listed.items()}
    assert ends == {
        "brave": pytest.approx(back + 60, abs=1e-6),
        "tavily": pytest.approx(back + 120, abs=1e-6),
    }
    assert list(await store.all_marks(back + 90)) == ["tavily"]


# -- the failure counter's window --------------------------------------------------------


def _month(now: float) -> tuple[UsageWindow, ...]:
    return (UsageWindow("month:test", now + 40 * 86_400.0),)


async def test_a_failure_long_ago_no_longer_counts(
    stepping: StateStore, clock: SteppingClock
) -> None:
    assert await stepping.record_failure("brave") == 1
    clock.now += FAILURE_WINDOW - 1
    assert await stepping.record_failure("brave") == 2  # within the window of the last one
    clock.now += FAILURE_WINDOW - 1
    assert await stepping.record_failure("brave") == 3  # the window runs from the last one
    assert (await stepping.reserve_usage("brave", _month(clock.now))).failures == 3
    clock.now += FAILURE_WINDOW
    assert (await stepping.reserve_usage("brave", _month(clock.now))).failures == 0
    uncapped = await stepping.reserve_unless_marked("brave", _month(clock.now), clock.now)
    assert uncapped.failures == 0
    assert await stepping.record_failure("brave") == 1  # a new streak, not the fourth


async def test_redis_failure_counter_lives_its_window_from_the_last_failure(
    redis_store: "RedisStore", redis_client: Any
) -> None:
    key = f"{redis_store.prefix}failures:brave"
    assert await redis_store.record_failure("brave") == 1
    redis_client.pexpire(key, 1_000)  # as if its window had nearly passed
    assert await redis_store.record_failure("brave") == 2
    assert FAILURE_WINDOW * 1000 - 5_000 < redis_client.pttl(key) <= FAILURE_WINDOW * 1000
    redis_client.delete(key)  # what the server does once the window has passed
    assert (await redis_store.reserve_usage("brave", _month(time.time()))).failures == 0
    assert await redis_store.record_failure("brave") == 1


async def test_the_breaker_keeps_its_back_off_across_its_longest_cooldown() -> None:
    """The window is longer than the longest cooldown, and a quiet spell ends the streak."""
    clock = SteppingClock(1_750_000_000.0)
    store = MemoryStore(clock=clock.time)
    ledger = Ledger(store, clock=clock.time)
    longest = FailurePolicy().circuit_max
    cooldowns = []
    for _ in range(10):
        await ledger.record_failure("brave", ProviderUnavailableError("brave", "503"))
        mark = await store.get_mark("brave", clock.now)
        cooldowns.append(0.0 if mark is None else mark.until - clock.now)
        clock.now += cooldowns[-1] + 60  # the next search, a minute after the cooldown
    assert cooldowns[-2:] == [longest, longest]  # still backed off, not back at the start
    clock.now += FAILURE_WINDOW
    await ledger.record_failure("brave", ProviderUnavailableError("brave", "503"))
    assert await store.get_mark("brave", clock.now) is None  # a blip again: forgiven


# -- the SQLite file of the previous schema ---------------------------------------------

_VERSION_2_SCHEMA = """
CREATE TABLE marks (provider TEXT PRIMARY KEY, kind TEXT NOT NULL, until REAL NOT NULL,
    reason TEXT NOT NULL, failures INTEGER NOT NULL, set_at REAL NOT NULL,
    scope TEXT NOT NULL DEFAULT '') WITHOUT ROWID;
CREATE TABLE failures (provider TEXT PRIMARY KEY, count INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE usage (provider TEXT NOT NULL, period TEXT NOT NULL, count INTEGER NOT NULL,
    expires_at REAL NOT NULL, PRIMARY KEY (provider, period)) WITHOUT ROWID;
CREATE TABLE cache (key TEXT PRIMARY KEY, value BLOB NOT NULL, stored_at REAL NOT NULL,
    fresh_until REAL NOT NULL, expires_at REAL NOT NULL);
CREATE INDEX cache_expires_at ON cache (expires_at);
CREATE TABLE rates (provider TEXT PRIMARY KEY, next_at REAL NOT NULL) WITHOUT ROWID;
PRAGMA user_version = 2;
"""


async def test_sqlite_migrates_a_version_two_file(tmp_path: Path) -> None:
    path = tmp_path / "state.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript(_VERSION_2_SCHEMA)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute("INSERT INTO rates VALUES ('brave', ?)", (time.time() + 5.0,))
    conn.execute("INSERT INTO failures VALUES ('brave', 7)")  # from when no window existed
    conn.commit()
    conn.close()
    async with SQLiteStore(path) as migrated:
        wait = await migrated.take_rate_slot("brave", 1.0, 10.0)  # booked as before: kept
        assert wait is not None and 0.0 < wait <= 5.0
        assert await migrated.record_failure("brave") == 1  # an old streak of unknown age
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    conn.close()
