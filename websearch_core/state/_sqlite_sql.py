"""The SQL texts the SQLite store runs, as data: one name for each statement it reuses.

Why a module of their own: the statements are the store's contract with the file (which
rows a write may replace, which a journal merged late may not), and they read best side by
side, apart from the Python that decides when each runs (:mod:`.sqlite`). Each text's
docstring says what its parameters are and why it is written the way it is.
"""

from typing import Final

__all__ = [
    "ACTIVE_MARK",
    "ADD_USAGE",
    "ALL_PROVIDERS",
    "AT_PARAM",
    "CACHE_ROW",
    "CLEAR_UNCHANGED",
    "INCREMENT_USAGE",
    "LAST_RESET",
    "LIVE_FAILURES",
    "MOVE_MARK",
    "PROVIDER_ROWS",
    "RECORD_FAILURE",
    "RECORD_RESET",
    "REPLAY",
    "REPLAY_CACHE",
    "TRIM_CACHE",
    "USAGE_ROW",
]

CACHE_ROW: Final = "SELECT value, stored_at, fresh_until, expires_at FROM cache WHERE key = ?"

INCREMENT_USAGE: Final = """
INSERT INTO usage (provider, period, count, expires_at) VALUES (?, ?, 1, ?)
ON CONFLICT (provider, period) DO UPDATE SET
    count = CASE WHEN usage.expires_at <= ? THEN 1 ELSE usage.count + 1 END,
    expires_at = excluded.expires_at
RETURNING count
"""

ADD_USAGE: Final = """
INSERT INTO usage (provider, period, count, expires_at) VALUES (?1, ?2, ?3, ?4)
ON CONFLICT (provider, period) DO UPDATE SET
    count = CASE WHEN usage.expires_at <= ?5 THEN ?3 ELSE usage.count + ?3 END,
    expires_at = excluded.expires_at
"""
"""``INCREMENT_USAGE`` by ``?3`` at once: a flush of pending counts."""

PROVIDER_ROWS: Final = """
SELECT m.kind, m.until, m.reason, m.failures, m.set_at, m.scope,
    f.count, f.expires_at, u.count, u.expires_at
FROM (SELECT 1)
LEFT JOIN marks AS m ON m.provider = ?1
LEFT JOIN failures AS f ON f.provider = ?1
LEFT JOIN usage AS u ON u.provider = ?1 AND u.period = ?2
"""
"""What a reservation without a cap reads, in one row and whatever its expiry (see
:class:`._seen.ProviderRows`): the mark (all ``NULL`` when none), the ``failures`` row and
the ``usage`` row of period ``?2``."""

USAGE_ROW: Final = "SELECT count, expires_at FROM usage WHERE provider = ? AND period = ?"

ACTIVE_MARK: Final = (
    "SELECT kind, until, reason, failures, set_at, scope FROM marks "
    "WHERE provider = ? AND until > ?"
)

TRIM_CACHE: Final = (
    "DELETE FROM cache WHERE rowid IN (SELECT rowid FROM cache ORDER BY rowid LIMIT ?)"
)
"""Delete the ``?`` entries written first. A write (``INSERT OR REPLACE``, which deletes
the old row) takes a rowid above every other, so rowid order is write order, as in the
memory store, whatever the clocks said. Walking from the oldest end reads only the rows
it deletes (counting the rest from the end would read every entry's page)."""

MOVE_MARK: Final = (
    "UPDATE marks SET until = ?, set_at = ? WHERE provider = ? AND until = ? AND set_at = ?"
)
"""Save a mark moved after a clock step (:meth:`ProviderMark.as_of`), unless it was replaced."""

CLEAR_UNCHANGED: Final = (
    "DELETE FROM marks WHERE provider = ?1 AND kind = ?2 AND until = ?3 AND reason = ?4 "
    "AND failures = ?5 AND set_at = ?6 AND scope = ?7"
)
"""Remove a provider's mark only if every column is still the one read (compare-and-clear)."""

RECORD_FAILURE: Final = """
INSERT INTO failures (provider, count, expires_at) VALUES (?1, 1, ?2 + ?3)
ON CONFLICT (provider) DO UPDATE SET
    count = CASE WHEN failures.expires_at <= ?2 THEN 1 ELSE failures.count + 1 END,
    expires_at = excluded.expires_at
RETURNING count
"""
"""One more failure (``?2``: the wall clock, ``?3``: :data:`.base.FAILURE_WINDOW`): a counter
whose window ended starts again at 1, as an expired usage counter does."""

REPLAY: Final = {
    "mark": (
        "INSERT INTO marks (provider, kind, until, reason, failures, set_at, scope) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (provider) DO UPDATE SET "
        "kind = excluded.kind, until = excluded.until, reason = excluded.reason, "
        "failures = excluded.failures, set_at = excluded.set_at, scope = excluded.scope "
        "WHERE excluded.set_at >= marks.set_at"
    ),
    "clear": "DELETE FROM marks WHERE provider = ? AND set_at <= ?",
    "clear-unchanged": CLEAR_UNCHANGED,
    "failure": RECORD_FAILURE,
    "forgive": "DELETE FROM failures WHERE provider = ?1 AND expires_at <= ?2 + ?3",
    "slot": (
        "INSERT INTO rates (provider, next_at, booked_at) VALUES (?1, ?2, ?3) "
        "ON CONFLICT (provider) DO UPDATE SET next_at = excluded.next_at, "
        "booked_at = excluded.booked_at WHERE excluded.next_at > rates.next_at"
    ),
    "note": "INSERT OR REPLACE INTO notes (provider, name, text, until) VALUES (?, ?, ?, ?)",
    "dated-note": (
        "INSERT OR REPLACE INTO notes (provider, name, text, until) "
        "SELECT ?1, ?2, ?3, ?4 WHERE ?5 IS NOT NULL"
    ),
}
"""How each write a journal holds (:data:`._journal.OwedWrite`) is replayed, by its kind.

A journal is merged late, after other processes may have written: a mark replayed does
not replace one set after it, a clear does not delete one set after the clear, and a
compare-and-clear (``"clear-unchanged"``) deletes only the very mark it read; a failure
counts at the time it happened (its window may have ended since), and a failure count
forgiven (``?2``: when, ``?3``: :data:`.base.FAILURE_WINDOW`) is kept when its last failure came
after the forgiveness (its window ends later). A rate slot booked (``?2``:
one interval after it was asked for, ``?3``: then) only ever pushes the next free slot
later: one merged after its interval ended changes nothing. A note is journaled as a
``"dated-note"``, with when it was made (``?5``, read by the reset filter, :data:`AT_PARAM`);
``"note"``, without it, is what earlier releases journaled (its own kind, so that an earlier
release merging a later one's journal skips the note it cannot read instead of failing)."""

AT_PARAM: Final = {"mark": 5, "failure": 1, "slot": 2, "dated-note": 4}
"""Which parameter of a journaled write (by its kind) says when it was made.

A close behind another process's lock journals what it still owes, and that may come after
a ``websearch providers reset`` that cleared the provider in the file: merged later, the
counts, cooldown marks, failure counts and rate slots made *before* the reset came back
after it. The file keeps when each provider was cleared (``resets``), and what was made
at or before that time is not written: a usage count by its own time
(:attr:`._pending.Pending.counted_at`), a write by this parameter. The other kinds set
nothing a reset would have cleared (a forgiveness, a clear), or keep no time (an earlier
release's ``"note"``). A note, a cooldown mark and a failure count are filtered when they are
written too (:meth:`.sqlite.SQLiteStore.set_note`, :func:`.sqlite._reset_since`): queued
behind the lock of the process that was resetting, they landed after the reset."""

ALL_PROVIDERS: Final = ""
"""The ``resets`` row of ``websearch providers reset --all`` (no provider id is empty)."""

RECORD_RESET: Final = "INSERT OR REPLACE INTO resets (provider, at) VALUES (?, ?)"

LAST_RESET: Final = "SELECT max(at) FROM resets WHERE provider IN (?, ?) AND at <= ?"
"""When a provider (``?1``) or every provider (``?2``) was last reset, up to now (``?3``)."""

LIVE_FAILURES: Final = "SELECT count FROM failures WHERE provider = ? AND expires_at > ?"

REPLAY_CACHE: Final = (
    "DELETE FROM cache WHERE key = ? AND stored_at < ?",
    "INSERT OR IGNORE INTO cache (key, value, stored_at, fresh_until, expires_at) "
    "VALUES (?, ?, ?, ?, ?)",
)
"""A journaled cache entry replaces an older one of its key, never a newer one."""
