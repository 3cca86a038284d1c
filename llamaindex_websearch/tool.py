"""``web_search`` as a LlamaIndex tool: a ``FunctionTool`` factory and a ``BaseToolSpec``.

The tool's output content is the formatted search text the model reads; ``raw_output`` is
the structured response as plain JSON-compatible data (``SearchToolResult.to_metadata()``).
Provider failures come back as ``Error: ...`` content with ``is_error=True`` and the failure
in ``raw_output``, never as an exception the agent must catch. Invalid arguments and bad
configuration come back the same way, with the one-line texts of
:mod:`websearch_core.tool_errors` that the LangChain tool gives too.
"""

from typing import TYPE_CHECKING, Any, Self

from llama_index.core.base.llms.types import ContentBlock, TextBlock
from llama_index.core.tools import FunctionTool, ToolMetadata, ToolOutput
from llama_index.core.tools.tool_spec.base import SPEC_FUNCTION_TYPE, BaseToolSpec
from pydantic import ValidationError
from typing_extensions import Unpack

from websearch_core import TOOL_DESCRIPTION, ConfigurationError
from websearch_core.build_deadline import BuildBound, BuildImportsOutlastedError
from websearch_core.deadline import CallClock
from websearch_core.meant_names import refusing_unknown_keywords
from websearch_core.models import Recency, SearchParams, SearchToolResult
from websearch_core.search_closing import SearchClosing
from websearch_core.tool_copies import CopiesOpenOwnClients
from websearch_core.tool_errors import configuration_error_text, invalid_arguments_text
from websearch_core.tool_json_arguments import arguments_in_query, unpacked_arguments
from websearch_core.tool_pickles import picklable_options
from websearch_core.tool_schema import ToolArguments, tool_search_params

from ._arguments import checked_arguments
from ._copies import ToolCopies
from ._direct import BuiltByFactory, PointsToFactory
from ._options import (
    refuse_bad_values,
    refuse_both_sources,
    refuse_unknown_options,
    refuse_wrong_objects,
)
from ._output import with_metadata_output
from ._spans import function_tool_acall, function_tool_call, sign_spanned_methods
from ._spec_functions import check_tool_list_arguments
from ._spec_keywords import naming_invented_keywords, spec_awaitable_method
from ._unawaited import name_unawaited

if TYPE_CHECKING:
    # The client (its providers, transport and filters) loads when a tool is built, not
    # when this module is imported.
    from websearch_core import WebSearch
    from websearch_core.client import WebSearchOptions

__all__ = [
    "WebSearchArgs",
    "WebSearchFunctionTool",
    "WebSearchToolSpec",
    "create_web_search_tool",
    "web_search_metadata",
]

TOOL_NAME = "web_search"
_SPEC_FUNCTIONS = ("web_search", "aweb_search")
"""The spec's functions, the names ``to_tool_list`` may be given."""


class WebSearchArgs(ToolArguments):
    """The arguments a model may give ``web_search`` (bounds as in ``SearchParams``)."""


def _search_params(
    query: str,
    recency: Recency | None,
    limit: int | None,
    max_tokens: int | None,
    temperature: float | None,
    num_search_results: int | None,
) -> SearchParams:
    """The request for the spec's ``web_search(...)``, a query that writes them all unpacked.

    The spec's tools unpack such a query before calling it, but a model reaches the
    function without them too: ``FunctionTool.from_defaults(spec.web_search)``, or the
    spec's ``spec_functions`` handed to another framework's tool builder. It searched the
    JSON text and dropped its limit; now it reads it as the tools do
    (:mod:`websearch_core.tool_json_arguments`), checked by the same argument model.

    A number given as text (``web_search("q", limit="5")``) is refused in the words
    ``WebSearch.run`` uses for it, ``got the text '5': write the number itself, limit=5``,
    not pydantic's ``Input should be a valid integer`` alone.

    Raises:
        pydantic.ValidationError: An argument is out of range, unknown, or given twice.
    """
    try:
        if arguments_in_query(query) is None:  # nearly every query: no validation added
            return tool_search_params(
                query, recency, limit, max_tokens, temperature, num_search_results
            )
        given = {
            "query": query,
            "recency": recency,
            "limit": limit,
            "max_tokens": max_tokens,
            "temperature": temperature,
            "num_search_results": num_search_results,
        }
        return tool_search_params(**WebSearchArgs.model_validate(given).model_dump())
    except ValidationError as error:
        from websearch_core.number_inputs import numbers_given_as_text  # only when refused

        rewritten = numbers_given_as_text(error)
        if rewritten is None:
            raise
        raise rewritten from None


class WebSearchFunctionTool(
    ToolCopies, PointsToFactory, FunctionTool, SearchClosing, BuiltByFactory
):
    """A ``FunctionTool`` that unpacks a :class:`SearchToolResult` into its ``ToolOutput``.

    ``content`` becomes the formatted text, ``raw_output`` the structured details as a
    dict, and ``is_error`` is set when every provider failed (so ``return_direct`` does
    not end an agent run on a failure). Arguments a model got wrong and configuration
    errors also give ``is_error=True`` with an ``Error: ...`` text instead of raising.

    It can be closed (``await tool.aclose()`` or ``async with tool:``), which closes the
    HTTP session of the spec that made it; otherwise that session is closed when the
    event loop that opened it shuts down. Entering it also imports the search chain off
    the loop, so its first call ends by its deadline.

    A copy (``copy.copy`` or ``copy.deepcopy``) searches through a copy of the spec: it
    opens its own session on first use, and closing either tool leaves the other's open.

    Build it with :func:`create_web_search_tool` (or :class:`WebSearchToolSpec`); called
    directly (or through ``from_defaults``) it takes ``FunctionTool``'s arguments; a
    ``WebSearch`` option given to it, or no function at all, is refused naming that factory
    (:mod:`llamaindex_websearch._direct`).
    """

    owner_attribute = "_spec"
    _spec: "WebSearchToolSpec | None" = None
    factory = "create_web_search_tool"
    calls = tuple(ToolArguments.model_fields)

    def _parse_tool_output(self, raw_output: Any) -> list[ContentBlock]:
        if isinstance(raw_output, SearchToolResult):
            return [TextBlock(text=raw_output.text)]
        return super()._parse_tool_output(raw_output)

    def call(self, *args: Any, **kwargs: Any) -> ToolOutput:
        """Search synchronously (safe inside a running event loop)."""
        try:
            arguments = unpacked_arguments(checked_arguments(WebSearchArgs, args, kwargs))
            output = function_tool_call(self, **arguments)
        except (ValidationError, ConfigurationError) as error:
            return self._error_output(error, args, kwargs)
        return with_metadata_output(output, SearchToolResult)

    async def acall(self, *args: Any, **kwargs: Any) -> ToolOutput:
        """Search on the running loop."""
        try:
            arguments = unpacked_arguments(checked_arguments(WebSearchArgs, args, kwargs))
            output = await function_tool_acall(self, **arguments)
        except (ValidationError, ConfigurationError) as error:
            return self._error_output(error, args, kwargs)
        return with_metadata_output(output, SearchToolResult)

    async def aclose(self) -> None:
        """Close the HTTP session of the spec that made this tool, if it opened one."""
        if self._spec is not None:
            await self._spec.aclose()

    def _error_output(
        self, error: Exception, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> ToolOutput:
        if isinstance(error, ConfigurationError):
            text = configuration_error_text(error)
        else:
            text = invalid_arguments_text(error)
        return ToolOutput(
            tool_name=self.metadata.get_name(),
            content=text,
            raw_input={"args": args, "kwargs": kwargs},
            raw_output={"error": text.removeprefix("Error: ")},
            is_error=True,
            exception=error,
        )


sign_spanned_methods(WebSearchFunctionTool, "call", "acall")
name_unawaited(WebSearchFunctionTool, "acall", "call", "tool")  # not awaited: names `call`


class WebSearchToolSpec(CopiesOpenOwnClients, BaseToolSpec, SearchClosing):
    """The ``web_search`` tool as a LlamaIndex tool spec.

    A copy (``copy.copy`` or ``copy.deepcopy``) shares the configuration (and a given
    ``web_search`` client) and opens its own session on first use.

    Args:
        web_search: A ready client; by default one is built from ``**kwargs``.
        **kwargs: :class:`~websearch_core.WebSearch` arguments when ``web_search`` is not
            given (``settings=``, ``api_keys=``, ``provider=``, ``timeout_seconds=``).

    Example:
        >>> from llama_index.core.agent.workflow import FunctionAgent  # doctest: +SKIP
        >>> tools = WebSearchToolSpec(api_keys={"brave": "..."}).to_tool_list()  # doctest: +SKIP
        >>> agent = FunctionAgent(tools=tools, llm=llm)  # doctest: +SKIP
    """

    spec_functions: list[SPEC_FUNCTION_TYPE] = [("web_search", "aweb_search")]  # noqa: RUF012

    def __init__(
        self, web_search: "WebSearch | None" = None, **kwargs: "Unpack[WebSearchOptions]"
    ) -> None:
        _refuse_options("WebSearchToolSpec", web_search, kwargs)
        self._keep(web_search, kwargs)

    @classmethod
    def _checked_already(cls, web_search: "WebSearch | None", kwargs: "WebSearchOptions") -> Self:
        """A spec of options its caller has just checked (``create_web_search_tool``).

        Built through ``__init__`` it checked every option a second time (the factory
        checks them first, to name itself in the refusals).
        """
        spec = cls.__new__(cls)
        spec._keep(web_search, kwargs)
        return spec

    def _keep(self, web_search: "WebSearch | None", kwargs: "WebSearchOptions") -> None:
        """Keep the client or the options for the first call, which builds the client."""
        from websearch_core.client import LoopBoundClient  # the client loads with a tool

        self._given = web_search
        self._kwargs = kwargs
        self._clients = LoopBoundClient()

    def __getstate__(self) -> dict[str, Any]:
        """What ``pickle`` keeps: the options, refused when they hold a secret or a client.

        Raises:
            TypeError: See :mod:`websearch_core.tool_pickles`.
        """
        picklable_options("WebSearchToolSpec", {"web_search": self._given, **self._kwargs})
        return dict(vars(self))  # the clients are unpickled as a new, empty set

    @naming_invented_keywords  # web_search(q=...): did you mean query?
    def web_search(
        self,
        query: str,
        recency: Recency | None = None,
        limit: int | None = None,
        max_tokens: int | None = None,
        temperature: float | None = None,
        num_search_results: int | None = None,
    ) -> SearchToolResult:
        """Search the web (synchronous; runs on its own loop and HTTP session).

        Args:
            query: What to search for.
            recency: Only results from the last day, week, month or year.
            limit: Maximum number of results to return.
            max_tokens: Token cap for providers that write an answer.
            temperature: Sampling temperature for providers that write an answer.
            num_search_results: How many results the provider should search through.

        Returns:
            The text for the model and the structured response; ``Error: ...`` text when
            every provider failed.

        Raises:
            pydantic.ValidationError: An argument is out of range; the error names it.
        """
        params = _search_params(query, recency, limit, max_tokens, temperature, num_search_results)
        with CallClock():  # the deadline counts from here: building a client imports
            try:
                client = (
                    self._given
                    or self._clients.built()
                    or self._clients.get(
                        self._new_client, BuildBound(self._kwargs.get("settings"), self._kwargs)
                    )
                )
            except BuildImportsOutlastedError as error:  # a search's failure, worded as one
                return error.tool_result()
            return client.run_sync(params)

    @spec_awaitable_method("web_search", holder="spec")
    async def aweb_search(
        self,
        query: str,
        recency: Recency | None = None,
        limit: int | None = None,
        max_tokens: int | None = None,
        temperature: float | None = None,
        num_search_results: int | None = None,
    ) -> SearchToolResult:
        """:meth:`web_search` on the running loop, reusing the spec's HTTP session."""
        params = _search_params(query, recency, limit, max_tokens, temperature, num_search_results)
        with CallClock():  # the deadline counts from here: building a client imports
            try:
                client = (
                    self._given
                    or self._clients.built_for_running_loop()
                    or await self._clients.for_running_loop(
                        self._new_client, BuildBound(self._kwargs.get("settings"), self._kwargs)
                    )
                )
            except BuildImportsOutlastedError as error:  # a search's failure, worded as one
                return error.tool_result()
            return await client.run(params)

    def to_tool_list(
        self,
        spec_functions: list[SPEC_FUNCTION_TYPE] | None = None,
        func_to_metadata_mapping: dict[str, ToolMetadata] | None = None,
    ) -> list[FunctionTool]:
        """The spec's tools, with the model-facing description and argument schema.

        Each is a :class:`WebSearchFunctionTool` that can close this spec's session.

        Args:
            spec_functions: Which functions to expose (default: ``spec_functions``).
            func_to_metadata_mapping: Metadata overrides by function name.
        """
        return list(self._function_tools(spec_functions, func_to_metadata_mapping))

    def _function_tools(
        self,
        spec_functions: list[SPEC_FUNCTION_TYPE] | None = None,
        func_to_metadata_mapping: dict[str, ToolMetadata] | None = None,
    ) -> list[WebSearchFunctionTool]:
        check_tool_list_arguments(
            "WebSearchToolSpec.to_tool_list",
            _SPEC_FUNCTIONS,
            spec_functions,
            func_to_metadata_mapping,
        )
        mapping = {"web_search": web_search_metadata(), **(func_to_metadata_mapping or {})}
        wrapped = []
        for tool in super().to_tool_list(spec_functions, mapping):
            function_tool = WebSearchFunctionTool(
                fn=tool.fn, async_fn=tool.async_fn, metadata=tool.metadata
            )
            function_tool._spec = self  # so the tool alone can close the spec's session
            wrapped.append(function_tool)
        return wrapped

    async def aclose(self) -> None:
        """Close the HTTP session the spec opened (a given ``web_search`` is left open).

        Optional: the session of a loop is also closed when that loop shuts down.
        """
        await self._clients.aclose()

    def _new_client(self) -> "WebSearch":
        from websearch_core import WebSearch
        from websearch_core.settings_errors import configuration_errors

        given = {name: name for name in self._kwargs}  # ranked above the environment
        with configuration_errors(given):
            return WebSearch(**self._kwargs)


@refusing_unknown_keywords  # web_search_metadata(nme=...): did you mean name?
def web_search_metadata(name: str = TOOL_NAME, *, return_direct: bool = False) -> ToolMetadata:
    """The model-facing metadata: ``TOOL_DESCRIPTION`` and the :class:`WebSearchArgs` schema.

    Args:
        name: The tool name the model calls.
        return_direct: End the agent run with this tool's (successful) output.
    """
    return ToolMetadata(
        name=name,
        description=TOOL_DESCRIPTION,
        fn_schema=WebSearchArgs,
        return_direct=return_direct,
    )


def create_web_search_tool(
    web_search: "WebSearch | None" = None, **kwargs: "Unpack[WebSearchOptions]"
) -> WebSearchFunctionTool:
    """Build the ``web_search`` ``FunctionTool`` (native sync and async functions).

    The client is built at the first call, but a keyword ``WebSearch`` does not take is
    refused here (``TypeError``, naming the keyword probably meant), as is a value its
    setting refuses (``ConfigurationError``), as ``WebSearchTool`` refuses both when built.

    Args:
        web_search: A ready client; by default one is built from ``**kwargs``.
        **kwargs: :class:`~websearch_core.WebSearch` arguments when ``web_search`` is not
            given (``settings=``, ``api_keys=``, ``provider=``, ``timeout_seconds=``).

    Raises:
        TypeError: A keyword is not a ``WebSearch`` argument (``api_key`` for ``api_keys``).
        TypeError: ``web_search`` given with options to build a client (one that holds
            something: ``provider=None`` is none).
        ConfigurationError: ``provider`` names no provider, an ``api_keys`` entry can be no
            key, or a setting's value is one its field refuses (as ``WebSearch`` refuses
            them; a check that needs another setting from the environment waits for the
            first call).

    Returns:
        A tool whose output ``content`` is the formatted search text and whose
        ``raw_output`` is the structured response as a dict. ``async with`` it (or
        ``await tool.aclose()``) to close its HTTP session early; otherwise the session
        is closed when the event loop that opened it shuts down.

    Example:
        >>> async with create_web_search_tool(api_keys={"brave": "..."}) as tool:  # doctest: +SKIP
        ...     output = await tool.acall(query="python 3.13 release notes")
        >>> output.raw_output["response"]["sources"][0]["url"]  # doctest: +SKIP
    """
    _refuse_options("create_web_search_tool", web_search, kwargs)
    (tool,) = WebSearchToolSpec._checked_already(web_search, kwargs)._function_tools()
    return tool


def _refuse_options(owner: str, web_search: "WebSearch | None", kwargs: "WebSearchOptions") -> None:
    """Refuse what ``owner`` cannot build a client from, once, in the factories' words.

    Raises:
        ConfigurationError: See :mod:`llamaindex_websearch._options` (a ``TypeError`` too
            for an unknown keyword or an object of the wrong kind).
    """
    from websearch_core.credentials import refuse_bad_keys_in_code

    refuse_unknown_options(owner, kwargs, calls=ToolArguments.model_fields)
    refuse_wrong_objects(owner, web_search, kwargs)
    refuse_bad_values(owner, kwargs)
    refuse_both_sources(owner, web_search, kwargs)
    refuse_bad_keys_in_code(kwargs.get("api_keys"))  # its shape: at the first call
