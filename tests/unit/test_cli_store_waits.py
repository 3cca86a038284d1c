"""``websearch providers`` and its resets give up on a state store that does not answer.

They have no search deadline to end them: behind another process's lock on the SQLite file
``providers`` took 20.6 s (two busy timeouts of 10 s) and each reset 10.4 s, and with a
Redis that accepts and never replies ``providers`` took 10.8 s. They now wait 3 s, then
name the store and what was not read or not cleared.

Bound by events, not by the time taken (``elapsed < 8`` or ``< 12`` s, which a loaded
machine could pass): the store's own wait is made an hour here (SQLite's busy timeout,
Redis's socket timeout), so a command that waited for it instead of giving up would hang,
and the store's thread must still be stuck on the call when the command returns. The
30 s (ten times the command's 3 s wait) only turns such a hang into a failure.
"""

import asyncio
import functools
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from tests.sqlite_holder import held_by_another_process
from tests.stalling_proxy import silent_server
from tests.store_threads import join_new_store_threads, store_threads
from websearch_core.cli import EXIT_FAILED, EXIT_OK, main
from websearch_core.state.base import ProviderMark
from websearch_core.state.sqlite import SQLiteStore
from websearch_core.testing import Simulator

_UNREAD = "websearch: warning: the state store is unavailable, so cooldowns, usage and budgets "
_LOCKED = "did not answer within 3 s (another process may be holding the file locked)"


HOUR = 3600.0
"""The store's own wait in these tests: a command that waited it out would hang."""

HANG_GUARD = 30.0
"""Ten times the command's 3 s wait: only turns a hang into a failure."""


def _given_up(args: list[str], *, left_stuck: bool = True) -> int:
    """``main(args)``'s status, once it returned with the store's thread still stuck.

    Why: a command that gave up on the store returns while the call it gave up on still
    waits on the store's thread; one that waited for the store (its busy timeout, its
    socket) returns only once that thread is free. Run on a thread of its own, so that a
    hang fails the test at :data:`HANG_GUARD` instead of holding it.

    ``left_stuck=False`` for Redis: its close runs on another of its four threads at once
    and disconnects the client's sockets, which frees the stuck call's read at any moment
    after (CI's lowest-bounds run found that thread already gone). The store's wait there
    is an hour, so a command that waited for it still fails at the hang guard.
    """
    before = _call_threads()
    outcome: list[int] = []
    stuck: list[threading.Thread] = []

    def run() -> None:
        status = main(args)
        stuck.extend(thread for thread in _call_threads() - before if thread.is_alive())
        outcome.append(status)

    runner = threading.Thread(target=run, daemon=True)
    runner.start()
    runner.join(HANG_GUARD)
    assert outcome, f"websearch {' '.join(args)} still waited after {HANG_GUARD} s"
    assert stuck or not left_stuck, "the store's thread was free: the command waited for it"
    return outcome[0]


def _call_threads() -> set[threading.Thread]:
    """The threads a SQLite or Redis store runs its calls on (not a flush's timer)."""
    prefixes = ("websearch-state_", "websearch-redis_")
    return {thread for thread in threading.enumerate() if thread.name.startswith(prefixes)}


@pytest.fixture
def locked_state(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The state file the commands use (the conftest's state directory), on SQLite.

    Its stores wait an hour for another process's lock (10 s by default): a command that
    waited for the lock rather than give up on the store would hang.
    """
    monkeypatch.setenv("WEBSEARCH_STATE_BACKEND", "sqlite")
    patient = functools.partial(SQLiteStore, busy_timeout=HOUR)
    monkeypatch.setattr("websearch_core.state.open.SQLiteStore", patient)
    return tmp_path / "state" / "state.sqlite3"


def test_providers_gives_up_on_a_state_file_another_process_holds_locked(
    locked_state: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with held_by_another_process(locked_state):
        status = _given_up(["providers"])
    out, err = capsys.readouterr()
    assert status == EXIT_OK
    assert err == f"{_UNREAD}are not shown (SQLiteStore({str(locked_state)!r}) {_LOCKED})\n"
    assert "USED is unknown (?) while the state store is unavailable" in out


@pytest.mark.parametrize(
    ("args", "whose"),
    [
        (["providers", "reset", "brave"], "brave's"),
        (["providers", "reset", "--all"], "every provider's"),
    ],
)
def test_a_reset_gives_up_on_a_state_file_another_process_holds_locked(
    locked_state: Path, capsys: pytest.CaptureFixture[str], args: list[str], whose: str
) -> None:
    with held_by_another_process(locked_state):
        status = _given_up(args)
    out, err = capsys.readouterr()
    assert status == EXIT_FAILED
    assert out == ""
    assert err == (
        f"websearch: could not reset the state: SQLiteStore({str(locked_state)!r}) {_LOCKED}; "
        f"{whose} cooldowns, quota marks and usage counters were not cleared\n"
    )


def test_providers_gives_up_on_a_redis_that_never_answers(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("redis")
    with silent_server() as port:
        # The URL's socket timeout (an hour) outranks the store's 5 s default.
        url = f"redis://:hunter2-secret@127.0.0.1:{port}/0?socket_timeout={HOUR:.0f}"
        monkeypatch.setenv("WEBSEARCH_REDIS_URL", url)
        status = _given_up(["providers"], left_stuck=False)
    out, err = capsys.readouterr()
    assert status == EXIT_OK
    assert err == (
        f"{_UNREAD}are not shown (RedisStore(prefix='websearch:') did not answer within 3 s)\n"
    )
    assert "hunter2" not in out + err


def test_providers_does_not_wait_to_close_a_store_it_already_gave_up_on(
    locked_state: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The close waited its grace (1 s) behind the read it had given up on: 5.9 s in all
    # from a shell, 1 s of it for nothing. With a grace of an hour here, that close would
    # end only when the read does, when the lock goes: the command would hang.
    monkeypatch.setattr("websearch_core.state._threaded.CLOSE_GRACE_SECONDS", HOUR)
    with held_by_another_process(locked_state):
        status = _given_up(["providers"])
    assert status == EXIT_OK
    assert _LOCKED in capsys.readouterr().err


@pytest.mark.parametrize("args", [["providers", "reset", "brave"], ["providers", "reset", "--all"]])
def test_a_reset_that_said_not_cleared_clears_nothing_once_the_lock_goes(
    locked_state: Path, capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    # Its clear stayed queued: the lock released during the close, the clear landed,
    # though the command had said "were not cleared".
    asyncio.run(_mark_brave(locked_state))
    before = store_threads()
    with held_by_another_process(locked_state) as lock:
        status = main(args)
        lock.release()
    assert join_new_store_threads(before)
    assert status == EXIT_FAILED
    assert "were not cleared" in capsys.readouterr().err
    with sqlite3.connect(locked_state) as observer:
        (marks,) = observer.execute("SELECT count(*) FROM marks").fetchone()
    assert marks == 1


async def _mark_brave(path: Path, provider: str = "brave") -> None:
    store = SQLiteStore(path)
    mark = ProviderMark(kind="rate_limited", until=time.time() + 3600, reason="HTTP 429")
    await store.set_mark(provider, mark)
    await store.aclose()


def test_providers_reads_a_state_file_whose_write_lock_another_process_holds(
    locked_state: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A file already at this schema (in WAL) lets readers in beside a writer, but opening
    # it asked for the write lock twice (the migration's check, the purge) and so waited
    # the command's 3 s, then showed no marks: 4.0 s, a warning and "?" counts, where the
    # table could be read at once.
    asyncio.run(_mark_brave(locked_state))
    with held_by_another_process(locked_state):
        status = main(["providers"])
    out, err = capsys.readouterr()
    assert status == EXIT_OK
    assert err == ""
    brave = next(line for line in out.splitlines() if line.startswith("brave "))
    assert "rate limited until" in brave
    assert "?" not in out


@pytest.mark.parametrize("forced", [False, True], ids=["auto-chain", "forced"])
def test_a_search_reads_the_store_beside_another_processs_write_lock(
    locked_state: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    forced: bool,
) -> None:
    # Opening the file, and a forced search's reservation (a synchronous write even with
    # no budget to check), asked for the write lock: the search gave up on the store
    # after its 1 s, and searched without it (its cooldowns unread). A forced provider
    # that is marked still takes the write (its count cannot ride on the marked read).
    asyncio.run(_mark_brave(locked_state, "tavily" if forced else "brave"))  # opens the file
    with Simulator(["brave"]).running_in_thread() as sim:
        monkeypatch.setenv("WEBSEARCH_BRAVE_BASE_URL", sim["brave"].base_url)
        monkeypatch.setenv("BRAVE_API_KEY", "sim-key-brave")
        monkeypatch.setenv("WEBSEARCH_PROVIDERS", "brave")
        forcing = ["--provider", "brave"] if forced else []
        with held_by_another_process(locked_state):
            status = main([*forcing, "--no-cache", "python", "asyncio"])
    err = capsys.readouterr().err
    if forced:  # a forced provider is asked whatever its mark
        assert status == EXIT_OK
        assert "searching without it" not in err
    else:  # the mark was read: Brave is skipped, not asked
        assert status == EXIT_FAILED
        assert "Brave is rate limited until" in err
