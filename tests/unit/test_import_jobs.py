"""One thread per import under way, shared by its callers, who may stop waiting.

A first search waits for its imports within its deadline and, when it passes, leaves them
running for the next call (:mod:`websearch_core.import_jobs`). Each import here is a stand-in
held on an event the test controls: nothing is timed.
"""

import asyncio
import contextlib
import gc
import logging
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from websearch_core.import_jobs import imported

_HANG_BOUND = 30.0
"""How long a wait that should end at once may take before the test gives up (a bound on
a failing test, not a time measured)."""


class HeldImport:
    """A stand-in for a slow import: counts its runs and waits for ``release``."""

    def __init__(self, error: BaseException | None = None) -> None:
        self.runs = 0
        self.threads: list[str] = []
        self.started = threading.Event()
        self.release = threading.Event()
        self.error = error

    def __call__(self) -> None:
        self.runs += 1
        self.threads.append(threading.current_thread().name)
        self.started.set()
        self.release.wait(2 * _HANG_BOUND)  # outlasts the test's own bound on a wait
        if self.error is not None:
            # A fresh copy each run, as a real import raises: one kept here would keep its
            # traceback's frames, and what they hold, from being collected.
            raise type(self.error)(*self.error.args)


async def _started(held: HeldImport) -> None:
    assert await asyncio.to_thread(held.started.wait, _HANG_BOUND)


async def test_callers_of_one_import_share_one_run_on_its_own_thread() -> None:
    held = HeldImport()
    first = asyncio.create_task(imported(held, "shared", None))
    await _started(held)
    second = asyncio.create_task(imported(held, "shared", None))
    await asyncio.sleep(0)  # the second joins the import under way
    held.release.set()
    await asyncio.gather(first, second)
    assert held.runs == 1
    assert held.threads == ["websearch-imports"]


async def test_a_caller_whose_time_passes_leaves_the_import_to_the_next() -> None:
    held = HeldImport()
    with pytest.raises(TimeoutError):
        await imported(held, "given up", 0.0)
    await _started(held)
    assert not held.release.is_set()  # it ended while the import was held
    following = asyncio.create_task(imported(held, "given up", None))
    await asyncio.sleep(0)
    held.release.set()
    await following
    assert held.runs == 1  # the next call was served by the import the first began


async def test_a_caller_that_gave_up_holds_no_thread_of_the_loops_executor() -> None:
    """Host-name lookups run on that executor: calls giving up must not fill it."""
    loop = asyncio.get_running_loop()
    executor = ThreadPoolExecutor(max_workers=1)
    loop.set_default_executor(executor)
    held = HeldImport()
    try:
        with pytest.raises(TimeoutError):
            await imported(held, "executor", 0.0)
        assert held.started.wait(_HANG_BOUND)  # here, not on the executor under test
        answer = await asyncio.wait_for(asyncio.to_thread(lambda: "free"), _HANG_BOUND)
        assert answer == "free"
    finally:
        held.release.set()
        await imported(held, "executor", None)


async def test_an_import_that_fails_raises_its_error_to_each_caller() -> None:
    held = HeldImport(ImportError("no module named 'missing'"))
    first = asyncio.create_task(imported(held, "failing", None))
    await _started(held)
    second = asyncio.create_task(imported(held, "failing", None))
    await asyncio.sleep(0)
    held.release.set()
    results = await asyncio.gather(first, second, return_exceptions=True)
    assert [str(result) for result in results] == ["no module named 'missing'"] * 2
    assert held.runs == 1


def _import_thread() -> threading.Thread:
    """The import's own thread, to join once the held import is let go."""
    (thread,) = [t for t in threading.enumerate() if t.name == "websearch-imports"]
    return thread


async def test_a_failure_after_its_caller_gave_up_is_never_left_unretrieved() -> None:
    """No "Future exception was never retrieved": the error reaches the next caller instead.

    The caller's time passes while the import is held; the import then fails. Whatever
    future the caller left behind is collected, and the loop's exception handler, which
    asyncio tells of an error nobody retrieved, must hear nothing. The next caller imports
    afresh (a failed import is not remembered, as Python's own ``import`` does not) and
    gets the import's error.
    """
    loop = asyncio.get_running_loop()
    told: list[dict[str, object]] = []
    loop.set_exception_handler(lambda _loop, context: told.append(context))
    held = HeldImport(ImportError("no module named 'gone'"))
    try:
        await imported(held, "failing late", 0.0)
    except TimeoutError:
        pass  # not kept: its traceback would keep the caller's frame, and its future, alive
    else:
        raise AssertionError("the held import was waited for")
    await _started(held)
    thread = _import_thread()
    held.release.set()
    await asyncio.to_thread(thread.join, _HANG_BOUND)
    assert not thread.is_alive()
    for _ in range(3):  # what the import's thread handed the loop runs
        await asyncio.sleep(0)
    gc.collect()
    assert told == []
    with pytest.raises(ImportError, match="no module named 'gone'"):
        await imported(held, "failing late", None)
    assert held.runs == 2  # a fresh attempt, not a remembered failure
    gc.collect()
    assert told == []


def test_a_failure_after_the_callers_loop_closed_is_not_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Guard: a loop closed before the import fails is told nothing, and nothing is logged.

    A script's ``asyncio.run`` whose search gave up ends while the import goes on; the
    import's thread must not call the closed loop (nor log that it could not).
    """
    held = HeldImport(ImportError("no module named 'late'"))
    hooked: list[object] = []
    previous = threading.excepthook
    threading.excepthook = hooked.append

    async def give_up() -> None:
        with contextlib.suppress(TimeoutError):
            await imported(held, "loop closed", 0.0)

    try:
        asyncio.run(give_up())
        assert held.started.wait(_HANG_BOUND)
        thread = _import_thread()
        held.release.set()
        thread.join(_HANG_BOUND)
        assert not thread.is_alive()
    finally:
        threading.excepthook = previous
    gc.collect()
    assert hooked == []
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
