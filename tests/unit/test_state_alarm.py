"""The alarm behind the SQLite store's timed flush: one thread, rung once per arm.

What must hold: a ring per arm, never sooner than its delay, all on the one thread the
first arm started; a ring that raises does not silence the next; close ends the thread
(even from a ring) and later arms do nothing; an owner dropped unclosed is collected and
its alarm's thread ends.
"""

import logging
import threading
import time

import pytest

from websearch_core.state._alarm import Alarm

WAIT = 10.0


class Owner:
    """Counts its rings and the threads they ran on; can raise or close from a ring."""

    def __init__(self) -> None:
        self.alarm = Alarm(self.ring, "test-alarm")
        self.rang = threading.Semaphore(0)
        self.threads: list[int] = []
        self.raise_next = False
        self.close_on_ring = False

    def ring(self) -> None:
        self.threads.append(threading.get_ident())
        self.rang.release()
        if self.close_on_ring:
            self.alarm.close()
        if self.raise_next:
            self.raise_next = False
            raise RuntimeError("the ring failed")


def test_each_arm_rings_once_no_sooner_than_its_delay_on_one_thread() -> None:
    owner = Owner()
    for _ in range(3):
        armed = time.monotonic()
        owner.alarm.arm(0.05)
        assert owner.rang.acquire(timeout=WAIT)
        assert time.monotonic() - armed >= 0.05
    assert not owner.rang.acquire(timeout=0.2)  # once per arm
    assert len(owner.threads) == 3
    assert owner.threads == [owner.threads[0]] * 3  # the thread the first arm started
    assert owner.threads[0] != threading.get_ident()
    owner.alarm.close()


def test_a_sooner_arm_brings_the_ring_forward_and_a_later_one_does_not_delay_it() -> None:
    owner = Owner()
    owner.alarm.arm(3600)
    owner.alarm.arm(0.01)
    assert owner.rang.acquire(timeout=WAIT)
    owner.alarm.arm(0.01)
    owner.alarm.arm(3600)
    assert owner.rang.acquire(timeout=WAIT)
    assert not owner.alarm.armed
    owner.alarm.close()


def test_a_ring_that_raises_is_logged_and_the_next_arm_still_rings(
    caplog: pytest.LogCaptureFixture,
) -> None:
    owner = Owner()
    owner.raise_next = True
    owner.alarm.arm(0.0)
    assert owner.rang.acquire(timeout=WAIT)
    owner.alarm.arm(0.0)
    assert owner.rang.acquire(timeout=WAIT)
    owner.alarm.close()
    assert [r.levelno for r in caplog.records] == [logging.ERROR]
    assert "the ring failed" in caplog.text


def test_close_drops_the_ring_due_ends_the_thread_and_later_arms_do_nothing() -> None:
    owner = Owner()
    owner.alarm.arm(3600)
    thread = owner.alarm.thread
    assert thread is not None and thread.is_alive()
    owner.alarm.close()
    assert not thread.is_alive()  # close waited for it
    assert not owner.alarm.armed
    owner.alarm.arm(0.0)
    assert not owner.rang.acquire(timeout=0.2)
    assert owner.alarm.thread is thread  # no new thread either


def test_a_ring_may_close_its_own_alarm(caplog: pytest.LogCaptureFixture) -> None:
    owner = Owner()
    owner.close_on_ring = True
    owner.alarm.arm(0.0)
    assert owner.rang.acquire(timeout=WAIT)
    thread = owner.alarm.thread
    assert thread is not None
    thread.join(timeout=WAIT)
    assert not thread.is_alive()
    assert caplog.records == []  # it did not try to wait for itself


def test_an_owner_dropped_unclosed_is_collected_and_its_thread_ends() -> None:
    owner = Owner()
    owner.alarm.arm(3600)  # the thread waits an hour for the ring
    thread = owner.alarm.thread
    assert thread is not None
    del owner  # no cycle: collected at once, its alarm with it
    thread.join(timeout=WAIT)
    assert not thread.is_alive()


def test_a_started_alarm_rings_on_the_thread_it_started_and_never_unarmed() -> None:
    owner = Owner()
    owner.alarm.start()
    thread = owner.alarm.thread
    assert thread is not None and thread.is_alive()
    assert not owner.rang.acquire(timeout=0.1)  # started, not armed: no ring
    owner.alarm.start()  # once only
    owner.alarm.arm(0.01)
    assert owner.rang.acquire(timeout=WAIT)
    assert owner.alarm.thread is thread and owner.threads == [thread.ident]
    owner.alarm.close()
    assert not thread.is_alive()
    closed = Owner()
    closed.alarm.close()
    closed.alarm.start()  # closed: nothing starts
    assert closed.alarm.thread is None
