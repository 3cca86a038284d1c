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
