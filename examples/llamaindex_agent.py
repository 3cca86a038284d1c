"""A LlamaIndex ``FunctionAgent`` with the ``web_search`` tool.

::

    pip install "websearch-tools[llamaindex]"
    python examples/llamaindex_agent.py --offline      # simulator + a scripted mock LLM
    python examples/llamaindex_agent.py "what is new in Python 3.13?"   # real search
    pip install llama-index-llms-openai && OPENAI_API_KEY=... python examples/llamaindex_agent.py

Offline, ``MockFunctionCallingLLM`` (shipped with llama-index-core) plays the model: it calls
``web_search`` once and answers with the first line it got back. A real function-calling LLM
(LlamaIndex's configured default) decides for itself.
"""

import asyncio
from collections.abc import Sequence
from typing import Any

from _setup import extra_missing, llamaindex_llm, parse_args, search_options, served_by

try:  # the [llamaindex] extra; without it, say what to install rather than a traceback
    from llama_index.core.agent.workflow import AgentOutput, FunctionAgent, ToolCallResult
    from llama_index.core.base.llms.types import ChatMessage, MessageRole, ToolCallBlock
    from llama_index.core.llms.mock import MockFunctionCallingLLM

    from llamaindex_websearch import create_web_search_tool
except ModuleNotFoundError as missing:
    raise SystemExit(extra_missing(missing)) from None

QUESTION = "What is new in Python 3.13?"


def scripted_llm(question: str) -> MockFunctionCallingLLM:
    """Calls ``web_search`` once, then answers from the result's first line."""

    def respond(messages: Sequence[ChatMessage], **kwargs: Any) -> ChatMessage:
        results = [m for m in messages if m.role == MessageRole.TOOL]
        if not results:
            call = ToolCallBlock(
                tool_call_id="call-1",
                tool_name="web_search",
                tool_kwargs={"query": question, "limit": 3},
            )
            return ChatMessage(role=MessageRole.ASSISTANT, blocks=[call])
        first_line = str(results[-1].content).splitlines()[0]
        return ChatMessage(role=MessageRole.ASSISTANT, content=f"The top source: {first_line}")

    return MockFunctionCallingLLM(response_generator=respond)


async def main() -> None:
    args = parse_args("A LlamaIndex FunctionAgent with web_search.", QUESTION)
    async with (
        search_options(args.offline) as options,
        create_web_search_tool(**options) as tool,
    ):
        llm = llamaindex_llm(args.offline, scripted_llm(args.question))
        agent = FunctionAgent(tools=[tool], llm=llm, system_prompt="Search before answering.")
        handler = agent.run(user_msg=args.question)
        async for event in handler.stream_events():
            if isinstance(event, ToolCallResult):
                output = event.tool_output
                # Worded as the LangChain example's ToolMessage.status, so the two read alike.
                status = "error" if output.is_error else "success"
                print(f"web_search({event.tool_kwargs['query']!r}) -> {status}")
                print("provider:", served_by(output.is_error, output.raw_output))
                print(output.content)
        # The handler's result type is generic and unresolved for a FunctionAgent; the
        # assertion states what it is (an AgentOutput), so the checkers know it too.
        result: object = await handler
        assert isinstance(result, AgentOutput)
        print("model:", result.response.content)


if __name__ == "__main__":
    asyncio.run(main())
