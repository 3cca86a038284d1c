"""Synchronous calls inside a notebook's running loop, with ``nest_asyncio`` applied.

A notebook cell runs inside an event loop, so ``run_sync`` and the tools' synchronous calls
run their search on a loop of their own in a worker thread. Many notebooks apply
``nest_asyncio`` (LlamaIndex depends on it), which replaces ``asyncio.run`` with one that
never closes its loop: each such call left a loop open (20 calls, 22 file descriptors and
21 ``unclosed event loop`` warnings). Runs in a fresh interpreter, as ``nest_asyncio``
patches asyncio for the whole process.
"""

import json
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("nest_asyncio")

_SCRIPT = textwrap.dedent(
    """
    import asyncio, gc, json, os, warnings
    import nest_asyncio
    from langchain_websearch import WebSearchTool
    from llamaindex_websearch import create_web_search_tool
    from websearch_core import WebSearch
    from websearch_core.testing import Simulator

    nest_asyncio.apply()

    def unclosed():
        return sum(
            1 for o in gc.get_objects()
            if isinstance(o, asyncio.AbstractEventLoop) and not o.is_closed()
        )

    with Simulator(["brave"]).running_in_thread() as sim:
        options = {"settings": sim.settings(), "api_keys": sim.api_keys()}
        ws = WebSearch(**options)
        tools = (WebSearchTool(**options), create_web_search_tool(**options))

        async def cell():
            answers = [ws.run_sync("warm up").response.provider]
            loops, fds = unclosed(), len(os.listdir("/proc/self/fd"))
            for n in range(5):
                answers.append(ws.run_sync(f"run {n}", use_cache=False).response.provider)
                answers.append(ws.search_sync(f"search {n}", use_cache=False).provider)
                answers.append(tools[0].invoke({"query": f"lc {n}"})[:4])
                answers.append(tools[1].call(query=f"li {n}").content[:4])
            gc.collect()
            return answers, unclosed() - loops, len(os.listdir("/proc/self/fd")) - fds

        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            answers, loops, fds = asyncio.run(cell())
        said = [str(w.message) for w in caught if "unclosed event loop" in str(w.message)]
    print(json.dumps({"answers": sorted(set(answers)), "loops": loops, "fds": fds, "said": said}))
    """
)


@pytest.mark.skipif(sys.platform != "linux", reason="counts descriptors in /proc/self/fd")
def test_sync_calls_in_a_running_loop_under_nest_asyncio_leave_no_loop_open() -> None:
    completed = subprocess.run(
        [sys.executable, "-c", _SCRIPT], capture_output=True, text=True, timeout=120
    )
    assert completed.returncode == 0, completed.stderr
    found = json.loads(completed.stdout.splitlines()[-1])
    assert found["answers"] == ["[1] ", "brave"]
    assert found["said"] == []
    assert found["loops"] <= 0
    assert found["fds"] <= 0


_SIMULATOR_IN_A_CELL = textwrap.dedent(
    """
    import asyncio, json
    import nest_asyncio
    from websearch_core import WebSearch
    from websearch_core.testing import Simulator

    nest_asyncio.apply()

    async def kernel():
        sim = Simulator(["brave"])
        await sim.start()  # one cell: the simulator now runs on the kernel's loop
        ws = WebSearch(sim.settings(), api_keys=sim.api_keys())
        try:
            ws.run_sync("in a later cell")
            refused = None
        except RuntimeError as error:
            refused = str(error)
        nested = asyncio.run(ws.search("through nest_asyncio")).provider
        awaited = (await ws.run("awaited")).response.provider
        await ws.aclose()
        await sim.close()
        return {"refused": refused, "nested": nested, "awaited": awaited}

    print(json.dumps(asyncio.run(kernel())))
    """
)


def test_a_sync_call_in_a_notebook_is_refused_when_a_cell_started_the_simulator() -> None:
    # A simulator started in a cell (await sim.start()) runs on the kernel's loop, which
    # a synchronous call in a later cell blocks: it waited 5 s for a bare timeout, and is
    # refused at once now. asyncio.run, patched by nest_asyncio, runs on that loop and
    # works, as the README says (that part is a guard: nest_asyncio's, before and after).
    completed = subprocess.run(
        [sys.executable, "-W", "error", "-c", _SIMULATOR_IN_A_CELL],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stderr
    found = json.loads(completed.stdout.splitlines()[-1])
    assert found["refused"] is not None
    assert found["refused"].startswith("run_sync() would block the running event loop")
    assert found["nested"] == "brave"
    assert found["awaited"] == "brave"
