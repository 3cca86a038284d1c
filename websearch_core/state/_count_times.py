"""When one usage counter's pending counts were made, kept in a bounded space.

Why: a count written late (a journal merged after a ``websearch providers reset``, a flush
held behind another process's lock) must not bring back the counts the reset cleared, so
each count kept its time (stop 39). One float a count grew without bound while the counts
waited: 10,000 counts held 317 KiB of times per counter in memory and 183 KiB in a
journal, and a lock held for an hour under steady searches held millions. Counts are now
kept as runs (first and last time, how many), at most :data:`RUNS_KEPT` of them and as fine
as that allows (:class:`CountTimes`): the space is bounded whatever the count, and so is
the filter's walk.

What that costs is exactness near a reset, under many counts only: a run whose span holds
the reset's time is kept whole, as counts made after the reset would be, which is what
every count was before times were kept.
"""

from __future__ import annotations

from typing import Final

__all__ = ["RUNS_KEPT", "CountTimes"]

RUNS_KEPT: Final = 64
"""Runs kept per counter at most: past that, runs are joined (see :class:`CountTimes`)."""
_FIRST_GRAIN: Final = 0.001
"""The grain (seconds) the first join uses; it doubles each time the runs overflow again."""


class CountTimes:
    """The times of a counter's pending counts, as runs ``[first, last, how many]``.

    Runs are kept in the order they were made (oldest first); a run's ``first`` and
    ``last`` bound the times of its counts. Exact while the counts fit :data:`RUNS_KEPT`
    runs (counts made at the same time share one); past that a grain, doubled each time
    they overflow again, joins neighbouring runs that span no more than it, and a count
    joins the latest run within it. So the space stays bounded and the runs as fine as
    the counts' rate allows: a few counts keep their exact times, 10,000 in half a second
    share runs of some 10 ms. Fewer counts may be timed than the counter holds (those
    from an earlier release's journal, which kept no time).
    """

    __slots__ = ("_grain", "_runs")

    def __init__(self, runs: list[list[float]] | None = None) -> None:
        self._runs: list[list[float]] = [] if runs is None else runs
        self._grain = 0.0
        self._bound()

    def add(self, at: float) -> None:
        """One count made at ``at`` (wall-clock seconds)."""
        runs = self._runs
        if runs:
            latest = runs[-1]
            if latest[0] <= at <= latest[0] + self._grain:
                if at > latest[1]:
                    latest[1] = at
                latest[2] += 1
                return
        runs.append([at, at, 1])
        if len(runs) > RUNS_KEPT:
            self._bound()

    def give_back(self) -> None:
        """Forget the latest count (it was given back before it was written)."""
        runs = self._runs
        if runs:
            runs[-1][2] -= 1
            if runs[-1][2] <= 0:
                runs.pop()

    def extend(self, later: CountTimes) -> None:
        """Add ``later``'s counts, made after these (another journal, counts since)."""
        self._runs.extend([list(run) for run in later._runs])
        self._grain = max(self._grain, later._grain)
        self._bound()

    def copy(self) -> CountTimes:
        """An independent copy (a batch put back must not share runs with memory)."""
        copied = CountTimes([list(run) for run in self._runs])
        copied._grain = self._grain
        return copied

    def timed(self) -> int:
        """How many counts have a time."""
        return int(sum(run[2] for run in self._runs))

    def made_by(self, at: float) -> int:
        """How many counts were surely made at or before ``at`` (a run across it: none of it).

        A run whose span holds ``at`` is kept whole, as counts made after it would be
        (what every count was before times were kept): only a grain's worth of counts.
        """
        return int(sum(run[2] for run in self._runs if run[1] <= at))

    def runs(self) -> list[list[float]]:
        """The runs, for a journal (:mod:`._journal`): ``[first, last, how many]`` each."""
        return [list(run) for run in self._runs]

    def _bound(self) -> None:
        """Join neighbouring runs, the grain doubled each round, until they fit again."""
        while len(self._runs) > RUNS_KEPT:
            self._grain = max(self._grain * 2, _FIRST_GRAIN)
            joined: list[list[float]] = []
            for run in self._runs:
                if joined and _joinable(joined[-1], run, self._grain):
                    kept = joined[-1]
                    kept[0], kept[1] = min(kept[0], run[0]), max(kept[1], run[1])
                    kept[2] += run[2]
                else:
                    joined.append(list(run))
            self._runs = joined


def _joinable(earlier: list[float], later: list[float], grain: float) -> bool:
    """Whether two neighbouring runs together span no more than ``grain`` seconds."""
    return max(earlier[1], later[1]) - min(earlier[0], later[0]) <= grain
