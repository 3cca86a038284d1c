"""A tool's or retriever's first call counts building its client in its deadline.

Not entered, a tool builds its client at its first call on a loop, after importing what
building needs (the settings' checks, the state store) on a worker thread; the client's
search then made its deadline, which so began after those imports. The call's deadline
now counts from the tool's call (``websearch_core.deadline.CallClock``).

A fresh interpreter holds the state store's import on an event the script controls, and
lets it go only once the deadline has passed since the call began (it waits for the
deadline to pass; nothing is timed or compared with a margin). The call must then end as
a deadline that ran out before any provider was asked; before, it searched with a whole
deadline left and was answered. The next call is answered.

Building no longer imports the state store: the client borrows it at its first use, in the
search, whose imports end by the deadline (stop 49). With the store's import held and not
let go, the first call ends while it is still held.
"""

import textwrap

import pytest

from tests.loop_imports import (
    HELD_DEADLINE_SECONDS,
    frameworks_of,
    gated_import,
    run_held,
    run_watched,
)

_DEADLINE_SECONDS = 3.0
"""Longer than a loaded machine's chain import, which the call waits for after the build:
without the tool's start counted, its search still had time left and was answered."""

_SCRIPT = textwrap.dedent(
    """
    import asyncio, json

    from websearch_core.errors import AllProvidersFailedError
    from websearch_core.testing import Simulator

    def make(settings, api_keys):
        if ADAPTER == "langchain tool":
            from langchain_websearch import WebSearchTool

            return WebSearchTool(settings=settings, api_keys=api_keys)
        if ADAPTER == "langchain retriever":
            from langchain_websearch import WebSearchRetriever

            return WebSearchRetriever(settings=settings, api_keys=api_keys)
        if ADAPTER == "llamaindex tool":
            from llamaindex_websearch import create_web_search_tool

            return create_web_search_tool(settings=settings, api_keys=api_keys)
        from llamaindex_websearch import WebSearchRetriever

        return WebSearchRetriever(settings=settings, api_keys=api_keys)

    async def call(searcher):
        # The error text, or None when answered.
        try:
            if ADAPTER == "langchain tool":
                text = await searcher.ainvoke({"query": "python asyncio"})
            elif ADAPTER == "llamaindex tool":
                text = (await searcher.acall(query="python asyncio")).content
            elif ADAPTER == "langchain retriever":
                return None if await searcher.ainvoke("python asyncio") else "nothing"
            else:
                return None if await searcher.aretrieve("python asyncio") else "nothing"
        except AllProvidersFailedError as error:
            return str(error)
        return text if text.startswith("Error:") else None

    async def release_after_the_deadline():
        while not GATED_ON:  # the call has begun and reached the held import
            await asyncio.sleep(0.01)
        await asyncio.sleep(DEADLINE)  # so its deadline, counted from its start, has passed
        GATE.set()

    async def main():
        async with Simulator(["brave"]) as sim:
            settings = sim.settings(
                providers=("brave",), state_backend="memory", deadline_seconds=DEADLINE
            )
            searcher = make(settings, sim.api_keys())
            try:
                releasing = asyncio.create_task(release_after_the_deadline())
                first = await call(searcher)
                await releasing
                second = await call(searcher)
            finally:
                await searcher.aclose()
        return {"first": first, "second": second, "lapsed": GATE_LAPSED, "on": GATED_ON}

    print(json.dumps(asyncio.run(main())))
    """
)


@pytest.mark.parametrize(
    "adapter", ["langchain tool", "langchain retriever", "llamaindex tool", "llamaindex retriever"]
)
def test_a_tools_first_call_counts_building_its_client_in_its_deadline(adapter: str) -> None:
    found = run_watched(
        gated_import("websearch_core.state") + _SCRIPT,
        preload_imports_of=frameworks_of(adapter),
        ADAPTER=adapter,
        DEADLINE=_DEADLINE_SECONDS,
    )
    assert found["lapsed"] == [], found
    assert found["on"] == ["websearch-imports"], found  # off the loop, once
    first = found["first"]
    assert isinstance(first, str), found
    assert "the 3s deadline for the whole search ran out; not tried: brave" in first, found
    assert found["second"] is None, found


_HELD_SCRIPT = _SCRIPT[: _SCRIPT.index("async def release_after_the_deadline")] + textwrap.dedent(
    """
    async def main():
        async with Simulator(["brave"]) as sim:
            settings = sim.settings(
                providers=("brave",), state_backend="memory", deadline_seconds=DEADLINE
            )
            searcher = make(settings, sim.api_keys())
            try:
                return await first_then_released(lambda: call(searcher))
            finally:
                await searcher.aclose()

    print(json.dumps(asyncio.run(main())))
    """
)
"""The first call made while the store's import is held, the gate let go only after it."""


@pytest.mark.parametrize(
    "adapter", ["langchain tool", "langchain retriever", "llamaindex tool", "llamaindex retriever"]
)
def test_a_tools_first_call_ends_by_its_deadline_while_the_stores_import_is_held(
    adapter: str,
) -> None:
    """A first call whose build waits on the state store's import ends by its deadline.

    Building the loop's client imported the state store and opened it, with no limit,
    before the search's own imports (which end by the deadline) began: with the store's
    import held, a 3 s call waited out the whole 30 s hold and only then said its deadline
    had run out. The client now borrows the store at its first use, in the search, whose
    import job takes the store's modules within the deadline. Failed before (the hold
    lapsed).
    """
    found = run_held(
        "websearch_core.state",
        _HELD_SCRIPT,
        preload_imports_of=frameworks_of(adapter),
        ADAPTER=adapter,
        DEADLINE=HELD_DEADLINE_SECONDS,
    )
    first = found["first"]
    assert isinstance(first, str), found
    said = f"the {HELD_DEADLINE_SECONDS:g}s deadline for the whole search ran out"
    assert f"{said}; not tried: brave" in first, found
    assert found["second"] is None, found
