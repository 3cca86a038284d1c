"""The state stores' thread pool: calls in order, daemon threads, shutdown as the standard one."""

import threading
from concurrent.futures import CancelledError

import pytest

from websearch_core.state._workers import DaemonPool


def test_calls_run_in_order_on_daemon_threads_and_are_counted_until_done() -> None:
    pool = DaemonPool(1, "test-pool")
    gate = threading.Event()
    seen: list[int] = []
    first = pool.submit(gate.wait, 10)
    rest = [pool.submit(seen.append, n) for n in range(5)]
    assert pool.unfinished == 6  # one running, five queued behind it
    gate.set()
    assert first.result(timeout=10) is True
    for future in rest:
        future.result(timeout=10)
    assert seen == [0, 1, 2, 3, 4]
    assert pool.unfinished == 0
    (thread,) = [t for t in threading.enumerate() if t.name == "test-pool_0"]
    assert thread.daemon  # a call stuck on a store never holds the process at exit
    pool.shutdown(wait=True)
    assert not thread.is_alive()


def test_an_error_reaches_the_caller() -> None:
    pool = DaemonPool(2, "test-pool-errors")
    future = pool.submit(int, "not a number")
    with pytest.raises(ValueError, match="invalid literal"):
        future.result(timeout=10)
    pool.shutdown(wait=True)


def test_shutdown_refuses_new_calls_and_can_cancel_the_queued_ones() -> None:
    pool = DaemonPool(1, "test-pool-cancel")
    gate = threading.Event()
    running = pool.submit(gate.wait, 10)
    queued = pool.submit(lambda: "ran")
    pool.shutdown(wait=False, cancel_futures=True)
    with pytest.raises(RuntimeError, match="after shutdown"):
        pool.submit(lambda: None)
    gate.set()
    assert running.result(timeout=10) is True  # begun: not withdrawn
    with pytest.raises(CancelledError):
        queued.result(timeout=10)
    pool.shutdown(wait=True)  # a second shutdown waits for the threads all the same
    assert pool.unfinished == 0


def test_threads_start_as_calls_need_them_up_to_the_maximum() -> None:
    pool = DaemonPool(3, "test-pool-grow")
    gate = threading.Event()
    futures = [pool.submit(gate.wait, 10) for _ in range(5)]
    names = {t.name for t in threading.enumerate() if t.name.startswith("test-pool-grow_")}
    assert names == {"test-pool-grow_0", "test-pool-grow_1", "test-pool-grow_2"}
    gate.set()
    assert all(f.result(timeout=10) for f in futures)
    pool.shutdown(wait=True)
