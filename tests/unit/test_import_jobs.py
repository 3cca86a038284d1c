"""One thread per import under way, shared by its callers, who may stop waiting.

A first search waits for its imports within its deadline and, when it passes, leaves them
running for the next call (:mod:`websearch_core.import_jobs`). Each import here is a stand-in
held on an event the test controls: nothing is timed.
"""

import asyncio
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
            raise self.error


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
