"""A process's first search through an entered tool or retriever ends by its deadline.

Entering a client (``async with WebSearch(...)``) imports the chain, so its first search
ends by its deadline; the tools and retrievers build their client at their first call, and
entering them imported nothing: that call waited for the chain's import (0.2 s idle, 0.3-0.6
s at load 4-5) before its deadline began. Each now imports the chain when entered, as the
client does. A fresh interpreter, where nothing is imported yet, makes that import take 0.5
s (as a loaded machine does).

The test checks the order, not a margin: the chain's import was done when the call began,
and the call ended on its deadline's cut, well before the server's 60 s hang. It timed the
call against the deadline plus the store's grace (0.25 s), and the llamaindex spec's call
took 1.96 s against 1.75 s at load 5 (stop 45), its import done in time.
"""

import textwrap

import pytest

from tests.loop_imports import SLOW_CHAIN_IMPORT, frameworks_of, run_watched

_DEADLINE_SECONDS = 1.5
_HANG_SECONDS = 60

_SCRIPT = SLOW_CHAIN_IMPORT + textwrap.dedent(
    """
    import asyncio, json, time

    from websearch_core.testing import Fault, Simulator

    began = {}

    def begin():
        # Just before the call: was the chain's import done by then, and when it started.
        began["imported_first"] = SLOWED in sys.modules
        began["at"] = time.monotonic()

    async def first_call(settings, api_keys):
        if ADAPTER == "langchain tool":
            from langchain_websearch import WebSearchTool

            async with WebSearchTool(settings=settings, api_keys=api_keys) as tool:
                begin()
                text = await tool.ainvoke({"query": "python asyncio"})
                return time.monotonic() - began["at"], text
        if ADAPTER == "langchain retriever":
            from langchain_websearch import WebSearchRetriever

            async with WebSearchRetriever(settings=settings, api_keys=api_keys) as retriever:
                begin()
                try:
                    await retriever.ainvoke("python asyncio")
                except Exception as error:
                    return time.monotonic() - began["at"], str(error)
                return time.monotonic() - began["at"], "answered"
        if ADAPTER == "llamaindex tool":
            from llamaindex_websearch import create_web_search_tool

            async with create_web_search_tool(settings=settings, api_keys=api_keys) as tool:
                begin()
                output = await tool.acall(query="python asyncio")
                return time.monotonic() - began["at"], output.content
        if ADAPTER == "llamaindex spec":
            from llamaindex_websearch import WebSearchToolSpec

            async with WebSearchToolSpec(settings=settings, api_keys=api_keys) as spec:
                begin()
                result = await spec.aweb_search(query="python asyncio")
                return time.monotonic() - began["at"], result.text
        from llamaindex_websearch import WebSearchRetriever

        async with WebSearchRetriever(settings=settings, api_keys=api_keys) as retriever:
            begin()
            try:
                await retriever.aretrieve("python asyncio")
            except Exception as error:
                return time.monotonic() - began["at"], str(error)
            return time.monotonic() - began["at"], "answered"

    async def main():
        async with Simulator(["brave"]) as sim:
            sim["brave"].always(Fault.hang(HANG))
            settings = sim.settings(
                providers=("brave",), deadline_seconds=DEADLINE, timeout_seconds=DEADLINE
            )
            took, said = await first_call(settings, sim.api_keys())
        return {"took": took, "said": said, "imported_first": began["imported_first"]}

    print(json.dumps(asyncio.run(main())))
    """
)


@pytest.mark.parametrize(
    "adapter",
    [
        "langchain tool",
        "langchain retriever",
        "llamaindex tool",
        "llamaindex spec",
        "llamaindex retriever",
    ],
)
def test_the_first_search_of_an_entered_adapter_ends_by_its_deadline(adapter: str) -> None:
    found = run_watched(
        _SCRIPT,
        DEADLINE=_DEADLINE_SECONDS,
        HANG=_HANG_SECONDS,
        preload_imports_of=frameworks_of(adapter),
        ADAPTER=adapter,
    )
    said, took = found["said"], found["took"]
    assert found["imported_first"] is True, found  # entering paid for it, not the call
    assert isinstance(said, str) and "Brave search timed out" in said, found
    assert isinstance(took, float) and took < _HANG_SECONDS / 2, found  # cut, not waited out
