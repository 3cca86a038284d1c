"""``web_fetch`` as a LangChain tool: a page's main content as Markdown, fenced as data.

The model reads the page between per-call random boundary markers (see
:mod:`websearch_core.content.tool_text`); the program gets the page's metadata as the
``ToolMessage`` artifact. A page that cannot be fetched (refused by the safety policy,
an error status, a timeout) comes back as ``Error: cannot fetch <url>: <reason>`` text,
never as an exception the agent loop must catch.
"""

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from langchain_core.tools import ToolException
from pydantic import BaseModel, ValidationError
from pydantic.v1 import ValidationError as ValidationErrorV1

from websearch_core import ConfigurationError, FetchError
from websearch_core.build_deadline import BuildImportsOutlastedError
from websearch_core.client_options import ClientOptions
from websearch_core.content.tool_text import (
    FETCH_TOOL_DESCRIPTION,
    FETCH_TOOL_NAME,
    FetchArguments,
    FetchToolResult,
    invalid_fetch_arguments_text,
)
from websearch_core.deadline import CallClock
from websearch_core.search_closing import FetchClosing
from websearch_core.tool_errors import configuration_error_text

from ._json_input import unpacked_input
from ._tool_calls import ToolCallAwareTool

if TYPE_CHECKING:
    from typing import Unpack

    from ._keywords import FetchToolKeywords

__all__ = ["WebFetchInput", "WebFetchTool"]


class WebFetchInput(FetchArguments):
    """The arguments a model may give ``web_fetch``: ``url`` and optional ``max_chars``."""


class WebFetchTool(ToolCallAwareTool, ClientOptions, FetchClosing):
    """Fetch a web page and return its main content as Markdown, fenced as untrusted data.

    Only public http(s) addresses are fetched unless ``allow_private_addresses=True`` (or
    ``WEBSEARCH_FETCH_ALLOW_PRIVATE=1``); the model cannot change that.

    Instantiate:
        .. code-block:: python

            from langchain_websearch import WebFetchTool

            tool = WebFetchTool()

    Invoke:
        .. code-block:: python

            tool.invoke({"url": "https://docs.python.org/3/whatsnew/3.13.html"})
            message = tool.invoke(
                {"args": {"url": "https://example.org/"}, "id": "1", "name": "web_fetch",
                 "type": "tool_call"}
            )
            message.artifact["page"]["title"]
    """

    name: str = FETCH_TOOL_NAME
    description: str = FETCH_TOOL_DESCRIPTION
    args_schema: type[BaseModel] = WebFetchInput
    response_format: Literal["content", "content_and_artifact"] = "content_and_artifact"
    handle_tool_error: bool | str | Callable[[ToolException], Any] | None = True
    handle_validation_error: (
        bool | str | Callable[[ValidationError | ValidationErrorV1], str] | None
    ) = invalid_fetch_arguments_text
    allow_private_addresses: bool | None = None
    """Also fetch loopback/private addresses (``None``: ``WEBSEARCH_FETCH_ALLOW_PRIVATE``)."""

    if TYPE_CHECKING:
        # For type checkers alone (the base's ``**kwargs: Any`` let a misspelt option
        # through): at run time pydantic's ``__init__`` stays (see ``_keywords``).
        def __init__(self, **keywords: "Unpack[FetchToolKeywords]") -> None: ...

    def _parse_input(
        self, tool_input: str | dict[str, Any], *args: Any, **kwargs: Any
    ) -> str | dict[str, Any]:
        """The input, a ``url`` that writes every argument as JSON read as those arguments.

        ``invoke('{"url": "https://a.example/", "max_chars": 4000}')`` was fetched as that
        text and refused for having no scheme (:mod:`._json_input`).
        """
        return super()._parse_input(unpacked_input(tool_input, "url"), *args, **kwargs)

    def _run(self, url: str, max_chars: int | None = None) -> Any:
        """Fetch from synchronous code (on its own loop and HTTP session).

        The fetch's deadline counts from the call's start, and building the client (the
        first call's imports) ends by it, as on a loop.
        """
        try:
            with CallClock():
                clients = self._own_clients()
                client = (
                    self.web_search
                    or clients.built()
                    or clients.get(self.new_client, self.fetch_build_bound())
                )
                page = client.fetch_sync(url, allow_private_addresses=self.allow_private_addresses)
        except BuildImportsOutlastedError as error:  # the fetch's deadline, worded as one
            return self._output(FetchToolResult.failed(error.fetch_error(url)))
        except ConfigurationError as error:
            raise ToolException(configuration_error_text(error)) from error
        except FetchError as error:
            return self._output(FetchToolResult.failed(error))
        return self._output(FetchToolResult.of(page, max_chars))

    async def _arun(self, url: str, max_chars: int | None = None) -> Any:
        """Fetch on the running loop.

        The fetch's deadline counts from the call's start: a first call's build imports
        end by it (they waited with no limit), and the fetch has what they left.
        """
        try:
            with CallClock():
                clients = self._own_clients()
                client = (
                    self.web_search
                    or clients.built_for_running_loop()
                    or await clients.for_running_loop(self.new_client, self.fetch_build_bound())
                )
                page = await client.fetch(url, allow_private_addresses=self.allow_private_addresses)
        except BuildImportsOutlastedError as error:  # the fetch's deadline, worded as one
            return self._output(FetchToolResult.failed(error.fetch_error(url)))
        except ConfigurationError as error:
            raise ToolException(configuration_error_text(error)) from error
        except FetchError as error:
            return self._output(FetchToolResult.failed(error))
        return self._output(FetchToolResult.of(page, max_chars))

    def _output(self, result: FetchToolResult) -> Any:
        """The page (or the failure) as content and artifact; a failure has the error status."""
        return self._answer(result.text, result.to_metadata(), is_error=result.is_error)

    async def aclose(self) -> None:
        """Close the client the tool opened (a given ``web_search`` is left open)."""
        await self._own_clients().aclose()
