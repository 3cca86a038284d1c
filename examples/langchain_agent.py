"""A LangChain tool-calling loop with ``WebSearchTool``, offline.

A scripted chat model asks for one ``web_search`` call; the tool answers from the loopback
simulator (DuckDuckGo's protocol), and the result goes back to the model::

    pip install "websearch-tools[langchain]"
    python examples/langchain_agent.py
"""

import asyncio

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from langchain_websearch import WebSearchTool
from websearch_core.testing import Simulator


async def main() -> None:
    async with Simulator(["duckduckgo"]) as sim:
        tool = WebSearchTool(settings=sim.settings())
        call = {"name": "web_search", "args": {"query": "aiohttp client timeout"}, "id": "call-1"}
        model = GenericFakeChatModel(
            messages=iter([AIMessage(content="", tool_calls=[call]), AIMessage(content="Done.")])
        )
        history: list = [HumanMessage(content="How do I set a timeout in aiohttp?")]
        reply = await model.ainvoke(history)
        history.append(reply)
        for tool_call in reply.tool_calls:
            message: ToolMessage = await tool.ainvoke({**tool_call, "type": "tool_call"})
            history.append(message)
            print(message.content.splitlines()[0])
            print("provider:", message.artifact["response"]["provider"])
        final = await model.ainvoke(history)
        print("model:", final.content)
        await tool.aclose()  # the tool keeps one HTTP session across calls


if __name__ == "__main__":
    asyncio.run(main())
