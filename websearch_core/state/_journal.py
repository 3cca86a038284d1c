"""What a SQLite store owed its file when it could not wait for the write lock: left in a journal.

Why: a ``websearch`` search while another process held the state file's write lock read
the file at once, but the usage count it holds in memory (and any cooldown mark or failure
count it could not write) waited for that lock on the way out: the close's 1 s grace, then
the exit's 1 s try, 2 s added to a search that had its answer, and the count was lost all
the same when the lock outlived them. Now the store waits briefly once, and what the lock
still keeps out is written to a journal file beside the state file (``<file>.owed-*.json``,
mode ``0o600``: cache entries hold what was searched for), which the next store to take the
write lock (a later process opening the file, or any flush) writes into the file, in the
transaction that writes its own counts.

A journal is written whole under a temporary name and renamed, so a reader never sees half
of one. A merger claims each journal by renaming it (``.merging``) inside its transaction,
and deletes it only once that transaction committed: a process killed between the two
leaves a claimed file that is never merged again (at most those counts lost, as a crash
loses the counts still in memory), never counted twice. What is merged is data, not code:
the store says how each kind of write is replayed (:data:`OwedWrite`); the writes still
queued that a close takes for a journal are kept by :mod:`._owed`.

This module keeps the files; the store decides what goes in and how it is replayed.
"""

from __future__ import annotations

import base64
import contextlib
import json
import logging
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from ._count_times import CountTimes
from ._file_id import FileId, file_id
from ._pending import Batch, Pending

__all__ = ["Claimed", "Journal", "OwedWrite", "claim_journals", "move_journals", "write_journal"]

logger = logging.getLogger("websearch_core.state")

_VERSION: Final = 3
_READABLE: Final = frozenset({1, 2, _VERSION})
"""Version 2 added each count's time (:attr:`._pending.Pending.counted_at`), one number a
count; version 3 keeps them as runs ``[first, last, how many]``
(:class:`._count_times.CountTimes`: bounded, where one a count grew with the counts). A
version 1 journal's counts are read without times, a version 2 one's made into runs. An
earlier release sets a later version's journal aside as unreadable, with a warning."""
_CLAIMED: Final = ".merging"
_UNREADABLE: Final = ".unreadable"
_OTHER_FILE: Final = ".other-file"
_MOVED_ASIDE: Final = ".broken-"
"""How a state file moved aside is named after the path it was at (``SQLiteStore.move_aside``)."""

OwedWrite = tuple[str, tuple[str | float | int, ...]]
"""A write to replay: its kind (``"mark"``, ``"failure"``, ``"forgive"``, ``"slot"``...) and
the statement's parameters."""

CacheRow = tuple[str, bytes, float, float, float]
"""A cache entry to replay: key, value, stored_at, fresh_until, expires_at."""


@dataclass
class Journal:
    """What one journal holds (or is to hold): counts, cache entries and other writes.

    ``file``: the state file it was written for (:mod:`._file_id`); ``None`` when not known
    (or written by an earlier release), merged into whatever file is at the path.
    """

    counts: Batch = field(default_factory=dict)
    cache: list[CacheRow] = field(default_factory=list)
    writes: list[OwedWrite] = field(default_factory=list)
    file: FileId | None = None

    def __bool__(self) -> bool:
        return bool(self.counts or self.cache or self.writes)

    def describe(self) -> str:
        """``3 usage counts and 1 cache entry``: what it holds, for the close's one log line."""
        counts = sum(entry.count for entry in self.counts.values())
        entries, writes = len(self.cache), len(self.writes)
        parts = [
            f"{counts} usage count{'' if counts == 1 else 's'}" if counts else "",
            f"{entries} cache entr{'y' if entries == 1 else 'ies'}" if entries else "",
            f"{writes} other write{'' if writes == 1 else 's'}" if writes else "",
        ]
        return " and ".join(part for part in parts if part)


def _prefix(state: Path) -> str:
    return f"{state.name}.owed-"


def write_journal(state: Path, journal: Journal) -> Path:
    """Write ``journal`` beside ``state`` (mode ``0o600``), whole or not at all.

    Returns:
        The journal's path.

    Raises:
        OSError: It could not be written (nothing is left behind).
    """
    document = {
        "version": _VERSION,
        "counts": [
            [provider, period, entry.count, entry.expires_at, entry.counted_at.runs()]
            for (provider, period), entry in journal.counts.items()
        ],
        "cache": [
            [key, base64.b64encode(value).decode("ascii"), stored, fresh, expires]
            for key, value, stored, fresh, expires in journal.cache
        ],
        "writes": [[kind, list(params)] for kind, params in journal.writes],
    }
    if journal.file is not None:  # an earlier release reading it ignores the key
        document["file"] = list(journal.file)
    name = f"{_prefix(state)}{os.getpid()}-{secrets.token_hex(6)}.json"
    target = state.with_name(name)
    temporary = state.with_name(f".{name}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as stream:
            json.dump(document, stream, separators=(",", ":"))
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return target


class Claimed:
    """Journals claimed inside a transaction: deleted once it commits, given back if not."""

    def __init__(self, paths: list[Path]) -> None:
        self.paths = paths

    def committed(self) -> None:
        """The transaction that merged them committed: they are done with."""
        for path in self.paths:
            with contextlib.suppress(OSError):
                os.unlink(path)

    def given_back(self) -> None:
        """The transaction failed: the next merger reads them again."""
        for path in self.paths:
            with contextlib.suppress(OSError):
                os.replace(path, path.with_name(path.name.removesuffix(_CLAIMED)))


def claim_journals(state: Path, opened: FileId | None = None) -> tuple[Journal, Claimed]:
    """Every journal beside ``state`` for the file ``opened``, claimed: hold the write lock.

    The write lock makes the claim one merger's: another store claims only in its own
    transaction, after this one ended (and then finds the files gone, or given back). A
    journal that cannot be read (damaged, not ours) is set aside as ``.unreadable`` and
    named in a warning, instead of failing every later write. One written for another file
    than ``opened`` (a file moved aside since: see :mod:`._file_id`) is not merged: it goes
    beside that file, as :func:`move_journals` would have moved it (:func:`_send_home`).
    """
    merged = Journal()
    claimed: list[Path] = []
    try:
        names = [name for name in os.listdir(state.parent) if name.startswith(_prefix(state))]
    except OSError:
        return merged, Claimed(claimed)
    for name in sorted(names):
        if not name.endswith(".json"):
            continue
        path = state.with_name(name)
        mine = path.with_name(name + _CLAIMED)
        try:
            os.replace(path, mine)
        except OSError:  # gone meanwhile
            continue
        try:
            journal = _read(mine)
        except (OSError, ValueError, TypeError, KeyError) as exc:
            logger.warning("web search state journal %s cannot be read, set aside: %s", path, exc)
            with contextlib.suppress(OSError):
                os.replace(mine, path.with_name(name + _UNREADABLE))
            continue
        if journal.file is not None and opened is not None and journal.file != opened:
            _send_home(state, mine, name, journal.file)
            continue
        _add(merged, journal)
        claimed.append(mine)
    return merged, Claimed(claimed)


def _send_home(state: Path, claimed: Path, name: str, home: FileId) -> None:
    """Put the journal ``name`` (claimed as ``claimed``) beside the file it was written for.

    That file is looked for among those moved aside from ``state``; not found (deleted,
    or moved some other way), the journal is set aside as ``.other-file`` with a warning.
    Either way it is never merged: it holds what that file was owed.
    """
    prefix = state.name + _MOVED_ASIDE
    with contextlib.suppress(OSError):
        for candidate in sorted(os.listdir(state.parent)):
            if not candidate.startswith(prefix) or ".owed-" in candidate:
                continue
            if candidate.endswith(("-wal", "-shm")):
                continue
            target = state.with_name(candidate)
            if file_id(target) == home:
                moved = target.with_name(candidate + name.removeprefix(state.name))
                with contextlib.suppress(OSError):
                    os.replace(claimed, moved)
                    logger.info("web search state journal %s was for %s: moved there", name, target)
                    return
    logger.warning(
        "web search state journal %s was written for another file than %s, set aside",
        state.with_name(name),
        state,
    )
    with contextlib.suppress(OSError):
        os.replace(claimed, state.with_name(name + _OTHER_FILE))


def move_journals(state: Path, target: Path) -> None:
    """Rename every journal of ``state`` (claimed and unreadable ones too) to ``target``'s.

    Why: ``websearch providers reset --all`` moves a damaged state file aside, and the
    journals left beside it were written for that file: merged into the fresh one, they
    brought back the counts and marks the reset was to clear. They go with it instead,
    ``<target>.owed-...``, kept for inspection as the file is, and no store merges them.
    One that cannot be moved is named in a warning (the next store will merge it).
    """
    try:
        names = [name for name in os.listdir(state.parent) if name.startswith(_prefix(state))]
    except OSError as exc:
        logger.warning("web search state journals of %s not moved aside: %s", state, exc)
        return
    for name in names:
        moved = target.with_name(target.name + name.removeprefix(state.name))
        try:
            os.replace(state.with_name(name), moved)
        except FileNotFoundError:  # merged (or moved) by another process meanwhile
            continue
        except OSError as exc:
            logger.warning("web search state journal %s not moved aside: %s", name, exc)


def _read(path: Path) -> Journal:
    """The journal at ``path``, read whole; raises on anything not written by us."""
    document = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(document, dict) or document.get("version") not in _READABLE:
        raise ValueError("not a journal of this version")
    counts: Batch = {}
    fields = 4 if document["version"] == 1 else 5  # version 2: the counts' times too
    for provider, period, count, expires_at, *rest in document["counts"]:
        if 4 + len(rest) != fields:
            raise ValueError("a count's fields are not those of its version")
        key = (_text(provider), _text(period))
        entry = counts.setdefault(key, Pending(0, _number(expires_at)))
        entry.count += int(count)
        entry.expires_at = max(entry.expires_at, _number(expires_at))
        if rest:
            entry.counted_at.extend(_times(_list(rest[0]), document["version"]))
    cache = [
        (
            _text(key),
            base64.b64decode(_text(value), validate=True),
            _number(stored),
            _number(fresh),
            _number(expires),
        )
        for key, value, stored, fresh, expires in document["cache"]
    ]
    writes: list[OwedWrite] = []
    for kind, params in document["writes"]:
        if not isinstance(params, list) or not all(
            isinstance(param, str | int | float) for param in params
        ):
            raise ValueError("a write's parameters are not plain values")
        writes.append((_text(kind), tuple(params)))
    return Journal(counts=counts, cache=cache, writes=writes, file=_file(document.get("file")))


def _add(merged: Journal, journal: Journal) -> None:
    """Add ``journal`` (read whole) to ``merged``."""
    for key, entry in journal.counts.items():
        held = merged.counts.setdefault(key, Pending(0, entry.expires_at))
        held.count += entry.count
        held.expires_at = max(held.expires_at, entry.expires_at)
        held.counted_at.extend(entry.counted_at)
    merged.cache.extend(journal.cache)
    merged.writes.extend(journal.writes)


def _file(value: object) -> FileId | None:
    """A journal's ``file`` (:mod:`._file_id`): absent in an earlier release's journal."""
    if value is None:
        return None
    device, inode = (_integer(number) for number in _list(value))  # 2 or ValueError
    return (device, inode)


def _integer(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected an integer, found {type(value).__name__}")
    return value


def _times(items: list[object], version: object) -> CountTimes:
    """A count's times as a journal of ``version`` wrote them: numbers (2) or runs (3)."""
    times = CountTimes()
    if version == 2:
        for at in items:
            times.add(_number(at))
        return times
    runs: list[list[float]] = []
    for item in items:
        first, last, many = (_number(value) for value in _list(item))  # 3 or ValueError
        if not (first <= last and many >= 1 and many == int(many)):
            raise ValueError("a run of count times is not [first, last, how many]")
        runs.append([first, last, int(many)])
    times.extend(CountTimes(runs))
    return times


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected text, found {type(value).__name__}")
    return value


def _list(value: object) -> list[object]:
    if not isinstance(value, list):
        raise TypeError(f"expected a list, found {type(value).__name__}")
    return value


def _number(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"expected a number, found {type(value).__name__}")
    return float(value)
