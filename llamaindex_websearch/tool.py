"""``web_search`` as a LlamaIndex tool: a ``FunctionTool`` factory and a ``BaseToolSpec``.

The tool's output content is the formatted search text the model reads; ``raw_output`` is
the structured response as plain JSON-compatible data (``SearchToolResult.to_metadata()``).
Provider failures come back as ``Error: ...`` content with ``is_error=True`` and the failure
in ``raw_output``, never as an exception the agent must catch.
"""

from typing import Any

from llama_index.core.base.llms.types import ContentBlock, TextBlock
from llama_index.core.tools import FunctionTool, ToolMetadata, ToolOutput
from llama_index.core.tools.tool_spec.base import SPEC_FUNCTION_TYPE, BaseToolSpec

from websearch_core import TOOL_DESCRIPTION, SearchToolResult, WebSearch
from websearch_core.client import LoopBoundClient
from websearch_core.models import Recency
from websearch_core.tool_schema import ToolArguments, tool_search_params

__all__ = [
    "WebSearchArgs",
    "WebSearchFunctionTool",
    "WebSearchToolSpec",
    "create_web_search_tool",
    "web_search_metadata",
]

TOOL_NAME = "web_search"


class WebSearchArgs(ToolArguments):
    """The arguments a model may give ``web_search`` (bounds as in ``SearchParams``)."""


class WebSearchFunctionTool(FunctionTool):
    """A ``FunctionTool`` that unpacks a :class:`SearchToolResult` into its ``ToolOutput``.

    ``content`` becomes the formatted text, ``raw_output`` the structured details as a
    dict, and ``is_error`` is set when every provider failed (so ``return_direct`` does
    not end an agent run on a failure).
    """

    def _parse_tool_output(self, raw_output: Any) -> list[ContentBlock]:
        if isinstance(raw_output, SearchToolResult):
            return [TextBlock(text=raw_output.text)]
        return super()._parse_tool_output(raw_output)

    def call(self, *args: Any, **kwargs: Any) -> ToolOutput:
        """Search synchronously (safe inside a running event loop)."""
        return _unpack(super().call(*args, **kwargs))

    async def acall(self, *args: Any, **kwargs: Any) -> ToolOutput:
        """Search on the running loop."""
        return _unpack(await super().acall(*args, **kwargs))


def _unpack(output: ToolOutput) -> ToolOutput:
    result = output.raw_output
    if not isinstance(result, SearchToolResult):
        return output
    return ToolOutput(
        tool_name=output.tool_name,
        blocks=output.blocks,
        raw_input=output.raw_input,
        raw_output=result.to_metadata(),
        is_error=result.is_error,
    )


class WebSearchToolSpec(BaseToolSpec):
    """The ``web_search`` tool as a LlamaIndex tool spec.

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

    def __init__(self, web_search: WebSearch | None = None, **kwargs: Any) -> None:
        if web_search is not None and kwargs:
            raise TypeError("pass either web_search or WebSearch arguments, not both")
        self._given = web_search
        self._kwargs = kwargs
        self._clients = LoopBoundClient()

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
        params = tool_search_params(
            query, recency, limit, max_tokens, temperature, num_search_results
        )
        return (self._given or self._clients.get(self._new_client)).run_sync(params)

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
        params = tool_search_params(
            query, recency, limit, max_tokens, temperature, num_search_results
        )
        client = self._given or self._clients.for_running_loop(self._new_client)
        return await client.run(params)

    def to_tool_list(
        self,
        spec_functions: list[SPEC_FUNCTION_TYPE] | None = None,
        func_to_metadata_mapping: dict[str, ToolMetadata] | None = None,
    ) -> list[FunctionTool]:
        """The spec's tools, with the model-facing description and argument schema.

        Args:
            spec_functions: Which functions to expose (default: ``spec_functions``).
            func_to_metadata_mapping: Metadata overrides by function name.
        """
        mapping = {"web_search": web_search_metadata(), **(func_to_metadata_mapping or {})}
        tools = super().to_tool_list(spec_functions, mapping)
        return [
            WebSearchFunctionTool(fn=tool.fn, async_fn=tool.async_fn, metadata=tool.metadata)
            for tool in tools
        ]

    async def aclose(self) -> None:
        """Close the HTTP session the spec opened (a given ``web_search`` is left open)."""
        await self._clients.aclose()

    def _new_client(self) -> WebSearch:
        return WebSearch(**self._kwargs)


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


def create_web_search_tool(web_search: WebSearch | None = None, **kwargs: Any) -> FunctionTool:
    """Build the ``web_search`` ``FunctionTool`` (native sync and async functions).

    Args:
        web_search: A ready client; by default one is built from ``**kwargs``.
        **kwargs: :class:`~websearch_core.WebSearch` arguments when ``web_search`` is not
            given (``settings=``, ``api_keys=``, ``provider=``, ``timeout_seconds=``).

    Returns:
        A tool whose output ``content`` is the formatted search text and whose
        ``raw_output`` is the structured response as a dict.

    Example:
        >>> tool = create_web_search_tool(api_keys={"brave": "..."})  # doctest: +SKIP
        >>> output = await tool.acall(query="python 3.13 release notes")  # doctest: +SKIP
        >>> output.raw_output["response"]["sources"][0]["url"]  # doctest: +SKIP
    """
    return WebSearchToolSpec(web_search, **kwargs).to_tool_list()[0]
