"""The SQLite store's schema, and the checks that a file is ours before anything writes it.

Why a module of their own: what the file holds (its tables, its version, the stamp that it
is a websearch-tools file) is a contract with every release that opens it, older and newer,
and it changes on its own schedule (one version a table or a column). The store
(:mod:`.sqlite`) runs these when it opens the file: a database that is not ours is refused
rather than written into, a newer release's is left alone, a damaged one is told apart so
that ``websearch providers reset --all`` can move it aside.
"""

import errno
import sqlite3
from typing import Final

from ._sqlite_rows import rollback

SCHEMA_VERSION: Final = 5
APPLICATION_ID: Final = 0x57534854  # "WSHT": marks the file as a websearch-tools state file

SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS marks (
    provider TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    until REAL NOT NULL,
    reason TEXT NOT NULL,
    failures INTEGER NOT NULL,
    set_at REAL NOT NULL,
    scope TEXT NOT NULL DEFAULT ''
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS failures (
    provider TEXT PRIMARY KEY,
    count INTEGER NOT NULL,
    expires_at REAL NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS usage (
    provider TEXT NOT NULL,
    period TEXT NOT NULL,
    count INTEGER NOT NULL,
    expires_at REAL NOT NULL,
    PRIMARY KEY (provider, period)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS cache (
    key TEXT PRIMARY KEY,
    value BLOB NOT NULL,
    stored_at REAL NOT NULL,
    fresh_until REAL NOT NULL,
    expires_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS cache_expires_at ON cache (expires_at);
CREATE TABLE IF NOT EXISTS rates (
    provider TEXT PRIMARY KEY,
    next_at REAL NOT NULL,
    booked_at REAL NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS notes (
    provider TEXT NOT NULL,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    until REAL NOT NULL,
    PRIMARY KEY (provider, name)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS resets (
    provider TEXT PRIMARY KEY,
    at REAL NOT NULL
) WITHOUT ROWID;
"""
"""Version 4 added ``notes`` (:meth:`.sqlite.SQLiteStore.set_note`), version 5 ``resets``
(when each provider, or ``''`` every provider, was last cleared: see
:data:`._sqlite_sql.AT_PARAM`); a table an older file lacks is created whole."""


ADDED_COLUMNS: Final = (
    ("marks", "scope", "TEXT NOT NULL DEFAULT ''"),  # version 2
    ("rates", "booked_at", "REAL NOT NULL DEFAULT 0"),  # version 3
    ("failures", "expires_at", "REAL NOT NULL DEFAULT 0"),  # version 3: older counts ended
)
"""Columns a later schema version added to a table an older one has: (table, column, type).

``ALTER TABLE ... ADD COLUMN`` brings an older file's table up to date; a table the file
lacks altogether is created whole by :data:`SCHEMA`."""


OUR_TABLES: Final = frozenset({"marks", "failures", "usage", "cache", "rates", "notes", "resets"})


CORRUPT_CODES: Final = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB})


def check_ours(conn: sqlite3.Connection) -> None:
    """Refuse a database that belongs to someone else or to a newer release.

    Writing our tables into another program's database would damage it; a newer schema
    may mean something else by the same columns.
    """
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if app_id not in (0, APPLICATION_ID):
        raise ForeignDatabaseError(f"not a websearch-tools state file (application_id {app_id})")
    if version > SCHEMA_VERSION:
        raise NewerSchemaError(
            f"state schema version {version} is newer than this release supports "
            f"({SCHEMA_VERSION}); upgrade websearch-tools or use another state file"
        )
    tables = {
        str(row[0])
        for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        if not str(row[0]).startswith("sqlite_")
    }
    if (version == 0 and tables) or not tables <= OUR_TABLES:
        raise ForeignDatabaseError(
            "not a websearch-tools state file (it holds other tables: "
            f"{', '.join(sorted(tables - OUR_TABLES) or sorted(tables))})"
        )


def check_ours_at_once(conn: sqlite3.Connection) -> int:
    """:func:`check_ours` reading one snapshot of the file; its schema version (``0``: new).

    Another process may be creating the schema meanwhile. Read statement by statement,
    its tables could appear between the version and the table list: ours without our
    version, which reads as someone else's database, and that file is moved aside. In one
    read transaction the creation waits for the check, or the check sees all of it.
    """
    conn.execute("BEGIN")
    try:
        check_ours(conn)
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        rollback(conn)  # nothing was written: only the snapshot ends


class NewerSchemaError(sqlite3.DatabaseError):
    """Written by a newer release: left alone, never moved aside."""


class ForeignDatabaseError(sqlite3.DatabaseError):
    """A well-formed database that is not ours: as bad as a corrupt one for our purposes."""


def is_corruption(exc: BaseException) -> bool:
    """Whether ``exc`` means the file itself is unusable (only moving it aside helps)."""
    if isinstance(exc, NewerSchemaError):
        return False
    if isinstance(exc, ForeignDatabaseError | IsADirectoryError | NotADirectoryError):
        return True
    if isinstance(exc, OSError) and exc.errno == errno.ELOOP:  # a symlink pointing at itself
        return True
    if isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError):
        code = getattr(exc, "sqlite_errorcode", None)
        return code is None or code & 0xFF in CORRUPT_CODES
    if isinstance(exc, sqlite3.OperationalError):
        code = getattr(exc, "sqlite_errorcode", 0) or 0
        return code & 0xFF in CORRUPT_CODES
    return isinstance(exc, ValueError | TypeError)  # a row that cannot be ours


def migrate(conn: sqlite3.Connection) -> None:
    """Bring an older file (or a new, empty one) to :data:`SCHEMA_VERSION`, in one transaction.

    Two processes opening a new file at once both get here: ``BEGIN IMMEDIATE`` makes one
    wait for the other, which it then finds done. Columns a later version added to an
    older table are added first (:data:`ADDED_COLUMNS`), then tables it lacks are created.
    """
    conn.execute("BEGIN IMMEDIATE")  # two processes opening a new file: one migrates
    try:
        check_ours(conn)
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version < SCHEMA_VERSION:
            for table, column, declaration in ADDED_COLUMNS:
                columns = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
                if columns and column not in columns:
                    conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {declaration}")
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute("COMMIT")
    except BaseException:
        rollback(conn)
        raise
