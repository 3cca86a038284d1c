"""A budget the store cannot check: skipped by default, granted uncounted for the last resort.

What must hold: through a broken store a budgeted reservation raises
``BudgetUncheckedError`` (a ``ProviderSkippedError``, so every caller that skips still
skips); with ``accept_unchecked`` it is granted with nothing counted and nothing to give
back, its ``uncounted`` note says why, and one warning of the state's logger says it. A
store that answers counts as ever, ``accept_unchecked`` or not.
"""

import logging
from collections.abc import Sequence

import pytest

from websearch_core.orchestration.last_resort import awaits_last_resort
from websearch_core.orchestration.ledger import (
    BudgetUncheckedError,
    Ledger,
    ProviderSkippedError,
)
from websearch_core.orchestration.quota import Budget
from websearch_core.state import MemoryStore, StateStoreError, UsageWindow
from websearch_core.state.base import UsageGrant
from websearch_core.state.failsafe import FailSafeStore

NOTE = (
    "Brave budget of 5/day not checked (state store unavailable); asked as the last resort, "
    "the request uncounted."
)


class BrokenStore(MemoryStore):
    """A memory store whose every reservation and release fails, and says so."""

    def __init__(self) -> None:
        super().__init__()
        self.broken = True
        self.released = 0

    async def reserve_unless_marked(
        self, provider: str, windows: Sequence[UsageWindow], now: float
    ) -> UsageGrant:
        if self.broken:
            raise StateStoreError("the disk is gone")
        return await super().reserve_unless_marked(provider, windows, now)

    async def reserve_usage(self, provider: str, windows: Sequence[UsageWindow]) -> UsageGrant:
        if self.broken:
            raise StateStoreError("the disk is gone")
        return await super().reserve_usage(provider, windows)

    async def release_usage(self, provider: str, windows: Sequence[UsageWindow]) -> None:
        self.released += 1
        await super().release_usage(provider, windows)


def _ledger(inner: MemoryStore) -> Ledger:
    return Ledger(FailSafeStore(inner), budgets={"brave": Budget(limit=5, period="day")})


@pytest.mark.parametrize("skip_marked", [False, True])
async def test_an_unchecked_budget_is_a_skip_unless_accepted(skip_marked: bool) -> None:
    with pytest.raises(BudgetUncheckedError) as raised:
        await _ledger(BrokenStore()).reserve("brave", skip_marked=skip_marked)
    assert isinstance(raised.value, ProviderSkippedError)
    assert awaits_last_resort(raised.value)


async def test_an_accepted_unchecked_budget_is_granted_uncounted(
    caplog: pytest.LogCaptureFixture,
) -> None:
    inner = BrokenStore()
    ledger = _ledger(inner)
    caplog.set_level(logging.WARNING, logger="websearch_core.state")
    reservation = await ledger.reserve("brave", skip_marked=True, accept_unchecked=True)
    assert (reservation.uncounted, reservation.windows) == (NOTE, ())
    await ledger.release(reservation)
    assert inner.released == 0  # nothing was counted, so nothing is given back
    said = [r.getMessage() for r in caplog.records if r.name == "websearch_core.state"]
    assert said.count(NOTE) == 1


async def test_a_working_store_counts_an_accepted_reservation() -> None:
    inner = BrokenStore()
    inner.broken = False
    reservation = await _ledger(inner).reserve("brave", accept_unchecked=True)
    assert reservation.uncounted is None
    assert [w.period.split(":")[0] for w in reservation.windows] == ["month", "budget"]
    assert await inner.get_usage("brave", reservation.windows[-1].period) == 1


def test_a_spent_budget_or_another_failure_does_not_wait_for_the_last_resort() -> None:
    spent = ProviderSkippedError("brave", "Brave budget of 5/day is spent (5 used).")
    assert not awaits_last_resort(spent)
    assert not awaits_last_resort(StateStoreError("the disk is gone"))
