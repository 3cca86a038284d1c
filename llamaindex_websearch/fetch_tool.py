"""``web_fetch`` as a LlamaIndex tool: a page's main content as Markdown, fenced as data.

The output ``content`` is the page between per-call random boundary markers (see
:mod:`websearch_core.content.tool_text`), ``raw_output`` the page's metadata as plain
JSON-compatible data. A page that cannot be fetched, invalid arguments and bad
configuration come back as ``Error: ...`` content with ``is_error=True``, never as an
exception the agent must catch.
"""

from typing import Any

from llama_index.core.base.llms.types import ContentBlock, TextBlock
from llama_index.core.tools import FunctionTool, ToolMetadata, ToolOutput
from pydantic import ValidationError
from typing_extensions import Unpack

from websearch_core import ConfigurationError, FetchError, WebSearch
from websearch_core.build_deadline import BuildBound, BuildImportsOutlastedError
from websearch_core.client import LoopBoundClient, WebSearchOptions
from websearch_core.content.tool_text import (
    FETCH_TOOL_DESCRIPTION,
    FETCH_TOOL_NAME,
    FetchArguments,
    FetchToolResult,
    invalid_fetch_arguments_text,
)
from websearch_core.credentials import refuse_bad_keys_in_code
from websearch_core.deadline import CallClock
from websearch_core.meant_names import refusing_unknown_keywords
from websearch_core.search_closing import FetchClosing
from websearch_core.settings_errors import configuration_errors
from websearch_core.tool_copies import CopiesOpenOwnClients
from websearch_core.tool_errors import configuration_error_text
from websearch_core.tool_json_arguments import unpacked_arguments
from websearch_core.tool_pickles import picklable_options

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
from ._unawaited import name_unawaited

__all__ = ["WebFetchArgs", "WebFetchFunctionTool", "create_web_fetch_tool", "web_fetch_metadata"]


class WebFetchArgs(FetchArguments):
    """The arguments a model may give ``web_fetch``: ``url`` and optional ``max_chars``."""


class _Fetcher(CopiesOpenOwnClients):
    """The tool's client (one per event loop) and its fixed policy; a copy opens its own."""

    def __init__(
        self,
        web_search: WebSearch | None,
        allow_private_addresses: bool | None,
        kwargs: WebSearchOptions,
    ) -> None:
        refuse_bad_keys_in_code(kwargs.get("api_keys"))  # its shape: at the first call
        self._given = web_search
        self._kwargs = kwargs
        self._allow_private = allow_private_addresses
        self.clients = LoopBoundClient()

    def __getstate__(self) -> dict[str, Any]:
        """What ``pickle`` keeps: the options, refused when they hold a secret or a client.

        Raises:
            TypeError: See :mod:`websearch_core.tool_pickles`.
        """
        picklable_options("WebFetchFunctionTool", {"web_search": self._given, **self._kwargs})
        return dict(vars(self))  # the clients are unpickled as a new, empty set

    def fetch(self, url: str, max_chars: int | None = None) -> FetchToolResult:
        """Fetch synchronously (its own loop and HTTP session).

        The fetch's deadline counts from the call's start, and building the client (the
        first call's imports) ends by it, as on a loop.
        """
        arguments = WebFetchArgs(url=url, max_chars=max_chars)
        with CallClock():
            try:
                client = (
                    self._given
                    or self.clients.built()
                    or self.clients.get(self._new_client, self._bound())
                )
                page = client.fetch_sync(arguments.url, allow_private_addresses=self._allow_private)
            except BuildImportsOutlastedError as error:  # the fetch's deadline, worded as one
                return FetchToolResult.failed(error.fetch_error(arguments.url))
            except FetchError as error:
                return FetchToolResult.failed(error)
        return FetchToolResult.of(page, arguments.max_chars)

    async def afetch(self, url: str, max_chars: int | None = None) -> FetchToolResult:
        """Fetch on the running loop, reusing the tool's HTTP session.

        The fetch's deadline counts from the call's start: a first call's build imports
        end by it (they waited with no limit), and the fetch has what they left.
        """
        arguments = WebFetchArgs(url=url, max_chars=max_chars)
        with CallClock():
            try:
                client = (
                    self._given
                    or self.clients.built_for_running_loop()
                    or await self.clients.for_running_loop(self._new_client, self._bound())
                )
                page = await client.fetch(
                    arguments.url, allow_private_addresses=self._allow_private
                )
            except BuildImportsOutlastedError as error:  # the fetch's deadline, worded as one
                return FetchToolResult.failed(error.fetch_error(arguments.url))
            except FetchError as error:
                return FetchToolResult.failed(error)
        return FetchToolResult.of(page, arguments.max_chars)

    def _bound(self) -> BuildBound:
        """What the fetch's deadline is worked out from at the build (``known_fetch_deadline``)."""
        return BuildBound(self._kwargs.get("settings"), self._kwargs, fetch=True)

    def _new_client(self) -> WebSearch:
        with configuration_errors({name: name for name in self._kwargs}):
            return WebSearch(**self._kwargs)


class WebFetchFunctionTool(ToolCopies, PointsToFactory, FunctionTool, FetchClosing, BuiltByFactory):
    """A ``FunctionTool`` that unpacks a :class:`FetchToolResult` into its ``ToolOutput``.

    ``content`` is the fenced page text, ``raw_output`` the page metadata (or the error),
    ``is_error`` is set when the fetch failed or the arguments were wrong. A copy opens its
    own session on first use (closing either leaves the other's open).

    Build it with :func:`create_web_fetch_tool`; called directly (or through
    ``from_defaults``) it takes ``FunctionTool``'s arguments, and a ``WebSearch`` option given
    to it, or no function at all, is refused naming that factory.
    """

    owner_attribute = "_fetcher"
    _fetcher: _Fetcher | None = None
    factory = "create_web_fetch_tool"
    factory_options = ("allow_private_addresses",)

    def _parse_tool_output(self, raw_output: Any) -> list[ContentBlock]:
        if isinstance(raw_output, FetchToolResult):
            return [TextBlock(text=raw_output.text)]
        return super()._parse_tool_output(raw_output)

    def call(self, *args: Any, **kwargs: Any) -> ToolOutput:
        """Fetch synchronously (safe inside a running event loop)."""
        try:
            arguments = unpacked_arguments(checked_arguments(WebFetchArgs, args, kwargs), "url")
            output = function_tool_call(self, **arguments)
        except (ValidationError, ConfigurationError) as error:
            return self._error_output(error, args, kwargs)
        return with_metadata_output(output, FetchToolResult)

    async def acall(self, *args: Any, **kwargs: Any) -> ToolOutput:
        """Fetch on the running loop."""
        try:
            arguments = unpacked_arguments(checked_arguments(WebFetchArgs, args, kwargs), "url")
            output = await function_tool_acall(self, **arguments)
        except (ValidationError, ConfigurationError) as error:
            return self._error_output(error, args, kwargs)
        return with_metadata_output(output, FetchToolResult)

    async def aclose(self) -> None:
        """Close the HTTP session this tool opened, if any."""
        if self._fetcher is not None:
            await self._fetcher.clients.aclose()

    def _error_output(
        self, error: Exception, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> ToolOutput:
        if isinstance(error, ConfigurationError):
            text = configuration_error_text(error)
        else:
            text = invalid_fetch_arguments_text(error)
        return ToolOutput(
            tool_name=self.metadata.get_name(),
            content=text,
            raw_input={"args": args, "kwargs": kwargs},
            raw_output={"error": text.removeprefix("Error: ")},
            is_error=True,
            exception=error,
        )


sign_spanned_methods(WebFetchFunctionTool, "call", "acall")
name_unawaited(WebFetchFunctionTool, "acall", "call", "tool")  # not awaited: names `call`


@refusing_unknown_keywords
def web_fetch_metadata(name: str = FETCH_TOOL_NAME) -> ToolMetadata:
    """The model-facing metadata: the description and the :class:`WebFetchArgs` schema."""
    return ToolMetadata(name=name, description=FETCH_TOOL_DESCRIPTION, fn_schema=WebFetchArgs)


def create_web_fetch_tool(
    web_search: WebSearch | None = None,
    *,
    allow_private_addresses: bool | None = None,
    **kwargs: Unpack[WebSearchOptions],
) -> WebFetchFunctionTool:
    """Build the ``web_fetch`` ``FunctionTool`` (native sync and async functions).

    The client is built at the first call, but a keyword ``WebSearch`` does not take is
    refused here (``TypeError``, naming the keyword probably meant).

    Args:
        web_search: A ready client; by default one is built from ``**kwargs``.
        allow_private_addresses: Also fetch loopback/private addresses (``None``: the
            ``WEBSEARCH_FETCH_ALLOW_PRIVATE`` variable decides). The model cannot change it.
        **kwargs: :class:`~websearch_core.WebSearch` arguments when ``web_search`` is not
            given.

    Raises:
        TypeError: A keyword is not a ``WebSearch`` argument (``api_key`` for ``api_keys``).

    Example:
        >>> async with create_web_fetch_tool() as tool:  # doctest: +SKIP
        ...     output = await tool.acall(url="https://example.org/")
        >>> output.raw_output["page"]["title"]  # doctest: +SKIP
    """
    refuse_unknown_options("create_web_fetch_tool", kwargs, "allow_private_addresses")
    refuse_wrong_objects("create_web_fetch_tool", web_search, kwargs)
    refuse_bad_values("create_web_fetch_tool", kwargs)
    refuse_both_sources("create_web_fetch_tool", web_search, kwargs)
    fetcher = _Fetcher(web_search, allow_private_addresses, kwargs)
    tool = WebFetchFunctionTool(
        fn=fetcher.fetch, async_fn=fetcher.afetch, metadata=web_fetch_metadata()
    )
    tool._fetcher = fetcher
    return tool
