"""The fail-safe wrapper answers a failing reservation neutrally and then leaves the store alone.

What must hold: a reservation through a store that raises ``StateStoreError`` is granted,
unmarked, with a zero count per window (searching matters more than bookkeeping), unless a
window has a limit (a budget): that one is refused as unchecked, nothing counted, so no
budget is spent unseen; the store is not asked again for ``RETRY_AFTER`` seconds, then it
is; one warning per store.
"""

import time
from collections.abc import Sequence

import pytest

from websearch_core.state import MemoryStore, ProviderMark, StateStoreError, UsageWindow, failsafe
from websearch_core.state.base import UsageGrant
from websearch_core.state.failsafe import RETRY_AFTER, FailSafeStore, FreshLookStore


class FlakyStore(MemoryStore):
    """A memory store whose reservations fail while ``broken`` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.broken = True
        self.asked = 0

    async def reserve_unless_marked(
        self, provider: str, windows: Sequence[UsageWindow], now: float
    ) -> UsageGrant:
        self.asked += 1
        if self.broken:
            raise StateStoreError("the disk is gone")
        return await super().reserve_unless_marked(provider, windows, now)


def _windows() -> tuple[UsageWindow, ...]:
    ends = time.time() + 600
    return (UsageWindow("month:test", ends), UsageWindow("budget:test", ends, limit=5))


def _month_only() -> tuple[UsageWindow, ...]:
    return (UsageWindow("month:test", time.time() + 600),)


async def test_a_failing_reservation_is_granted_and_the_store_rested(
    caplog: pytest.LogCaptureFixture,
) -> None:
    inner = FlakyStore()
    clock = [100.0]
    store = FailSafeStore(inner, clock=lambda: clock[0])
    first = await store.reserve_unless_marked("brave", _month_only(), time.time())
    assert (first.granted, first.counts, first.mark, first.failures) == (True, (0,), None, 0)
    assert store.degraded
    inner.broken = False
    await store.reserve_unless_marked("brave", _windows(), time.time())
    assert inner.asked == 1  # bypassed while resting
    clock[0] += RETRY_AFTER + 1
    assert not store.degraded
    again = await store.reserve_unless_marked("brave", _windows(), time.time())
    assert (inner.asked, again.counts) == (2, (1, 1))  # asked again, and counted this time
    warnings = [r for r in caplog.records if r.levelname == "WARNING"]
    assert len(warnings) == 1 and "the disk is gone" in warnings[0].getMessage()


@pytest.mark.parametrize("degraded", [False, True], ids=["failing", "bypassed"])
async def test_a_budget_the_store_cannot_check_is_refused_unchecked(degraded: bool) -> None:
    inner = FlakyStore()
    store = FailSafeStore(inner)
    if degraded:  # a first failure: the store is bypassed and not asked again
        await store.reserve_unless_marked("brave", _month_only(), time.time())
    for reserve in (
        store.reserve_unless_marked("brave", _windows(), time.time()),
        store.reserve_usage("brave", _windows()),
    ):
        grant = await reserve
        assert (grant.granted, grant.unchecked, grant.counts) == (False, True, ())
    unbudgeted = await store.reserve_usage("brave", _month_only())
    assert (unbudgeted.granted, unbudgeted.unchecked) == (True, False)


async def test_a_working_store_answers_through_the_wrapper() -> None:
    inner = FlakyStore()
    inner.broken = False
    store = FailSafeStore(inner)
    now = time.time()
    assert (await store.reserve_unless_marked("brave", _windows(), now)).counts == (1, 1)
    cooldown = ProviderMark("rate_limited", until=now + 60, reason="429 by test")
    await inner.set_mark("brave", cooldown)
    marked = await store.reserve_unless_marked("brave", _windows(), now)
    assert (marked.granted, marked.mark) == (False, cooldown)


class FullCacheStore(MemoryStore):
    """A memory store that refuses cache writes, as Redis at ``maxmemory`` (noeviction) does."""

    async def cache_set(
        self, key: str, value: bytes, *, now: float, ttl: float, keep_stale_for: float
    ) -> None:
        raise StateStoreError("OOM command not allowed when used memory > 'maxmemory'")


async def test_a_refused_cache_write_keeps_the_budgets(caplog: pytest.LogCaptureFixture) -> None:
    store = FailSafeStore(FullCacheStore())
    window = (UsageWindow("budget:test", time.time() + 600, limit=2),)
    grants = []
    for _ in range(3):
        grants.append((await store.reserve_unless_marked("brave", window, time.time())).granted)
        await store.cache_set("k", b"v", now=time.time(), ttl=60, keep_stale_for=60)
    assert not store.degraded
    assert grants == [True, True, False]  # the budget of two still holds
    warnings = [r for r in caplog.records if r.levelname == "WARNING"]
    assert len(warnings) == 1 and "result cache not written" in warnings[0].getMessage()


async def test_guard_the_first_failure_in_a_process_rests_the_store(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Guard (passes before and after ``degraded`` answered from a flag until a failure).

    As in a fresh process, no store has failed yet; the first failure still rests it.
    """
    monkeypatch.setattr(failsafe, "_any_failed", False, raising=False)
    inner = FlakyStore()
    store = FailSafeStore(inner, clock=lambda: 100.0)
    assert not store.degraded
    await store.reserve_unless_marked("brave", _month_only(), time.time())
    assert store.degraded
    inner.broken = False
    await store.reserve_unless_marked("brave", _month_only(), time.time())
    assert inner.asked == 1


async def test_a_fresh_look_asks_a_store_searches_rest_and_gives_up_on_its_own_failure() -> None:
    # The status table's view: a search's failure does not keep it from asking; its own
    # failure makes it stop asking, and makes the searches rest the store as well.
    inner = FlakyStore()
    await FailSafeStore(inner).reserve_unless_marked("brave", _month_only(), time.time())
    assert FailSafeStore(inner).degraded  # a search failed: searches rest the store
    inner.broken = False
    fresh = FreshLookStore(inner)
    asked = await fresh.reserve_unless_marked("brave", _windows(), time.time())
    assert (inner.asked, asked.counts) == (2, (1, 1))  # asked, and counted
    inner.broken = True
    await fresh.reserve_unless_marked("brave", _windows(), time.time())
    inner.broken = False
    after = await fresh.reserve_unless_marked("brave", _windows(), time.time())
    assert (inner.asked, after.unchecked, fresh.degraded) == (3, True, True)
    given_up = FreshLookStore(inner, given_up=True)  # a store known silent: never asked
    await given_up.reserve_unless_marked("brave", _windows(), time.time())
    assert inner.asked == 3
