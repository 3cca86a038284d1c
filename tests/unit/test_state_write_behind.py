"""The SQLite store writes the counts of reservations without a cap behind, in batches.

What must hold (issue 11): a reservation with a budget is still one synchronous, exact
transaction; the cooldown mark, set by this process or another, is still read before every
send; this process reads its own counts at once, another one within ``FLUSH_AFTER``; close,
a dropped store and a process exiting with the store open all write what is pending; and
clearing a provider is never undone by a later flush.
"""

import asyncio
import gc
import logging
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.state_file_observer import MONTH, Observer
from websearch_core.state import ProviderMark, SQLiteStore, StateStoreError, UsageGrant, UsageWindow
from websearch_core.state._pending import PendingUsage
from websearch_core.state.sqlite import FLUSH_AFTER

BUDGET = "budget:test"


def _uncapped() -> tuple[UsageWindow, ...]:
    return (UsageWindow(MONTH, time.time() + 600),)


def _capped(limit: int) -> tuple[UsageWindow, ...]:
    until = time.time() + 600
    return (UsageWindow(MONTH, until), UsageWindow(BUDGET, until, limit=limit))


async def _flushed(store: SQLiteStore) -> None:
    """Flush now, as the timer would, and return once the store's thread has run it."""
    store._flush_due()
    await store._run(lambda conn: None)


def _flush_threads(before: frozenset[threading.Thread] = frozenset()) -> list[threading.Thread]:
    """The flush threads alive now, but those in ``before`` (other tests' stores may live)."""
    return [
        t for t in threading.enumerate() if t.name == "websearch-state-flush" and t not in before
    ]


def _every_flush_thread() -> frozenset[threading.Thread]:
    return frozenset(_flush_threads())


async def test_concurrent_reservations_without_a_cap_are_one_write(
    path: Path, observer: Observer
) -> None:
    async with SQLiteStore(path) as store:
        await store.record_failure("tavily")  # opens the file: the writes below are counts
        before = observer.commits()
        grants = await asyncio.gather(
            *(store.reserve_unless_marked("brave", _uncapped(), time.time()) for _ in range(200))
        )
        assert sorted(g.counts[0] for g in grants) == list(range(1, 201))
        assert all(g.granted and g.mark is None for g in grants)
        assert await store.get_usage("brave", MONTH) == 200  # this process reads its own
        assert observer.count() == 0  # not written yet
        waited = observer.wait_for(200)  # another connection sees them within the interval
        assert waited < FLUSH_AFTER + 2
        assert observer.commits() == before + 1  # all 200 in one transaction
        assert await store.get_usage("brave", MONTH) == 200  # not counted twice
        later = await store.reserve_unless_marked("brave", _uncapped(), time.time())
        assert later.counts == (201,)


async def test_a_reservation_with_a_budget_is_written_before_it_returns(
    path: Path, observer: Observer
) -> None:
    async with SQLiteStore(path) as store:
        await store.record_failure("tavily")  # opens the file
        for expected in (1, 2):
            before = observer.commits()
            grant = await store.reserve_unless_marked("brave", _capped(2), time.time())
            assert (grant.granted, grant.counts) == (True, (expected, expected))
            assert observer.commits() == before + 1
            assert observer.count(period=BUDGET) == expected
        refused = await store.reserve_unless_marked("brave", _capped(2), time.time())
        assert (refused.granted, refused.counts) == (False, (2, 2))


async def test_a_synchronous_reservation_writes_the_pending_counts_with_it(
    path: Path, observer: Observer
) -> None:
    async with SQLiteStore(path) as store:
        for _ in range(3):
            await store.reserve_unless_marked("brave", _uncapped(), time.time())
        before = observer.commits()
        grant = await store.reserve_usage("brave", _capped(10))
        assert grant.counts == (4, 1)
        assert observer.count() == 4  # the three pending ones went with it, at once
        assert observer.commits() == before + 1
        assert await store.get_usage("brave", MONTH) == 4


async def test_a_mark_set_by_another_process_is_read_before_every_send(path: Path) -> None:
    now = time.time()
    async with SQLiteStore(path) as ours, SQLiteStore(path) as theirs:
        assert (await ours.reserve_unless_marked("brave", _uncapped(), now)).granted
        cooldown = ProviderMark("rate_limited", until=now + 60, reason="429 by test")
        await theirs.set_mark("brave", cooldown)
        marked = await ours.reserve_unless_marked("brave", _uncapped(), now)
        assert (marked.granted, marked.counts, marked.mark) == (False, (), cooldown)
        await theirs.clear_mark("brave")
        assert (await ours.reserve_unless_marked("brave", _uncapped(), now)).counts == (2,)
        assert await ours.get_usage("brave", MONTH) == 2  # the marked call counted nothing


async def test_the_failure_counter_is_read_with_the_mark(path: Path) -> None:
    async with SQLiteStore(path) as ours, SQLiteStore(path) as theirs:
        await theirs.record_failure("brave")
        await theirs.record_failure("brave")
        grant = await ours.reserve_unless_marked("brave", _uncapped(), time.time())
        assert (grant.granted, grant.failures) == (True, 2)


async def test_close_writes_what_is_pending_and_leaves_no_thread(
    path: Path, observer: Observer
) -> None:
    before = _every_flush_thread()
    store = SQLiteStore(path)
    for _ in range(5):
        await store.reserve_unless_marked("brave", _uncapped(), time.time())
    assert _flush_threads(before)  # the scheduled flush
    await store.aclose()
    assert observer.count() == 5  # written by close, not by the timer
    assert _flush_threads(before) == []


async def test_every_flush_is_scheduled_on_one_thread_kept_for_the_store(
    path: Path, observer: Observer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Scheduling a flush starts no thread but the first.

    A thread per flush (every ``FLUSH_AFTER`` under traffic): ``Thread.start`` returns once
    the new thread runs, and held the event loop, every search on it, that long (up to
    16.6 ms measured on a loaded machine).
    """
    monkeypatch.setattr("websearch_core.state.sqlite.FLUSH_AFTER", 0.02)
    started: list[str] = []
    start = threading.Thread.start

    def counted(thread: threading.Thread) -> None:
        started.append(thread.name)
        start(thread)

    monkeypatch.setattr(threading.Thread, "start", counted)
    async with SQLiteStore(path) as store:
        for expected in range(1, 6):
            await store.reserve_unless_marked("brave", _uncapped(), time.time())
            observer.wait_for(expected)  # each one written by a timed flush of its own
    assert started.count("websearch-state-flush") == 1


async def test_the_first_count_on_the_loops_thread_starts_no_thread(
    path: Path, observer: Observer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The flush's thread starts as the store opens its file, on the store's thread.

    With the result cache on (the default) a search's lookup opens the file, and its count
    is then the first arm, on the loop's thread: it started the alarm's thread there,
    0.14-2.5 ms in which no other search moved (``bench_flush_stall.py --cache``, load 9).
    """
    loop_thread = threading.get_ident()
    started_here: list[str] = []
    start = threading.Thread.start

    def watched(thread: threading.Thread) -> None:
        if threading.get_ident() == loop_thread:
            started_here.append(thread.name)
        start(thread)

    monkeypatch.setattr(threading.Thread, "start", watched)
    async with SQLiteStore(path) as store:
        assert await store.cache_get("absent", time.time()) is None  # opens the file
        started_here.clear()  # the store's own worker, started by that first call
        await store.reserve_unless_marked("brave", _uncapped(), time.time())  # inline: armed
        assert started_here == []
        await store.cache_set("k", b"v", now=time.time(), ttl=60.0, keep_stale_for=0.0)
        assert started_here == []
    assert observer.count() == 1


async def test_a_flush_comes_no_sooner_than_its_delay(
    path: Path, observer: Observer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("websearch_core.state.sqlite.FLUSH_AFTER", 0.3)
    async with SQLiteStore(path) as store:
        await store.get_usage("brave", MONTH)  # opens the file
        for expected in (1, 2):  # each arm only wakes the thread (started as the file opened)
            counted = time.monotonic()
            await store.reserve_unless_marked("brave", _uncapped(), time.time())
            observer.wait_for(expected)
            assert time.monotonic() - counted >= 0.3


async def test_a_count_given_back_before_its_flush_is_never_written(
    path: Path, observer: Observer
) -> None:
    async with SQLiteStore(path) as store:
        for _ in range(2):
            await store.reserve_unless_marked("brave", _uncapped(), time.time())
        await store.release_usage("brave", _uncapped())
        assert await store.get_usage("brave", MONTH) == 1
    assert observer.count() == 1


async def test_a_count_already_written_is_given_back_in_the_file(
    path: Path, observer: Observer
) -> None:
    async with SQLiteStore(path) as store:
        for _ in range(2):
            await store.reserve_unless_marked("brave", _uncapped(), time.time())
        observer.wait_for(2)
        await store.release_usage("brave", _uncapped())
        assert observer.count() == 1
        await store.release_usage("brave", _uncapped())
        await store.release_usage("brave", _uncapped())  # never below zero
        assert await store.get_usage("brave", MONTH) == 0


async def test_clearing_a_provider_drops_its_pending_counts(path: Path, observer: Observer) -> None:
    async with SQLiteStore(path) as store:
        for provider in ("brave", "tavily"):
            await store.reserve_unless_marked(provider, _uncapped(), time.time())
        await store.clear("brave")
        assert await store.get_usage("brave", MONTH) == 0
        assert await store.get_usage("tavily", MONTH) == 1
        await store.reserve_unless_marked("exa", _uncapped(), time.time())
        await store.clear_all()
        assert await store.get_usage("exa", MONTH) == 0
    assert (observer.count("brave"), observer.count("tavily"), observer.count("exa")) == (0, 0, 0)


async def test_a_flush_waiting_for_another_writer_leaves_reservations_inline(
    path: Path, observer: Observer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While a flush waits for another process's write lock, searches reserve at once.

    Only a batch being written leaves inline readers unsure of what the file holds; the
    flush takes it once it holds the lock, so until then a reservation neither queues
    behind the waiting flush nor is lost: the flush writes it too.
    """
    monkeypatch.setattr("websearch_core.state.sqlite.FLUSH_AFTER", 3600.0)  # flushed by hand
    async with SQLiteStore(path, busy_timeout=30.0) as store:
        await store.reserve_unless_marked("brave", _uncapped(), time.time())  # 1 pending
        begun = threading.Event()

        def trace(statement: str) -> None:
            if statement == "BEGIN IMMEDIATE":
                begun.set()

        await store._run(lambda conn: conn.set_trace_callback(trace))
        observer.conn.execute("BEGIN IMMEDIATE")  # another process is writing
        try:
            store._flush_due()
            assert await asyncio.to_thread(begun.wait, 10)  # the flush waits for the lock
            grants = [
                await asyncio.wait_for(
                    store.reserve_unless_marked("brave", _uncapped(), time.time()), 10
                )
                for _ in range(3)
            ]
        finally:
            observer.conn.execute("ROLLBACK")
        assert [grant.counts for grant in grants] == [(2,), (3,), (4,)]
        await store._run(lambda conn: conn.set_trace_callback(None))  # after the flush
        assert observer.count() == 4  # the flush took what came while it waited
        assert await store.get_usage("brave", MONTH) == 4  # and nothing twice
    assert observer.count() == 4


async def test_a_flush_that_never_got_the_lock_keeps_the_counts_and_tries_again(
    path: Path,
    observer: Observer,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setattr("websearch_core.state.sqlite.FLUSH_AFTER", 0.05)
    caplog.set_level(logging.DEBUG, logger="websearch_core.state")
    async with SQLiteStore(path, busy_timeout=0.05) as store:
        await store.get_usage("brave", MONTH)  # opens the file
        observer.conn.execute("BEGIN IMMEDIATE")  # holds the lock past the busy timeout
        try:
            await store.reserve_unless_marked("brave", _uncapped(), time.time())
            gave_up = "pending usage counts and cache entries not written yet"
            started = time.monotonic()
            while gave_up not in caplog.text:  # the timed flush has given up
                assert time.monotonic() - started < 10, "no flush gave up"
                await asyncio.sleep(0.01)
            assert await store.get_usage("brave", MONTH) == 1  # still pending, counted once
        finally:
            observer.conn.execute("ROLLBACK")
        observer.wait_for(1)  # nothing else came: the failed flush scheduled this one
        assert await store.get_usage("brave", MONTH) == 1  # not counted twice
    assert observer.count() == 1


def test_counts_stay_exact_while_flushes_race_reservations_from_several_threads(
    path: Path, observer: Observer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Readers that overlap a flush read again on the store's thread: no count lost or doubled."""
    monkeypatch.setattr("websearch_core.state.sqlite.FLUSH_AFTER", 0.0005)  # flush all the time
    store = SQLiteStore(path)
    counts: list[int] = []

    async def reserve_many() -> None:
        for _ in range(150):
            grant = await store.reserve_unless_marked("brave", _uncapped(), time.time())
            counts.append(grant.counts[0])

    workers = [threading.Thread(target=asyncio.run, args=(reserve_many(),)) for _ in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)
    assert sorted(counts) == list(range(1, 601))  # each saw a distinct, whole count
    assert asyncio.run(store.get_usage("brave", MONTH)) == 600
    asyncio.run(store.aclose())
    assert observer.count() == 600


def test_the_flush_needs_no_running_event_loop(path: Path, observer: Observer) -> None:
    """The sync bridge's loop ends with its call: the counts are written all the same."""
    store = SQLiteStore(path)
    for _ in range(3):
        asyncio.run(store.reserve_unless_marked("brave", _uncapped(), time.time()))
    observer.wait_for(3)  # no loop runs while this waits
    asyncio.run(store.aclose())


def test_a_dropped_store_writes_what_it_owes_and_ends_its_flush_thread(
    path: Path, observer: Observer, flushed_by_hand: None
) -> None:
    before = _every_flush_thread()
    store = SQLiteStore(path)
    asyncio.run(store.reserve_unless_marked("brave", _uncapped(), time.time()))
    [flush_thread] = _flush_threads(before)  # its flush is an hour away
    store._executor.shutdown(wait=True)
    del store
    gc.collect()
    assert observer.count() == 1  # the finalizer wrote it
    # The thread waiting for that flush held the store until then (an hour, here).
    flush_thread.join(timeout=10)
    assert not flush_thread.is_alive()


_EXIT_OPEN = """
import asyncio, sys, time
from pathlib import Path
from websearch_core.state import SQLiteStore, UsageWindow

store = SQLiteStore(Path(sys.argv[1]))
window = (UsageWindow("month:test", time.time() + 600),)
for _ in range(7):
    asyncio.run(store.reserve_unless_marked("brave", window, time.time()))
"""


def test_a_process_exiting_with_the_store_open_writes_what_it_owes(
    path: Path, observer: Observer
) -> None:
    subprocess.run([sys.executable, "-c", _EXIT_OPEN, str(path)], check=True, timeout=60)
    assert observer.count() == 7


_EXIT_MID_FLUSH = """
import asyncio, atexit, sys, threading, time
from pathlib import Path
from websearch_core.state import SQLiteStore, UsageWindow

store = SQLiteStore(Path(sys.argv[1]))
window = (UsageWindow("month:test", time.time() + 600),)
for _ in range(7):
    asyncio.run(store.reserve_unless_marked("brave", window, time.time()))
at_commit, exiting = threading.Event(), threading.Event()

def slow_disk(statement):
    # The flush holds its batch: taken, not committed. It goes on once the process is
    # exiting, a moment later (a slow disk's fsync), as the exit's flush runs.
    if statement == "COMMIT" and not at_commit.is_set():
        at_commit.set()
        exiting.wait(10)
        time.sleep(0.3)

asyncio.run(store._run(lambda conn: conn.set_trace_callback(slow_disk)))
atexit.register(exiting.set)  # runs before the store's finalizer (registered earlier)
store._flush_due()  # the timed flush, now
assert at_commit.wait(10)
"""


def test_a_process_exiting_mid_flush_still_writes_that_batch(
    path: Path, observer: Observer
) -> None:
    # The exit's flush (the store's finalizer) found nothing pending, since the batch was
    # taken, and the process ended before the store's thread committed it: 0 of 7 counts.
    # It now waits for the batch under way, within its own bound (ORPHAN_FLUSH_WAIT).
    subprocess.run([sys.executable, "-c", _EXIT_MID_FLUSH, str(path)], check=True, timeout=60)
    assert observer.count() == 7


_FORK = """
import asyncio, os, sys, time
from pathlib import Path
from websearch_core.state import SQLiteStore, UsageWindow

store = SQLiteStore(Path(sys.argv[1]))
window = (UsageWindow("month:test", time.time() + 600),)
asyncio.run(store.reserve_unless_marked("brave", window, time.time()))
child = os.fork()
if child == 0:
    sys.exit(0)  # an ordinary exit: the finalizer runs here too
os.waitpid(child, 0)
asyncio.run(store.aclose())
"""


def test_a_forked_child_never_writes_its_parents_pending_counts(
    path: Path, observer: Observer
) -> None:
    subprocess.run([sys.executable, "-c", _FORK, str(path)], check=True, timeout=60)
    assert observer.count() == 1


_FORK_AND_USE = """
import asyncio, os, sys, time
from pathlib import Path
from websearch_core.state import SQLiteStore, UsageWindow

store = SQLiteStore(Path(sys.argv[1]))
window = (UsageWindow("month:test", time.time() + 600),)
asyncio.run(store.reserve_unless_marked("brave", window, time.time()))
child = os.fork()
if child == 0:  # gunicorn --preload, Celery prefork: the worker goes on with the store
    for _ in range(3):
        asyncio.run(store.reserve_unless_marked("brave", window, time.time()))
    sys.exit(0)  # left open: the child's own counts are written at its exit
_, status = os.waitpid(child, 0)
assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
asyncio.run(store.reserve_unless_marked("brave", window, time.time()))
asyncio.run(store.aclose())
"""


_FORK_TIMED_FLUSH = """
import asyncio, os, sqlite3, sys, time
from pathlib import Path
from websearch_core.state import SQLiteStore, UsageWindow

path = Path(sys.argv[1])
store = SQLiteStore(path)
window = (UsageWindow("month:test", time.time() + 600),)
asyncio.run(store.reserve_unless_marked("brave", window, time.time()))  # the parent's alarm runs
child = os.fork()
if child == 0:
    asyncio.run(store.reserve_unless_marked("brave", window, time.time()))
    reader = sqlite3.connect(path)
    ends = time.monotonic() + 10
    while time.monotonic() < ends:  # the parent's count and this one, by timed flushes
        if reader.execute("SELECT count FROM usage").fetchone() == (2,):
            os._exit(0)  # no finalizer: only the child's timed flush wrote its count
        time.sleep(0.02)
    os._exit(1)
_, status = os.waitpid(child, 0)
assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
asyncio.run(store.aclose())
"""


def test_a_forked_child_schedules_its_flushes_on_a_thread_of_its_own(
    path: Path, observer: Observer
) -> None:
    # The child's copy of the parent's alarm believes its thread runs: armed there, no
    # flush would ever come (only the exit's, which this child skips).
    subprocess.run([sys.executable, "-c", _FORK_TIMED_FLUSH, str(path)], check=True, timeout=60)
    assert observer.count() == 2


def test_a_forked_child_uses_the_store_on_threads_of_its_own(
    path: Path, observer: Observer
) -> None:
    # The child's copy of the store's pool has no threads: without new ones, its first
    # queued call (opening the connection) waited forever.
    subprocess.run([sys.executable, "-c", _FORK_AND_USE, str(path)], check=True, timeout=60)
    assert observer.count() == 5


def _script_output(script: str, path: Path, *, timeout: float) -> str:
    """What ``script`` prints, run in a fresh interpreter on ``path`` from the project's root.

    A fork must happen in a process of its own: pytest's threads would be copied into it.
    """
    done = subprocess.run(
        [sys.executable, "-c", script, str(path)],
        check=True,
        timeout=timeout,
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    return done.stdout.strip()


_FORK_READS_PARENT = """
import asyncio, multiprocessing, sys, time
from pathlib import Path
from websearch_core.state import SQLiteStore, UsageWindow

store = SQLiteStore(Path(sys.argv[1]))
window = (UsageWindow("month:test", time.time() + 600),)
now = time.time()


async def parent_writes():
    await store.reserve_unless_marked("brave", window, now)
    await store.cache_set("k", b"answer", now=now, ttl=600, keep_stale_for=0)


async def child_reads():
    usage = await store.get_usage("brave", "month:test")
    hit = await store.cache_get("k", time.time())
    return usage, None if hit is None else hit.value


def child(queue):
    queue.put(asyncio.run(child_reads()))


asyncio.run(parent_writes())  # both held in memory: no flush is due for 0.5 s
forked = multiprocessing.get_context("fork")
queue = forked.Queue()
worker = forked.Process(target=child, args=(queue,))
worker.start()
print(queue.get(timeout=30))
worker.join(30)
assert worker.exitcode == 0, worker.exitcode
asyncio.run(store.aclose())
"""


def test_a_forked_child_reads_what_its_parent_held_in_memory(
    path: Path, observer: Observer
) -> None:
    # gunicorn --preload, multiprocessing's "fork": the child's memory starts empty (the
    # parent's pending writes are the parent's to write), so without a flush before the
    # fork the child read no count and missed the entry its parent had just cached.
    done = _script_output(_FORK_READS_PARENT, path, timeout=60)
    assert done == "(1, b'answer')"
    assert observer.count() == 1  # written once: by the parent before the fork, not again


_FORK_BEHIND_A_LOCK = """
import asyncio, multiprocessing, sys, time
from pathlib import Path
import websearch_core.state.sqlite as sqlite_store
from tests.sqlite_holder import held_by_another_process
from websearch_core.state import SQLiteStore, UsageWindow

sqlite_store.FORK_FLUSH_WAIT = 5.0  # what a fork waiting for the lock would wait
path = Path(sys.argv[1])
store = SQLiteStore(path)
window = (UsageWindow("month:test", time.time() + 600),)
now = time.time()


async def parent_writes():
    await store.reserve_unless_marked("brave", window, now)
    await store.cache_set("k", b"answer", now=now, ttl=600, keep_stale_for=0)


async def child_reads():
    hit = await store.cache_get("k", time.time())
    missed = await store.cache_get("other", time.time())
    return None if hit is None else hit.value, missed


def child(queue):
    queue.put(asyncio.run(child_reads()))


asyncio.run(parent_writes())  # both held in memory: no flush is due for 0.5 s
forked = multiprocessing.get_context("fork")
queue = forked.Queue()
with held_by_another_process(path) as held:
    worker = forked.Process(target=child, args=(queue,))
    started = time.monotonic()
    worker.start()
    took = time.monotonic() - started
    print(queue.get(timeout=30), took < 2.5)
    held.release()
worker.join(30)
assert worker.exitcode == 0, worker.exitcode
asyncio.run(store.aclose())
"""


def test_a_fork_behind_another_process_lock_neither_waits_nor_hides_the_parents_answer(
    path: Path, observer: Observer
) -> None:
    # The flush before the fork waited for the lock (FORK_FLUSH_WAIT), then gave up: the
    # fork was that much later and its child missed the answer its parent had cached.
    done = _script_output(_FORK_BEHIND_A_LOCK, path, timeout=60)
    assert done == "(b'answer', None) True"
    assert observer.value("k") == b"answer"  # the parent wrote them, once the lock was free
    assert observer.count() == 1


_FORK_WINDOW = """
import asyncio, multiprocessing, os, sys, time
from pathlib import Path
import websearch_core.state.sqlite as sqlite_store
from tests.sqlite_holder import held_by_another_process
from websearch_core.state import SQLiteStore, UsageWindow

path = Path(sys.argv[1])
store = SQLiteStore(path)
window = (UsageWindow("month:test", time.time() + 600),)
now = time.time()
WEEK = 7 * 86400


class Later:
    # The store's clock a minute after the fork, the parent's flush still behind the lock.
    def __getattr__(self, name):
        return getattr(time, name)

    def monotonic(self):
        return time.monotonic() + 60


async def flushed():
    store._flush_due()
    await store._run(lambda conn: None)


async def parent_writes():
    await store.cache_set("s", b"stale", now=now - 1000, ttl=60, keep_stale_for=WEEK)
    await flushed()  # the file holds an old answer of "s", stale now


async def parent_holds():  # the lock held elsewhere: all three stay in memory
    await store.reserve_unless_marked("brave", window, now)
    await store.cache_set("k", b"answer", now=now, ttl=600, keep_stale_for=0)
    await store.cache_set("s", b"fresh", now=now, ttl=600, keep_stale_for=WEEK)


async def parent_writes_newer():
    await store.cache_set("k", b"newer", now=now + 1, ttl=600, keep_stale_for=0)
    await store.aclose()


async def value(key, **kwargs):
    hit = await store.cache_get(key, time.time(), **kwargs)
    return None if hit is None else hit.value


async def child_reads(to_parent, to_child):
    seen = [await store.get_usage("brave", "month:test"), await value("k")]
    seen.append(await value("s", allow_stale=True))  # the parent's fresh one, not the file's
    sqlite_store.time = Later()
    seen.append(await value("k"))  # a minute on, still unwritten: still the parent's
    to_parent.put("release")
    ends = time.monotonic() + 20
    while await store.get_usage("brave", "month:test") != 1 and time.monotonic() < ends:
        await asyncio.sleep(0.05)  # the parent's flush, once the lock is free
    seen.append(await store.get_usage("brave", "month:test"))
    seen += [await value("k"), "k" in store._inherited]  # the file answers: let go
    to_parent.put("flushed")
    to_child.get(timeout=30)
    seen.append(await value("k"))  # a later write in the file: it, not what was inherited
    return seen


def child(to_parent, to_child, holder_stdin):
    os.close(holder_stdin)  # the parent's end of the lock holder's stdin: the parent's to close
    to_parent.put(asyncio.run(child_reads(to_parent, to_child)))


asyncio.run(parent_writes())
forked = multiprocessing.get_context("fork")
to_parent, to_child = forked.Queue(), forked.Queue()
with held_by_another_process(path) as held:
    asyncio.run(parent_holds())
    worker = forked.Process(target=child, args=(to_parent, to_child, held.stdin_fd()))
    worker.start()
    assert to_parent.get(timeout=30) == "release"
    held.release()
assert to_parent.get(timeout=30) == "flushed"
asyncio.run(parent_writes_newer())
to_child.put("written")
print(to_parent.get(timeout=30))
worker.join(30)
assert worker.exitcode == 0, worker.exitcode
"""


def test_a_forked_child_reads_its_parents_unwritten_answers_until_the_file_holds_them(
    path: Path, observer: Observer
) -> None:
    # Forked behind another process's lock, the child read its parent's unwritten answers
    # for 30 s only: a parent's flush later than that (the lock held longer) and the child
    # asked the same search again; and an older answer of the file, stale but allowed,
    # was preferred to the parent's fresh one (stop 39). The counts, statistics only,
    # reach the child with the parent's flush.
    done = _script_output(_FORK_WINDOW, path, timeout=120)
    before_flush = [0, b"answer", b"fresh", b"answer"]
    after_flush = [1, b"answer", False, b"newer"]
    assert done == repr(before_flush + after_flush)
    assert observer.value("s") == b"fresh"


def test_pending_counts_refuse_a_reader_that_raced_a_flush() -> None:
    """A read of the file from before a flush plus the pending counts would miss a batch."""
    pending = PendingUsage()
    window = ((MONTH, time.time() + 600),)
    start = pending.generation
    assert pending.add("brave", window, start) == (True, [1])
    assert pending.add("brave", window, start) == (False, [2])
    batch = pending.take()  # a flush begins: what readers read may or may not hold it
    during = pending.generation  # a reader starting now may read the file before the commit
    assert pending.add("brave", window, start) is None
    assert pending.add("brave", window, pending.generation) is None  # still being written
    assert pending.count("brave", MONTH, time.time(), pending.generation) is None
    pending.settle()
    assert pending.add("brave", window, start) is None  # read before the flush ended
    assert pending.add("brave", window, during) is None  # read while it was written
    assert pending.count("brave", MONTH, time.time(), during) is None
    assert pending.add("brave", window, pending.generation) == (False, [1])
    assert pending.add("brave", window, None) == (False, [2])  # on the flushing thread
    assert pending.count("brave", MONTH, time.time(), None) == 2
    assert pending.count("brave", MONTH, time.time() + 601, None) == 0  # expired
    assert batch[("brave", MONTH)].count == 2


def test_pending_counts_put_back_after_a_failed_write_merge_with_new_ones() -> None:
    pending = PendingUsage()
    window = ((MONTH, time.time() + 600),)
    pending.add("brave", window, None)
    pending.disarm()  # the timer fired
    batch = pending.take()
    pending.add("brave", window, None)  # arms the next flush
    assert pending.restore(batch) is False  # already armed
    assert pending.count("brave", MONTH, time.time(), pending.generation) == 2
    assert pending.give_back("brave", [MONTH]) and not pending.give_back("tavily", [MONTH])
    assert pending.count("brave", MONTH, time.time(), None) == 1


def test_pending_counts_keep_each_count_s_time_through_a_failed_write_and_a_give_back() -> None:
    # A reset drops, from a count written late, the increments made before it: the times
    # must follow the counts, put back before the newer ones, the one given back last.
    pending = PendingUsage()
    window = ((MONTH, time.time() + 600),)
    pending.add("brave", window, None, 10.0)
    batch = pending.take()
    pending.add("brave", window, None, 30.0)
    pending.add("brave", window, None, 40.0)
    pending.restore(batch)  # the write failed: the count of 10.0 is owed again, first
    assert pending.give_back("brave", [MONTH])  # the latest count (40.0) was not sent
    (entry,) = pending.take().values()
    times = entry.counted_at
    assert (entry.count, times.timed(), times.made_by(29.0), times.made_by(30.0)) == (2, 2, 1, 2)


class CommitRefusal:
    """Makes the next ``COMMIT`` of the store's connections fail, as a full disk would.

    SQLite's authorizer refuses a statement when it is prepared (setting one expires the
    connection's cached statements, so ``COMMIT`` is prepared again): the transaction is
    left open, as after a real failed commit, and the error is a plain ``sqlite3`` one.
    """

    def __init__(self) -> None:
        self.refused = 0
        self._armed = threading.Event()

    def arm(self) -> None:
        self._armed.set()

    def _authorize(self, action: int, arg1: str | None, *_: object) -> int:
        if action == sqlite3.SQLITE_TRANSACTION and arg1 == "COMMIT" and self._armed.is_set():
            self._armed.clear()
            self.refused += 1
            return sqlite3.SQLITE_DENY
        return sqlite3.SQLITE_OK

    async def install(self, store: SQLiteStore) -> None:
        """On both connections: the store's thread's and the inline one (opened by now)."""
        assert store._inline is not None
        store._inline.set_authorizer(self._authorize)
        await store._run(lambda conn: conn.set_authorizer(self._authorize))

    @classmethod
    async def armed_on(cls, store: SQLiteStore) -> "CommitRefusal":
        """Installed on ``store``'s connections and armed: its next ``COMMIT`` fails."""
        refusal = cls()
        await refusal.install(store)
        refusal.arm()
        return refusal


async def _three_pending(store: SQLiteStore) -> None:
    """Three counts held in memory; the second and third reservations ran inline."""
    for _ in range(3):
        await store.reserve_unless_marked("brave", _uncapped(), time.time())


async def test_a_reservation_whose_commit_fails_keeps_the_pending_counts(
    path: Path, observer: Observer, flushed_by_hand: None
) -> None:
    """The counts it took to write with it are owed still: neither lost nor counted twice."""
    async with SQLiteStore(path) as store:
        await _three_pending(store)
        refusal = await CommitRefusal.armed_on(store)
        with pytest.raises(StateStoreError):
            await store.reserve_usage("brave", _capped(10))
        assert refusal.refused == 1
        assert observer.count() == 0
        assert await store.get_usage("brave", MONTH) == 3
        grant = await store.reserve_usage("brave", _capped(10))
        assert grant.counts == (4, 1)
        assert observer.count() == 4
    assert observer.count() == 4


def _read_while_a_commit_is_held(store: SQLiteStore, write: Callable[[], object]) -> int:
    """What ``get_usage`` answers on another thread while ``write``'s ``COMMIT`` is held.

    ``write`` runs on a thread of its own and is held just before its first ``COMMIT``
    (on whichever connection it runs); a reader starts meanwhile and is given half a
    second to answer before the ``COMMIT`` goes on. Code that lets a reader answer then
    must give a whole count; code that makes it wait answers after the ``COMMIT``.
    """
    at_commit = threading.Event()
    go_on = threading.Event()

    def trace(statement: str) -> None:
        if statement == "COMMIT" and not at_commit.is_set():
            at_commit.set()
            go_on.wait(10)

    assert store._inline is not None
    store._inline.set_trace_callback(trace)
    asyncio.run(store._run(lambda conn: conn.set_trace_callback(trace)))
    read: list[int] = []
    writer = threading.Thread(target=write)
    reader = threading.Thread(
        target=lambda: read.append(asyncio.run(store.get_usage("brave", MONTH)))
    )
    writer.start()
    try:
        assert at_commit.wait(10)
        reader.start()
        reader.join(0.5)
    finally:
        go_on.set()
        writer.join(10)
        reader.join(10)
    return read[0]


def test_a_reader_never_sees_counts_taken_for_a_commit_not_made_yet(
    path: Path, observer: Observer, flushed_by_hand: None
) -> None:
    """Between the take of the pending counts and the COMMIT, they are in neither place.

    A reader while the reservation's COMMIT is held must count the three pending counts
    (before the reservation: 3, after it: 4). The code this was written against answered
    at once, from the store's thread, with 0.
    """
    store = SQLiteStore(path)
    asyncio.run(_three_pending(store))
    grants: list[UsageGrant] = []

    def reserve() -> None:
        grants.append(asyncio.run(store.reserve_usage("brave", _capped(10))))

    assert _read_while_a_commit_is_held(store, reserve) in (3, 4)
    assert [grant.counts for grant in grants] == [(4, 1)]
    asyncio.run(store.aclose())
    assert observer.count() == 4


async def test_a_flush_whose_commit_fails_leaves_its_counts_to_the_next_one(
    path: Path, observer: Observer, flushed_by_hand: None
) -> None:
    """A failed COMMIT is rolled back: the connection can write again, and nothing twice."""
    async with SQLiteStore(path) as store:
        await _three_pending(store)
        refusal = await CommitRefusal.armed_on(store)
        await _flushed(store)  # the flush has run, and failed
        assert refusal.refused == 1
        assert observer.count() == 0
        assert await store.get_usage("brave", MONTH) == 3
        await _flushed(store)
        assert observer.count() == 3
        assert await store.get_usage("brave", MONTH) == 3
    assert observer.count() == 3


async def test_a_clear_whose_commit_fails_keeps_the_pending_counts(
    path: Path, observer: Observer, flushed_by_hand: None
) -> None:
    """A clear that did not happen forgets nothing: the file's counts and the pending ones."""
    async with SQLiteStore(path) as store:
        await _three_pending(store)
        await _flushed(store)
        assert observer.count() == 3
        await _three_pending(store)  # three in the file, three pending
        refusal = await CommitRefusal.armed_on(store)
        with pytest.raises(StateStoreError):
            await store.clear("brave")
        assert refusal.refused == 1
        assert await store.get_usage("brave", MONTH) == 6
        await store.clear("brave")
        assert await store.get_usage("brave", MONTH) == 0
    assert observer.count() == 0


def test_a_reader_never_sees_a_clear_half_made(
    path: Path, observer: Observer, flushed_by_hand: None
) -> None:
    """While a clear is held before its COMMIT, a reader counts all six or none.

    Three counts in the file, three pending: the clear forgets the pending ones and deletes
    the row in one transaction. A reader may answer before it (6) or after it (0), never
    with the file's old row and none of the pending counts (3).
    """
    store = SQLiteStore(path)
    asyncio.run(_three_pending(store))
    asyncio.run(_flushed(store))
    asyncio.run(_three_pending(store))
    assert observer.count() == 3
    assert _read_while_a_commit_is_held(store, lambda: asyncio.run(store.clear("brave"))) in (6, 0)
    assert asyncio.run(store.get_usage("brave", MONTH)) == 0
    asyncio.run(store.aclose())
    assert observer.count() == 0
