"""The Redis store's ``clear``: everything made before a reset goes with it, atomically.

``clear(provider)`` used to list the provider's usage counters and notes with ``SCAN``
before the transaction that deleted them and recorded the reset's time: a counter another
process created in between (a new period's first reservation) was made before the reset
and survived it. The tests here create one at that moment, from a hook the store's client
runs as its scan ends (no sleep), and check what the reset leaves. They also check that
keys an older release wrote without the index are still cleared, that the index does not
keep the names of expired counters, and that a reset's time is kept for a bounded time.
"""

import asyncio
import contextlib
import threading
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from typing import TYPE_CHECKING, Any

import pytest

from tests.store_threads import until_queued
from websearch_core.state import ProviderMark, UsageWindow

if TYPE_CHECKING:
    from websearch_core.state import RedisStore

HOUR = 3600.0


@pytest.fixture
def prefix() -> str:
    return f"wstest-{uuid.uuid4().hex[:12]}:"


@pytest.fixture
def scan_hooked(redis_url: str, redis_client: Any) -> Any:
    """A redis-py client that runs a test's hook once, as its ``SCAN`` for some keys ends.

    ``hook_after`` names the keys (``"usage:"``, ``"note:"``): the hook runs when the
    listing of those keys is complete, so what it creates is made after their scan.
    ``script_hooks`` maps a script run's number (from 1, counted in ``scripts_run``) to a
    hook run just before it is sent.
    """
    import redis

    class ScanHooked(redis.Redis):
        hook: Callable[[], None] | None = None
        hook_after = ""
        hooked = 0

        scripts_run = 0
        script_hooks: dict[int, Callable[[], None]]

        def scan_iter(self, match: Any = None, *args: Any, **kwargs: Any) -> Iterator[Any]:
            yield from super().scan_iter(match, *args, **kwargs)
            if self.hook is not None and self.hook_after in str(match):
                hook, self.hook = self.hook, None
                hook()
                self.hooked += 1

        def evalsha(self, *args: Any) -> Any:
            # The store's scripts run here: a hook keyed by a run's number runs before it.
            self.scripts_run += 1
            hook = self.script_hooks.pop(self.scripts_run, None)
            if hook is not None:
                hook()
            return super().evalsha(*args)

    client = ScanHooked.from_url(redis_url)
    client.script_hooks = {}
    return client


@pytest.fixture
async def store(scan_hooked: Any, prefix: str) -> AsyncIterator["RedisStore"]:
    """The store that resets; its client runs the test's hook between scan and reset."""
    from websearch_core.state import RedisStore

    async with RedisStore(scan_hooked, prefix=prefix) as opened:
        yield opened


@pytest.fixture
async def other(redis_url: str, prefix: str) -> AsyncIterator["RedisStore"]:
    """Another process's store on the same server and prefix."""
    from websearch_core.state import RedisStore

    async with RedisStore.from_url(redis_url, prefix=prefix) as opened:
        yield opened


def window(period: str, *, limit: int | None = None, ends_in: float = HOUR) -> UsageWindow:
    return UsageWindow(period, time.time() + ends_in, limit=limit)


# -- made between the scan and the reset ------------------------------------------------


async def test_a_counter_made_between_the_scan_and_the_reset_is_cleared(
    store: "RedisStore", other: "RedisStore", scan_hooked: Any
) -> None:
    await store.reserve_usage("brave", (window("month:old"),))

    def new_period_first_reservation() -> None:
        # On the resetting store's thread, which runs no loop: the other store serves any.
        asyncio.run(other.reserve_usage("brave", (window("month:new", limit=5),)))

    scan_hooked.hook, scan_hooked.hook_after = new_period_first_reservation, "usage:"
    await store.clear("brave")
    assert scan_hooked.hooked == 1  # the hook ran: the counter was made after the scan
    assert await store.get_usage("brave", "month:old") == 0
    assert await store.get_usage("brave", "month:new") == 0  # made before the reset: gone


async def test_a_note_made_between_the_scan_and_the_reset_is_cleared(
    store: "RedisStore", other: "RedisStore", scan_hooked: Any
) -> None:
    until = time.time() + HOUR

    def noting() -> None:
        asyncio.run(other.set_note("gemini", "model", "old", until))

    scan_hooked.hook, scan_hooked.hook_after = noting, "note:"
    await store.clear("gemini")
    assert scan_hooked.hooked == 1
    assert await store.get_note("gemini", "model", time.time()) is None


@pytest.mark.parametrize("period", ["month", "budget:day", "budget:minute"])
async def test_a_current_counter_an_older_release_makes_after_the_scan_is_cleared(
    store: "RedisStore", scan_hooked: Any, redis_client: Any, prefix: str, period: str
) -> None:
    """Failed before: an older release indexes nothing, so its window's first count, made
    between the scan and the script, survived the reset. The script now also names the
    counters of the windows around now."""
    from websearch_core.orchestration.quota import usage_periods_near

    [key] = [p for p in usage_periods_near(time.time(), 0.0) if p.startswith(period + ":")]
    counter, elsewhere = f"{prefix}usage:brave:{key}", f"{prefix}usage:exa:{key}"

    def older_release_counts() -> None:
        redis_client.incr(counter)  # INCR with no index entry, as an older release counts
        redis_client.incr(elsewhere)

    scan_hooked.hook, scan_hooked.hook_after = older_release_counts, "usage:"
    await store.clear("brave")
    assert scan_hooked.hooked == 1  # made after the scan
    assert redis_client.exists(counter) == 0
    assert redis_client.get(elsewhere) == b"1"  # another provider's current count: kept


# -- clear_all: made between its scan and its reset --------------------------------------


async def test_clear_all_clears_what_is_made_between_its_scan_and_its_reset(
    store: "RedisStore", other: "RedisStore", scan_hooked: Any, redis_client: Any, prefix: str
) -> None:
    # Before the index of indexes, clear_all deleted what its SCAN listed: a counter, a
    # note, a mark and a failure count another process wrote after that listing, before
    # the reset, all survived it.
    until = time.time() + HOUR
    mark = ProviderMark("rate_limited", until, "429", set_at=time.time())
    await store.reserve_usage("brave", (window("month:old"),))

    async def writing() -> None:
        await other.reserve_usage("brave", (window("month:new", limit=5),))
        await other.set_note("gemini", "model", "old", until)
        await other.set_mark("exa", mark)
        await other.record_failure("brave")

    scan_hooked.hook, scan_hooked.hook_after = lambda: asyncio.run(writing()), "index:"
    await store.clear_all()
    assert scan_hooked.hooked == 1  # the hook ran: all of it was made after every scan
    assert await store.get_usage("brave", "month:old") == 0
    assert await store.get_usage("brave", "month:new") == 0
    assert await store.get_note("gemini", "model", time.time()) is None
    assert await store.get_mark("exa", time.time()) is None
    assert redis_client.get(f"{prefix}failures:brave") is None
    after = await other.reserve_usage("brave", (window("month:new", limit=5),))
    assert after.counts == (1,)  # made after the reset: counted afresh, and kept
    assert await store.get_usage("brave", "month:new") == 1


async def test_clear_all_clears_a_failure_count_and_rate_slot_made_after_its_scan(
    store: "RedisStore", other: "RedisStore", scan_hooked: Any, redis_client: Any, prefix: str
) -> None:
    # A provider with no counter, note or mark had no index: its failure count and rate
    # booking, written by another process after clear_all's SCAN, before its script,
    # survived the reset. Their scripts now index them.
    async def writing() -> None:
        await other.record_failure("tavily")
        assert await other.take_rate_slot("tavily", 60.0, 0.0) == 0.0

    scan_hooked.hook, scan_hooked.hook_after = lambda: asyncio.run(writing()), "index:"
    await store.clear_all()
    assert scan_hooked.hooked == 1  # the hook ran: both were made after every scan
    rate = f"{prefix}rate:tavily"
    assert redis_client.exists(f"{prefix}failures:tavily", rate, f"{rate}:booked_at") == 0
    assert await store.rate_slot_wait("tavily") == 0.0
    assert await other.record_failure("tavily") == 1  # made after the reset: counted afresh


async def test_guard_clear_clears_a_failure_count_and_rate_slot_made_after_its_scan(
    store: "RedisStore", other: "RedisStore", scan_hooked: Any, redis_client: Any, prefix: str
) -> None:
    # clear(provider) names these keys itself: a guard, passing before and after.
    async def writing() -> None:
        await other.record_failure("tavily")
        await other.take_rate_slot("tavily", 60.0, 0.0)

    scan_hooked.hook, scan_hooked.hook_after = lambda: asyncio.run(writing()), "note:"
    await store.clear("tavily")
    assert scan_hooked.hooked == 1
    rate = f"{prefix}rate:tavily"
    assert redis_client.exists(f"{prefix}failures:tavily", rate, f"{rate}:booked_at") == 0


async def test_clear_all_over_its_bound_deletes_in_batches_and_still_clears_everything(
    store: "RedisStore",
    other: "RedisStore",
    scan_hooked: Any,
    redis_client: Any,
    prefix: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # More keys than one run may take: several runs, only the last recording the reset,
    # and a counter re-created between two runs still goes with the reset.
    from websearch_core.state import redis as redis_state

    monkeypatch.setattr(redis_state, "CLEAR_ALL_BATCH", 7)
    providers = ("brave", "exa", "tavily")

    async def filling() -> None:
        for provider in providers:
            for month in range(6):
                await other.reserve_usage(provider, (window(f"month:{month}", limit=9),))
            await other.set_note(provider, "model", "m", time.time() + HOUR)

    reset_before_the_last_run: list[int] = []

    def recreating() -> None:
        reset_before_the_last_run.append(redis_client.exists(f"{prefix}reset"))
        asyncio.run(other.reserve_usage("exa", (window("month:0", limit=9),)))

    scan_hooked.hook, scan_hooked.hook_after = lambda: asyncio.run(filling()), "index:"
    scan_hooked.script_hooks = {2: recreating}  # after the first run, before the second
    redis_client.script_load(store._clear_all_script.script)  # each run: one EVALSHA
    await store.clear_all()
    assert scan_hooked.script_hooks == {}  # the counter was re-created between two runs
    assert scan_hooked.scripts_run >= 4  # 21 indexed keys and 3 providers, 7 a run
    assert reset_before_the_last_run == [0]  # a run that only deletes records nothing
    for provider in providers:
        for month in range(6):
            assert await store.get_usage(provider, f"month:{month}") == 0
        assert await store.get_note(provider, "model", time.time()) is None
    assert redis_client.keys(f"{prefix}index*") == []
    assert redis_client.exists(f"{prefix}reset") == 1


async def test_clear_all_over_its_bound_clears_each_provider_whole_in_one_run(
    store: "RedisStore",
    other: "RedisStore",
    scan_hooked: Any,
    redis_client: Any,
    prefix: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Runs took the indexes' names by rank up to the bound: exa's 3 counters and its 5
    # other keys left 2 of the 10 for brave, whose month counters a reader between the
    # runs then saw half cleared. A run now takes a provider whole or leaves it.
    from websearch_core.state import redis as redis_state

    monkeypatch.setattr(redis_state, "CLEAR_ALL_BATCH", 10)

    async def filling() -> None:  # after the SCAN, which deletes what it finds
        for month in range(3):  # exa's index expires first: the first run takes it
            await other.reserve_usage("exa", (window(f"month:{month}", limit=9),))
        for month in range(4):
            await other.reserve_usage("brave", (window(f"month:{month}", ends_in=2 * HOUR),))
        await other.set_mark("brave", ProviderMark("rate_limited", time.time() + HOUR, "429"))

    between: list[tuple[int, ...]] = []

    def reading() -> None:
        exa = [redis_client.exists(f"{prefix}usage:exa:month:{m}") for m in range(3)]
        brave = [redis_client.exists(f"{prefix}usage:brave:month:{m}") for m in range(4)]
        between.extend([tuple(exa), (*brave, redis_client.exists(f"{prefix}mark:brave"))])

    scan_hooked.hook, scan_hooked.hook_after = lambda: asyncio.run(filling()), "index:"
    scan_hooked.script_hooks = {2: reading}  # after the first run, before the second
    redis_client.script_load(store._clear_all_script.script)  # each run: one EVALSHA
    await store.clear_all()
    assert between == [(0, 0, 0), (1, 1, 1, 1, 1)]  # exa wholly cleared, brave untouched
    for month in range(4):
        assert await store.get_usage("brave", f"month:{month}") == 0
    assert await store.get_mark("brave", time.time()) is None
    assert redis_client.exists(f"{prefix}reset") == 1


async def test_guard_clear_all_clears_what_an_older_release_wrote_and_keeps_the_rest(
    store: "RedisStore", redis_client: Any, prefix: str
) -> None:
    # Keys written with no index (an older release), an index no index of indexes lists
    # (the release before this one): all cleared; the cache and other prefixes kept. A
    # guard: the SCAN found these before the index of indexes too.
    written = [f"{prefix}usage:brave:month:old", f"{prefix}failures:exa", f"{prefix}rate:exa"]
    for key in written:
        redis_client.incr(key)
    redis_client.set(f"{prefix}cache:abc", b"v")
    redis_client.set(f"wstest-elsewhere-{prefix}usage:brave:m", b"1")
    redis_client.zadd(f"{prefix}index:exa", {f"{prefix}note:exa:x": time.time() * 1000 + 60_000})
    await store.clear_all()
    assert redis_client.exists(*written, f"{prefix}index:exa") == 0
    assert redis_client.get(f"{prefix}cache:abc") == b"v"
    assert redis_client.get(f"wstest-elsewhere-{prefix}usage:brave:m") == b"1"
    redis_client.delete(f"wstest-elsewhere-{prefix}usage:brave:m")


# -- kept working ----------------------------------------------------------------------


async def test_guard_keys_an_older_release_wrote_without_the_index_are_cleared(
    store: "RedisStore", redis_client: Any, prefix: str
) -> None:
    # An older release on the same server writes counters and notes with no index entry:
    # the scan still finds them. A guard: it passes before and after the index.
    counter, note = f"{prefix}usage:brave:month:old", f"{prefix}note:brave:model"
    redis_client.incr(counter)
    redis_client.set(note, b'{"text":"t","until":1e12}')
    other_provider = f"{prefix}usage:brave-2:month:old"
    redis_client.incr(other_provider)
    await store.clear("brave")
    assert redis_client.exists(counter, note) == 0
    assert redis_client.get(other_provider) == b"1"  # another provider's: kept


async def test_the_index_forgets_counters_once_they_expire(
    other: "RedisStore", redis_client: Any, prefix: str
) -> None:
    index = f"{prefix}index:brave"
    for day in range(20):  # periods that have ended: their counters are gone at once
        await other.reserve_usage("brave", (window(f"day:{day}", ends_in=-60.0),))
    await other.increment_usage("brave", "day:ended", time.time() - 60.0)
    assert redis_client.zcard(index) == 0
    await other.reserve_usage("brave", (window("month:now"),))
    await other.set_note("brave", "model", "m", time.time() + 60.0)
    names = {bytes(name).decode() for name in redis_client.zrange(index, 0, -1)}
    assert names == {f"{prefix}usage:brave:month:now", f"{prefix}note:brave:model"}
    with redis_client.pipeline(transaction=True) as pipe:
        index_left, counter_left = pipe.pttl(index).pttl(f"{prefix}usage:brave:month:now").execute()
    assert 1_000 <= index_left - counter_left <= 1_010  # gone a second after its last key


async def test_guard_a_foreign_name_in_the_index_is_not_deleted(
    store: "RedisStore", redis_client: Any, prefix: str
) -> None:
    # The keyspace is shared: clear deletes only the provider's own usage and note keys,
    # whatever the index holds. A guard: before the index, nothing read it.
    foreign = f"{prefix}cache:abc"
    redis_client.set(foreign, b"v")
    redis_client.zadd(f"{prefix}index:brave", {foreign: time.time() * 1000 + 60_000})
    await store.clear("brave")
    assert redis_client.get(foreign) == b"v"


# -- how long a reset's time is kept ----------------------------------------------------


@contextlib.asynccontextmanager
async def thread_held(store: "RedisStore") -> AsyncIterator[None]:
    """Hold every thread of the store busy until the block ends: calls queue behind them."""
    release = threading.Event()
    busy = [store._executor.submit(release.wait, 30.0) for _ in range(store._max_workers)]
    try:
        yield
    finally:
        release.set()
        for job in busy:
            job.result(timeout=30.0)


async def test_a_reset_time_is_kept_for_its_window_and_still_drops_a_late_write(
    other: "RedisStore", store: "RedisStore", redis_client: Any, prefix: str
) -> None:
    from websearch_core.state.redis import RESET_KEPT_SECONDS

    kept_ms = RESET_KEPT_SECONDS * 1000
    mark = ProviderMark("rate_limited", time.time() + HOUR, "429", set_at=time.time())
    async with thread_held(other):
        marking = asyncio.ensure_future(other.set_mark("brave", mark))
        await until_queued(other, 1)  # made: queued behind the busy threads
        assert not marking.done()
        await store.clear("brave")
        await store.clear_all()
        for key in (f"{prefix}reset:brave", f"{prefix}reset"):
            assert kept_ms - 60_000 < redis_client.pttl(key) <= kept_ms
            redis_client.pexpire(key, 60_000)  # as if the write came at the window's end
    await marking  # made before the reset, landing within the window: dropped
    assert await other.get_mark("brave", time.time()) is None
