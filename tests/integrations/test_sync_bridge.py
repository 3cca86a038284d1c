"""``run_sync`` and ``search_sync`` take the same per-call options as ``run`` and ``search``."""

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from tests.functional._sim_helpers import sim_client
from tests.rendered_models import count_renderings
from websearch_core import SearchResponse, SearchToolResult, WebSearch
from websearch_core.testing import Fault, Simulator


def _client(sim: Simulator, state: Path) -> WebSearch:
    # The sync bridge runs each call on a fresh instance: the cache must outlive it.
    return sim_client(sim, state_backend="sqlite", state_dir=state)


def test_run_sync_uses_the_cache_unless_told_not_to(
    threaded_sim: Simulator, tmp_path: Path
) -> None:
    client = _client(threaded_sim, tmp_path)
    first = client.run_sync("python asyncio")
    cached = client.run_sync("python asyncio")
    fresh = client.run_sync("python asyncio", use_cache=False)
    assert not first.response.cached
    assert cached.response.cached
    assert not fresh.response.cached
    assert fresh.text == first.text
    assert len(threaded_sim["brave"].requests) == 2


def test_search_sync_uses_the_cache_unless_told_not_to(
    threaded_sim: Simulator, tmp_path: Path
) -> None:
    client = _client(threaded_sim, tmp_path)
    assert not client.search_sync("rust", limit=2).cached
    assert client.search_sync("rust", limit=2).cached
    fresh = client.search_sync("rust", limit=2, use_cache=False)
    assert not fresh.cached
    assert [s.url for s in fresh.sources] == [
        "https://site1.example.org/rust",
        "https://site2.example.org/rust",
    ]
    assert len(threaded_sim["brave"].requests) == 2


def test_sync_calls_share_one_memory_state(threaded_sim: Simulator) -> None:
    # Each sync call runs on an instance of its own; with in-memory state, cooldowns and
    # the cache must still outlive it, as they do for calls on one loop.
    threaded_sim["brave"].always(Fault.rate_limited(retry_after=600))
    client = WebSearch(threaded_sim.settings(), api_keys=threaded_sim.api_keys())
    first = client.run_sync("first")
    second = client.run_sync("second")
    again = client.run_sync("second")
    assert [a.provider for a in first.response.attempts] == ["brave", "duckduckgo"]
    assert [(a.provider, a.outcome) for a in second.response.attempts] == [
        ("brave", "skipped"),
        ("duckduckgo", "success"),
    ]
    assert again.response.cached
    assert len(threaded_sim["brave"].requests) == 1
    assert len(threaded_sim["duckduckgo"].requests) == 2
    asyncio.run(client.aclose())


def test_sync_calls_never_render_their_result_as_text(
    threaded_sim: Simulator, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Python 3.11/3.12's asyncio.run renders its main task's result with repr() as it ends
    # (twice, then discards it): for a page of long results, tens of MB of text and a
    # quarter of a second. The sync bridge must not hand it anything large to render.
    rendered = count_renderings(monkeypatch, SearchResponse, SearchToolResult)
    client = _client(threaded_sim, tmp_path)
    found = client.search_sync("rust", limit=2, use_cache=False)
    told = client.run_sync("rust", limit=2, use_cache=False)
    assert [s.url for s in found.sources] == [
        "https://site1.example.org/rust",
        "https://site2.example.org/rust",
    ]
    assert told.response.sources == found.sources
    assert rendered == []


_INTERRUPTED_CELL = """
import asyncio, os, signal, threading, time
import pytest

from websearch_core import SearchResponse, SearchToolResult, WebSearch
from websearch_core.testing import Fault, Simulator

# Ctrl-C as a terminal or a kernel delivers it: a shell's background job (`pytest ... &`)
# starts with SIGINT ignored, and the interrupt below then never arrived at all.
signal.signal(signal.SIGINT, signal.default_int_handler)

with Simulator(["brave"]).running_in_thread() as sim:
    sim["brave"].always(Fault.hang(30))
    ws = WebSearch(sim.settings(deadline_seconds=20, timeout_seconds=20), api_keys=sim.api_keys())

    def interrupt_once_asked():  # the worker's search is under way: no fixed wait for it
        while not sim["brave"].requests:
            time.sleep(0.01)
        os.kill(os.getpid(), signal.SIGINT)

    async def notebook_cell():
        threading.Thread(target=interrupt_once_asked).start()
        started = time.monotonic()
        try:
            ws.run_sync("python")
        except KeyboardInterrupt:
            print(f"interrupted after {time.monotonic() - started:.1f}s", flush=True)

    loop = asyncio.new_event_loop()  # as a notebook kernel runs a cell: no SIGINT handler
    loop.run_until_complete(notebook_cell())
    loop.close()
"""


def test_an_interrupt_stops_a_sync_call_made_inside_a_running_loop() -> None:
    # The call runs on a worker thread's loop; waiting for it to end by itself took the
    # whole deadline (20 s here) after Ctrl-C or a notebook's stop button.
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", _INTERRUPTED_CELL],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout.startswith("interrupted after ")
    assert float(done.stdout.split()[2].removesuffix("s")) < 10
    assert done.stderr == ""


_INTERRUPTED_AS_THE_WORKER_STARTS = """
import asyncio, os, signal, sys, threading, time

from websearch_core import WebSearch, loop_worker
from websearch_core.testing import Fault, Simulator

signal.signal(signal.SIGINT, signal.default_int_handler)  # as in _INTERRUPTED_CELL
moment = sys.argv[1]
seen = threading.Event()  # the cell has caught the interrupt: the bridge has done its part
interrupted_at: list[float] = []


def interrupt() -> None:
    interrupted_at.append(time.monotonic())
    os.kill(os.getpid(), signal.SIGINT)


class SlowToStartLoops(asyncio.DefaultEventLoopPolicy):
    # A loaded machine: the worker thread's loop is not made before the interrupt lands.
    def new_event_loop(self) -> asyncio.AbstractEventLoop:
        if threading.current_thread() is not threading.main_thread():
            interrupt()
            wait_until_given_up()
        return super().new_event_loop()


def interrupt_as_a_thread_starts(frame, event, arg):
    # The interrupt lands while the caller starts the worker thread.
    if event == "call" and frame.f_code is threading.Thread.start.__code__:
        sys.setprofile(None)
        interrupt()


def wait_until_given_up() -> None:
    # The caller has given the work up and waits for its clean-up: the slow loop may come.
    # Waiting for the cell's catch instead held the worker through the whole clean-up
    # wait (loop_worker._CLEAN_UP_WAIT_SECONDS, 5 s) in every run. Looked for from here,
    # not by a profile hook on the caller: the interrupt landing in a hook unsets it.
    waiting = loop_worker._wait_for_clean_up.__code__
    main = threading.main_thread().ident
    deadline = time.monotonic() + 30
    while not seen.is_set() and time.monotonic() < deadline:
        frame = sys._current_frames().get(main)
        while frame is not None and frame.f_code is not waiting:
            frame = frame.f_back
        if frame is not None:
            return
        time.sleep(0.001)


with Simulator(["brave"]).running_in_thread() as sim:
    sim["brave"].always(Fault.hang(30))
    ws = WebSearch(sim.settings(deadline_seconds=20, timeout_seconds=20), api_keys=sim.api_keys())

    async def notebook_cell() -> None:
        others = set(threading.enumerate())
        if moment == "loop":
            asyncio.set_event_loop_policy(SlowToStartLoops())
        else:
            sys.setprofile(interrupt_as_a_thread_starts)
        try:
            ws.run_sync("python")
        except KeyboardInterrupt:
            seen.set()
            asyncio.set_event_loop_policy(None)
            print("interrupted", flush=True)
        for worker in set(threading.enumerate()) - others:
            worker.join(60)
        print(f"workers ended {time.monotonic() - interrupted_at[0]:.1f}s after it", flush=True)

    loop = asyncio.new_event_loop()  # as a notebook kernel runs a cell: no SIGINT handler
    loop.run_until_complete(notebook_cell())
    loop.close()
"""


@pytest.mark.parametrize("moment", ["loop", "thread"])
def test_an_interrupt_as_the_worker_starts_still_stops_the_sync_call(moment: str) -> None:
    # Under load Ctrl-C can land before the worker thread's task exists ("loop") or while
    # the thread starts ("thread"); the search then ran to its 20 s deadline, and the
    # process could not end before it. Bound: half that deadline, which the fault
    # (a 30 s hang) and the wrong behaviour both exceed.
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", _INTERRUPTED_AS_THE_WORKER_STARTS, moment],
        capture_output=True,
        text=True,
        timeout=90,
        check=True,
    )
    said = done.stdout.splitlines()
    assert said[0] == "interrupted"
    assert said[1].startswith("workers ended ")
    assert float(said[1].split()[2].removesuffix("s")) < 10
    assert done.stderr == ""


_STOPPING_CELL = """
import asyncio, logging, os, signal, sys, threading, time

from websearch_core import WebSearch, loop_worker
from websearch_core.testing import Fault, Simulator

signal.signal(signal.SIGINT, signal.default_int_handler)  # as in _INTERRUPTED_CELL
caller, clean_up = sys.argv[1], sys.argv[2]
if len(sys.argv) > 3:
    loop_worker._CLEAN_UP_WAIT_SECONDS = float(sys.argv[3])
released = threading.Event()  # the worker's clean-up may end
said: list[str] = []


class Said(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        said.append(f"{record.levelname}: {record.getMessage()}")


logging.getLogger("websearch_core").addHandler(Said(logging.WARNING))


def interrupt() -> None:
    os.kill(os.getpid(), signal.SIGINT)


class CleanUpThatWaits(asyncio.DefaultEventLoopPolicy):
    # The worker's loop closes last in its clean-up: hold it there until the cell says.
    def new_event_loop(self) -> asyncio.AbstractEventLoop:
        loop = super().new_event_loop()
        if threading.current_thread() is not threading.main_thread():
            close = loop.close

            def close_once_released() -> None:
                if clean_up == "interrupted":  # Ctrl-C again while the call stops
                    interrupt()
                released.wait()
                close()

            loop.close = close_once_released
        return loop


def interrupt_as_it_gives_up(frame, event, arg):
    if event == "call" and frame.f_code is loop_worker._Handover.give_up.__code__:
        sys.setprofile(None)
        interrupt()  # Ctrl-C again as the first one starts stopping the work


with Simulator(["brave"]).running_in_thread() as sim:
    sim["brave"].always(Fault.hang(3600))
    settings = sim.settings(deadline_seconds=300, timeout_seconds=300)
    if caller == "langchain":
        from langchain_websearch import WebSearchTool

        tool = WebSearchTool(settings=settings, api_keys=sim.api_keys())
        call = lambda: tool.invoke({"query": "python"})
    elif caller == "llamaindex":
        from llamaindex_websearch import create_web_search_tool

        function_tool = create_web_search_tool(settings=settings, api_keys=sim.api_keys())
        call = lambda: function_tool.call(query="python")
    else:
        ws = WebSearch(settings, api_keys=sim.api_keys())
        call = lambda: ws.run_sync("python")

    def interrupt_once_asked() -> None:  # the worker's search is under way
        while not sim["brave"].requests:
            time.sleep(0.01)
        interrupt()

    async def notebook_cell() -> None:
        others = set(threading.enumerate())
        if clean_up in ("stuck", "interrupted"):
            asyncio.set_event_loop_policy(CleanUpThatWaits())
        asker = threading.Thread(target=interrupt_once_asked)
        asker.start()
        if clean_up == "give-up":
            sys.setprofile(interrupt_as_it_gives_up)
        try:
            call()
        except KeyboardInterrupt as stopped:
            sys.setprofile(None)
            asker.join()
            print("interrupted", "chained" if stopped.__context__ else "alone", flush=True)
            busy = [t.name for t in set(threading.enumerate()) - others - {asker} if t.is_alive()]
            print("still running:", sorted(busy), flush=True)
        print("said:", said, flush=True)
        asyncio.set_event_loop_policy(None)
        released.set()
        for worker in set(threading.enumerate()) - others:
            worker.join()  # a search left running waits out the 300 s deadline: a hang
        print("workers ended", flush=True)

    loop = asyncio.new_event_loop()  # as a notebook kernel runs a cell: no SIGINT handler
    loop.run_until_complete(notebook_cell())
    loop.close()
"""


def _stop_a_cell(caller: str, clean_up: str, *wait: str) -> list[str]:
    """What the cell printed, line by line; it must end cleanly, warning-free on stderr."""
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", _STOPPING_CELL, caller, clean_up, *wait],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert done.stderr == ""
    return done.stdout.splitlines()


@pytest.mark.parametrize("caller", ["run_sync", "langchain", "llamaindex"])
def test_an_interrupted_sync_call_returns_after_its_clean_up(caller: str) -> None:
    # The caller used to raise the interrupt while the worker thread still closed the
    # call's session, state and loop (up to seconds under load): the next cell, or the
    # process's exit, found them open. The tools' sync paths go through the same bridge.
    said = _stop_a_cell(caller, "free")
    assert said == ["interrupted alone", "still running: []", "said: []", "workers ended"]


def test_a_stuck_clean_up_is_left_running_with_a_warning_naming_it() -> None:
    # Clean-up held (its loop's close waits for the cell) past a 0.1 s bound: the call
    # returns anyway and says which thread goes on in the background.
    said = _stop_a_cell("run_sync", "stuck", "0.1")
    assert said[:2] == ["interrupted alone", "still running: ['websearch-sync-call']"]
    assert said[2].startswith('said: ["WARNING: sync call interrupted: its clean-up on ')
    assert "thread 'websearch-sync-call'" in said[2]
    assert "still running after 0.1 s" in said[2]
    assert said[3] == "workers ended"


def test_a_second_interrupt_during_the_clean_up_ends_the_wait_at_once() -> None:
    # Ctrl-C pressed again while the call waits for a clean-up held until the cell goes
    # on; an hour's bound, so only the second interrupt can end the wait (else a hang).
    said = _stop_a_cell("run_sync", "interrupted", "3600")
    assert said == [
        "interrupted alone",
        "still running: ['websearch-sync-call']",
        "said: []",
        "workers ended",
    ]


def test_a_second_interrupt_as_the_call_gives_up_still_stops_the_work() -> None:
    # The second Ctrl-C landed as the bridge started giving up: the give-up never ran,
    # so the search went on to its deadline (300 s here: a hang) and the cell saw both
    # interrupts chained ("During handling of the above exception...").
    said = _stop_a_cell("run_sync", "give-up")
    assert said[0] == "interrupted alone"
    assert said[-2:] == ["said: []", "workers ended"]


def test_a_tool_keeps_one_state_across_loops_and_sync_calls(threaded_sim: Simulator) -> None:
    from langchain_websearch import WebSearchTool

    threaded_sim["brave"].always(Fault.rate_limited(retry_after=600))
    tool = WebSearchTool(settings=threaded_sim.settings(), api_keys=threaded_sim.api_keys())
    asyncio.run(tool.ainvoke({"query": "first"}))  # brave cools down; DuckDuckGo answers
    asyncio.run(tool.ainvoke({"query": "second"}))  # a new loop: brave still cooling down
    tool.invoke({"query": "second"})  # a sync call: served from the same cache
    asyncio.run(tool.aclose())
    assert len(threaded_sim["brave"].requests) == 1
    assert len(threaded_sim["duckduckgo"].requests) == 2
