"""A LangChain tool's ``ainvoke`` left unawaited names itself and ``invoke``.

``tool.ainvoke({"query": "q"}).content`` said ``'coroutine' object has no attribute
'content'``, Python's words, where ``tool.invoke`` was what a script or notebook cell could
call as it is. LangChain's own paths (a ``ToolCall``, ``abatch``, ``astream``) still await it.
"""

import inspect
from typing import Any

import pytest
from langchain_core.messages import ToolMessage

from langchain_websearch import WebFetchTool, WebSearchTool
from websearch_core.testing import Simulator

from ._helpers import sim_settings


@pytest.mark.parametrize(
    ("tool", "given"),
    [(WebSearchTool, {"query": "q"}), (WebFetchTool, {"url": "https://example.org/"})],
    ids=["search", "fetch"],
)
async def test_an_unawaited_ainvoke_names_the_call(tool: Any, given: dict[str, Any]) -> None:
    call = tool().ainvoke(given)
    with pytest.raises(AttributeError) as raised:
        _ = call.content
    call.close()
    text = str(raised.value)
    assert text.startswith(f"{tool.__name__}.ainvoke() was not awaited: this is its coroutine")
    assert "await tool.ainvoke(...)" in text and "tool.invoke(...)" in text


async def test_langchain_s_awaited_paths_answer_as_before(sim: Simulator) -> None:
    """A guard (passes before and after): a ``ToolCall``, ``abatch`` and ``astream`` through
    ``ainvoke``; LangChain still sees a coroutine function with its signature."""
    tool = WebSearchTool(settings=sim_settings(sim), api_keys=sim.api_keys())
    assert inspect.iscoroutinefunction(tool.ainvoke)
    assert list(inspect.signature(tool.ainvoke).parameters) == ["input", "config", "kwargs"]
    call = {"type": "tool_call", "id": "c1", "name": "web_search", "args": {"query": "one"}}
    message = await tool.ainvoke(call)
    both = await tool.abatch([{"query": "two"}, {"query": ""}])
    chunks = [chunk async for chunk in tool.astream({"query": "three"})]
    assert isinstance(message, ToolMessage) and message.status == "success"
    assert message.content.startswith("[1] one result 1")
    assert both[0].startswith("[1] two result 1") and both[1].startswith("Error: invalid")
    assert len(chunks) == 1 and chunks[0].startswith("[1] three result 1")
    await tool.aclose()
