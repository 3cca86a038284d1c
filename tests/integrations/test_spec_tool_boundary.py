"""Spec §Outputs and §Errors at the tool boundary, through both frameworks' tools.

"Tool-level no-provider case returns a normal tool result with ``Error: No web search
provider configured.``; it does not throw", with ``details.response.provider = "none"``;
and a cancelled call "rethrows the cancellation instead of returning an ``"Error: ..."``
text result". The client tests prove both for ``WebSearch.run``; these prove the tools a
model calls keep them.
"""

import asyncio
from typing import Any

import pytest
from langchain_core.messages import ToolMessage
from langchain_core.messages.tool import ToolCall

from langchain_websearch import WebSearchTool
from llamaindex_websearch import create_web_search_tool
from tests.integrations._helpers import sim_settings
from websearch_core.testing import Fault, Simulator

NOT_CONFIGURED = "No web search provider configured."


def _call(args: dict[str, Any]) -> ToolCall:
    return ToolCall(name="web_search", args=args, id="call_1", type="tool_call")


async def test_no_provider_is_a_normal_result_in_both_tools(sim: Simulator) -> None:
    """Guard: passes on main (the text, the "none" provider and the error in the details)."""
    # No key for Brave and DuckDuckGo excluded: nothing can run.
    options: dict[str, Any] = {"settings": sim_settings(sim, "duckduckgo"), "api_keys": {}}
    async with WebSearchTool(**options) as langchain_tool:
        message = await langchain_tool.ainvoke(_call({"query": "python"}))
    async with create_web_search_tool(**options) as llamaindex_tool:
        output = await llamaindex_tool.acall(query="python")
    assert isinstance(message, ToolMessage)
    assert message.content == output.content == f"Error: {NOT_CONFIGURED}"
    for details in (message.artifact, output.raw_output):
        assert details["error"] == NOT_CONFIGURED
        assert details["response"]["provider"] == "none"
        assert details["response"]["sources"] == []
    assert sim["brave"].requests == sim["duckduckgo"].requests == []


async def _cancel_while_asked(sim: Simulator, call: Any) -> None:
    """Start ``call``, cancel it once Brave holds its request, and expect the cancellation."""
    task = asyncio.ensure_future(call)
    while not sim["brave"].requests:
        await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_a_cancelled_call_raises_in_both_tools_and_asks_no_fallback(
    sim: Simulator,
) -> None:
    """Guard: passes on main; the cancellation is never turned into an "Error:" text."""
    sim["brave"].always(Fault.hang(30))
    options: dict[str, Any] = {"settings": sim_settings(sim), "api_keys": sim.api_keys()}
    async with WebSearchTool(**options) as langchain_tool:
        await _cancel_while_asked(sim, langchain_tool.ainvoke(_call({"query": "python"})))
    assert sim["duckduckgo"].requests == []
    sim["brave"].requests.clear()
    async with create_web_search_tool(**options) as llamaindex_tool:
        await _cancel_while_asked(sim, llamaindex_tool.acall(query="python"))
    assert sim["duckduckgo"].requests == []
