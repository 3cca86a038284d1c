"""A clear given up on is withdrawn unless it had started, and the reset's words say which."""

import threading

import pytest

from websearch_core.state._withdrawal import Withdrawal, WithdrawnError
from websearch_core.state.base import StateStoreError, StateStoreTimeoutError
from websearch_core.status import not_cleared


def test_a_write_withdrawn_before_it_starts_is_never_made() -> None:
    withdrawal = Withdrawal()
    made: list[str] = []
    assert withdrawal.withdraw()
    with pytest.raises(WithdrawnError):
        withdrawal.guard(made.append)("row")
    assert made == []
    assert withdrawal.withdraw()  # asking again gives the same answer


def test_a_write_that_started_cannot_be_withdrawn() -> None:
    withdrawal = Withdrawal()
    made: list[str] = []
    withdrawal.guard(made.append)("row")
    assert made == ["row"]
    assert not withdrawal.withdraw()


def test_racing_threads_agree_on_who_came_first() -> None:
    for _ in range(200):
        withdrawal = Withdrawal()
        results: dict[str, bool] = {}
        gate = threading.Barrier(2)

        def start(
            w: Withdrawal = withdrawal, r: dict[str, bool] = results, g: threading.Barrier = gate
        ) -> None:
            g.wait()
            r["started"] = w.start()

        thread = threading.Thread(target=start)
        thread.start()
        gate.wait()
        results["withdrawn"] = withdrawal.withdraw()
        thread.join()
        assert results["started"] != results["withdrawn"]


def test_the_reset_says_not_cleared_only_when_nothing_can_land_later() -> None:
    withdrawn = StateStoreTimeoutError("RedisStore(prefix='w:') did not answer", withdrawn=True)
    assert not_cleared(withdrawn, "brave") == (
        "RedisStore(prefix='w:') did not answer; "
        "brave's cooldowns, quota marks and usage counters were not cleared"
    )
    begun = StateStoreTimeoutError("RedisStore(prefix='w:') did not answer", withdrawn=False)
    assert not_cleared(begun, None) == (
        "RedisStore(prefix='w:') did not answer; clearing every provider's cooldowns, quota "
        "marks and usage counters had begun and is not confirmed: it is done if the store "
        "answers before this process exits"
    )
    failed = StateStoreError("SQLite state store 'x' failed: OperationalError: disk I/O error")
    assert not_cleared(failed, None).endswith(
        "every provider's cooldowns, quota marks and usage counters were not cleared"
    )


def test_an_undoable_write_given_up_on_while_it_runs_is_undone_on_its_thread() -> None:
    withdrawal = Withdrawal()
    counts: list[int] = []
    answers: list[bool] = []

    def count(row: str) -> int:
        counts.append(1)
        answers.append(withdrawal.withdraw())  # the caller gives up while it runs
        return len(counts)

    def undo(row: str, result: int) -> None:
        counts.remove(1)

    write = withdrawal.undoable(withdrawal.guard(count), undo)
    with pytest.raises(WithdrawnError):
        write("row")
    assert counts == []
    assert answers == [True]  # the caller was told at once: it will not stand
    assert not withdrawal.landed


def test_an_undoable_write_that_landed_first_is_its_callers() -> None:
    withdrawal = Withdrawal()
    undone: list[int] = []
    write = withdrawal.undoable(withdrawal.guard(lambda row: 7), lambda row, n: undone.append(n))
    assert write("row") == 7
    assert not withdrawal.withdraw()  # too late: the caller must take the result
    assert withdrawal.landed
    assert undone == []


def test_an_undoable_write_withdrawn_before_it_starts_is_neither_made_nor_undone() -> None:
    withdrawal = Withdrawal()
    made: list[str] = []
    undone: list[str] = []
    write = withdrawal.undoable(withdrawal.guard(made.append), lambda row, _: undone.append(row))
    assert withdrawal.withdraw()
    with pytest.raises(WithdrawnError):
        write("row")
    assert made == [] and undone == []
