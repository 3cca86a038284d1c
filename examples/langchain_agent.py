"""A LangChain tool-calling loop: the model asks for ``web_search``, reads it, answers.

::

    pip install "websearch-tools[langchain]"
    python examples/langchain_agent.py --offline      # simulator + a scripted fake model
    python examples/langchain_agent.py "what is new in Python 3.13?"   # real search
    LANGCHAIN_MODEL=openai:gpt-4o-mini python examples/langchain_agent.py   # and a real model

Offline, ``GenericFakeChatModel`` (shipped with langchain-core) plays the model: it asks for
one search and then answers. A real model (``LANGCHAIN_MODEL``, via ``init_chat_model``;
``pip install langchain langchain-openai``) decides for itself.
"""

import asyncio
from typing import Any

from _setup import extra_missing, langchain_chat_model, parse_args, search_options, served_by

try:  # the [langchain] extra; without it, say what to install rather than a traceback
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

    from langchain_websearch import WebSearchTool
except ModuleNotFoundError as missing:
    raise SystemExit(extra_missing(missing)) from None

QUESTION = "What is new in Python 3.13?"


def scripted_model(question: str) -> GenericFakeChatModel:
    """Asks for one search, then answers: what a tool-calling model does, without one."""
    call = {"name": "web_search", "args": {"query": question, "limit": 3}, "id": "call-1"}
    return GenericFakeChatModel(
        messages=iter(
            [
                AIMessage(content="", tool_calls=[call]),
                # Scripted, so it cannot read the result: it claims nothing of it, which
                # held a source [1] up as the answer after a search that had failed.
                AIMessage(content="See the web_search result above."),
            ]
        )
    )


async def main() -> None:
    args = parse_args("A LangChain agent loop with web_search.", QUESTION)
    async with search_options(args.offline) as options, WebSearchTool(**options) as tool:
        model: Any = langchain_chat_model(args.offline, scripted_model(args.question))
        if not isinstance(model, GenericFakeChatModel):
            model = model.bind_tools([tool])
        history: list[BaseMessage] = [HumanMessage(content=args.question)]
        while True:
            reply = await model.ainvoke(history)
            history.append(reply)
            if not reply.tool_calls:
                break
            for tool_call in reply.tool_calls:
                message: ToolMessage = await tool.ainvoke({**tool_call, "type": "tool_call"})
                history.append(message)
                print(f"web_search({tool_call['args']['query']!r}) -> {message.status}")
                print("provider:", served_by(message.status == "error", message.artifact))
                print(message.content)
        print("model:", reply.content)


if __name__ == "__main__":
    asyncio.run(main())
