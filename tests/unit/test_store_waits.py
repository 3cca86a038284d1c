"""How long the state store is waited for: a search's share, and a bound outside searches."""

import time

from websearch_core.deadline import (
    STORE_GRACE_SECONDS,
    Deadline,
    attempt_scope,
    bound_store_waits,
    deadline_clause,
    enter_call,
    leave_call,
    store_patience,
    store_queue_expiry,
    store_share,
)


def test_a_search_gives_its_cache_lookup_a_tenth_of_its_deadline_within_limits() -> None:
    assert store_share(Deadline(1.0)) == STORE_GRACE_SECONDS  # a tenth would be too little
    assert store_share(Deadline(5.0)) == 0.5
    assert store_share(Deadline(55.0)) == 1.0  # a tenth would keep a person waiting 5.5 s


def test_a_bound_never_outlasts_the_search_it_is_set_in() -> None:
    call = enter_call(Deadline(0.5))
    try:
        bound = bound_store_waits(3.0)
        patience = store_patience()
        leave_call(bound)
        assert patience is not None and patience <= 0.5
        bound = bound_store_waits(0.3)
        patience = store_patience()
        leave_call(bound)
        assert patience is not None and patience <= 0.3
        after = store_patience()  # the search's own deadline applies again
        assert after is not None and 0.3 < after <= 0.5
    finally:
        leave_call(call)


def test_outside_a_search_a_bound_is_what_limits_the_wait() -> None:
    assert store_patience() is None  # no search, no bound: the store's own timeouts
    bound = bound_store_waits(3.0)
    try:
        patience = store_patience()
        assert patience is not None and 2.0 < patience <= 3.0
    finally:
        leave_call(bound)
    assert store_patience() is None


def test_guard_a_bound_inside_a_search_keeps_the_deadline_its_texts_name() -> None:
    """Guard (passes before and after the bound was rebuilt by hand): only the wait changes."""
    call = enter_call(Deadline(2.0))
    try:
        bound = bound_store_waits(0.3)
        try:
            with attempt_scope(5.0):  # longer than the deadline: the deadline ends it
                assert deadline_clause() == ", the time left of the 2s deadline"
        finally:
            leave_call(bound)
    finally:
        leave_call(call)


def test_a_call_queued_behind_answered_ones_may_wait_to_the_deadline_not_its_share() -> None:
    """New with store_queue_expiry (did not exist before): the queue's end, per context."""
    assert store_queue_expiry() is None  # no search, no bound: nothing ends the wait
    call = enter_call(Deadline(60.0))
    try:
        bound = bound_store_waits(0.5)
        try:
            expiry = store_queue_expiry()
            patience = store_patience()
        finally:
            leave_call(bound)
    finally:
        leave_call(call)
    assert expiry is not None and patience is not None and patience <= 0.5
    assert 0.5 < expiry - time.monotonic() <= 60.0  # the deadline, not the 0.5 s share
    bound = bound_store_waits(3.0)  # a command's read: its bound is the queue's end too
    try:
        expiry = store_queue_expiry()
    finally:
        leave_call(bound)
    assert expiry is not None and expiry - time.monotonic() <= 3.0
