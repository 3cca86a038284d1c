"""The ledger's re-check of a spent prepaid balance, on a memory store with a set clock.

Which mark a re-check's success clears is tried on every backend (memory, SQLite, Redis):
the ledger reads the mark back from the store, and clears only that one (the store's
compare-and-clear), even when another search marks the provider between the two steps.
"""

import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from websearch_core.errors import CreditsSpentError, ProviderTimeoutError
from websearch_core.ledger import Ledger, ProviderSkippedError
from websearch_core.orchestration.credit_probe import CREDIT_RECHECK_SECONDS
from websearch_core.state.base import MemoryStore, ProviderMark, StateStore
from websearch_core.state.redis import RedisStore
from websearch_core.state.sqlite import SQLiteStore

PROVIDER = "anthropic"


class Clock:
    """Epoch seconds that move only when a test says so."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


@pytest.fixture(params=["memory", "sqlite", "redis"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[StateStore]:
    """An empty store of each backend."""
    if request.param == "memory":
        yield MemoryStore()
        return
    if request.param == "sqlite":
        async with SQLiteStore(tmp_path / "state.db") as sqlite:
            yield sqlite
        return
    client: Any = request.getfixturevalue("redis_client")
    async with RedisStore(client) as redis:
        yield redis


def _spent() -> CreditsSpentError:
    return CreditsSpentError(PROVIDER, "Anthropic API error (400): credit balance too low", 400)


async def _spent_and_due(store: StateStore, clock: Clock) -> Ledger:
    ledger = Ledger(store, clock=clock)
    await ledger.record_failure(PROVIDER, _spent())
    with pytest.raises(ProviderSkippedError):  # before the wait: skipped as ever
        await ledger.reserve(PROVIDER, skip_marked=True)
    clock.now += CREDIT_RECHECK_SECONDS
    return ledger


async def test_an_unsent_probe_is_given_back_for_another_search() -> None:
    store, clock = MemoryStore(), Clock()
    ledger = await _spent_and_due(store, clock)
    probe = await ledger.reserve(PROVIDER, skip_marked=True)
    assert probe.probing is not None
    other = Ledger(store, clock=clock)
    with pytest.raises(ProviderSkippedError):  # claimed: one probe at a time
        await other.reserve(PROVIDER, skip_marked=True)
    await ledger.release(probe)  # never sent (no connection, or cancelled)
    again = await other.reserve(PROVIDER, skip_marked=True)
    assert again.probing is not None


async def test_a_probe_that_times_out_renews_the_mark_for_another_wait() -> None:
    store, clock = MemoryStore(), Clock()
    ledger = await _spent_and_due(store, clock)
    await ledger.reserve(PROVIDER, skip_marked=True)
    await ledger.record_failure(PROVIDER, ProviderTimeoutError(PROVIDER, "timed out"))
    mark = await store.get_mark(PROVIDER, clock.now)
    assert mark is not None and mark.kind == "exhausted" and mark.set_at == clock.now
    clock.now += CREDIT_RECHECK_SECONDS - 1
    with pytest.raises(ProviderSkippedError):
        await Ledger(store, clock=clock).reserve(PROVIDER, skip_marked=True)
    clock.now += 1
    renewed = await Ledger(store, clock=clock).reserve(PROVIDER, skip_marked=True)
    assert renewed.probing is not None


async def test_a_probe_answered_clears_the_mark() -> None:
    store, clock = MemoryStore(), Clock()
    ledger = await _spent_and_due(store, clock)
    await ledger.reserve(PROVIDER, skip_marked=True)
    assert ledger.owes_forgiveness(PROVIDER)  # the chain bounds the write that follows
    await ledger.record_success(PROVIDER)
    assert await store.get_mark(PROVIDER, clock.now) is None


async def _forced_past_the_mark(store: StateStore, clock: Clock) -> Ledger:
    """A forced request sent past a spent balance's mark (no re-check due)."""
    ledger = Ledger(store, clock=clock)
    await ledger.record_failure(PROVIDER, _spent())
    clock.now += 1
    await ledger.reserve(PROVIDER)  # forced: sent past the credit mark
    return ledger


async def _probing(store: StateStore, clock: Clock) -> Ledger:
    """The one request re-checking a mark six hours old."""
    ledger = await _spent_and_due(store, clock)
    probe = await ledger.reserve(PROVIDER, skip_marked=True)
    assert probe.probing is not None
    return ledger


@pytest.mark.parametrize("recheck", [_forced_past_the_mark, _probing], ids=["forced", "probe"])
async def test_a_recheck_success_keeps_a_mark_another_search_set_meanwhile(
    store: StateStore, recheck: Callable[[StateStore, Clock], Awaitable[Ledger]]
) -> None:
    """The re-check was sent past the old mark; another search's refusal came later."""
    clock = Clock()
    ledger = await recheck(store, clock)
    clock.now += 1
    await Ledger(store, clock=clock).record_failure(PROVIDER, _spent())  # another search
    newer = await store.get_mark(PROVIDER, clock.now)
    clock.now += 1
    await ledger.record_success(PROVIDER)
    assert await store.get_mark(PROVIDER, clock.now) == newer


def _newer_mark_after_the_next_read(
    store: StateStore, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> list[ProviderMark]:
    """Another search's refusal lands just after the store's next read of the mark.

    A hook on the store instance, not on the ledger: the next ``get_mark`` (the ledger's
    read-back before it clears) returns what the store held, and then a second ledger
    on the same store records a spent balance, as another task or process would, before
    the ledger goes on to clear. Returns the newer mark once it has been set.
    """
    newer: list[ProviderMark] = []
    read = store.get_mark

    async def read_then_remark(provider: str, now: float) -> ProviderMark | None:
        monkeypatch.setattr(store, "get_mark", read)  # only the first read
        held = await read(provider, now)
        clock.now += 1
        await Ledger(store, clock=clock).record_failure(PROVIDER, _spent())
        set_since = await read(provider, clock.now)
        assert set_since is not None and set_since != held
        newer.append(set_since)
        return held

    monkeypatch.setattr(store, "get_mark", read_then_remark)
    return newer


@pytest.mark.parametrize("recheck", [_forced_past_the_mark, _probing], ids=["forced", "probe"])
async def test_a_recheck_success_keeps_a_mark_set_between_its_read_and_its_clear(
    store: StateStore,
    recheck: Callable[[StateStore, Clock], Awaitable[Ledger]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The old mark is read back (set before the re-check began), then replaced: kept."""
    clock = Clock()
    ledger = await recheck(store, clock)
    clock.now += 1
    newer = _newer_mark_after_the_next_read(store, clock, monkeypatch)
    await ledger.record_success(PROVIDER)
    assert len(newer) == 1  # the ledger read the mark back, and the newer one came after
    assert await store.get_mark(PROVIDER, clock.now) == newer[0]


async def test_guard_a_forced_success_clears_the_mark_it_was_sent_past(store: StateStore) -> None:
    """Guard (passes before and after): with no newer mark the old one is cleared."""
    clock = Clock()
    ledger = Ledger(store, clock=clock)
    await ledger.record_failure(PROVIDER, _spent())
    clock.now += 1
    await ledger.reserve(PROVIDER)
    clock.now += 1
    await ledger.record_success(PROVIDER)
    assert await store.get_mark(PROVIDER, clock.now) is None
