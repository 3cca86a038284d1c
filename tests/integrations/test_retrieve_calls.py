"""A LlamaIndex ``retrieve`` call that is not one query is refused as LangChain's retriever does.

LlamaIndex's span and start event read the call before the retriever does: a list, a number,
``None`` or a dict as the query was ``2 validation errors for RetrievalStartEvent``, bytes an
``AttributeError`` about ``query_str``, and ``retrieve("q", recency="day")``,
``retrieve(query="q")``, ``retrieve("q", 3)`` or ``retrieve()`` the span's bare ``TypeError``
naming no method. Each is now refused naming the retriever, before any request (the
simulator counts none). ``k`` for one call is taken, as LangChain's retriever takes it
(test_retriever_call_k.py).
"""

from typing import Any

import pytest
from llama_index.core.schema import QueryBundle
from pydantic import ValidationError

from langchain_websearch import WebSearchRetriever as LangChainRetriever
from llamaindex_websearch import WebSearchRetriever as LlamaIndexRetriever
from websearch_core import WebSearchError
from websearch_core.testing import Simulator

from ._helpers import sim_settings

WRONG_QUERIES = [["python", "asyncio"], 5, None, {"query": "python"}, b"python"]


def _both(sim: Simulator) -> tuple[LangChainRetriever, LlamaIndexRetriever]:
    options: dict[str, Any] = {"settings": sim_settings(sim), "api_keys": sim.api_keys()}
    return LangChainRetriever(**options), LlamaIndexRetriever(**options)


@pytest.mark.parametrize("query", WRONG_QUERIES, ids=lambda query: type(query).__name__)
def test_a_wrong_query_is_refused_in_langchains_words(threaded_sim: Simulator, query: Any) -> None:
    langchain, llamaindex = _both(threaded_sim)
    with pytest.raises(ValidationError) as said_by_langchain:
        langchain.invoke(query)
    with pytest.raises(ValidationError) as said_by_llamaindex:
        llamaindex.retrieve(query)
    assert str(said_by_llamaindex.value) == str(said_by_langchain.value)
    assert said_by_llamaindex.value.title == "WebSearchRetriever"
    assert [e["loc"] for e in said_by_llamaindex.value.errors()] == [("query",)]
    assert threaded_sim["brave"].requests == []


@pytest.mark.parametrize("query", WRONG_QUERIES, ids=lambda query: type(query).__name__)
async def test_a_wrong_query_is_refused_by_aretrieve_too(sim: Simulator, query: Any) -> None:
    langchain, llamaindex = _both(sim)
    with pytest.raises(ValidationError) as said_by_langchain:
        await langchain.ainvoke(query)
    with pytest.raises(ValidationError) as said_by_llamaindex:
        await llamaindex.aretrieve(query)
    assert str(said_by_llamaindex.value) == str(said_by_langchain.value)
    assert sim["brave"].requests == []


CALLS: list[tuple[tuple[Any, ...], dict[str, Any], str]] = [
    (
        ("python",),
        {"recency": "day"},
        "WebSearchRetriever.retrieve() got an unexpected keyword argument 'recency'; recency "
        "is an option of the retriever, given when it is built: WebSearchRetriever(recency=...)",
    ),
    (
        (),
        {"query": "python"},
        "WebSearchRetriever.retrieve() got an unexpected keyword argument 'query'; give "
        'the query by position alone: retrieve("what to search for")',
    ),
    (
        ("python",),
        {"limit": 3},
        "WebSearchRetriever.retrieve() got an unexpected keyword argument 'limit'; it "
        'takes the query and k= (retrieve("what to search for", k=3)); the retriever\'s '
        "other options (include_answer, include_content, recency) are given when it is built",
    ),
    (
        ("python", 3),
        {},
        "WebSearchRetriever.retrieve() takes the query by position and k by name, got 1 "
        'more positional argument (int): retrieve("what to search for", k=3); the '
        "retriever's other options (include_answer, include_content, recency) are given "
        "when it is built: WebSearchRetriever(recency=...)",
    ),
    (
        (),
        {},
        'WebSearchRetriever.retrieve() needs the query, a text or a QueryBundle: retrieve("what '
        'to search for")',
    ),
]


@pytest.mark.parametrize(("args", "kwargs", "said"), CALLS)
def test_a_call_that_is_not_one_query_names_the_method(
    threaded_sim: Simulator, args: tuple[Any, ...], kwargs: dict[str, Any], said: str
) -> None:
    _, llamaindex = _both(threaded_sim)
    with pytest.raises(WebSearchError) as caught:
        llamaindex.retrieve(*args, **kwargs)
    assert isinstance(caught.value, TypeError)  # an old `except TypeError` still catches it
    assert str(caught.value) == said
    assert threaded_sim["brave"].requests == []


async def test_aretrieve_names_itself(sim: Simulator) -> None:
    _, llamaindex = _both(sim)
    with pytest.raises(TypeError, match=r"^WebSearchRetriever\.aretrieve\(\) got an unexpected"):
        await llamaindex.aretrieve("python", recency="day")
    assert sim["brave"].requests == []


def test_guard_a_text_or_a_query_bundle_still_searches(threaded_sim: Simulator) -> None:
    """Guard: a query given as LlamaIndex takes it reaches Brave, once per call."""
    _, llamaindex = _both(threaded_sim)
    by_text = llamaindex.retrieve("python asyncio")
    by_bundle = llamaindex.retrieve(QueryBundle("rust tokio"))
    assert [len(by_text), len(by_bundle)] == [5, 5]
    sent = [request.query_dict()["q"] for request in threaded_sim["brave"].requests]
    assert sent == ["python asyncio", "rust tokio"]
