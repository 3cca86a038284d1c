"""The state stores when the wall clock steps back, and how long their counters last.

A wall clock is not monotonic: an NTP correction or a resumed virtual machine can set it
back by minutes or hours. Before, a rate booking made just before such a step lay "an
hour ahead" of every later request, which the store refused for that hour. The rule now,
the same in memory, SQLite and Redis: a booking never lies further ahead of now than it
lay ahead of the moment it was made.

The memory store takes its clock as an argument; the SQLite store reads ``time.time`` of
its module, which the tests replace (as in ``test_state_seen``); Redis books on the
server's clock, which a test cannot move: there a booking is written as one made before
the server's clock stepped back would be.
"""

import sqlite3
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.redis_server import unavailable
from websearch_core.state import MemoryStore, SQLiteStore, StateStore, open_store
from websearch_core.state.sqlite import APPLICATION_ID

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
def redis_client(redis_url: str) -> Iterator[Any]:
    try:
        import redis
    except ImportError:
        unavailable("the redis package is not installed")
    client = redis.Redis.from_url(redis_url)
    yield client
    client.close()


@pytest.fixture
async def redis_store(redis_url: str, redis_client: Any) -> AsyncIterator["RedisStore"]:
    from websearch_core.state import RedisStore

    prefix = f"wstest-{uuid.uuid4().hex[:12]}:"
    async with open_store(redis_url=redis_url, sqlite_path=None, redis_prefix=prefix) as store:
        assert isinstance(store, RedisStore)
        yield store


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
    assert wait is not None and wait == pytest.approx(2.0, abs=0.25)  # the queue, not the hour


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
    assert wait is not None and wait == pytest.approx(5.0, abs=0.25)


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
    conn.commit()
    conn.close()
    async with SQLiteStore(path) as migrated:
        wait = await migrated.take_rate_slot("brave", 1.0, 10.0)  # booked as before: kept
        assert wait is not None and wait == pytest.approx(5.0, abs=0.25)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 3
    conn.close()
