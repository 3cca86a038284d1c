"""Waiting for a state store's thread to have done what it was left, before looking at the file.

A store given up on keeps its queued calls on its own (daemon) thread; a test that asks
whether one of them landed once a lock went must first let that thread finish, or it
would look too early and see nothing either way.
"""

import threading

_PREFIX = "websearch-state"


def store_threads() -> set[threading.Thread]:
    """The SQLite stores' threads alive now."""
    return {thread for thread in threading.enumerate() if thread.name.startswith(_PREFIX)}


def join_new_store_threads(before: set[threading.Thread], timeout: float = 15.0) -> bool:
    """Wait for the store threads started since ``before`` to end; ``True`` if they all did.

    A store's thread ends once the store is closed and every call queued before has run.
    """
    new = store_threads() - before
    for thread in new:
        thread.join(timeout)
    return not any(thread.is_alive() for thread in new)
