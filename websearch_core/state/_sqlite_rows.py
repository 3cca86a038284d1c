"""The SQLite store's row functions: what runs on a connection, mostly inside a transaction.

Why a module of their own: these functions hold no state of the store's. Each is handed a
connection (and the store's wall clock, ``clock``, read inside the transaction, where the
time a write is judged by must be read), runs :mod:`._sqlite_sql`'s statements, and says
what it found. The store (:mod:`.sqlite`) decides on which connection, in which
transaction and when each runs; the exit's flush of a store never closed
(:func:`._sqlite_orphan.flush_orphaned`) replays journals with the same ones.
"""

import contextlib
import functools
import logging
import sqlite3
from collections.abc import Callable, Sequence
from typing import Final, Protocol, TypeVar, cast

from ._journal import Journal, OwedWrite
from ._pending import Batch
from ._pending_cache import CacheBatch, PendingEntry
from ._seen import AddedCount, ProviderRows
from ._sqlite_sql import (
    ADD_USAGE,
    ALL_PROVIDERS,
    AT_PARAM,
    INCREMENT_USAGE,
    LAST_RESET,
    MOVE_MARK,
    PROVIDER_ROWS,
    REPLAY,
    REPLAY_CACHE,
    USAGE_ROW,
)
from .base import ProviderMark, UsageGrant, UsageWindow

logger = logging.getLogger("websearch_core.state")

_T = TypeVar("_T")

Clock = Callable[[], float]
"""The store's wall clock (``time.time`` as the store reads it), passed in, never read here:
the store's tests step its clock, and every time a row function judges by must be that one."""


class Commit(Protocol):
    """What :func:`in_transaction` is told around its ``COMMIT`` (a ``_sqlite_commit.KeysKept``)."""

    def began(self) -> None:
        """The transaction holds the write lock."""

    def commit(self, conn: sqlite3.Connection) -> None:
        """Run the ``COMMIT``."""


BUSY_CODES: Final = frozenset({sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED})


def in_transaction(
    conn: sqlite3.Connection,
    func: Callable[[sqlite3.Connection], _T],
    kept: Commit | None = None,
) -> _T:
    """``func`` inside ``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back if either raises.

    A ``COMMIT`` that fails can leave the transaction open (and its write lock held): the
    connection's next ``BEGIN`` would fail for good, and a caller putting back what it
    wrote (pending counts) must know that the file does not hold it. With ``kept``, the
    cache's known keys are kept through the commit (see
    :meth:`.sqlite.SQLiteStore._transaction`).
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        if kept is None:
            result = func(conn)
            conn.execute("COMMIT")
        else:
            kept.began()
            result = func(conn)
            kept.commit(conn)
    except BaseException:
        rollback(conn)
        raise
    return result


def write_pending(
    conn: sqlite3.Connection,
    batch: Batch,
    resets: dict[str, float] | None = None,
    *,
    clock: Clock,
    added: dict[tuple[str, str], AddedCount] | None = None,
) -> None:
    """Add each pending count to its counter (inside the caller's transaction).

    Less the increments counted at or before the provider's last reset (see
    :data:`._sqlite_sql.AT_PARAM`): a batch written late (a journal, a flush held behind the
    lock) must not bring back counts a reset cleared. ``resets``: :func:`read_resets`, read
    here if not given. ``added``, when given, gets what was added to each counter, as the SQL was
    given it.
    """
    if not batch:
        return
    wall_now = clock()
    cleared = read_resets(conn, clock) if resets is None else resets
    for (provider, period), entry in batch.items():
        count = entry.count
        if cleared:
            reset_at = last_reset_at(cleared, provider)
            count -= entry.counted_at.made_by(reset_at)
        if count > 0 and entry.expires_at > wall_now:  # an expired one reads as 0
            conn.execute(ADD_USAGE, (provider, period, count, entry.expires_at, wall_now))
            if added is not None:
                added[(provider, period)] = (count, entry.expires_at, wall_now)


def read_resets(conn: sqlite3.Connection, clock: Clock) -> dict[str, float]:
    """When each provider (``''``: every one) was last cleared in the file (see ``resets``).

    A reset the clock now reads as in the future is left out: the clock was set back since
    (a step of NTP's, a suspended machine), and every count made after that reset reads as
    made before it, so the filter would drop them all until the clock caught up; a count
    made before it and written late is kept then, as it was before resets were kept.
    """
    try:
        rows = conn.execute("SELECT provider, at FROM resets WHERE at <= ?", (clock(),))
    except sqlite3.OperationalError:  # a file no store of schema 5 opened: never cleared since
        return {}
    return {str(provider): float(at) for provider, at in rows.fetchall()}


def last_reset_at(resets: dict[str, float], provider: str) -> float:
    """The time of ``provider``'s last reset (its own or every provider's); 0: never."""
    return max(resets.get(provider, 0.0), resets.get(ALL_PROVIDERS, 0.0))


def write_cache_entries(conn: sqlite3.Connection, batch: CacheBatch) -> None:
    """Write cache entries held in memory, oldest first (inside the caller's transaction).

    ``INSERT OR REPLACE`` deletes a key's old row and gives the new one a rowid above every
    other: rowid order stays write order, which the sweep trims by.
    """
    conn.executemany(
        "INSERT OR REPLACE INTO cache (key, value, stored_at, fresh_until, expires_at) "
        "VALUES (?, ?, ?, ?, ?)",
        [
            (key, value, held.stored_at, held.fresh_until, held.expires_at)
            for key, held in batch
            if (value := serialised(held)) is not None
        ],
    )


def serialised(held: PendingEntry) -> bytes | None:
    """``held``'s bytes, or ``None`` (said in the log) when they cannot be made.

    The answer was serialised on the caller's thread, where an error reached the search;
    now it is serialised at the flush, whose counts must not fail with it: the entry is
    dropped (the search is asked again), as a refused cache write is.
    """
    try:
        return held.value()
    except Exception as exc:
        logger.warning("web search result cache entry not written: %s: %s", type(exc).__name__, exc)
        return None


def cache_rows(entries: CacheBatch) -> list[tuple[str, bytes, float, float, float]]:
    """``entries`` as rows to journal or replay (one that cannot be serialised is dropped)."""
    return [
        (key, value, held.stored_at, held.fresh_until, held.expires_at)
        for key, held in entries
        if (value := serialised(held)) is not None
    ]


def replay(conn: sqlite3.Connection, journal: Journal, *, clock: Clock) -> None:
    """Write what ``journal`` holds (inside the caller's transaction).

    See :data:`._sqlite_sql.REPLAY`. What a provider's reset cleared after it was made is not
    written (:data:`._sqlite_sql.AT_PARAM`).
    """
    resets = read_resets(conn, clock)
    write_pending(conn, journal.counts, resets, clock=clock)
    wall_now = clock()
    for key, value, stored_at, fresh_until, expires_at in journal.cache:
        if expires_at > wall_now:
            conn.execute(REPLAY_CACHE[0], (key, stored_at))
            conn.execute(REPLAY_CACHE[1], (key, value, stored_at, fresh_until, expires_at))
    for write in journal.writes:
        replay_write(conn, write, resets, clock=clock)


def replay_write(
    conn: sqlite3.Connection,
    write: OwedWrite,
    resets: dict[str, float] | None = None,
    *,
    clock: Clock,
) -> None:
    """Write one owed write unless its provider was reset after it was made.

    See :data:`._sqlite_sql.AT_PARAM`.

    ``resets``: :func:`read_resets`, read here (when the kind keeps a time) if not given.
    """
    kind, params = write
    statement = REPLAY.get(kind)
    if statement is None:  # a later release's kind of write: not ours to guess
        logger.warning("web search state journal: a write of unknown kind %r skipped", kind)
        return
    at = AT_PARAM.get(kind)
    if at is not None:
        cleared = read_resets(conn, clock) if resets is None else resets
        if cleared and made_before_reset(params, at, cleared):
            return
    conn.execute(statement, params).fetchall()


def reset_since(conn: sqlite3.Connection, provider: str, made: float, *, clock: Clock) -> bool:
    """Whether ``provider`` (or every provider) was reset at or after ``made`` (see ``resets``).

    Why: a cooldown mark or a failure count queued behind the lock of the process that was
    resetting (not journaled: this store stayed open) was written as soon as that reset
    committed, so the reset was followed by the state it had just cleared. Checked inside
    the write's transaction, the write lock held, so no reset can come between. A reset
    the clock reads as in the future is left out, as :func:`read_resets` leaves it.
    """
    row = conn.execute(LAST_RESET, (provider, ALL_PROVIDERS, clock())).fetchone()
    return row is not None and row[0] is not None and made <= float(row[0])


def made_before_reset(
    params: tuple[str | float | int, ...], at: int, resets: dict[str, float]
) -> bool:
    """Whether a journaled write (``params[at]``: its time) came at or before its reset."""
    made = params[at] if len(params) > at else None
    if isinstance(made, str) or made is None or not isinstance(params[0], str):
        return False  # not of the shape its kind writes: its statement says so
    return made <= last_reset_at(resets, params[0])


def is_busy(exc: sqlite3.OperationalError) -> bool:
    return (getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF in BUSY_CODES


def rollback(conn: sqlite3.Connection) -> None:
    # A failed statement may already have ended the transaction (or the file may be too
    # damaged to roll back); the original error is the one worth reporting.
    with contextlib.suppress(sqlite3.Error):
        conn.execute("ROLLBACK")


def current_mark(
    conn: sqlite3.Connection, provider: str, mark: ProviderMark, now: float
) -> ProviderMark | None:
    """``mark`` (active at ``now`` as stored) as :meth:`ProviderMark.as_of` says, saved if moved.

    A mark is moved only after the wall clock stepped back, so the write is rare: it joins
    the caller's transaction, or is one of its own (on the inline connection it never
    waits; busy, the call runs again on the store's thread, which waits its turn).
    """
    moved = mark.as_of(now)
    if moved is not mark:
        params = (moved.until, moved.set_at, provider, mark.until, mark.set_at)
        if conn.in_transaction:
            conn.execute(MOVE_MARK, params)
        else:
            in_transaction(conn, lambda conn: conn.execute(MOVE_MARK, params))
    return moved if moved.is_active(now) else None


def returning_int(conn: sqlite3.Connection, sql: str, params: tuple[object, ...]) -> int:
    # fetchall() steps the statement to completion, which ends its autocommit transaction.
    rows = conn.execute(sql, params).fetchall()
    return int(rows[0][0])


def reserve(
    conn: sqlite3.Connection, *, provider: str, windows: Sequence[UsageWindow], clock: Clock
) -> UsageGrant:
    """The reservation, inside the caller's ``BEGIN IMMEDIATE`` transaction."""
    wall_now = clock()
    row = conn.execute(
        "SELECT count FROM failures WHERE provider = ? AND expires_at > ?", (provider, wall_now)
    )
    failures = int_or_zero(row.fetchone())
    if any(w.limit is not None for w in windows):  # else nothing can refuse: no reads
        found = tuple(live_count(conn, provider, w.period, wall_now) for w in windows)
        refused = any(
            w.limit is not None and n >= w.limit for w, n in zip(windows, found, strict=True)
        )
        if refused:
            return UsageGrant(granted=False, counts=found, failures=failures)
    counts = tuple(
        returning_int(conn, INCREMENT_USAGE, (provider, w.period, w.expires_at, wall_now))
        for w in windows
    )
    return UsageGrant(granted=True, counts=counts, failures=failures)


def give_back(
    conn: sqlite3.Connection, *, provider: str, periods: Sequence[str], clock: Clock
) -> None:
    """Take one from each live counter of ``periods`` (inside the caller's transaction)."""
    wall_now = clock()
    for period in periods:
        conn.execute(
            "UPDATE usage SET count = count - 1 "
            "WHERE provider = ? AND period = ? AND count > 0 AND expires_at > ?",
            (provider, period, wall_now),
        )


def undo_reservation(
    conn: sqlite3.Connection,
    grant: UsageGrant,
    *,
    provider: str,
    windows: Sequence[UsageWindow],
    clock: Clock,
) -> None:
    """Give back the counts of a reservation with a budget that landed after it was given up on.

    Only a reservation with a budget is undone (its callers pass this only then). Given up
    on, it reads as unchecked and its request is not sent (or sent as the last resort,
    said to be uncounted), so its count would be one more than was sent. Without one, the
    fail-safe store grants the request all the same and it is sent: its count, landing
    late, is the right one.
    """
    if not grant.granted:  # refused or marked: nothing was counted
        return
    periods = [w.period for w in windows]
    try:
        give = functools.partial(give_back, provider=provider, periods=periods, clock=clock)
        in_transaction(conn, give)
    except sqlite3.Error as exc:
        logger.warning(
            "web search state: a %s reservation given up on could not be given back; "
            "its budget counts one request more than was sent: %s",
            provider,
            exc,
        )


def read_provider_rows(
    conn: sqlite3.Connection, provider: str, periods: tuple[str, ...]
) -> ProviderRows:
    """Read ``provider``'s mark, failure counter and ``periods``' usage rows, expired or not."""
    row = conn.execute(PROVIDER_ROWS, (provider, periods[0])).fetchall()[0]
    usage: list[tuple[int, float] | None] = [None if row[8] is None else (row[8], row[9])]
    for period in periods[1:]:
        found = conn.execute(USAGE_ROW, (provider, period)).fetchall()
        usage.append(found[0] if found else None)
    mark = None if row[0] is None else row[:6]
    failures = None if row[6] is None else (int(row[6]), float(row[7]))
    return ProviderRows(mark=mark, failures=failures, usage=tuple(usage))


def live_count(conn: sqlite3.Connection, provider: str, period: str, wall_now: float) -> int:
    row = conn.execute(
        "SELECT count FROM usage WHERE provider = ? AND period = ? AND expires_at > ?",
        (provider, period, wall_now),
    ).fetchone()
    return int_or_zero(row)


def int_or_zero(row: tuple[object, ...] | None) -> int:
    return 0 if row is None else int(cast(int, row[0]))
