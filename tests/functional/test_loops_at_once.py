"""One ``WebSearch`` searched from several event loops at once, each in its own thread.

A user with a thread pool runs ``asyncio.run(ws.run(query))`` in each worker, sharing one
client. Each loop gets its own HTTP session (one belongs to the loop that opened it); the
first loop to end must close only its own, and leave the state store to the searches still
running on the others, and no session may be left open when every loop has ended.
"""

import asyncio
import threading
import time
from collections.abc import Iterator
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from websearch_core import SEARCH_PROVIDER_ORDER, SearchToolResult, Settings, WebSearch
from websearch_core import client as client_module
from websearch_core.testing import Simulator
from websearch_core.testing.protocols.brave import BraveProtocol
from websearch_core.testing.simulator import RecordedRequest, SimResult


@pytest.fixture
def sim() -> Iterator[Simulator]:
    with Simulator(["brave", "duckduckgo"]).running_in_thread() as simulator:
        yield simulator


def _settings(sim: Simulator, **overrides: Any) -> Settings:
    others = tuple(pid for pid in SEARCH_PROVIDER_ORDER if pid not in sim.providers)
    return sim.settings(exclude=others, **{"timeout_seconds": 1.0, **overrides})


class _HeldAnswer(BraveProtocol):
    """Brave, holding its answer to one query until ``released`` is set (30 s at most).

    The answer is awaited on the simulator's loop, which serves other requests meanwhile.
    """

    def __init__(self, query: str, released: threading.Event) -> None:
        super().__init__()
        self._query = query
        self._released = released

    def answer(self, request: RecordedRequest, results: list[SimResult]) -> Any:
        answer = super().answer(request, results)
        if dict(request.query).get("q") != self._query:
            return answer

        async def held() -> web.Response:
            await asyncio.to_thread(self._released.wait, 30)
            return answer

        return held()


class _WatchedLock:
    """A lock that sets ``contended`` when a thread has to wait for it (the client's own).

    It stands in for the client's session lock, so that a test holding one thread inside
    it knows when the other is kept waiting by it rather than guessing at a time.
    """

    def __init__(self, contended: threading.Event) -> None:
        self._lock = threading.Lock()
        self._contended = contended

    def __enter__(self) -> None:
        if not self._lock.acquire(blocking=False):
            self._contended.set()
            self._lock.acquire()

    def __exit__(self, *_exc: object) -> None:
        self._lock.release()


def _wait_for(condition: Any, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.01)


def test_a_loop_that_ends_leaves_the_store_to_a_search_on_another(
    sim: Simulator, caplog: pytest.LogCaptureFixture
) -> None:
    # SQLite (the isolated state directory): what a search writes outlives every loop.
    # The slow search's answer is held until the fast loop has ended, however long that
    # takes on a loaded machine: a slow search that fell back after a fixed second could
    # end first, and the test then passed with a loop end that closed the store.
    ws = WebSearch(
        _settings(sim, state_backend="sqlite", timeout_seconds=60.0), api_keys=sim.api_keys()
    )
    fast_ended = threading.Event()
    sim["brave"].protocol = _HeldAnswer("slow", fast_ended)
    slow: list[SearchToolResult] = []
    worker = threading.Thread(target=lambda: slow.append(asyncio.run(ws.run("slow"))))
    worker.start()
    _wait_for(lambda: len(sim["brave"].requests) == 1)
    try:
        fast = asyncio.run(ws.run("fast"))  # its loop ends while the slow search waits
    finally:
        fast_ended.set()
    worker.join(timeout=30)
    assert fast.response.provider == "brave"
    assert slow[0].response.provider == "brave"
    assert "state store is closed" not in caplog.text
    # The slow search's answer is in the store, which the fast loop's end used to close
    # under it (the search went on without it, and its answer was not kept).
    again = asyncio.run(ws.run("slow"))
    assert again.response.cached, again.response.attempts


def test_no_session_is_left_open_when_loops_open_theirs_at_the_same_moment(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two threads opening sessions in the same instant: neither may lose track of one.

    The first thread is held just after it opened its session, while the second runs a
    whole search, for as long as the client lets it: a client that serialises the opening
    makes the second wait for its lock, and the hold ends when it does. It used to end
    after half a second, which on a loaded machine could come before the second thread
    reached its session at all: the test then passed on a client that lost one.
    """
    # Nothing here hangs: 1 s per request let a loaded machine's Brave connection fail
    # ("not made within 1s") while both threads ran, and the second fell back.
    ws = WebSearch(_settings(sim, timeout_seconds=30.0), api_keys=sim.api_keys())
    let_first_go = threading.Event()
    ws._session_lock = _WatchedLock(let_first_go)  # type: ignore[assignment]
    opened: list[aiohttp.ClientSession] = []
    real = client_module.close_when_collected

    def watch(owner: object, session: aiohttp.ClientSession, loop: Any) -> Any:
        opened.append(session)
        if len(opened) == 1:  # the first thread's session: let the second thread run now
            second_started.set()
            let_first_go.wait(timeout=30)
        return real(owner, session, loop)

    monkeypatch.setattr(client_module, "close_when_collected", watch)
    second_started = threading.Event()
    results: list[SearchToolResult] = []

    def first() -> None:
        results.append(asyncio.run(ws.run("first")))

    def second() -> None:
        second_started.wait(timeout=5)
        results.append(asyncio.run(ws.run("second")))
        let_first_go.set()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert sorted(r.response.provider for r in results) == ["brave", "brave"]
    assert len(opened) == 2
    assert [session.closed for session in opened] == [True, True]
