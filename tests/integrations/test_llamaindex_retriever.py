"""``WebSearchRetriever`` (LlamaIndex) through LlamaIndex's own retrieval paths, offline."""

import asyncio
import gc
import warnings
from typing import Any

import aiohttp
import pytest
from llama_index.core.base.base_retriever import BaseRetriever
from llama_index.core.llms.mock import MockLLM
from llama_index.core.query_engine import RetrieverQueryEngine
from llama_index.core.schema import MetadataMode, NodeWithScore, QueryBundle, TextNode
from pydantic import ValidationError

import llamaindex_websearch
from llamaindex_websearch import WebSearchRetriever
from tests.content._server import serve
from tests.integrations._helpers import SOURCE_KEYS, assert_flat, sim_settings
from websearch_core import (
    AllProvidersFailedError,
    NoProviderConfiguredError,
    WebSearch,
    WebSearchError,
)
from websearch_core.testing import Fault, Simulator
from websearch_core.testing.simulator import SimResult


def _retriever(sim: Simulator, *exclude: str, **kwargs: Any) -> WebSearchRetriever:
    return WebSearchRetriever(
        settings=sim_settings(sim, *exclude), api_keys=sim.api_keys(), **kwargs
    )


def _text_node(result: NodeWithScore) -> TextNode:
    assert isinstance(result.node, TextNode)
    return result.node


# --- construction ---------------------------------------------------------------------------


def test_exported_as_a_llamaindex_retriever() -> None:
    assert "WebSearchRetriever" in llamaindex_websearch.__all__
    retriever = WebSearchRetriever()
    assert isinstance(retriever, BaseRetriever)
    assert retriever.k == 5
    assert retriever.include_answer is False


def test_configuration_is_validated_at_construction() -> None:
    with pytest.raises(ValidationError, match="Unknown search provider: altavista"):
        WebSearchRetriever(provider="altavista")
    with pytest.raises(ValidationError, match="not both"):
        WebSearchRetriever(WebSearch(), api_keys={"brave": "k"})
    with pytest.raises(ValidationError, match="timeout_seconds"):
        WebSearchRetriever(timeout_seconds=0)
    assert WebSearchRetriever(k=100).k == 100


@pytest.mark.parametrize("k", [0, 101, -1, "5", True, 2.0])
def test_k_is_bounded_and_strict(k: Any) -> None:
    with pytest.raises(ValidationError) as caught:
        WebSearchRetriever(k=k)
    # The title named the private _RetrieverConfig.
    assert caught.value.title == "WebSearchRetriever"
    assert [error["loc"] for error in caught.value.errors()] == [("k",)]


def test_keys_are_secret() -> None:
    retriever = WebSearchRetriever(api_keys={"brave": "sk-very-secret"})
    assert "sk-very-secret" not in repr(retriever)
    assert "sk-very-secret" not in repr(vars(retriever))


def test_keys_in_the_wrong_shape_are_named_without_the_key() -> None:
    # dict(api_keys) raised "dictionary update sequence element #0 has length 1; 2 is
    # required", naming neither api_keys nor what it should be.
    with pytest.raises(ValidationError) as caught:
        WebSearchRetriever(api_keys="sk-very-secret")  # type: ignore[arg-type]
    assert [(e["loc"], e["msg"]) for e in caught.value.errors()] == [
        (("api_keys",), "Input should be a valid dictionary")
    ]
    assert "sk-very-secret" not in str(caught.value)


# --- nodes ----------------------------------------------------------------------------------


async def test_nodes_carry_title_url_snippet_metadata_and_reciprocal_rank(sim: Simulator) -> None:
    retriever = _retriever(sim, k=3)
    try:
        results = await retriever.aretrieve("python asyncio")
    finally:
        await retriever.aclose()
    assert [result.score for result in results] == [1.0, 0.5, 1 / 3]
    for rank, result in enumerate(results, start=1):
        node = _text_node(result)
        url = f"https://site{rank}.example.org/python-asyncio"
        expected = f"python asyncio result {rank}\n{url}\nSnippet {rank} about python asyncio."
        assert node.text == expected
        # The LLM and the embedding model see the text alone, never the metadata lines.
        assert node.get_content(metadata_mode=MetadataMode.LLM) == expected
        assert node.get_content(metadata_mode=MetadataMode.EMBED) == expected
        assert list(node.metadata) == SOURCE_KEYS
        assert node.metadata["title"] == f"python asyncio result {rank}"
        assert node.metadata["url"] == url
        assert node.metadata["published_date"] == f"2026-01-{rank:02d}T00:00:00+00:00"
        assert isinstance(node.metadata["age_seconds"], int)
        assert node.metadata["provider"] == "brave"
        assert node.metadata["rank"] == rank
        assert_flat(node.metadata)  # any vector store takes it
    assert len({_text_node(result).node_id for result in results}) == 3
    assert sim["brave"].requests[0].query_dict()["count"] == "3"


async def test_a_result_without_snippet_is_title_and_url(sim: Simulator) -> None:
    sim["brave"].results = [
        SimResult(title="Only a title", url="https://a.example.org/", snippet="")
    ]
    retriever = _retriever(sim)
    (result,) = await retriever.aretrieve("python")
    await retriever.aclose()
    assert _text_node(result).text == "Only a title\nhttps://a.example.org/"


async def test_a_query_bundle_is_searched_by_its_query_string(sim: Simulator) -> None:
    retriever = _retriever(sim, k=1)
    (result,) = await retriever.aretrieve(QueryBundle("rust async", custom_embedding_strs=["x"]))
    await retriever.aclose()
    assert _text_node(result).metadata["title"] == "rust async result 1"


async def test_aggregate_results_name_their_engines() -> None:
    async with Simulator(["duckduckgo", "mojeek"]) as simulator:
        # simulator.settings() leaves only the simulated engines and their aggregate.
        retriever = WebSearchRetriever(
            settings=simulator.settings(), provider="public", api_keys=simulator.api_keys(), k=2
        )
        results = await retriever.aretrieve("python asyncio")
        await retriever.aclose()
    metadata = _text_node(results[0]).metadata
    assert metadata["provider"] == "public"
    assert metadata["engines"] == "duckduckgo:1,mojeek:1"
    assert_flat(metadata)


async def test_k_limits_the_count_even_when_the_provider_sends_more() -> None:
    # Tavily never asks for fewer than five results; the retriever still returns k.
    async with Simulator(["tavily"]) as simulator:
        retriever = WebSearchRetriever(
            settings=sim_settings(simulator), api_keys=simulator.api_keys(), k=2
        )
        results = await retriever.aretrieve("python asyncio")
        await retriever.aclose()
    assert [_text_node(result).metadata["rank"] for result in results] == [1, 2]
    assert simulator["tavily"].requests[0].json()["max_results"] == 5


async def test_recency_is_sent(sim: Simulator) -> None:
    retriever = _retriever(sim, recency="month")
    await retriever.aretrieve("python")
    await retriever.aclose()
    assert sim["brave"].requests[0].query_dict()["freshness"] == "pm"


# --- page content ---------------------------------------------------------------------------


async def test_include_content_nodes_hold_the_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEBSEARCH_FETCH_ALLOW_PRIVATE", "1")  # the pages are on loopback
    body = "The page explains asyncio in full sentences that a snippet leaves out. " * 6
    async for pages in serve():
        pages.page(
            "/a",
            "<html><head><title>Page A</title></head><body><article><h1>Page A</h1>"
            f"<p>{body}</p></article></body></html>",
        )
        async with Simulator(["brave"]) as simulator:
            simulator["brave"].results = [
                SimResult(title="A", url=pages.url("/a"), snippet="Snippet A."),
                SimResult(title="Gone", url=pages.url("/gone"), snippet="Snippet gone."),
            ]
            retriever = WebSearchRetriever(
                settings=sim_settings(simulator),
                api_keys=simulator.api_keys(),
                k=2,
                include_content=True,
            )
            assert retriever.include_content is True
            page, gone = await retriever.aretrieve("asyncio")
            await retriever.aclose()
    page_node, gone_node = _text_node(page), _text_node(gone)
    title, url, blank, text = page_node.text.split("\n", 3)
    assert (title, url, blank) == ("A", pages.url("/a"), "")
    assert text.startswith("Page A") and body.strip()[:40] in text
    assert page_node.get_content(metadata_mode=MetadataMode.EMBED) == page_node.text
    assert page_node.metadata["content"] == "page"
    assert gone_node.text == f"Gone\n{pages.url('/gone')}\nSnippet gone."
    assert gone_node.metadata["content"] == "snippet"
    assert_flat(page_node.metadata)


# --- the provider's answer -----------------------------------------------------------------


async def test_include_answer_puts_the_answer_and_its_citations_first() -> None:
    async with Simulator(["perplexity"]) as simulator:
        retriever = WebSearchRetriever(
            settings=sim_settings(simulator),
            api_keys=simulator.api_keys(),
            k=2,
            include_answer=True,
        )
        answer, *sources = await retriever.aretrieve("python asyncio")
        await retriever.aclose()
    node = _text_node(answer)
    assert answer.score == 1.0
    answer_text, citations_text = node.text.split("\n\nCitations:\n")
    assert answer_text.startswith("Simulated answer about python asyncio")
    assert citations_text.splitlines()[0] == (
        "[1] python asyncio result 1 https://site1.example.org/python-asyncio"
    )
    assert node.get_content(metadata_mode=MetadataMode.LLM) == node.text
    assert node.metadata["kind"] == "answer"
    assert node.metadata["provider"] == "perplexity"
    assert node.metadata["rank"] == 0
    urls = node.metadata["citation_urls"].split("\n")
    assert urls[0] == "https://site1.example.org/python-asyncio"
    assert node.metadata["citations"] == len(urls) == len(citations_text.splitlines())
    assert_flat(node.metadata)
    assert [result.score for result in sources] == [1.0, 0.5]  # k counts results only


async def test_the_answer_is_left_out_unless_asked_for() -> None:
    async with Simulator(["perplexity"]) as simulator:
        retriever = WebSearchRetriever(
            settings=sim_settings(simulator), api_keys=simulator.api_keys(), k=2
        )
        results = await retriever.aretrieve("python asyncio")
        await retriever.aclose()
    assert [_text_node(result).metadata["rank"] for result in results] == [1, 2]


async def test_include_answer_without_an_answer_gives_only_results(sim: Simulator) -> None:
    retriever = _retriever(sim, k=2, include_answer=True)
    results = await retriever.aretrieve("python")
    await retriever.aclose()
    assert [_text_node(result).metadata["rank"] for result in results] == [1, 2]


# --- in a query engine, and failures --------------------------------------------------------


async def test_query_engine_answers_from_the_node_text(sim: Simulator) -> None:
    retriever = _retriever(sim, k=2)
    engine = RetrieverQueryEngine.from_args(retriever, llm=MockLLM())
    response = await engine.aquery("python asyncio")
    await retriever.aclose()
    prompt = str(response)  # MockLLM echoes the prompt it was given
    assert "python asyncio result 1\nhttps://site1.example.org/python-asyncio\n" in prompt
    assert "provider: brave" not in prompt
    assert [node.score for node in response.source_nodes] == [1.0, 0.5]


async def test_fallback_is_transparent(sim: Simulator) -> None:
    sim["brave"].enqueue(Fault.payment_required())
    retriever = _retriever(sim, k=2)
    results = await retriever.aretrieve("python asyncio")
    await retriever.aclose()
    assert {_text_node(result).metadata["provider"] for result in results} == {"duckduckgo"}


async def test_a_failing_query_engine_raises_all_providers_failed(sim: Simulator) -> None:
    sim["brave"].always(Fault.server_error(503, "upstream down"))
    sim["duckduckgo"].always(Fault.challenge())
    retriever = _retriever(sim)
    engine = RetrieverQueryEngine.from_args(retriever, llm=MockLLM())
    with pytest.raises(AllProvidersFailedError) as caught:
        await engine.aquery("python asyncio")
    await retriever.aclose()
    assert isinstance(caught.value, WebSearchError)
    assert [error.provider for error in caught.value.failures] == ["brave", "duckduckgo"]
    assert "sim-key-brave" not in str(caught.value)


def test_a_failing_sync_query_engine_raises_too(threaded_sim: Simulator) -> None:
    threaded_sim["brave"].always(Fault.unauthorized())
    engine = RetrieverQueryEngine.from_args(_retriever(threaded_sim, "duckduckgo"), llm=MockLLM())
    with pytest.raises(AllProvidersFailedError, match="Brave"):
        engine.query("python asyncio")


async def test_no_provider_configured_raises(sim: Simulator) -> None:
    retriever = WebSearchRetriever(settings=sim_settings(sim, "duckduckgo"))  # and no Brave key
    with pytest.raises(NoProviderConfiguredError):
        await retriever.aretrieve("python")
    await retriever.aclose()


async def test_a_blank_query_raises_before_any_request(sim: Simulator) -> None:
    retriever = _retriever(sim)
    with pytest.raises(ValidationError, match="query") as caught:
        await retriever.aretrieve("   ")
    await retriever.aclose()
    assert caught.value.title == "WebSearchRetriever"  # not SearchParams, never built by hand
    assert sim["brave"].requests == []


# --- sync and async paths, sessions ---------------------------------------------------------


def test_sync_retrieve(threaded_sim: Simulator, sessions: list[aiohttp.ClientSession]) -> None:
    results = _retriever(threaded_sim, k=2).retrieve("python asyncio")
    assert [_text_node(result).metadata["rank"] for result in results] == [1, 2]
    assert [result.score for result in results] == [1.0, 0.5]
    assert sessions
    assert all(session.closed for session in sessions)  # the sync bridge closes its own


async def test_sync_retrieve_inside_a_running_loop(
    threaded_sim: Simulator, sessions: list[aiohttp.ClientSession]
) -> None:
    results = _retriever(threaded_sim, k=2).retrieve("python")
    assert [_text_node(result).metadata["provider"] for result in results] == ["brave", "brave"]
    assert sessions
    assert all(session.closed for session in sessions)


async def test_async_reuses_one_session_until_aclose(
    sim: Simulator, sessions: list[aiohttp.ClientSession]
) -> None:
    retriever = _retriever(sim, k=1)
    first, second = await asyncio.gather(retriever.aretrieve("one"), retriever.aretrieve("two"))
    assert _text_node(first[0]).metadata["title"] == "one result 1"
    assert _text_node(second[0]).metadata["title"] == "two result 1"
    assert len(sessions) == 1
    assert not sessions[0].closed
    await retriever.aclose()
    assert sessions[0].closed
    await retriever.aretrieve("three")  # usable again after aclose, with a new session
    await retriever.aclose()
    assert len(sessions) == 2
    assert all(session.closed for session in sessions)


async def test_a_given_web_search_is_used_and_left_open(sim: Simulator) -> None:
    async with WebSearch(sim_settings(sim), api_keys=sim.api_keys()) as web_search:
        retriever = WebSearchRetriever(web_search, k=2)
        results = await retriever.aretrieve("one")
        await retriever.aclose()
        response = await web_search.search("two")  # still usable
    assert len(results) == 2
    assert response.provider == "brave"
    assert len(sim["brave"].requests) == 2


def test_one_retriever_across_event_loops(threaded_sim: Simulator) -> None:
    # An aiohttp session dies with its loop; a second asyncio.run gets a fresh client.
    retriever = _retriever(threaded_sim, k=1)

    async def search(query: str, *, close: bool) -> str:
        results = await retriever.aretrieve(query)
        if close:
            await retriever.aclose()
        return _text_node(results[0]).metadata["title"]

    assert asyncio.run(search("first", close=False)) == "first result 1"
    with warnings.catch_warnings():
        # The first loop's session cannot be closed once that loop is gone.
        warnings.simplefilter("ignore", ResourceWarning)
        assert asyncio.run(search("second", close=True)) == "second result 1"
        gc.collect()
    assert len(threaded_sim["brave"].requests) == 2
