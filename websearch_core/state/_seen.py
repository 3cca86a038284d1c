"""What the SQLite store's inline connection last read for a provider, kept while still true.

Why: a reservation without a cap (no budget, the usual case) reads the provider's cooldown
mark, failure counter and usage counts before every request, and that read is most of the
store's cost per search. The file's wal-index header (:mod:`._wal_index`) changes on
every commit by any connection (another process, another client on the same file, this
store's own thread), as SQLite's ``PRAGMA data_version`` (the fallback) does for every
*other* connection's, both for a fraction of the price of the read. So the rows are kept
raw, with their ``until`` and ``expires_at``, and reused while that state of the file and
the inline connection's own change count are what they were when read: the
conditions that depend on the time are checked again on every use, exactly as the SQL
checks them, so a mark that expired or a counter that ended is never served stale.

The store's own flush of pending counts moves the file too, and searches further apart
than the flush interval each met one: every such search read the rows again (tens of us on
the event loop). The flush knows what it wrote and whether its commit was the only one
between two headers (:class:`FlushedCounts`), so the kept rows follow it instead
(:meth:`SeenRows.follow`): its counts added as its SQL adds them, kept under the header it
left. Any other commit (another process's, another client's) still forgets them.

This module only keeps and judges the rows; when they may be reused is the store's call
(:meth:`SeenRows.check` with everything that must not have moved).
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import cast

from .base import MarkKind, ProviderMark

__all__ = [
    "AddedCount",
    "FlushedCounts",
    "ProviderRows",
    "SeenRows",
    "mark_from_row",
    "mark_row",
]

MarkRow = tuple[object, ...]
"""A ``marks`` row: kind, until, reason, failures, set_at, scope."""
CounterRow = tuple[int, float]
"""A ``usage`` or ``failures`` row: count, expires_at."""
AddedCount = tuple[int, float, float]
"""What a flush added to one usage counter: the count, its ``expires_at``, the flush's clock."""


@dataclass(frozen=True, slots=True)
class ProviderRows:
    """One provider's rows as the file held them, whatever their expiry.

    Attributes:
        mark: The provider's ``marks`` row, active or not; ``None`` when it has none.
        failures: Its ``failures`` row (the consecutive failure counter), ended or not;
            ``None`` when it has none.
        usage: Per period asked for, in that order, its ``usage`` row or ``None``.
    """

    mark: MarkRow | None
    failures: CounterRow | None
    usage: tuple[CounterRow | None, ...]

    def mark_at(self, now: float) -> ProviderMark | None:
        """The mark still active at ``now`` (``until > now``, as the store's queries ask)."""
        row = self.mark
        if row is None or not cast(float, row[1]) > now:
            return None
        return mark_from_row(row)

    def counts_at(self, wall_now: float) -> list[int]:
        """Each period's count still live at ``wall_now`` (``expires_at > wall_now``), else 0."""
        return [_live(row, wall_now) for row in self.usage]

    def failures_at(self, wall_now: float) -> int:
        """The failure counter still live at ``wall_now`` (``expires_at > wall_now``), else 0."""
        return _live(self.failures, wall_now)


def _live(row: CounterRow | None, wall_now: float) -> int:
    """A counter row's count while it lives (``expires_at > wall_now``, as the SQL asks), else 0."""
    return 0 if row is None or not row[1] > wall_now else row[0]


@dataclass(frozen=True, slots=True)
class FlushedCounts:
    """The store's own flush of pending counts, known to be the only commit between two headers.

    Attributes:
        before: The wal-index header read inside the flush's transaction (the write lock
            held, so the last commit's).
        after: The header read after its ``COMMIT``, counting exactly one commit more.
        added: Per ``(provider, period)``, what the flush added to that usage counter.
    """

    before: bytes
    after: bytes
    added: Mapping[tuple[str, str], AddedCount]


def _with_added(row: CounterRow | None, added: AddedCount) -> CounterRow:
    """A usage row after a flush added to it, as the flush's SQL (``_ADD_USAGE``) leaves it.

    No row, or one that ended by the flush's clock, starts again at the count added;
    otherwise the count grows by it. The expiry is the one the flush wrote, either way.
    """
    count, expires_at, wall_now = added
    if row is None or row[1] <= wall_now:
        return (count, expires_at)
    return (row[0] + count, expires_at)


class SeenRows:
    """Provider rows read under one state of the file; forgotten as soon as it may have moved.

    Used only under the inline connection's lock, so it needs no lock of its own.
    """

    def __init__(self) -> None:
        self._tag: tuple[object, ...] | None = None
        self._rows: dict[tuple[str, tuple[str, ...]], ProviderRows] = {}
        self.generation: int | None = None
        """The pending counts' generation the store last looked at (its own to keep)."""

    def check(self, tag: tuple[object, ...]) -> None:
        """Forget everything unless ``tag`` (what must not have moved) is the last one's."""
        if tag != self._tag:
            self._rows.clear()
            self._tag = tag

    def get(self, provider: str, periods: tuple[str, ...]) -> ProviderRows | None:
        """The rows kept for ``provider`` and ``periods`` under the current tag, if any."""
        return self._rows.get((provider, periods))

    def put(self, provider: str, periods: tuple[str, ...], rows: ProviderRows) -> None:
        """Keep ``rows``, read under the current tag."""
        self._rows[(provider, periods)] = rows

    def follow(
        self,
        before: tuple[object, ...],
        after: tuple[object, ...],
        added: Mapping[tuple[str, str], AddedCount],
    ) -> bool:
        """Keep the rows across a commit known to have added ``added`` and nothing else.

        Args:
            before: What must not have moved, as the commit found it; the rows are followed
                only when they were kept under exactly that.
            after: The same as the commit left it: the rows' tag from now on.
            added: What the commit added to each ``(provider, period)`` usage counter.

        Returns:
            Whether the rows now hold what the file holds under ``after``.
        """
        if self._tag is None or self._tag != before:
            return False
        for (provider, periods), rows in list(self._rows.items()):
            usage = tuple(
                row if (add := added.get((provider, period))) is None else _with_added(row, add)
                for period, row in zip(periods, rows.usage, strict=True)
            )
            if usage != rows.usage:
                self._rows[(provider, periods)] = ProviderRows(rows.mark, rows.failures, usage)
        self._tag = after
        return True

    def forget(self) -> None:
        """Forget everything (the file moved, or the connection they were read on is gone)."""
        self._rows.clear()
        self._tag = None
        self.generation = None


def mark_row(provider: str, mark: ProviderMark) -> tuple[str | float | int, ...]:
    """A ``marks`` row's seven columns, ``provider`` first: what a write or a match binds."""
    return (
        provider,
        mark.kind,
        mark.until,
        mark.reason,
        mark.failures,
        mark.set_at,
        mark.scope,
    )


def mark_from_row(row: Sequence[object]) -> ProviderMark:
    """A :class:`ProviderMark` from a ``marks`` row's six columns."""
    kind, until, reason, failures, set_at, scope = row
    return ProviderMark(
        kind=cast(MarkKind, kind),
        until=float(cast(float, until)),
        reason=str(reason),
        failures=int(cast(int, failures)),
        set_at=float(cast(float, set_at)),
        scope=str(scope),
    )
