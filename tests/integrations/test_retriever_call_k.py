"""Both retrievers take ``k`` for one call: LlamaIndex's ``retrieve("q", k=2)`` as LangChain's.

LangChain's ``retriever.invoke("q", k=2)`` returned two documents, while LlamaIndex's
``retriever.retrieve("q", k=2)`` was refused with ``k is an option of the retriever, given
when it is built``: the same class name, two answers to the same call. LlamaIndex's
retriever now takes it too, sends it as the search's ``limit`` and refuses a bad one in
LangChain's words (``k``, titled ``WebSearchRetriever``).
"""

import asyncio
from typing import Any

import pytest
from pydantic import ValidationError

from langchain_websearch import WebSearchRetriever as LangChainRetriever
from llamaindex_websearch import WebSearchRetriever as LlamaIndexRetriever
from websearch_core.testing import Simulator

from ._helpers import sim_settings


def _options(sim: Simulator) -> dict[str, Any]:
    return {"settings": sim_settings(sim), "api_keys": sim.api_keys(), "k": 5}


def _counts(sim: Simulator) -> list[str]:
    """The ``count`` each search asked Brave for, in order."""
    return [request.query_dict()["count"] for request in sim["brave"].requests]


def test_retrieve_takes_k_for_one_call(threaded_sim: Simulator) -> None:
    retriever = LlamaIndexRetriever(**_options(threaded_sim))
    two = retriever.retrieve("python", k=2)
    default = retriever.retrieve("rust")
    chain_two = LangChainRetriever(**_options(threaded_sim)).invoke("go", k=2)
    assert [node.text.splitlines()[0] for node in two] == ["python result 1", "python result 2"]
    assert [len(two), len(default), len(chain_two)] == [2, 5, 2]
    assert [node.score for node in two] == [1.0, 0.5]
    assert _counts(threaded_sim) == ["2", "5", "2"]


async def test_aretrieve_takes_k_for_one_call_and_calls_at_once_keep_theirs(
    sim: Simulator,
) -> None:
    retriever = LlamaIndexRetriever(**_options(sim))
    one, three, default = await asyncio.gather(
        retriever.aretrieve("a", k=1), retriever.aretrieve("b", k=3), retriever.aretrieve("c")
    )
    assert [len(one), len(three), len(default)] == [1, 3, 5]
    assert sorted(_counts(sim)) == ["1", "3", "5"]
    await retriever.aclose()


@pytest.mark.parametrize("k", [0, 101, "2"])
def test_a_bad_k_is_refused_in_langchains_words(threaded_sim: Simulator, k: Any) -> None:
    with pytest.raises(ValidationError) as said_by_langchain:
        LangChainRetriever(**_options(threaded_sim)).invoke("python", k=k)
    with pytest.raises(ValidationError) as said_by_llamaindex:
        LlamaIndexRetriever(**_options(threaded_sim)).retrieve("python", k=k)
    assert str(said_by_llamaindex.value) == str(said_by_langchain.value)
    assert [e["loc"] for e in said_by_llamaindex.value.errors()] == [("k",)]
    assert threaded_sim["brave"].requests == []
