"""``WebSearchRetriever`` (LangChain) through LangChain's own invocation paths, offline."""

import asyncio
import gc
import warnings
from collections.abc import AsyncIterator, Iterator
from typing import Any

import aiohttp
import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import RunnableLambda, RunnablePassthrough
from pydantic import ValidationError

import langchain_websearch
from langchain_websearch import WebSearchRetriever
from tests.content._server import serve, serve_in_thread
from tests.integrations._helpers import SOURCE_KEYS, assert_flat, sim_settings
from websearch_core import (
    SEARCH_PROVIDER_ORDER,
    AllProvidersFailedError,
    NoProviderConfiguredError,
    WebSearch,
    WebSearchError,
)
from websearch_core.testing import Fault, Simulator
from websearch_core.testing.simulator import SimResult


def _retriever(sim: Simulator, *exclude: str, **fields: Any) -> WebSearchRetriever:
    return WebSearchRetriever(
        settings=sim_settings(sim, *exclude), api_keys=sim.api_keys(), **fields
    )


# --- construction ---------------------------------------------------------------------------


def test_exported_as_a_langchain_retriever() -> None:
    assert "WebSearchRetriever" in langchain_websearch.__all__
    retriever = WebSearchRetriever()
    assert isinstance(retriever, BaseRetriever)
    assert retriever.k == 5
    assert retriever.include_answer is False


def test_configuration_is_validated_at_construction() -> None:
    with pytest.raises(ValidationError, match="Unknown search provider: altavista"):
        WebSearchRetriever(provider="altavista")
    with pytest.raises(ValidationError, match="not both"):
        WebSearchRetriever(web_search=WebSearch(), api_keys={"brave": "k"})
    assert WebSearchRetriever(provider=" Auto ").provider is None
    assert WebSearchRetriever(provider="Brave").provider == "brave"
    assert WebSearchRetriever(k=100).k == 100


@pytest.mark.parametrize("k", [0, 101, -1, "5", True, 2.0])
def test_k_is_bounded_and_strict(k: Any) -> None:
    with pytest.raises(ValidationError) as caught:
        WebSearchRetriever(k=k)
    assert caught.value.title == "WebSearchRetriever"
    assert [error["loc"] for error in caught.value.errors()] == [("k",)]


def test_keys_are_secret() -> None:
    retriever = WebSearchRetriever(api_keys={"brave": "sk-very-secret"})
    assert "sk-very-secret" not in repr(retriever)
    assert "sk-very-secret" not in str(retriever.model_dump())


# --- documents ------------------------------------------------------------------------------


async def test_documents_carry_the_snippet_and_the_metadata(sim: Simulator) -> None:
    retriever = _retriever(sim, k=3)
    try:
        docs = await retriever.ainvoke("python asyncio")
    finally:
        await retriever.aclose()
    assert [doc.page_content for doc in docs] == [
        f"Snippet {i} about python asyncio." for i in (1, 2, 3)
    ]
    for rank, doc in enumerate(docs, start=1):
        assert isinstance(doc, Document)
        assert list(doc.metadata) == SOURCE_KEYS
        assert doc.metadata["title"] == f"python asyncio result {rank}"
        assert doc.metadata["url"] == f"https://site{rank}.example.org/python-asyncio"
        assert doc.metadata["published_date"] == f"2026-01-{rank:02d}T00:00:00+00:00"
        assert isinstance(doc.metadata["age_seconds"], int)
        assert doc.metadata["provider"] == "brave"
        assert doc.metadata["rank"] == rank
        assert_flat(doc.metadata)  # any vector store takes it
    assert sim["brave"].requests[0].query_dict()["count"] == "3"


async def test_a_result_without_snippet_reads_as_its_title(sim: Simulator) -> None:
    sim["brave"].results = [
        SimResult(title="Only a title", url="https://a.example.org/", snippet=""),
        SimResult(title="Both", url="https://b.example.org/", snippet="Some text."),
    ]
    retriever = _retriever(sim)
    docs = await retriever.ainvoke("python")
    await retriever.aclose()
    assert [doc.page_content for doc in docs] == ["Only a title", "Some text."]
    assert docs[0].metadata["title"] == "Only a title"


async def test_aggregate_results_name_their_engines() -> None:
    async with Simulator(["duckduckgo", "mojeek"]) as simulator:
        # simulator.settings() leaves only the simulated engines and their aggregate.
        retriever = WebSearchRetriever(
            settings=simulator.settings(), provider="public", api_keys=simulator.api_keys(), k=2
        )
        docs = await retriever.ainvoke("python asyncio")
        await retriever.aclose()
    assert docs[0].metadata["provider"] == "public"
    assert docs[0].metadata["engines"] == "duckduckgo:1,mojeek:1"
    assert_flat(docs[0].metadata)


async def test_k_limits_the_count_even_when_the_provider_sends_more() -> None:
    # Tavily never asks for fewer than five results; the retriever still returns k.
    async with Simulator(["tavily"]) as simulator:
        retriever = WebSearchRetriever(
            settings=sim_settings(simulator), api_keys=simulator.api_keys(), k=2
        )
        docs = await retriever.ainvoke("python asyncio")
        one = await retriever.ainvoke("python asyncio", k=1)
        await retriever.aclose()
    assert [doc.metadata["rank"] for doc in docs] == [1, 2]
    assert len(one) == 1
    assert simulator["tavily"].requests[0].json()["max_results"] == 5


@pytest.mark.parametrize("k", [0, 101, -1, "5", True, 2.0])
async def test_k_per_call_is_validated_and_named_k(sim: Simulator, k: Any) -> None:
    # It is sent as the search's limit; the error used to name "limit" and SearchParams.
    retriever = _retriever(sim)
    with pytest.raises(ValidationError) as caught:
        await retriever.ainvoke("python", k=k)
    await retriever.aclose()
    assert caught.value.title == "WebSearchRetriever"
    assert [error["loc"] for error in caught.value.errors()] == [("k",)]
    assert sim["brave"].requests == []


async def test_recency_is_sent(sim: Simulator) -> None:
    retriever = _retriever(sim, recency="week")
    await retriever.ainvoke("python")
    await retriever.aclose()
    assert sim["brave"].requests[0].query_dict()["freshness"] == "pw"


# --- page content ---------------------------------------------------------------------------

_PAGE = (
    "<html><head><title>Page A</title></head><body><article><h1>Page A</h1><p>"
    + "The page explains asyncio in full sentences that a snippet leaves out. " * 6
    + "</p></article></body></html>"
)


async def test_include_content_documents_hold_the_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEBSEARCH_FETCH_ALLOW_PRIVATE", "1")  # the pages are on loopback
    async for pages in serve():
        pages.page("/a", _PAGE)
        async with Simulator(["brave"]) as simulator:
            simulator["brave"].results = [
                SimResult(title="A", url=pages.url("/a"), snippet="Snippet A."),
                SimResult(title="Gone", url=pages.url("/gone"), snippet="Snippet gone."),
                SimResult(title="C", url=pages.url("/c"), snippet="Snippet C."),
            ]
            retriever = _retriever(simulator, k=2, include_content=True)
            docs = await retriever.ainvoke("asyncio")
            await retriever.aclose()
        assert pages.hits["/c"] == 0  # only the k results' pages
    page, gone = docs
    assert page.page_content.startswith("Page A")
    assert "The page explains asyncio in full sentences" in page.page_content
    assert page.metadata["content"] == "page"
    assert gone.page_content == "Snippet gone."
    assert gone.metadata["content"] == "snippet"
    for doc in docs:
        assert_flat(doc.metadata)


def test_include_content_from_sync_code(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEBSEARCH_FETCH_ALLOW_PRIVATE", "1")
    server = serve_in_thread({"/a": _PAGE})
    url = f"{next(server)}/a"
    try:
        with Simulator(["brave"]).running_in_thread() as simulator:
            simulator["brave"].results = [SimResult(title="A", url=url, snippet="S.")]
            (doc,) = _retriever(simulator, k=1, include_content=True).invoke("asyncio")
    finally:
        next(server, None)  # stops the server's loop and thread
    assert "The page explains asyncio" in doc.page_content
    assert doc.metadata["content"] == "page"


# --- the provider's answer -----------------------------------------------------------------


async def test_include_answer_puts_the_answer_first() -> None:
    async with Simulator(["perplexity"]) as simulator:
        retriever = WebSearchRetriever(
            settings=sim_settings(simulator),
            api_keys=simulator.api_keys(),
            k=2,
            include_answer=True,
        )
        answer, *sources = await retriever.ainvoke("python asyncio")
        await retriever.aclose()
    assert answer.page_content.startswith("Simulated answer about python asyncio")
    assert answer.metadata["kind"] == "answer"
    assert answer.metadata["provider"] == "perplexity"
    assert answer.metadata["rank"] == 0
    assert answer.metadata["citations"] >= 1
    urls = answer.metadata["citation_urls"].split("\n")
    assert urls[0] == "https://site1.example.org/python-asyncio"
    assert len(urls) == answer.metadata["citations"]
    assert_flat(answer.metadata)
    assert [doc.metadata["rank"] for doc in sources] == [1, 2]  # k counts results only
    assert "kind" not in sources[0].metadata


async def test_the_answer_is_left_out_unless_asked_for() -> None:
    async with Simulator(["perplexity"]) as simulator:
        retriever = WebSearchRetriever(
            settings=sim_settings(simulator), api_keys=simulator.api_keys(), k=2
        )
        docs = await retriever.ainvoke("python asyncio")
        await retriever.aclose()
    assert [doc.metadata["rank"] for doc in docs] == [1, 2]


async def test_include_answer_without_an_answer_gives_only_results(sim: Simulator) -> None:
    retriever = _retriever(sim, k=2, include_answer=True)
    docs = await retriever.ainvoke("python")
    await retriever.aclose()
    assert [doc.metadata["rank"] for doc in docs] == [1, 2]


# --- failures -------------------------------------------------------------------------------


async def test_fallback_is_transparent(sim: Simulator) -> None:
    sim["brave"].enqueue(Fault.payment_required())
    retriever = _retriever(sim, k=2)
    docs = await retriever.ainvoke("python asyncio")
    await retriever.aclose()
    assert {doc.metadata["provider"] for doc in docs} == {"duckduckgo"}


class _ErrorRecorder(BaseCallbackHandler):
    def __init__(self) -> None:
        self.errors: list[BaseException] = []

    def on_retriever_error(self, error: BaseException, **kwargs: Any) -> None:
        self.errors.append(error)


async def test_a_failing_chain_raises_all_providers_failed(sim: Simulator) -> None:
    sim["brave"].always(Fault.server_error(503, "upstream down"))
    sim["duckduckgo"].always(Fault.challenge())
    retriever = _retriever(sim)
    chain = {
        "context": retriever | RunnableLambda(lambda docs: len(docs)),
        "question": RunnablePassthrough(),
    } | RunnableLambda(lambda inputs: f"{inputs['context']} sources")
    recorder = _ErrorRecorder()
    with pytest.raises(AllProvidersFailedError) as caught:
        await chain.ainvoke("python asyncio", config={"callbacks": [recorder]})
    await retriever.aclose()
    assert isinstance(caught.value, WebSearchError)
    assert [error.provider for error in caught.value.failures] == ["brave", "duckduckgo"]
    assert "sim-key-brave" not in str(caught.value)
    assert recorder.errors == [caught.value]  # LangChain saw the retriever fail


def test_a_failing_sync_chain_raises_too(threaded_sim: Simulator) -> None:
    threaded_sim["brave"].always(Fault.unauthorized())
    chain = _retriever(threaded_sim, "duckduckgo") | RunnableLambda(lambda docs: len(docs))
    with pytest.raises(AllProvidersFailedError, match="Brave"):
        chain.invoke("python asyncio")


async def test_no_provider_configured_raises(sim: Simulator) -> None:
    retriever = WebSearchRetriever(settings=sim_settings(sim, "duckduckgo"))  # and no Brave key
    with pytest.raises(NoProviderConfiguredError):
        await retriever.ainvoke("python")
    await retriever.aclose()


async def test_a_blank_query_raises_before_any_request(sim: Simulator) -> None:
    retriever = _retriever(sim)
    with pytest.raises(ValidationError, match="query"):
        await retriever.ainvoke("   ")
    await retriever.aclose()
    assert sim["brave"].requests == []


# --- sync and async paths, sessions ---------------------------------------------------------


def test_sync_invoke(threaded_sim: Simulator, sessions: list[aiohttp.ClientSession]) -> None:
    docs = _retriever(threaded_sim, k=2).invoke("python asyncio")
    assert [doc.page_content for doc in docs] == [
        "Snippet 1 about python asyncio.",
        "Snippet 2 about python asyncio.",
    ]
    assert sessions
    assert all(session.closed for session in sessions)  # the sync bridge closes its own


async def test_sync_invoke_inside_a_running_loop(
    threaded_sim: Simulator, sessions: list[aiohttp.ClientSession]
) -> None:
    # Notebooks and sync chains call retrievers from inside a loop; the bridge must cope.
    docs = _retriever(threaded_sim, k=2).invoke("python")
    assert [doc.metadata["rank"] for doc in docs] == [1, 2]
    assert sessions
    assert all(session.closed for session in sessions)


async def test_async_reuses_one_session_until_aclose(
    sim: Simulator, sessions: list[aiohttp.ClientSession]
) -> None:
    retriever = _retriever(sim, k=1)
    first, second = await asyncio.gather(retriever.ainvoke("one"), retriever.ainvoke("two"))
    assert first[0].metadata["title"] == "one result 1"
    assert second[0].metadata["title"] == "two result 1"
    assert len(sessions) == 1
    assert not sessions[0].closed
    await retriever.aclose()
    assert sessions[0].closed
    await retriever.ainvoke("three")  # usable again after aclose, with a new session
    await retriever.aclose()
    assert len(sessions) == 2
    assert all(session.closed for session in sessions)


async def test_batch_runs_every_query(sim: Simulator) -> None:
    retriever = _retriever(sim, k=1)
    results = await retriever.abatch(["one", "two", "three"])
    await retriever.aclose()
    assert [docs[0].metadata["title"] for docs in results] == [
        "one result 1",
        "two result 1",
        "three result 1",
    ]


async def test_a_given_web_search_is_used_and_left_open(sim: Simulator) -> None:
    async with WebSearch(sim_settings(sim), api_keys=sim.api_keys()) as web_search:
        retriever = WebSearchRetriever(web_search=web_search, k=2)
        docs = await retriever.ainvoke("one")
        await retriever.aclose()
        response = await web_search.search("two")  # still usable
    assert len(docs) == 2
    assert response.provider == "brave"
    assert len(sim["brave"].requests) == 2


def test_one_retriever_across_event_loops(threaded_sim: Simulator) -> None:
    # An aiohttp session dies with its loop; a second asyncio.run gets a fresh client.
    retriever = _retriever(threaded_sim, k=1)

    async def search(query: str, *, close: bool) -> str:
        docs = await retriever.ainvoke(query)
        if close:
            await retriever.aclose()
        return docs[0].page_content

    assert asyncio.run(search("first", close=False)) == "Snippet 1 about first."
    with warnings.catch_warnings():
        # The first loop's session cannot be closed once that loop is gone.
        warnings.simplefilter("ignore", ResourceWarning)
        assert asyncio.run(search("second", close=True)) == "Snippet 1 about second."
        gc.collect()
    assert len(threaded_sim["brave"].requests) == 2


# --- LangChain standard tests (when langchain-tests is installed) ---------------------------

try:
    from langchain_tests.integration_tests import RetrieversIntegrationTests
except ImportError:  # not a dependency; the tests above cover the same contract

    def test_langchain_standard_tests() -> None:
        pytest.skip("langchain-tests is not installed")

else:

    class TestWebSearchRetrieverIntegration(RetrieversIntegrationTests):
        @pytest.fixture(autouse=True)
        def _simulated(self, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
            with Simulator(["brave"]).running_in_thread() as simulator:
                monkeypatch.setenv("WEBSEARCH_BRAVE_BASE_URL", simulator["brave"].base_url)
                monkeypatch.setenv("BRAVE_API_KEY", "sim-key-brave")
                others = [pid for pid in SEARCH_PROVIDER_ORDER if pid != "brave"]
                monkeypatch.setenv("WEBSEARCH_EXCLUDE", ",".join(others))
                yield

        @pytest.fixture
        async def retriever(self) -> AsyncIterator[WebSearchRetriever]:
            # The standard tests cannot close what they open; close it here, on their loop.
            retriever = self.retriever_constructor(**self.retriever_constructor_params)
            yield retriever
            await retriever.aclose()

        @property
        def retriever_constructor(self) -> type[WebSearchRetriever]:
            return WebSearchRetriever

        @property
        def retriever_constructor_params(self) -> dict[str, Any]:
            return {"k": 4}

        @property
        def retriever_query_example(self) -> str:
            return "best time to visit japan"
