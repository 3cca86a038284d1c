"""Imports run on a thread of their own, shared by every call that waits for them.

A call that needs modules not yet imported (a first search's chain and providers) has them
imported off the event loop and may stop waiting when its deadline passes: the import goes
on, and serves the next call. So each set of modules being imported has one thread, which
any caller on any loop joins, rather than a thread per caller: a caller that gave up would
otherwise leave a thread of the loop's default executor blocked on the import lock, and a
few such calls would fill the executor that host-name lookups run on.

Example:
    >>> import asyncio
    >>> asyncio.run(imported(lambda: None, "nothing", None))
"""

import asyncio
import threading
from collections.abc import Callable, Hashable
from concurrent.futures import Future

__all__ = ["imported"]

_running: dict[Hashable, "Future[None]"] = {}
"""The imports under way, each by what it imports: a caller asking for the same joins it."""
_running_lock = threading.Lock()


async def imported(run: Callable[[], None], key: Hashable, within: float | None) -> None:
    """Wait for ``run`` (the import of what ``key`` names) on its thread, for ``within`` s.

    Args:
        run: What imports the modules; it runs once for every caller waiting meanwhile.
        key: What ``run`` imports: a caller with the same key joins the import under way.
        within: Seconds to wait at most; ``None`` waits until it is done.

    Raises:
        TimeoutError: ``within`` passed first; the import goes on without this caller.
        Exception: What ``run`` raised (a module that cannot be imported).
    """
    waited = asyncio.wrap_future(_started(run, key))
    if within is None:
        await waited
        return
    # Shielded: the timeout cancels this caller's wait, not the import other calls await.
    await asyncio.wait_for(asyncio.shield(waited), within)


def _started(run: Callable[[], None], key: Hashable) -> "Future[None]":
    """The import of ``key`` under way, started now on its own thread when none is."""
    with _running_lock:
        future = _running.get(key)
        if future is not None:
            return future
        future = _running[key] = Future()
    # A daemon: an import left running by a call that gave up must not hold the exit.
    thread = threading.Thread(
        target=_run, args=(run, key, future), name="websearch-imports", daemon=True
    )
    try:
        thread.start()
    except BaseException:  # no thread to be had: the next caller tries again
        _done(key)
        raise
    return future


def _run(run: Callable[[], None], key: Hashable, future: "Future[None]") -> None:
    try:
        run()
    except BaseException as error:  # handed to every caller, as asyncio.to_thread did
        _done(key)
        future.set_exception(error)
    else:
        _done(key)
        future.set_result(None)


def _done(key: Hashable) -> None:
    """Forget ``key``'s import before it reports: a later caller starts afresh if need be."""
    with _running_lock:
        _running.pop(key, None)
