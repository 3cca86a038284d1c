"""Web search as a LangChain retriever: one ``Document`` per search result.

Unlike the tool, the retriever raises when the search fails: a retriever feeds a chain,
not a model that could read an ``Error: ...`` message, and a chain that silently answered
from no context would hide the outage. Every error is a
:class:`~websearch_core.errors.WebSearchError`: :class:`~websearch_core.AllProvidersFailedError`
(every provider failed; ``failures`` holds each error),
:class:`~websearch_core.NoProviderConfiguredError` (nothing could run) or
:class:`~websearch_core.ConfigurationError` (bad settings). An invalid query (blank, too
long) raises :class:`pydantic.ValidationError`. When the result cache holds a stale answer
for the query, that answer is returned instead of an error, as in
:meth:`~websearch_core.WebSearch.search`.
"""

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import RunnableConfig
from pydantic import (
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    field_validator,
)

from websearch_core import (
    SearchParams,
    SearchResponse,
)
from websearch_core.client_options import ClientOptions
from websearch_core.deadline import CallClock
from websearch_core.models import Recency
from websearch_core.pending_call import AwaitableMethod, awaitable_method
from websearch_core.retrieval import answer_metadata, page_text, source_metadata
from websearch_core.search_closing import SearchClosing
from websearch_core.setting_bounds import checked_parameter
from websearch_core.tool_errors import renamed_arguments
from websearch_core.tool_json_arguments import retriever_query

if TYPE_CHECKING:
    from typing import Unpack

    from websearch_core.provider_imports import Use

    from ._keywords import RetrieverKeywords

__all__ = ["WebSearchRetriever"]

MAX_K = 100
"""The largest ``k``: the bound of ``SearchParams.limit``."""
MAX_PAGES = 20
"""The most pages ``include_content`` fetches in one call; results past it keep snippets."""


class WebSearchRetriever(BaseRetriever, ClientOptions, SearchClosing):
    r"""Retrieve web search results as documents, through the first provider that answers.

    Each result becomes one ``Document``: ``page_content`` is the result's snippet (its
    title when the provider gave no snippet) and ``metadata`` holds ``title``, ``url``,
    ``published_date`` (ISO 8601), ``age_seconds``, ``provider``, ``rank`` (1-based, in
    the provider's order) and, for the Public Web aggregate, ``engines``
    (``duckduckgo:1,mojeek:2``). The metadata is flat, so any vector store accepts the
    documents: strings, ints and bools only, and a key whose value is unknown is left out
    (see :func:`websearch_core.retrieval.source_metadata`).

    With ``include_content=True`` each document holds the text of the result's page
    instead (fetched within the search's deadline, or as the provider sent it), for up to
    20 results; ``metadata["content"]`` is ``page``, or ``snippet`` for a result whose
    page could not be had.

    With ``include_answer=True`` and a provider that writes an answer (Perplexity,
    Gemini, Tavily, ...), the first document holds that answer: its metadata is
    ``{"kind": "answer", "provider": ..., "rank": 0, "citations": <count>,
    "citation_urls": "<url>\n<url>..."}``. It comes on top of the ``k`` results.

    A failed search raises (see the module docstring): catch
    :class:`~websearch_core.WebSearchError` around the chain to degrade gracefully.

    Setup:
        Install the package with the LangChain extra and configure at least one provider
        (DuckDuckGo needs no key):

        .. code-block:: bash

            pip install "websearch-tools[langchain]"
            export BRAVE_API_KEY="..."   # optional; or: websearch auth set brave

    Key init args:
        k: int
            Number of results to return (1-100; default 5).
        include_answer: bool
            Put the provider's written answer, if any, first.
        include_content: bool
            Documents hold the results' page text rather than their snippets.
        recency: "day" | "week" | "month" | "year" | None
            Only results from this period, where the provider can.
        provider: str | None
            Preferred provider id, tried first (then the auto chain).

    Instantiate:
        .. code-block:: python

            from langchain_websearch import WebSearchRetriever

            retriever = WebSearchRetriever(k=3)
            # or with explicit configuration:
            retriever = WebSearchRetriever(
                api_keys={"brave": "..."}, provider="brave", k=5, recency="month"
            )

    Invoke:
        .. code-block:: python

            docs = retriever.invoke("what changed in Python 3.13")
            docs[0].page_content        # the first result's snippet
            docs[0].metadata["url"]     # https://docs.python.org/3/whatsnew/3.13.html
            retriever.invoke("python 3.13", k=2)  # k for one call

    Async:
        .. code-block:: python

            async with WebSearchRetriever(k=3) as retriever:  # closes its session on exit
                docs = await retriever.ainvoke("aiohttp latest release")

        Without ``async with`` (or ``await retriever.aclose()``) the session is closed
        when the event loop that opened it shuts down (the end of ``asyncio.run``).

    Use within a chain:
        .. code-block:: python

            from langchain_core.output_parsers import StrOutputParser
            from langchain_core.prompts import ChatPromptTemplate
            from langchain_core.runnables import RunnablePassthrough

            prompt = ChatPromptTemplate.from_template(
                "Answer from these sources:\n{context}\n\nQuestion: {question}"
            )

            def format_docs(docs):
                return "\n\n".join(f"{d.metadata.get('url', '')}\n{d.page_content}" for d in docs)

            chain = (
                {"context": retriever | format_docs, "question": RunnablePassthrough()}
                | prompt
                | llm
                | StrOutputParser()
            )
            chain.invoke("what changed in Python 3.13")
    """

    k: int = Field(default=5, ge=1, le=MAX_K, strict=True)
    """Number of results to return (sent as the search ``limit``; extras are cut)."""
    include_answer: bool = Field(default=False, strict=True)
    """Put the provider's written answer, when it gives one, first (on top of ``k``)."""
    include_content: bool = Field(default=False, strict=True)
    """Documents hold the text of each result's page (up to 20), not its snippet."""
    recency: Recency | None = None
    """Only results from the last day, week, month or year, where the provider can."""

    model_config = ConfigDict(ignored_types=(AwaitableMethod,))  # ainvoke: not a field

    @field_validator("k", mode="wrap")
    @classmethod
    def _k_in_range(
        cls, value: object, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
    ) -> object:
        """``k: must be at least 1 and at most 100 results``, not pydantic's one end of it."""
        return checked_parameter(cls, value, handler, info)

    if TYPE_CHECKING:
        # For type checkers alone (the base's ``**kwargs: Any`` let a misspelt option
        # through): at run time pydantic's ``__init__`` stays (see ``_keywords``).
        def __init__(self, **keywords: "Unpack[RetrieverKeywords]") -> None: ...

    @awaitable_method("invoke", holder="retriever")
    async def ainvoke(
        self, /, input: str, config: RunnableConfig | None = None, **kwargs: Any
    ) -> list[Document]:
        """:meth:`BaseRetriever.ainvoke`, as a call that names itself if it is not awaited.

        ``retriever.ainvoke("q")[0]`` said ``'coroutine' object is not subscriptable``;
        the call now says ``retriever.invoke`` is its synchronous twin
        (:mod:`websearch_core.pending_call`), as the tools' ``ainvoke`` does. Awaited, it
        is LangChain's.
        """
        return await super().ainvoke(input, config, **kwargs)

    def _get_relevant_documents(
        self,
        query: str,
        *,
        run_manager: CallbackManagerForRetrieverRun,
        k: int | None = None,
    ) -> list[Document]:
        """Search from synchronous code (on its own loop and HTTP session).

        Args:
            query: What to search for.
            run_manager: The callback manager of this run.
            k: Number of results for this call only (default: the ``k`` field).

        Returns:
            The answer document (when asked for and given), then one document per result.

        Raises:
            AllProvidersFailedError: Every provider failed.
            NoProviderConfiguredError: No provider could run.
            pydantic.ValidationError: The query or ``k`` is invalid.
        """
        params = self._params(query, k)
        with CallClock():  # the deadline counts from here: building a client imports
            clients = self._own_clients()
            client = (
                self.web_search
                or clients.built()
                or clients.get(self.new_client, self.build_bound())
            )
            response = client.search_sync(
                params, include_content=self.include_content, content_limit=_pages(params)
            )
        return self._documents(response, params)

    async def _aget_relevant_documents(
        self,
        query: str,
        *,
        run_manager: AsyncCallbackManagerForRetrieverRun,
        k: int | None = None,
    ) -> list[Document]:
        """Search natively on the running loop, reusing the retriever's HTTP session.

        Args:
            query: What to search for.
            run_manager: The callback manager of this run.
            k: Number of results for this call only (default: the ``k`` field).

        Returns:
            The answer document (when asked for and given), then one document per result.

        Raises:
            AllProvidersFailedError: Every provider failed.
            NoProviderConfiguredError: No provider could run.
            pydantic.ValidationError: The query or ``k`` is invalid.
        """
        params = self._params(query, k)
        with CallClock():  # the deadline counts from here: building a client imports
            clients = self._own_clients()
            client = (
                self.web_search
                or clients.built_for_running_loop()
                or await clients.for_running_loop(self.new_client, self.build_bound())
            )
            response = await client.search(
                params, include_content=self.include_content, content_limit=_pages(params)
            )
        return self._documents(response, params)

    def _entered_uses(self) -> Sequence["Use"]:
        """Entering imports the chain, and the page fetcher when ``include_content`` fetches.

        The pages are fetched within the search's deadline, so a first search importing
        the fetcher overran it by the import (0.6 s of a 1.5 s search at load 2).
        """
        return ("search", "fetch") if self.include_content else ("search",)

    async def aclose(self) -> None:
        """Close the HTTP session the retriever opened (a given ``web_search`` is left open).

        Optional: the session of a loop is also closed when that loop shuts down.
        """
        await self._own_clients().aclose()

    def _params(self, query: str, k: int | None) -> SearchParams:
        """The search for ``query``; an invalid ``k`` for one call is named ``k``, as given.

        Raises:
            pydantic.ValidationError: The query or ``k`` is invalid.
        """
        text = retriever_query(query, type(self).__name__)  # its own error, named as is
        try:
            limit = self.k if k is None else k
            return SearchParams(query=text, limit=limit, recency=self.recency)
        except ValidationError as error:
            raise renamed_arguments(error, {"limit": "k"}, type(self).__name__) from None

    def _documents(self, response: SearchResponse, params: SearchParams) -> list[Document]:
        documents: list[Document] = []
        if self.include_answer and response.answer and response.answer.strip():
            documents.append(
                Document(page_content=response.answer, metadata=answer_metadata(response))
            )
        for rank, source in enumerate(response.sources[: params.limit], start=1):
            content = (
                (self.include_content and page_text(source))
                or source.snippet
                or source.title
                or source.url
            )
            metadata = source_metadata(
                source, response.provider, rank, with_content=self.include_content
            )
            documents.append(Document(page_content=content, metadata=metadata))
        return documents


def _pages(params: SearchParams) -> int:
    """How many pages ``include_content`` fetches: one per result asked for, up to 20."""
    return min(params.limit or 1, MAX_PAGES)
