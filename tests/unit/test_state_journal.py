"""What a SQLite store journals behind another process's lock, as the next store writes it.

The journal is merged late, after other processes may have written: it must not undo
what they wrote since (a newer cooldown mark, a newer cache entry), must be written once,
and a damaged one must not stop every later write.
"""

import asyncio
import json
import logging
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.sqlite_holder import held_by_another_process
from tests.store_threads import until_queued
from websearch_core.state._count_times import CountTimes
from websearch_core.state._journal import Journal, write_journal
from websearch_core.state._pending import Pending, PendingUsage
from websearch_core.state.base import FAILURE_WINDOW, ProviderMark, StateStoreError, UsageWindow
from websearch_core.state.sqlite import SQLiteStore


async def _open(path: Path) -> SQLiteStore:
    store = SQLiteStore(path)
    await store.get_usage("brave", "day")  # opens the file, the lock free: merges
    return store


def _mark_row(provider: str, kind: str, set_at: float) -> tuple[str, tuple[str | float, ...]]:
    until = time.time() + 3600
    return ("mark", (provider, kind, until, f"{kind} (journaled)", 0, set_at, ""))


async def test_a_journal_is_written_once_and_never_over_a_newer_mark(tmp_path: Path) -> None:
    path = tmp_path / "state.sqlite3"
    store = await _open(path)
    now = time.time()
    newer = ProviderMark(kind="exhausted", until=now + 7200, reason="set later", set_at=now)
    await store.set_mark("brave", newer)  # another process marked Brave after the journal
    await store.aclose()
    journal = Journal(
        counts={("tavily", "day"): Pending(3, now + 3600)},
        writes=[
            _mark_row("brave", "rate_limited", newer.set_at - 5),
            _mark_row("exa", "rate_limited", now),
        ],
    )
    written = write_journal(path, journal)
    assert stat.S_IMODE(written.stat().st_mode) == 0o600  # cache entries say what was searched
    for _ in range(2):  # the second opening finds nothing left to write
        await (await _open(path)).aclose()
    with sqlite3.connect(path) as observer:
        marks = dict(observer.execute("SELECT provider, reason FROM marks").fetchall())
        (used,) = observer.execute("SELECT count FROM usage WHERE provider = 'tavily'").fetchone()
    assert marks == {"brave": "set later", "exa": "rate_limited (journaled)"}
    assert used == 3
    assert not list(tmp_path.glob("state.sqlite3.owed-*"))


async def test_an_unreadable_journal_is_set_aside_and_the_others_written(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "state.sqlite3"
    await (await _open(path)).aclose()
    damaged = tmp_path / "state.sqlite3.owed-1-00.json"
    damaged.write_text('{"version": 1, "counts": [["brave", "day", "three"')
    write_journal(path, Journal(counts={("brave", "day"): Pending(2, time.time() + 3600)}))
    with caplog.at_level(logging.WARNING, logger="websearch_core.state"):
        await (await _open(path)).aclose()
    with sqlite3.connect(path) as observer:
        (used,) = observer.execute("SELECT count FROM usage WHERE provider = 'brave'").fetchone()
    assert used == 2
    assert f"web search state journal {damaged} cannot be read, set aside" in caplog.text
    assert [p.name for p in tmp_path.glob("state.sqlite3.owed-*")] == [
        "state.sqlite3.owed-1-00.json.unreadable"
    ]


async def test_a_journal_of_the_previous_release_is_still_written(tmp_path: Path) -> None:
    # Version 1 kept no count's time: its counts are written whole, as that release did.
    path = tmp_path / "state.sqlite3"
    await (await _open(path)).aclose()
    older = tmp_path / "state.sqlite3.owed-1-01.json"
    expires = time.time() + 3600
    older.write_text(
        f'{{"version": 1, "counts": [["brave", "day", 2, {expires}]], "cache": [], "writes": []}}'
    )
    await (await _open(path)).aclose()
    with sqlite3.connect(path) as observer:
        (used,) = observer.execute("SELECT count FROM usage WHERE provider = 'brave'").fetchone()
    assert used == 2
    assert not list(tmp_path.glob("state.sqlite3.owed-*"))


async def test_a_forgiveness_journaled_does_not_forget_a_later_failure(tmp_path: Path) -> None:
    # Merged late, a forgiveness must not wipe a failure another process counted after it.
    path = tmp_path / "state.sqlite3"
    store = await _open(path)
    await store.record_failure("exa")  # after the journaled forgiveness below
    await store.aclose()
    forgiven_at = time.time() - 5
    write_journal(
        path,
        Journal(
            writes=[
                ("forgive", ("exa", forgiven_at, FAILURE_WINDOW)),
                ("failure", ("brave", forgiven_at - 1, FAILURE_WINDOW)),
                ("forgive", ("brave", forgiven_at, FAILURE_WINDOW)),
            ]
        ),
    )
    await (await _open(path)).aclose()
    with sqlite3.connect(path) as observer:
        rows = observer.execute("SELECT provider, count FROM failures").fetchall()
    assert rows == [("exa", 1)]


async def test_a_reset_wins_over_counts_journaled_before_it(tmp_path: Path) -> None:
    # `websearch providers reset brave` (or WebSearch.reset_provider) cleared the rows, but
    # counts another process had journaled were added when the journal was merged later.
    path = tmp_path / "state.sqlite3"
    store = await _open(path)
    expires = time.time() + 3600
    write_journal(  # another process closed behind a lock after this store opened
        path,
        Journal(
            counts={("brave", "day"): Pending(3, expires), ("tavily", "day"): Pending(2, expires)},
            writes=[("failure", ("brave", time.time(), FAILURE_WINDOW))],
        ),
    )
    await store.clear("brave")
    await store.aclose()
    await (await _open(path)).aclose()
    with sqlite3.connect(path) as observer:
        used = dict(observer.execute("SELECT provider, count FROM usage").fetchall())
        failures = observer.execute("SELECT count(*) FROM failures").fetchone()[0]
    assert used == {"tavily": 2}  # another provider's journaled counts are kept
    assert failures == 0
    assert not list(tmp_path.glob("state.sqlite3.owed-*"))


async def test_counts_made_before_a_reset_and_journaled_after_it_do_not_come_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A process counted Brave searches in memory; `providers reset brave` ran in another;
    # the first then closed behind a third's lock and journaled its counts, and the next
    # store merged them after the reset: they came back. Only those made after it stand.
    monkeypatch.setattr("websearch_core.state.sqlite.FLUSH_AFTER", 3600.0)  # held until the close
    path = tmp_path / "state.sqlite3"
    counting = await _open(path)
    window = (UsageWindow("month:test", time.time() + 3600),)
    for provider in ("brave", "brave", "tavily"):
        assert (await counting.reserve_unless_marked(provider, window, time.time())).granted
    resetting = await _open(path)
    await resetting.clear("brave")  # the other process's reset
    await resetting.aclose()
    assert (await counting.reserve_unless_marked("brave", window, time.time())).granted
    with held_by_another_process(path):
        await counting.aclose()  # journals 3 counts of Brave's and 1 of Tavily's
    assert len(list(tmp_path.glob("state.sqlite3.owed-*.json"))) == 1
    await (await _open(path)).aclose()
    with sqlite3.connect(path) as observer:
        used = dict(observer.execute("SELECT provider, count FROM usage").fetchall())
    assert used == {"brave": 1, "tavily": 1}  # the count after the reset; another provider's


async def test_writes_made_before_a_reset_and_journaled_after_it_are_not_written(
    tmp_path: Path,
) -> None:
    # As for counts: a cooldown mark, a failure count and a rate slot made before the reset
    # and journaled by a close after it came back; one made after the reset stands.
    path = tmp_path / "state.sqlite3"
    store = await _open(path)
    before = time.time() - 1
    await store.clear("brave")
    await store.clear_all()  # --all: every provider's, Exa's too
    await store.aclose()
    after = time.time() + 1
    write_journal(
        path,
        Journal(
            writes=[
                _mark_row("brave", "rate_limited", before),
                ("failure", ("brave", before, FAILURE_WINDOW)),
                ("slot", ("brave", before + 600, before)),
                ("failure", ("exa", before, FAILURE_WINDOW)),
                ("failure", ("tavily", after, FAILURE_WINDOW)),
            ]
        ),
    )
    await (await _open(path)).aclose()
    with sqlite3.connect(path) as observer:
        tables = ("marks", "failures", "rates")
        rows = {t: observer.execute(f"SELECT provider FROM {t}").fetchall() for t in tables}
    assert rows == {"marks": [], "failures": [("tavily",)], "rates": []}


async def test_a_reset_the_clock_reads_as_in_the_future_drops_no_count(tmp_path: Path) -> None:
    # The clock was set back after the reset: counts made after it read as made before it,
    # and the reset's filter dropped every one of them until the clock caught up.
    path = tmp_path / "state.sqlite3"
    store = await _open(path)
    await store.clear("brave")
    await store.aclose()
    with sqlite3.connect(path) as writer:  # as if the clock now stood an hour before it
        writer.execute("UPDATE resets SET at = at + 3600")
    now = time.time()
    write_journal(
        path,
        Journal(counts={("brave", "day"): Pending(2, now + 7200, CountTimes([[now, now, 2]]))}),
    )
    await (await _open(path)).aclose()
    with sqlite3.connect(path) as observer:
        (used,) = observer.execute("SELECT count FROM usage WHERE provider = 'brave'").fetchone()
    assert used == 2


async def test_a_rate_slot_booked_behind_the_lock_is_journaled_and_never_pulls_one_back(
    tmp_path: Path,
) -> None:
    # Behind another process's lock the booking waited on the store's thread, and the
    # caller sent without it; the process then exited and the booking was lost, so the
    # next process could send at once, inside the provider's interval.
    path = tmp_path / "state.sqlite3"
    store = await _open(path)
    with held_by_another_process(path) as lock:
        booking = asyncio.create_task(store.take_rate_slot("brave", 60.0, 5.0))
        await until_queued(store, 1)  # queued on the store's thread, behind the lock
        await store.aclose()
        journaled = list(tmp_path.glob("state.sqlite3.owed-*.json"))
        lock.release()
    with pytest.raises(StateStoreError, match=r"journaled in .* for the next process to write"):
        await booking  # taken by the close: its caller learns where it went, not its result
    assert len(journaled) == 1
    now = time.time()
    write_journal(  # an older booking of Exa's must not pull a later one back
        path, Journal(writes=[("slot", ("exa", now + 10.0, now - 50.0))])
    )
    later = await _open(path)
    await later.take_rate_slot("exa", 120.0, 300.0)  # the later booking: 120 s ahead
    await later.aclose()
    later = await _open(path)
    try:
        assert 55.0 < await later.rate_slot_wait("brave") <= 60.0
        assert await later.rate_slot_wait("exa") > 100.0
    finally:
        await later.aclose()
    assert not list(tmp_path.glob("state.sqlite3.owed-*"))


async def test_a_caller_still_waiting_on_a_write_the_close_journaled_is_told_what_became_of_it(
    tmp_path: Path,
) -> None:
    # The close took the queued writes for its journal, and their callers, still waiting,
    # got the store's internal WithdrawnError once the lock went. A write whose caller
    # wants no result (a cooldown mark) stands, journaled: nothing went wrong. One whose
    # caller wants the count it returns cannot give it: a StateStoreError says where it is.
    path = tmp_path / "state.sqlite3"
    store = await _open(path)
    now = time.time()
    mark = ProviderMark(kind="rate_limited", until=now + 600, reason="429", set_at=now)
    with held_by_another_process(path) as lock:
        marking = asyncio.create_task(store.set_mark("brave", mark))
        failing = asyncio.create_task(store.record_failure("exa"))
        await until_queued(store, 2)  # both queued on the store's thread, behind the lock
        await store.aclose()
        lock.release()
        assert await marking is None
        with pytest.raises(StateStoreError) as failed:
            await failing
    (journaled,) = tmp_path.glob("state.sqlite3.owed-*.json")
    assert str(failed.value) == (
        f"SQLiteStore({str(path)!r}) was closed while this write waited for another "
        f"process's write lock: it is journaled in {str(journaled)!r} for the next process "
        "to write, and its result is not known here"
    )
    await (await _open(path)).aclose()  # the next process writes both
    with sqlite3.connect(path) as observer:
        marks = observer.execute("SELECT provider, reason FROM marks").fetchall()
        failures = observer.execute("SELECT provider, count FROM failures").fetchall()
    assert (marks, failures) == ([("brave", "429")], [("exa", 1)])


async def test_a_compare_and_clear_journaled_removes_only_the_mark_it_read(
    tmp_path: Path,
) -> None:
    # A re-check's success clears the mark it read back; queued behind another process's
    # lock, the close journals it. Merged later, it removes Brave's mark, still the one
    # read, but not Exa's, which another process replaced before the merge.
    path = tmp_path / "state.sqlite3"
    store = await _open(path)
    now = time.time()
    read = {
        provider: ProviderMark(kind="exhausted", until=now + 3600, reason="spent", set_at=now)
        for provider in ("brave", "exa")
    }
    for provider, mark in read.items():
        await store.set_mark(provider, mark)
    with held_by_another_process(path) as lock:
        clearing = [
            asyncio.create_task(store.clear_mark_if_unchanged(provider, mark, now))
            for provider, mark in read.items()
        ]
        await until_queued(store, 2)  # both queued on the store's thread, behind the lock
        await store.aclose()
        lock.release()
        assert [await task for task in clearing] == [None, None]  # journaled: it stands
    assert len(list(tmp_path.glob("state.sqlite3.owed-*.json"))) == 1
    with sqlite3.connect(path) as other:  # another process marks Exa again
        other.execute(
            "UPDATE marks SET reason = 'spent again', set_at = ? WHERE provider = 'exa'",
            (now + 1,),
        )
    await (await _open(path)).aclose()  # the next process merges the journal
    with sqlite3.connect(path) as observer:
        marks = observer.execute("SELECT provider, reason FROM marks").fetchall()
    assert marks == [("exa", "spent again")]


async def test_a_write_the_close_took_and_could_not_journal_is_said_to_be_lost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A full disk: the journal cannot be written, and the mark the close took is gone.
    # Its caller was told nothing (the internal error, then): now that it is lost.
    path = tmp_path / "state.sqlite3"
    store = await _open(path)

    def full_disk(state: Path, journal: Journal) -> Path:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("websearch_core.state.sqlite.write_journal", full_disk)
    with held_by_another_process(path) as lock:
        marking = asyncio.create_task(store.clear_mark("brave"))
        await until_queued(store, 1)  # queued on the store's thread, behind the lock
        await store.aclose()
        lock.release()
        with pytest.raises(StateStoreError) as lost:
            await marking
    assert str(lost.value) == (
        f"SQLiteStore({str(path)!r}) was closed while this write waited for another "
        "process's write lock, and it could be neither written nor journaled (OSError: "
        "[Errno 28] No space left on device): it is lost; do it again once that process "
        "lets go of the file"
    )


async def test_the_close_warns_of_a_write_no_journal_holds_and_names_the_one_journaled(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # README: "a warning names the store and what was left (and so it does for a SQLite
    # write no journal holds)". A reservation with a budget is never journaled (it is
    # withdrawn, or undone, when given up on); a failure count is.
    path = tmp_path / "state.sqlite3"
    store = await _open(path)
    budget = (UsageWindow("budget:day:test", time.time() + 3600, limit=10),)
    with held_by_another_process(path) as lock:
        reserving = asyncio.create_task(store.reserve_usage("brave", budget))
        failing = asyncio.create_task(store.record_failure("exa"))
        await until_queued(store, 2)  # both queued on the store's thread, behind the lock
        with caplog.at_level(logging.INFO, logger="websearch_core.state"):
            await store.aclose()
        lock.release()
        assert (await reserving).granted  # left to the thread: written once the lock went
        with pytest.raises(StateStoreError):
            await failing  # journaled (see the test above)
    (journaled,) = tmp_path.glob("state.sqlite3.owed-*.json")
    (warning,) = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert warning == (
        f"web search state store SQLiteStore({str(path)!r}) did not finish closing within "
        f"1 s; 1 other write journaled in {str(journaled)!r} for the next process to write; "
        "left to its thread: 1 call it had not answered. They are written if the store "
        "answers before this process exits, and lost if it does not."
    )


async def test_a_note_made_before_a_reset_and_journaled_after_it_is_not_written(
    tmp_path: Path,
) -> None:
    # A note kept no time: queued behind the lock of a process that was resetting Brave,
    # journaled by a close before that reset committed, it came back when the journal was
    # merged after it. One made after the reset stands, as a count made after it does.
    path = tmp_path / "state.sqlite3"
    store = await _open(path)
    until = time.time() + 3600
    resetting = sqlite3.connect(path, isolation_level=None)
    try:
        resetting.execute("BEGIN IMMEDIATE")  # the reset's transaction holds the lock
        noting = asyncio.create_task(store.set_note("brave", "usage", "made before", until))
        await until_queued(store, 1)  # queued on the store's thread, behind the lock
        await store.aclose()  # journals the note
        resetting.execute("DELETE FROM notes WHERE provider = 'brave'")
        resetting.execute("INSERT OR REPLACE INTO resets VALUES ('brave', ?)", (time.time(),))
        resetting.execute("COMMIT")
    finally:
        resetting.close()
    assert await noting is None  # it stands, journaled: its caller is told nothing failed
    assert len(list(tmp_path.glob("state.sqlite3.owed-*.json"))) == 1
    later = await _open(path)
    try:
        assert await later.get_note("brave", "usage", time.time()) is None
        await later.set_note("brave", "usage", "made after", until)
        assert await later.get_note("brave", "usage", time.time()) == "made after"
    finally:
        await later.aclose()
    assert not list(tmp_path.glob("state.sqlite3.owed-*"))


async def test_a_note_queued_behind_a_reset_lands_only_when_made_after_it(tmp_path: Path) -> None:
    # Not journaled this time: the note waited behind the resetting process's lock and was
    # written as soon as the reset committed, bringing back what the reset had cleared.
    path = tmp_path / "state.sqlite3"
    store = await _open(path)
    until = time.time() + 3600
    try:
        resetting = sqlite3.connect(path, isolation_level=None)
        try:
            resetting.execute("BEGIN IMMEDIATE")
            noting = asyncio.create_task(store.set_note("brave", "usage", "made before", until))
            await until_queued(store, 1)  # queued on the store's thread, behind the lock
            resetting.execute("INSERT OR REPLACE INTO resets VALUES ('brave', ?)", (time.time(),))
            resetting.execute("COMMIT")
        finally:
            resetting.close()
        await noting  # lands now, after the reset
        assert await store.get_note("brave", "usage", time.time()) is None
        await store.set_note("exa", "usage", "another provider's", until)
        assert await store.get_note("exa", "usage", time.time()) == "another provider's"
    finally:
        await store.aclose()


async def test_a_mark_and_a_failure_queued_behind_a_reset_land_only_when_made_after_it(
    tmp_path: Path,
) -> None:
    # As the note above: a cooldown mark and a failure count made before the reset waited
    # behind the resetting process's lock (not journaled: the store stayed open) and were
    # written once it committed, so the reset was followed by the state it had cleared.
    path = tmp_path / "state.sqlite3"
    store = await _open(path)
    mark = ProviderMark("rate_limited", time.time() + 3600, "429 (made before)", set_at=time.time())
    try:
        resetting = sqlite3.connect(path, isolation_level=None)
        try:
            resetting.execute("BEGIN IMMEDIATE")
            marking = asyncio.create_task(store.set_mark("brave", mark))
            failing = asyncio.create_task(store.record_failure("exa"))
            await until_queued(store, 2)  # both queued on the store's thread, behind the lock
            resetting.execute("INSERT OR REPLACE INTO resets VALUES ('', ?)", (time.time(),))
            resetting.execute("COMMIT")
        finally:
            resetting.close()
        await marking  # lands now, after the reset
        assert await failing == 0  # not counted: the file holds no failure of Exa's
        assert await store.get_mark("brave", time.time()) is None
        assert await store.record_failure("exa") == 1  # made after the reset: counted
        await store.set_mark("tavily", mark)  # set after the reset, whatever its set_at
        assert await store.get_mark("tavily", time.time()) is not None
    finally:
        await store.aclose()
    with sqlite3.connect(path) as observer:
        failures = observer.execute("SELECT provider, count FROM failures").fetchall()
    assert failures == [("exa", 1)]


async def test_guard_a_reset_leaves_cache_entries_journaled_before_it(tmp_path: Path) -> None:
    # A guard (it passes before and after the reset fixes beside it): a reset promises to
    # leave the result cache alone, so an answer journaled before `reset --all` and merged
    # after it is still served, where the counts and marks beside it are not written.
    path = tmp_path / "state.sqlite3"
    store = await _open(path)
    before = time.time() - 1
    await store.clear_all()
    await store.aclose()
    journal = Journal(
        counts={("brave", "day"): Pending(2, before + 3600, CountTimes([[before, before, 2]]))},
        cache=[("k" * 64, b"cached before the reset", before, before + 900, before + 3600)],
        writes=[_mark_row("brave", "rate_limited", before)],
    )
    write_journal(path, journal)
    later = await _open(path)
    try:
        assert await later.get_usage("brave", "day") == 0
        assert await later.all_marks(time.time()) == {}
        entry = await later.cache_get("k" * 64, time.time())
        assert entry is not None and entry.value == b"cached before the reset"
    finally:
        await later.aclose()


async def test_journals_of_a_damaged_file_moved_aside_are_not_written_into_the_fresh_one(
    tmp_path: Path,
) -> None:
    # `websearch providers reset --all` moved a damaged file aside; the journals other
    # processes left for it stayed, and the next store merged them into the fresh file:
    # the counts and marks the reset was to clear came back. They go with the damaged file.
    path = tmp_path / "state.sqlite3"
    now = time.time()
    journaled = write_journal(
        path,
        Journal(
            counts={("brave", "day"): Pending(3, now + 3600, CountTimes([[now - 9, now - 7, 3]]))},
            writes=[_mark_row("exa", "rate_limited", now - 5)],
        ),
    )
    path.write_bytes(b"not a database, " * 512)  # damaged
    store = SQLiteStore(path)
    with pytest.raises(StateStoreError):
        await store.clear_all()
    moved = await store.move_aside()
    assert moved is not None
    fresh = await _open(path)
    try:
        assert await fresh.get_usage("brave", "day") == 0
        assert await fresh.all_marks(time.time()) == {}
    finally:
        await fresh.aclose()
    kept = [p.name for p in tmp_path.glob(f"{moved.name}.owed-*")]
    assert kept == [moved.name + journaled.name.removeprefix(path.name)]  # for inspection
    assert not list(tmp_path.glob("state.sqlite3.owed-*"))


async def test_a_journal_written_for_a_file_after_it_was_moved_aside_stays_with_that_file(
    tmp_path: Path,
) -> None:
    # A process still holding the damaged file (its connection follows the renamed file)
    # closed behind another process's lock on it after `reset --all` had moved it aside:
    # its journal was written beside the path, and the next store merged that file's
    # usage count and cache entry into the fresh one. It goes with its own file.
    path = tmp_path / "state.sqlite3"
    window = (UsageWindow("month:test", time.time() + 3600),)
    stale = await _open(path)
    assert (await stale.reserve_unless_marked("brave", window, time.time())).granted
    await stale.cache_set("k" * 64, b"cached before", now=time.time(), ttl=900, keep_stale_for=60)
    with held_by_another_process(path):
        moved = await SQLiteStore(path).move_aside()  # what `reset --all` does
        assert moved is not None
        await stale.aclose()  # journals what it owes, beside the path it was opened at
    assert len(list(tmp_path.glob("state.sqlite3.owed-*.json"))) == 1
    fresh = await _open(path)
    try:
        assert await fresh.get_usage("brave", "month:test") == 0
        assert await fresh.cache_get("k" * 64, time.time()) is None
    finally:
        await fresh.aclose()
    assert not list(tmp_path.glob("state.sqlite3.owed-*"))
    assert len(list(tmp_path.glob(f"{moved.name}.owed-*.json"))) == 1  # for inspection


_EXIT_AFTER_MOVE = """
import asyncio, sys, time
from pathlib import Path
from websearch_core.state import SQLiteStore, UsageWindow

path = Path(sys.argv[1])
store = SQLiteStore(path)
window = (UsageWindow("month:test", time.time() + 600),)
for _ in range(7):
    asyncio.run(store.reserve_unless_marked("brave", window, time.time()))
print(asyncio.run(SQLiteStore(path).move_aside()))  # another `reset --all`, as it were
fresh = SQLiteStore(path)  # and a search since, which made the fresh file
asyncio.run(fresh.get_usage("brave", "month:test"))
asyncio.run(fresh.aclose())
"""


async def test_a_process_exiting_after_its_file_was_moved_aside_writes_nothing_into_the_fresh_one(
    tmp_path: Path,
) -> None:
    # Left open at exit, a store wrote what it owed on a connection of its own, opened
    # by the path: after `reset --all` had moved its file aside, into the fresh file.
    path = tmp_path / "state.sqlite3"
    args = [sys.executable, "-c", _EXIT_AFTER_MOVE, str(path)]
    done = subprocess.run(args, check=True, timeout=60, capture_output=True, text=True)
    moved = Path(done.stdout.strip())
    fresh = await _open(path)
    try:
        assert await fresh.get_usage("brave", "month:test") == 0
    finally:
        await fresh.aclose()
    with sqlite3.connect(moved) as observer:
        written = observer.execute("SELECT sum(count) FROM usage").fetchone()[0] or 0
    journaled = sum(
        count
        for journal in tmp_path.glob(f"{moved.name}.owed-*.json")
        for _, _, count, *_ in json.loads(journal.read_text())["counts"]
    )
    assert written + journaled == 7  # in the old file, or journaled beside it: none lost
    assert not list(tmp_path.glob("state.sqlite3.owed-*"))


async def test_counts_made_for_a_file_moved_aside_are_not_written_into_the_fresh_one(
    tmp_path: Path,
) -> None:
    # A store whose connection to the damaged file was dropped (as its error drops it)
    # opens the path again on its next call: after `reset --all` moved that file aside,
    # the fresh one, which then took the counts made before the move.
    path = tmp_path / "state.sqlite3"
    window = (UsageWindow("month:test", time.time() + 3600),)
    stale = await _open(path)
    try:
        for _ in range(3):
            assert (await stale.reserve_unless_marked("brave", window, time.time())).granted
        await stale._run(lambda conn: stale._drop_connection())  # as a damaged file's error
        stale._close_inline()
        moved = await SQLiteStore(path).move_aside()  # what `reset --all` does
        assert moved is not None
        assert await stale.get_mark("brave", time.time()) is None  # opens the path again
    finally:
        await stale.aclose()  # writes its pending counts
    fresh = await _open(path)
    try:
        assert await fresh.get_usage("brave", "month:test") == 0
        assert (await fresh.reserve_unless_marked("brave", window, time.time())).counts == (1,)
    finally:
        await fresh.aclose()
    assert len(list(tmp_path.glob(f"{moved.name}.owed-*.json"))) == 1  # the 3, for their file


async def test_many_counts_keep_their_times_in_a_bounded_space_and_the_reset_still_applies(
    tmp_path: Path,
) -> None:
    # Each count kept its own time: 10,000 counts held behind a lock wrote a 183 KiB
    # journal (and held as much in memory), growing with every count. The times are now
    # runs, as fine as a bound allows: counts well before or after the reset still tell.
    path = tmp_path / "state.sqlite3"
    await (await _open(path)).aclose()
    now = time.time()
    pending = PendingUsage()
    window = (("day", now + 3600),)
    for start in (now - 100, now - 50):  # two bursts of 5,000 counts, 5 s each
        for n in range(5000):
            pending.add("brave", window, None, start + n / 1000)
    written = write_journal(path, Journal(counts=pending.take()))
    assert written.stat().st_size < 8 * 1024
    with sqlite3.connect(path) as resetting:  # `providers reset brave` between the bursts
        resetting.execute("INSERT INTO resets VALUES ('brave', ?)", (now - 70,))
    await (await _open(path)).aclose()
    with sqlite3.connect(path) as observer:
        (used,) = observer.execute("SELECT count FROM usage WHERE provider = 'brave'").fetchone()
    assert used == 5000  # the second burst's: the first was cleared by the reset


async def test_a_journal_with_one_time_a_count_is_still_read_and_filtered(tmp_path: Path) -> None:
    # Version 2 (stop 39) wrote one number a count; version 3 writes runs.
    path = tmp_path / "state.sqlite3"
    await (await _open(path)).aclose()
    now = time.time()
    (tmp_path / "state.sqlite3.owed-1-02.json").write_text(
        f'{{"version": 2, "counts": [["brave", "day", 3, {now + 3600}, '
        f'[{now - 20}, {now - 19}, {now - 2}]]], "cache": [], "writes": []}}'
    )
    with sqlite3.connect(path) as resetting:
        resetting.execute("INSERT INTO resets VALUES ('brave', ?)", (now - 10,))
    await (await _open(path)).aclose()
    with sqlite3.connect(path) as observer:
        (used,) = observer.execute("SELECT count FROM usage WHERE provider = 'brave'").fetchone()
    assert used == 1
    assert not list(tmp_path.glob("state.sqlite3.owed-*"))
