"""A LlamaIndex tool's ``acall`` and both retrievers' async calls, left unawaited, name themselves.

``tool.acall(query="q").content`` said ``'coroutine' object has no attribute 'content'``,
``retriever.aretrieve("q")[0]`` and LangChain's ``retriever.ainvoke("q")[0]`` ``'coroutine'
object is not subscriptable``, and ``print(tool.acall(...))`` showed LlamaIndex's
``<coroutine object Dispatcher.span.<locals>.async_wrapper ...>``: Python's words, where
``WebSearch.run`` and the LangChain tools already named the call and its synchronous twin.
"""

import asyncio
import gc
import inspect
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from langchain_core.documents import Document
from llama_index.core.instrumentation.span_handlers import SimpleSpanHandler
from llama_index_instrumentation import get_dispatcher

from langchain_websearch import WebSearchRetriever as LangChainRetriever
from llamaindex_websearch import WebSearchRetriever as LlamaIndexRetriever
from llamaindex_websearch import create_web_fetch_tool, create_web_search_tool
from websearch_core.testing import Simulator

from ._helpers import sim_settings

_CALLS: dict[str, tuple[Callable[[], Any], Callable[[Any], Any], str]] = {
    # label: (build the object, its call left unawaited, the message's start)
    "search acall": (
        create_web_search_tool,
        lambda tool: tool.acall(query="q"),
        "WebSearchFunctionTool.acall() was not awaited: ",
    ),
    "fetch acall": (
        create_web_fetch_tool,
        lambda tool: tool.acall(url="https://example.org/"),
        "WebFetchFunctionTool.acall() was not awaited: ",
    ),
    "llamaindex aretrieve": (
        LlamaIndexRetriever,
        lambda retriever: retriever.aretrieve("q"),
        "WebSearchRetriever.aretrieve() was not awaited: ",
    ),
    "langchain ainvoke": (
        LangChainRetriever,
        lambda retriever: retriever.ainvoke("q"),
        "WebSearchRetriever.ainvoke() was not awaited: ",
    ),
}
_TWINS = {
    "search acall": ("tool.acall", "tool.call"),
    "fetch acall": ("tool.acall", "tool.call"),
    "llamaindex aretrieve": ("retriever.aretrieve", "retriever.retrieve"),
    "langchain ainvoke": ("retriever.ainvoke", "retriever.invoke"),
}


@pytest.fixture(params=list(_CALLS))
def pending(request: pytest.FixtureRequest) -> Iterator[tuple[str, Any]]:
    """One call left unawaited (on no loop: nothing runs); closed after the test."""
    label: str = request.param
    build, call, _ = _CALLS[label]
    coroutine = call(build())
    yield label, coroutine
    coroutine.close()


def _names_the_call(label: str, text: str) -> None:
    call, twin = _TWINS[label]
    assert text.startswith(_CALLS[label][2] + "this is its coroutine, which "), text
    assert f"write result = await {call}(...) inside async code, or {twin}(...)" in text


def test_its_attribute_names_the_call_and_its_twin(pending: tuple[str, Any]) -> None:
    label, coroutine = pending
    with pytest.raises(AttributeError) as raised:
        _ = coroutine.content
    _names_the_call(label, str(raised.value))
    assert "has no attribute 'content'" in str(raised.value)


def test_indexing_iterating_or_printing_it_names_the_call(pending: tuple[str, Any]) -> None:
    label, coroutine = pending
    for use in (lambda: coroutine[0], lambda: [item for item in coroutine], lambda: len(coroutine)):
        with pytest.raises(TypeError) as raised:
            use()
        _names_the_call(label, str(raised.value))
    shown = repr(coroutine)
    assert shown.startswith("<") and shown.endswith(">")
    _names_the_call(label, shown[1:-1])


@pytest.mark.parametrize("label", ["search acall", "fetch acall", "llamaindex aretrieve"])
def test_a_call_dropped_unused_is_named_in_python_s_warning(label: str) -> None:
    """``tool.acall(...)`` as a statement was warned of as ``coroutine
    'Dispatcher.span.<locals>.async_wrapper' was never awaited``: LlamaIndex's wrapper."""
    build, call, start = _CALLS[label]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call(build())
        gc.collect()
    said = [str(warning.message) for warning in caught if warning.category is RuntimeWarning]
    assert said == [f"coroutine '{start.partition('(')[0]}' was never awaited"]


async def test_awaited_they_answer_with_one_span_as_before(sim: Simulator) -> None:
    """A guard (passes before and after): awaited directly, as a task and through
    ``gather``, each answers; LlamaIndex still opens one span per call, named after the
    class and method, without ``self`` among its arguments; ``inspect`` still sees
    coroutine functions with the signatures the frameworks read."""
    options: dict[str, Any] = {"settings": sim_settings(sim), "api_keys": sim.api_keys()}
    tool = create_web_search_tool(**options)
    retriever = LlamaIndexRetriever(k=2, **options)
    chain_retriever = LangChainRetriever(k=2, **options)
    for method in (tool.acall, retriever.aretrieve, chain_retriever.ainvoke):
        assert inspect.iscoroutinefunction(method)
    assert list(inspect.signature(chain_retriever.ainvoke).parameters) == [
        "input",
        "config",
        "kwargs",
    ]
    dispatcher = get_dispatcher()
    spans = SimpleSpanHandler()
    dispatcher.add_span_handler(spans)
    try:
        output = await tool.acall(query="one")
        nodes = await asyncio.create_task(retriever.aretrieve("two"))
        documents, batch = await asyncio.gather(
            chain_retriever.ainvoke("three"), chain_retriever.abatch(["four", "five"])
        )
    finally:
        dispatcher.span_handlers.remove(spans)
    assert output.content.startswith("[1] one result 1") and not output.is_error
    assert [node.text.splitlines()[0] for node in nodes] == ["two result 1", "two result 2"]
    assert all(isinstance(document, Document) for document in documents)
    assert [len(found) for found in (documents, *batch)] == [2, 2, 2]
    names = sorted(span.id_.split("-")[0] for span in spans.completed_spans)
    assert "WebSearchFunctionTool.acall" in names
    assert names.count("WebSearchRetriever.aretrieve") == 1
    for handle in (tool, retriever, chain_retriever):
        await handle.aclose()
