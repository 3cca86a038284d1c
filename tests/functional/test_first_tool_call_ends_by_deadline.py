"""A process's first search through an entered tool or retriever ends by its deadline.

Entering a client (``async with WebSearch(...)``) imports the chain, so its first search
ends by its deadline; the tools and retrievers build their client at their first call, and
entering them imported nothing: that call waited for the chain's import (0.2 s idle, 0.3-0.6
s at load 4-5) before its deadline began. Each now imports the chain when entered, as the
client does. A fresh interpreter, where nothing is imported yet, makes that import take 0.5
s (as a loaded machine does); the call is timed from a clock read just before it, against
the deadline plus the store's grace the README allows a search past it.
"""

import textwrap

import pytest

from tests.loop_imports import SLOW_CHAIN_IMPORT, run_watched
from websearch_core.deadline import STORE_GRACE_SECONDS

_DEADLINE_SECONDS = 1.5

_SCRIPT = SLOW_CHAIN_IMPORT + textwrap.dedent(
    """
    import asyncio, json, time

    from websearch_core.testing import Fault, Simulator

    async def first_call(settings, api_keys):
        if ADAPTER == "langchain tool":
            from langchain_websearch import WebSearchTool

            async with WebSearchTool(settings=settings, api_keys=api_keys) as tool:
                started = time.monotonic()
                text = await tool.ainvoke({"query": "python asyncio"})
                return time.monotonic() - started, text
        if ADAPTER == "langchain retriever":
            from langchain_websearch import WebSearchRetriever

            async with WebSearchRetriever(settings=settings, api_keys=api_keys) as retriever:
                started = time.monotonic()
                try:
                    await retriever.ainvoke("python asyncio")
                except Exception as error:
                    return time.monotonic() - started, str(error)
                return time.monotonic() - started, "answered"
        if ADAPTER == "llamaindex tool":
            from llamaindex_websearch import create_web_search_tool

            async with create_web_search_tool(settings=settings, api_keys=api_keys) as tool:
                started = time.monotonic()
                output = await tool.acall(query="python asyncio")
                return time.monotonic() - started, output.content
        if ADAPTER == "llamaindex spec":
            from llamaindex_websearch import WebSearchToolSpec

            async with WebSearchToolSpec(settings=settings, api_keys=api_keys) as spec:
                started = time.monotonic()
                result = await spec.aweb_search(query="python asyncio")
                return time.monotonic() - started, result.text
        from llamaindex_websearch import WebSearchRetriever

        async with WebSearchRetriever(settings=settings, api_keys=api_keys) as retriever:
            started = time.monotonic()
            try:
                await retriever.aretrieve("python asyncio")
            except Exception as error:
                return time.monotonic() - started, str(error)
            return time.monotonic() - started, "answered"

    async def main():
        async with Simulator(["brave"]) as sim:
            sim["brave"].always(Fault.hang(60))
            settings = sim.settings(
                providers=("brave",), deadline_seconds=DEADLINE, timeout_seconds=DEADLINE
            )
            took, said = await first_call(settings, sim.api_keys())
        return {"took": took, "said": said}

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
    found = run_watched(_SCRIPT, DEADLINE=_DEADLINE_SECONDS, ADAPTER=adapter)
    said, took = found["said"], found["took"]
    assert isinstance(said, str) and "Brave request timed out" in said, found
    assert isinstance(took, float) and took <= _DEADLINE_SECONDS + STORE_GRACE_SECONDS, found
