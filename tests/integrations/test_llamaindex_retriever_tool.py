"""LlamaIndex's ``RetrieverTool`` (and ``QueryEngineTool``) over ``WebSearchRetriever``
search what the model asked.

``RetrieverTool.from_defaults(retriever=WebSearchRetriever())`` is LlamaIndex's way of
handing a retriever to an agent. The model fills its one argument, ``{"input": "python"}``,
and the tool writes its keywords as one text, ``"\\ninput is python\\n"``: the engine was
asked for ``input is python`` on every call (``query is python`` for a model that named the
argument ``query``). ``QueryEngineTool`` over a ``RetrieverQueryEngine`` searched
``{'query': 'python'}`` (Python's text of the keywords) for a model that named its ``input``
``query``. The retriever now reads both tools' wrapping. An agent
(``FunctionAgent`` driven by a scripted ``MockFunctionCallingLLM``) calls the tool; what
was searched is what the loopback simulator's Brave was sent.
"""

from collections.abc import AsyncIterator, Sequence
from typing import Any

import pytest
from llama_index.core.agent.workflow import FunctionAgent, ToolCallResult
from llama_index.core.base.llms.types import ChatMessage, MessageRole, ToolCallBlock
from llama_index.core.llms.mock import MockFunctionCallingLLM, MockLLM
from llama_index.core.query_engine import RetrieverQueryEngine
from llama_index.core.tools import QueryEngineTool, RetrieverTool
from pydantic import ValidationError

from llamaindex_websearch import WebSearchRetriever
from websearch_core.testing import Simulator


@pytest.fixture
async def sim() -> AsyncIterator[Simulator]:
    async with Simulator(["brave"]) as simulator:
        yield simulator


def _retriever(sim: Simulator) -> WebSearchRetriever:
    return WebSearchRetriever(k=2, settings=sim.settings(cache=False), api_keys=sim.api_keys())


def _searched(sim: Simulator) -> list[str]:
    return [request.query_dict()["q"] for request in sim["brave"].requests]


def _model(arguments: dict[str, Any]) -> MockFunctionCallingLLM:
    """Calls the tool ``web`` once with ``arguments``, then answers."""

    def respond(messages: Sequence[ChatMessage], **_: Any) -> ChatMessage:
        if any(message.role == MessageRole.TOOL for message in messages):
            return ChatMessage(role=MessageRole.ASSISTANT, content="done")
        call = ToolCallBlock(tool_call_id="1", tool_name="web", tool_kwargs=arguments)
        return ChatMessage(role=MessageRole.ASSISTANT, blocks=[call])

    return MockFunctionCallingLLM(response_generator=respond)


@pytest.mark.filterwarnings("ignore::pydantic.warnings.PydanticDeprecationWarning")  # workflows'
@pytest.mark.parametrize("name", ["input", "query"])
async def test_an_agent_s_call_searches_the_words_the_model_gave(sim: Simulator, name: str) -> None:
    retriever = _retriever(sim)
    tool = RetrieverTool.from_defaults(retriever=retriever, name="web")
    agent = FunctionAgent(tools=[tool], llm=_model({name: "what is PEP 703?"}))
    handler = agent.run(user_msg="What is PEP 703?")
    outputs = [event.tool_output async for event in handler.stream_events()
               if isinstance(event, ToolCallResult)]  # fmt: skip
    await handler
    assert _searched(sim) == ["what is PEP 703?"]
    assert not outputs[0].is_error
    assert str(outputs[0].content).startswith("what is PEP 703? result 1\n")
    await retriever.aclose()


def test_the_tool_s_synchronous_call_searches_the_words_too(threaded_sim: Simulator) -> None:
    """A script's ``tool.call(input=...)`` (the simulator served from its own thread)."""
    retriever = _retriever(threaded_sim)
    tool = RetrieverTool.from_defaults(retriever=retriever, name="web")
    tool.call(input="rust async")
    assert _searched(threaded_sim) == ["rust async"]


def test_a_query_engine_tool_given_query_searches_its_words(threaded_sim: Simulator) -> None:
    """``QueryEngineTool`` reads ``input``; given ``query`` it wrote ``{'query': '...'}``.
    Another key beside it is refused by name, as in the JSON object a model may write."""
    engine = RetrieverQueryEngine.from_args(_retriever(threaded_sim), llm=MockLLM())
    tool = QueryEngineTool.from_defaults(engine, name="web", description="Searches the web.")
    tool.call(input="rust async")
    tool.call(query="what is PEP 703?")
    assert _searched(threaded_sim) == ["rust async", "what is PEP 703?"]
    with pytest.raises(ValidationError, match="holding 'k' beside the query"):
        tool.call(query="python", k=2)
    assert len(threaded_sim["brave"].requests) == 2


@pytest.mark.filterwarnings("ignore::pydantic.warnings.PydanticDeprecationWarning")  # workflows'
async def test_an_agent_s_words_holding_x_is_are_searched_without_the_wrapping(
    sim: Simulator,
) -> None:
    """Failed before: ``{"input": "rust, which is fast"}`` (prose holding ``, x is``) was
    searched as the tool wrote it, ``"\\ninput is rust, which is fast\\n"``."""
    retriever = _retriever(sim)
    tool = RetrieverTool.from_defaults(retriever=retriever, name="web")
    agent = FunctionAgent(tools=[tool], llm=_model({"input": "rust, which is fast"}))
    await agent.run(user_msg="Is rust fast?")
    assert _searched(sim) == ["rust, which is fast"]
    await retriever.aclose()


def test_several_keywords_search_the_model_s_text_past_the_first_name(
    threaded_sim: Simulator,
) -> None:
    """Failed before (searched ``"\\ninput is python, k is 3\\n"``). Decided: a pair cannot be
    told from a value's words, and a retriever's ``k`` is set when it is built, so the model's
    text past the tool's first name is searched, later pairs as words; one search."""
    retriever = _retriever(threaded_sim)
    tool = RetrieverTool.from_defaults(retriever=retriever, name="web")
    tool.call(input="python", k=3)
    assert _searched(threaded_sim) == ["python, k is 3"]


@pytest.mark.parametrize(
    "given",
    [
        "input is python",
        "python\n\n",
        "{'q': 'python'}",
        "{'query': 'python', 'k': {1, 2}}",
    ],
)
async def test_guard_other_texts_are_searched_as_written(sim: Simulator, given: str) -> None:
    """A guard (passes before and after): a typed query that reads ``x is y``, the tool's
    text for a positional argument, and keywords text without ``query`` first or not JSON's
    (a set) are searched as written."""
    retriever = _retriever(sim)
    await retriever.aretrieve(given)
    assert _searched(sim) == [given]
    await retriever.aclose()
