"""``Deadline.expired`` says what ``remaining()`` says, read on the same clock."""

import math

import pytest

from websearch_core.deadline import Deadline


class _Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize("seconds", [0.0, 1e-9, 0.5, 30.0, math.inf, -1.0, math.nan])
def test_expired_is_remaining_at_zero_on_every_side_of_the_expiry(seconds: float) -> None:
    """Guard: expired exactly when nothing remains, at, before and after the expiry.

    The property reads the clock once instead of asking ``remaining()``; it must agree
    with it at the boundary itself, just either side of it, and for a deadline of no
    time, of a negative time, of infinite time and of NaN (``remaining()`` is 0 for NaN).
    Fails on ``self._clock() >= self.expires_at`` (NaN) and on ``<`` for ``<=``.
    """
    clock = _Clock(100.0)
    deadline = Deadline(seconds, clock=clock)
    moments = [100.0, 99.0, 100.0 + seconds, 101.0, 1e12]
    if math.isfinite(seconds):
        moments += [math.nextafter(100.0 + seconds, -math.inf)]
        moments += [math.nextafter(100.0 + seconds, math.inf)]
    for moment in moments:
        clock.now = moment
        assert deadline.expired is (deadline.remaining() <= 0.0), moment
