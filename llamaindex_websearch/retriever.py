"""Web search as a LlamaIndex retriever: one scored ``TextNode`` per search result.

The retriever raises when the search fails, like any retriever in a query engine: a query
that silently went on without context would hide the outage. Every error is a
:class:`~websearch_core.errors.WebSearchError`: :class:`~websearch_core.AllProvidersFailedError`
(every provider failed; ``failures`` holds each error),
:class:`~websearch_core.NoProviderConfiguredError` (nothing could run) or
:class:`~websearch_core.ConfigurationError` (bad settings). An invalid query (blank, too
long) raises :class:`pydantic.ValidationError`. When the result cache holds a stale answer
for the query, that answer is returned instead of an error, as in
:meth:`~websearch_core.WebSearch.search`.

**Scores.** A web search ranks its results but gives no comparable relevance value, so
the score is the reciprocal rank: ``1 / rank`` (1.0, 0.5, 0.333..., in the provider's
order). The answer node, when asked for, scores 1.0 and comes first. Scores from two
searches are not comparable beyond their order.
"""

from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextvars import ContextVar
from typing import TYPE_CHECKING, cast

from llama_index.core.base.base_retriever import BaseRetriever
from llama_index.core.callbacks import CallbackManager
from llama_index.core.schema import NodeWithScore, QueryBundle, QueryType, TextNode
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
    SearchSource,
    WebSearch,
)
from websearch_core.build_errors import options_refused
from websearch_core.client import LoopBoundClient
from websearch_core.client_options import ClientOptions
from websearch_core.deadline import CallClock
from websearch_core.given_options import CHECKED_ALREADY
from websearch_core.models import Recency
from websearch_core.retrieval import MetadataValue, answer_metadata, page_text, source_metadata
from websearch_core.search_closing import SearchClosing
from websearch_core.setting_bounds import checked_parameter
from websearch_core.tool_copies import CopiesOpenOwnClients
from websearch_core.tool_errors import renamed_arguments
from websearch_core.tool_json_arguments import retriever_query

from ._retrieve_calls import NO_QUERY, called_query
from ._retriever_tool_input import retriever_tool_query
from ._spans import without_span
from ._unawaited import name_unawaited

if TYPE_CHECKING:
    from typing import Unpack

    from websearch_core.client import WebSearchOptions
    from websearch_core.provider_imports import Use

__all__ = ["WebSearchRetriever"]

MAX_K = 100
"""The largest ``k``: the bound of ``SearchParams.limit``."""
MAX_PAGES = 20
"""The most pages ``include_content`` fetches in one call; results past it keep snippets."""
_OWNER = "WebSearchRetriever"
"""The class as its caller wrote it, for the refusals."""
_OWN_KEYWORDS = ("k", "include_answer", "include_content", "recency", "callback_manager", "verbose")
"""The retriever's own keywords, listed (after ``web_search``) when one is unknown."""
_CONFIG_OPTIONS = frozenset({"settings", "api_keys", "provider", "timeout_seconds"})
"""The options the retriever's config checks as its fields (refused as ``ValidationError``)."""
_CHECKED = {CHECKED_ALREADY: True}
"""The config's validation context: :func:`_refuse_given_options` checked the other options."""
_BUILT_WITH = ("include_answer", "include_content", "recency")
"""The options a ``retrieve`` call's keyword may be meant as: each is given when built."""
_CALL_K: ContextVar[int | None] = ContextVar("websearch_retrieve_k", default=None)
"""The ``k`` given to the ``retrieve``/``aretrieve`` call running (``None``: the field's).

LlamaIndex's ``retrieve`` hands ``_retrieve`` the query bundle alone; the call's ``k``
reaches it through this, set around the base call and reset after it."""
_base_retrieve = cast(
    "Callable[[BaseRetriever, QueryType], list[NodeWithScore]]",
    without_span(BaseRetriever.retrieve),
)
"""``BaseRetriever.retrieve`` with no span of its own (the override's span covers the call)."""
_base_aretrieve = cast(
    "Callable[[BaseRetriever, QueryType], Awaitable[list[NodeWithScore]]]",
    without_span(BaseRetriever.aretrieve),
)
"""``BaseRetriever.aretrieve`` with no span of its own."""


class _RetrieverConfig(ClientOptions):
    """The constructor arguments, validated as the LangChain retriever validates its fields."""

    # Errors name the class the caller built, not this private one.
    model_config = ConfigDict(frozen=True, title="WebSearchRetriever")

    k: int = Field(default=5, ge=1, le=MAX_K, strict=True)
    include_answer: bool = Field(default=False, strict=True)
    include_content: bool = Field(default=False, strict=True)
    recency: Recency | None = None

    @field_validator("k", mode="wrap")
    @classmethod
    def _k_in_range(
        cls, value: object, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
    ) -> object:
        """``k: must be at least 1 and at most 100 results``, not pydantic's one end of it."""
        return checked_parameter(cls, value, handler, info)


class WebSearchRetriever(CopiesOpenOwnClients, BaseRetriever, SearchClosing):
    """Retrieve web search results as scored nodes, through the first provider that answers.

    Each result becomes a ``TextNode`` whose text is the title, the URL and the snippet,
    one per line: the text is all an LLM (or an embedding model) sees, because every
    metadata key is listed in ``excluded_llm_metadata_keys`` and
    ``excluded_embed_metadata_keys``. The metadata holds ``title``, ``url``,
    ``published_date`` (ISO 8601), ``age_seconds``, ``provider``, ``rank`` (1-based, in
    the provider's order) and, for the Public Web aggregate, ``engines``
    (``duckduckgo:1,mojeek:2``). The metadata is flat, so any vector store accepts the
    nodes: strings, ints and bools only, and a key whose value is unknown is left out
    (see :func:`websearch_core.retrieval.source_metadata`).

    With ``include_content=True`` the text is the title, the URL, a blank line and the
    text of the result's page (fetched within the search's deadline, or as the provider
    sent it), for up to 20 results; ``metadata["content"]`` is ``page``, or ``snippet``
    for a result whose page could not be had.

    The score is ``1 / rank`` (see the module docstring). With ``include_answer=True`` and
    a provider that writes an answer, the first node (score 1.0) holds the answer followed
    by its numbered citations, with metadata ``{"kind": "answer", "provider": ...,
    "rank": 0, "citations": <count>, "citation_urls": <one URL per line>}``; it comes on
    top of the ``k`` results.

    A copy (``copy.copy`` or ``copy.deepcopy``) shares the configuration, the callback
    manager and a given ``web_search`` client, and opens its own session on first use.

    Args:
        web_search: A ready client; by default one is built from ``**options``.
        k: Number of results to return (1-100; sent as the search ``limit``, extras cut);
            a ``retrieve``/``aretrieve`` call may give its own (``retrieve("q", k=2)``).
        include_answer: Put the provider's written answer, when it gives one, first.
        include_content: Nodes hold the text of each result's page (up to 20).
        recency: Only results from the last day, week, month or year, where possible.
        callback_manager: LlamaIndex callback manager (default: a new one).
        verbose: Print progress as LlamaIndex retrievers do.
        **options: :class:`~websearch_core.WebSearch` arguments when ``web_search`` is not
            given (``settings``, ``api_keys``, ``provider``, ``timeout_seconds``,
            ``deadline_seconds``, ``session``, ...), as ``create_web_search_tool`` takes them.

    Raises:
        ConfigurationError: Any argument refused, as LangChain's builders and the
            LlamaIndex factories refuse theirs (:mod:`websearch_core.build_errors`): a
            setting its ``Settings`` field refuses (``deadline_seconds=0``), worded as the
            factories word it; also a ``pydantic.ValidationError`` for an invalid field (an
            unknown provider, ``k`` out of range, ``web_search`` together with options to
            build a client); also a ``TypeError`` for an unknown keyword or a
            ``session``/``oauth_refreshers`` of the wrong kind (the factories' words).

    Example:
        >>> from llama_index.core.query_engine import RetrieverQueryEngine  # doctest: +SKIP
        >>> retriever = WebSearchRetriever(k=3, api_keys={"brave": "..."})  # doctest: +SKIP
        >>> nodes = retriever.retrieve("what changed in Python 3.13")  # doctest: +SKIP
        >>> nodes[0].node.metadata["url"], nodes[0].score  # doctest: +SKIP
        >>> top = retriever.retrieve("what changed in Python 3.13", k=1)  # doctest: +SKIP
        >>> engine = RetrieverQueryEngine.from_args(retriever, llm=llm)  # doctest: +SKIP
        >>> async with WebSearchRetriever(k=3) as retriever:  # doctest: +SKIP
        ...     nodes = await retriever.aretrieve("python 3.13")  # session closed on exit
    """

    def __init__(
        self,
        web_search: WebSearch | None = None,
        *,
        k: int = 5,
        include_answer: bool = False,
        include_content: bool = False,
        recency: Recency | None = None,
        callback_manager: CallbackManager | None = None,
        verbose: bool = False,
        **options: "Unpack[WebSearchOptions]",
    ) -> None:
        _refuse_given_options(options)
        given = {
            **options,
            "api_keys": options.get("api_keys") or {},  # the config names a wrong shape
            "k": k,
            "include_answer": include_answer,
            "include_content": include_content,
            "recency": recency,
            "web_search": web_search,
        }
        try:  # the options beyond the config's fields were checked just above: once is enough
            config = _RetrieverConfig.model_validate(given, context=_CHECKED)
        except ValidationError as error:
            raise options_refused(error) from None
        super().__init__(callback_manager=callback_manager, verbose=verbose)
        self._config = config
        self._clients = LoopBoundClient()

    @property
    def k(self) -> int:
        """Number of results each retrieval returns (the answer node aside)."""
        return self._config.k

    @property
    def include_answer(self) -> bool:
        """Whether the provider's written answer, when given, comes first."""
        return self._config.include_answer

    @property
    def include_content(self) -> bool:
        """Whether nodes hold the results' page text rather than their snippets."""
        return self._config.include_content

    def retrieve(
        self,
        str_or_query_bundle: QueryType = NO_QUERY,
        *args: object,
        k: int | None = None,
        **kwargs: object,
    ) -> list[NodeWithScore]:
        """Retrieve the nodes for a query (a text or a ``QueryBundle``), as LlamaIndex's do.

        The call is read first (:mod:`llamaindex_websearch._retrieve_calls`): LlamaIndex's
        span binds it to ``retrieve(str_or_query_bundle)`` and its event refuses a wrong
        query in its own model's words, neither naming this retriever.

        Args:
            str_or_query_bundle: The query.
            *args: Refused: the query is all a call gives by position.
            k: Number of results for this call only (default: the retriever's ``k``), as
                LangChain's retriever takes it with each call (``invoke("q", k=2)``).
            **kwargs: Refused, naming where each goes.

        Raises:
            CallTypeError: No query, or anything besides it and ``k`` (a ``TypeError``).
            pydantic.ValidationError: The query is not a text, or is blank or too long, or
                ``k`` is not 1-100 (named ``k``, as LangChain's retriever names it).
        """
        query = called_query(f"{_OWNER}.retrieve", str_or_query_bundle, args, kwargs, _BUILT_WITH)
        token = _CALL_K.set(k)
        try:
            return _base_retrieve(self, query)
        finally:
            _CALL_K.reset(token)

    async def aretrieve(
        self,
        str_or_query_bundle: QueryType = NO_QUERY,
        *args: object,
        k: int | None = None,
        **kwargs: object,
    ) -> list[NodeWithScore]:
        """:meth:`retrieve` on the running loop, reusing the retriever's HTTP session.

        Raises:
            CallTypeError: No query, or anything besides it and ``k`` (a ``TypeError``).
            pydantic.ValidationError: The query is not a text, or is blank or too long, or
                ``k`` is not 1-100.
        """
        query = called_query(f"{_OWNER}.aretrieve", str_or_query_bundle, args, kwargs, _BUILT_WITH)
        token = _CALL_K.set(k)
        try:
            return await _base_aretrieve(self, query)
        finally:
            _CALL_K.reset(token)

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        """Search from synchronous code (on its own loop and HTTP session).

        Args:
            query_bundle: The query; ``query_str`` is what is searched for.

        Returns:
            The answer node (when asked for and given), then one node per result.

        Raises:
            AllProvidersFailedError: Every provider failed.
            NoProviderConfiguredError: No provider could run.
            pydantic.ValidationError: The query is invalid (blank, too long).
        """
        params = self._params(query_bundle)
        with CallClock():  # the deadline counts from here: building a client imports
            client = (
                self._config.web_search
                or self._clients.built()
                or self._clients.get(self._config.new_client, self._config.build_bound())
            )
            response = client.search_sync(
                params, include_content=self.include_content, content_limit=_pages(params)
            )
        return self._nodes(response, params)

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        """Search natively on the running loop, reusing the retriever's HTTP session.

        Args:
            query_bundle: The query; ``query_str`` is what is searched for.

        Returns:
            The answer node (when asked for and given), then one node per result.

        Raises:
            AllProvidersFailedError: Every provider failed.
            NoProviderConfiguredError: No provider could run.
            pydantic.ValidationError: The query is invalid (blank, too long).
        """
        params = self._params(query_bundle)
        with CallClock():  # the deadline counts from here: building a client imports
            client = (
                self._config.web_search
                or self._clients.built_for_running_loop()
                or await self._clients.for_running_loop(
                    self._config.new_client, self._config.build_bound()
                )
            )
            response = await client.search(
                params, include_content=self.include_content, content_limit=_pages(params)
            )
        return self._nodes(response, params)

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
        await self._clients.aclose()

    def _params(self, query_bundle: QueryBundle) -> SearchParams:
        """The search for the query, ``k`` the call's if it gave one; errors name this class.

        Raises:
            pydantic.ValidationError: The query is invalid (blank, too long), or the call's
                ``k`` is not 1-100 (named ``k``, as given).
        """
        config = self._config
        given = retriever_tool_query(query_bundle.query_str)  # RetrieverTool's wrapping
        text = retriever_query(given, type(self).__name__)
        k = _CALL_K.get()
        try:
            limit = config.k if k is None else k
            return SearchParams(query=text, limit=limit, recency=config.recency)
        except ValidationError as error:
            raise renamed_arguments(error, {"limit": "k"}, type(self).__name__) from None

    def _nodes(self, response: SearchResponse, params: SearchParams) -> list[NodeWithScore]:
        nodes: list[NodeWithScore] = []
        if self._config.include_answer and response.answer and response.answer.strip():
            nodes.append(NodeWithScore(node=_answer_node(response), score=1.0))
        for rank, source in enumerate(response.sources[: params.limit], start=1):
            with_content = self._config.include_content
            metadata = source_metadata(source, response.provider, rank, with_content=with_content)
            node = _text_node(_source_text(source, with_content), metadata)
            nodes.append(NodeWithScore(node=node, score=1.0 / rank))
        return nodes


name_unawaited(WebSearchRetriever, "aretrieve", "retrieve", "retriever")  # names `retrieve`


def _pages(params: SearchParams) -> int:
    """How many pages ``include_content`` fetches: one per result asked for, up to 20."""
    return min(params.limit or 1, MAX_PAGES)


def _refuse_given_options(options: Mapping[str, object]) -> None:
    """Refuse a keyword or value the LlamaIndex factories refuse, in their words, when built.

    The retriever took only ``settings``, ``api_keys``, ``provider`` and
    ``timeout_seconds`` (its own signature), so ``deadline_seconds=`` needed a ``Settings``
    while ``create_web_search_tool`` and LangChain's retriever took it. Every other
    ``WebSearch`` option is now checked here as those factories check theirs
    (:mod:`llamaindex_websearch._options`); the four old ones keep their pydantic checks
    (and ``ValidationError``) in the config, as does a ``web_search`` client beside options,
    whose refusal lists every option given.

    Raises:
        TypeError: An unknown keyword (named, with the one meant and what the retriever
            takes), or a ``session``/``oauth_refreshers`` of the wrong kind.
        ConfigurationError: A setting's value is one its ``Settings`` field refuses.
    """
    if not options.keys() - _CONFIG_OPTIONS:
        return  # the config checks these: a plain build skips the imports and checks below
    from ._options import refuse_bad_values, refuse_unknown_options, refuse_wrong_objects

    refuse_unknown_options(_OWNER, options, *_OWN_KEYWORDS)
    others = {name: value for name, value in options.items() if name not in _CONFIG_OPTIONS}
    refuse_wrong_objects(_OWNER, None, others)
    refuse_bad_values(_OWNER, others)


def _text_node(text: str, metadata: dict[str, MetadataValue]) -> TextNode:
    """A node whose text is all an LLM or embedding model sees."""
    hidden = list(metadata)
    return TextNode(
        text=text,
        metadata=metadata,
        excluded_llm_metadata_keys=hidden,
        excluded_embed_metadata_keys=hidden,
    )


def _source_text(source: SearchSource, with_content: bool) -> str:
    """Title, URL and snippet, one per line (empty parts left out); or the page's text.

    With ``with_content`` and a page, the page's text follows the title and URL after a
    blank line, in place of the snippet.
    """
    page = page_text(source) if with_content else None
    if page is not None:
        return "\n".join([source.title, source.url, "", page])
    return "\n".join(part for part in (source.title, source.url, source.snippet) if part)


def _answer_node(response: SearchResponse) -> TextNode:
    """The written answer, then its citations numbered from 1 as answer engines cite them."""
    text = (response.answer or "").strip()
    if response.citations:
        lines = [
            f"[{number}] " + " ".join(part for part in (citation.title, citation.url) if part)
            for number, citation in enumerate(response.citations, start=1)
        ]
        text = "\n".join([text, "", "Citations:", *lines])
    return _text_node(text, answer_metadata(response))
