"""An engine skipped for its mark says when the mark ends, date and all, when it fits.

The engines' summary (Public Web's failure, its note of engines that did not answer) gave
a hold ending within a day as a time of day alone: ``rate limited until 00:10:00 UTC``
read at 23:50 said neither which day nor that it was ten minutes away, where the mark's
own sentence gives the whole date. The date is dropped only from a list that would not
fit in what a mark keeps with it.
"""

import pytest

from websearch_core.orchestration.engine_failures import engines_failed_text
from websearch_core.orchestration.ledger import Ledger, ProviderSkippedError
from websearch_core.providers import get_provider
from websearch_core.state import MemoryStore
from websearch_core.state.base import ProviderMark

NOW = 1_767_224_400.0
"""2025-12-31 23:40:00 UTC: the marks below end after midnight."""


async def _skip(engine: str, until: float) -> ProviderSkippedError:
    """The ledger's own skip of ``engine``, marked rate limited until ``until``."""
    store = MemoryStore()
    await store.set_mark(engine, ProviderMark(kind="rate_limited", until=until, reason="429"))
    skip = await Ledger(store, clock=lambda: NOW).skip_reason(get_provider(engine).info)
    assert skip is not None
    return skip


async def test_a_hold_ends_with_its_whole_date_when_the_summary_fits() -> None:
    bing = await _skip("bing", NOW + 1800)
    text = engines_failed_text([("bing", bing), ("yahoo", None)], room=300)
    assert text == (
        "bing: rate limited until 2026-01-01 00:10:00 UTC, not asked; "
        "yahoo: cut off at the deadline"
    )
    # Without a bound (a note of the answer), it always fits.
    assert engines_failed_text([("bing", bing)]) == (
        "bing: rate limited until 2026-01-01 00:10:00 UTC, not asked"
    )


@pytest.mark.parametrize("room", [60, 100])
async def test_only_a_summary_too_long_with_the_dates_gives_times_of_day(room: int) -> None:
    failures = [
        ("bing", await _skip("bing", NOW + 1800)),
        ("yahoo", await _skip("yahoo", NOW + 1860)),
    ]
    dated = (
        "bing: rate limited until 2026-01-01 00:10:00 UTC, not asked; "
        "yahoo: rate limited until 2026-01-01 00:11:00 UTC, not asked"
    )
    short = (
        "bing: rate limited until 00:10:00 UTC, not asked; "
        "yahoo: rate limited until 00:11:00 UTC, not asked"
    )
    assert engines_failed_text(failures, room=len(dated)) == dated
    assert engines_failed_text(failures, room=room) == short
