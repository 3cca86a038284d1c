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
import contextlib
import threading
from collections.abc import Callable, Hashable
from concurrent.futures import Future

__all__ = ["imported", "imported_sync"]

_running: dict[Hashable, "Future[None]"] = {}
"""The imports under way, each by what it imports: a caller asking for the same joins it."""
_running_lock = threading.Lock()


async def imported(run: Callable[[], None], key: Hashable, within: float | None) -> None:
    """Wait for ``run`` (the import of what ``key`` names) on its thread, for ``within`` s.

    A failed import is not remembered: the next caller imports afresh, as Python's own
    ``import`` does after a failure (no module is left in ``sys.modules``). A missing
    module raises its error again, and one that failed for a passing cause (a file being
    installed, a full disk) gets its second chance.

    Args:
        run: What imports the modules; it runs once for every caller waiting meanwhile.
        key: What ``run`` imports: a caller with the same key joins the import under way.
        within: Seconds to wait at most; ``None`` waits until it is done.

    Raises:
        TimeoutError: ``within`` passed first; the import goes on without this caller.
        Exception: What ``run`` raised (a module that cannot be imported).
    """
    waited = _waited_on_loop(_started(run, key))
    if within is None:
        await waited
        return
    # ``waited`` is this caller's alone: cancelling it at the timeout leaves the import.
    await asyncio.wait_for(waited, within)


def imported_sync(run: Callable[[], None], key: Hashable, within: float | None) -> None:
    """:func:`imported` for a synchronous caller: its thread waits, the import runs on its own.

    A synchronous call (a tool's ``invoke``) that imported on its own thread could not stop
    waiting when its deadline passed; here it stops, and the import goes on for the next.

    Args:
        run: What imports the modules, as for :func:`imported`.
        key: What ``run`` imports: a caller with the same key, on a loop or not, joins it.
        within: Seconds to wait at most; ``None`` waits until it is done.

    Raises:
        TimeoutError: ``within`` passed first; the import goes on without this caller.
        Exception: What ``run`` raised (a module that cannot be imported).
    """
    _started(run, key).result(within)  # its TimeoutError is the builtin's (Python 3.11)


def _waited_on_loop(job: "Future[None]") -> "asyncio.Future[None]":
    """A future of the running loop that the import ``job`` settles, unless given up first.

    Not ``asyncio.wrap_future``: its future, left behind by a caller whose time passed,
    still took the import's error, and asyncio logged "Future exception was never
    retrieved" when it was collected (a shield around it did not retrieve it either once
    its caller had gone). Here a future its caller cancelled takes nothing, and a loop
    closed meanwhile is not called (its ``call_soon_threadsafe`` raised on the import's
    thread, which logged the error as a callback's).
    """
    loop = asyncio.get_running_loop()
    waited: asyncio.Future[None] = loop.create_future()

    def settle(done: "Future[None]") -> None:
        if waited.done():  # the caller gave up: the error is the next caller's to see
            return
        if done.cancelled():
            waited.cancel()
            return
        error = done.exception()
        if error is None:
            waited.set_result(None)
        else:
            waited.set_exception(error)

    def report(done: "Future[None]") -> None:
        # On the import's thread (or here, when it is already over).
        with contextlib.suppress(RuntimeError):  # the loop closed: nobody is waiting
            loop.call_soon_threadsafe(settle, done)

    job.add_done_callback(report)
    return waited


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
