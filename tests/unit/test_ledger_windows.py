"""Each reservation counts in the month (and budget window) its clock names.

The monthly window is kept between reservations and built again only when the month
changes; these tests move the ledger's clock across month ends, both ways, and read the
counters the store was given.
"""

from datetime import UTC, datetime

from websearch_core.orchestration import Budget, Ledger
from websearch_core.state import MemoryStore


def _at(year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0) -> float:
    return datetime(year, month, day, hour, minute, second, tzinfo=UTC).timestamp()


def _next_month(moment: float) -> tuple[int, int, int]:
    day = datetime.fromtimestamp(moment, UTC)
    return (day.year + 1, 1, 1) if day.month == 12 else (day.year, day.month + 1, 1)


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def test_reservations_count_in_the_month_their_clock_names() -> None:
    store, clock = MemoryStore(), _Clock()
    ledger = Ledger(store, clock=clock)
    for moment in (
        _at(2025, 1, 31, 23, 59, 59),
        _at(2025, 2, 1),
        _at(2025, 2, 28, 12),
        _at(2025, 1, 15),  # a clock set back: the earlier month again
        _at(2025, 3, 1),
    ):
        clock.now = moment
        reservation = await ledger.reserve("brave")
        month = datetime.fromtimestamp(moment, UTC).strftime("month:%Y-%m")
        assert [w.period for w in reservation.windows] == [month]
        assert reservation.windows[0].expires_at > moment
        assert reservation.windows[0].expires_at == _at(*_next_month(moment))


async def test_a_budget_window_rides_beside_the_month() -> None:
    clock = _Clock()
    clock.now = _at(2025, 6, 30, 23, 30)
    ledger = Ledger(MemoryStore(), clock=clock, budgets={"brave": Budget.parse("brave", "5/day")})
    first = await ledger.reserve("brave")
    clock.now = _at(2025, 7, 1, 0, 30)
    second = await ledger.reserve("brave")
    assert [w.period for w in first.windows] == ["month:2025-06", "budget:day:2025-06-30"]
    assert [w.period for w in second.windows] == ["month:2025-07", "budget:day:2025-07-01"]
    assert [w.limit for w in second.windows] == [None, 5]
    assert second.windows[0].expires_at == _at(2025, 8, 1)
