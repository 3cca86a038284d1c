"""A synchronous call made on the running loop that serves the simulator is refused at once.

``run_sync`` and the other synchronous calls block the loop running in their thread until
they end. A :class:`Simulator` started on that same loop (``async with`` in a test, or in
a notebook cell) then cannot answer: each call waited out ``timeout_seconds`` and failed
as ``Brave search timed out after 5s``, which a newcomer cannot act on. It is refused
before anything is sent, with the cause and the fix.
"""

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from websearch_core import WebSearch
from websearch_core.testing import Simulator

_CALLS: dict[str, tuple[str, Callable[[WebSearch, str], Any]]] = {
    "run_sync": ("run", lambda ws, url: ws.run_sync("python asyncio")),
    "search_sync": ("search", lambda ws, url: ws.search_sync("python asyncio")),
    "fetch_sync": ("fetch", lambda ws, url: ws.fetch_sync(f"{url}/page")),
    "fetch_many_sync": ("fetch_many", lambda ws, url: ws.fetch_many_sync([f"{url}/page"])),
}


@pytest.mark.parametrize("call", list(_CALLS))
async def test_a_sync_call_on_the_loop_serving_the_simulator_names_the_cause(call: str) -> None:
    awaited, make_call = _CALLS[call]
    async with Simulator(["brave"]) as sim:
        url = sim["brave"].base_url
        async with WebSearch(sim.settings(), api_keys=sim.api_keys()) as ws:
            with pytest.raises(RuntimeError) as refused:
                make_call(ws, url)
        await asyncio.sleep(0)  # anything the kernel queued for the server is read now
        assert sim["brave"].requests == []
    assert str(refused.value).startswith(
        f"{call}() would block the running event loop that serves {url} "
    )
    assert f"await ws.{awaited}(...) instead" in str(refused.value)
    assert "running_in_thread()" in str(refused.value)


async def test_a_tool_invoked_on_the_loop_serving_the_simulator_names_the_cause() -> None:
    from langchain_websearch import WebSearchTool

    async with Simulator(["brave"]) as sim:
        tool = WebSearchTool(settings=sim.settings(), api_keys=sim.api_keys())
        with pytest.raises(RuntimeError, match=r"run_sync\(\) would block .* ainvoke/acall"):
            tool.invoke({"query": "python asyncio"})
        await tool.aclose()
        assert sim["brave"].requests == []


async def test_guard_a_simulator_on_its_own_thread_still_answers_a_sync_call_in_a_loop() -> None:
    # A guard, passing before and after the fix: only the loop the call blocks is refused.
    with Simulator(["brave"]).running_in_thread() as sim:
        ws = WebSearch(sim.settings(), api_keys=sim.api_keys())
        result = ws.run_sync("python asyncio")
        await ws.aclose()
    assert result.error is None
    assert result.response.provider == "brave"


async def test_a_simulator_closed_on_this_loop_no_longer_refuses_its_address() -> None:
    # Once closed, nothing serves the address on this loop: the call goes ahead (and finds
    # no server there), rather than naming a server that is gone.
    sim = Simulator(["brave"])
    async with sim:
        url = sim["brave"].base_url
    ws = WebSearch(sim.settings(), api_keys=sim.api_keys())
    result = ws.run_sync("python asyncio")
    await ws.aclose()
    assert result.error is not None
    assert "would block" not in result.error
    assert url.removeprefix("http://") in result.error
