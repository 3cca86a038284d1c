"""``web_search`` as a LangChain tool: one ``BaseTool`` over every configured provider.

The model sees the formatted search text; the program gets the structured response as the
``ToolMessage`` artifact. Provider failures come back as ``Error: ...`` content with the
failure in the artifact, never as an exception the agent loop must catch.
"""

from collections.abc import Callable
from typing import Any, Literal

from langchain_core.tools import BaseTool, ToolException
from pydantic import (
    BaseModel,
    PrivateAttr,
    ValidationError,
)
from pydantic.v1 import ValidationError as ValidationErrorV1

from websearch_core import (
    TOOL_DESCRIPTION,
    ConfigurationError,
)
from websearch_core.client import LoopBoundClient
from websearch_core.client_options import ClientOptions
from websearch_core.models import Recency
from websearch_core.tool_schema import ToolArguments, tool_search_params

__all__ = ["WebSearchInput", "WebSearchTool"]


class WebSearchInput(ToolArguments):
    """The arguments a model may give ``web_search`` (bounds as in ``SearchParams``)."""


def _validation_message(error: Exception) -> str:
    if isinstance(error, ValidationError):
        fields = "; ".join(
            f"{'.'.join(str(part) for part in detail['loc']) or 'input'}: {detail['msg']}"
            for detail in error.errors()
        )
        return f"Error: invalid web_search arguments: {fields}"
    return f"Error: invalid web_search arguments: {error}"


class WebSearchTool(BaseTool, ClientOptions):
    """Search the web through the first configured provider that answers.

    Tries each available provider in order (keyed APIs, a self-hosted SearXNG, then
    keyless scrapers) and returns the first usable result: the formatted text as the
    message content and the structured response as the artifact.

    Setup:
        Install the package with the LangChain extra and configure at least one provider
        (DuckDuckGo needs no key):

        .. code-block:: bash

            pip install "websearch-tools[langchain]"
            export BRAVE_API_KEY="..."   # optional; or: websearch auth set brave

    Instantiate:
        .. code-block:: python

            from langchain_websearch import WebSearchTool

            tool = WebSearchTool()
            # or with explicit configuration:
            tool = WebSearchTool(api_keys={"brave": "..."}, provider="brave", timeout_seconds=20)

    Invoke directly with args:
        .. code-block:: python

            tool.invoke({"query": "what changed in Python 3.13", "limit": 5})

        .. code-block:: none

            [1] What's New In Python 3.13 (3mo ago)
                https://docs.python.org/3/whatsnew/3.13.html
                ...

    Invoke with ToolCall:
        .. code-block:: python

            message = tool.invoke(
                {
                    "args": {"query": "what changed in Python 3.13"},
                    "id": "call_1",
                    "name": "web_search",
                    "type": "tool_call",
                }
            )
            message.content  # the formatted text the model reads
            message.artifact["response"]["sources"]  # the structured results

    Async:
        .. code-block:: python

            message = await tool.ainvoke({"query": "aiohttp latest release"})
            await tool.aclose()  # closes the HTTP session the tool opened
    """

    name: str = "web_search"
    description: str = TOOL_DESCRIPTION
    args_schema: type[BaseModel] = WebSearchInput
    response_format: Literal["content", "content_and_artifact"] = "content_and_artifact"
    handle_tool_error: bool | str | Callable[[ToolException], Any] | None = True
    """Configuration errors reach the model as error text instead of ending the run."""
    handle_validation_error: (
        bool | str | Callable[[ValidationError | ValidationErrorV1], str] | None
    ) = _validation_message
    """Invalid arguments reach the model as error text naming each bad field."""

    _clients: LoopBoundClient = PrivateAttr(default_factory=LoopBoundClient)

    def _run(
        self,
        query: str,
        recency: Recency | None = None,
        limit: int | None = None,
        max_tokens: int | None = None,
        temperature: float | None = None,
        num_search_results: int | None = None,
    ) -> tuple[str, dict[str, Any]]:
        """Search from synchronous code (on its own loop and HTTP session)."""
        params = tool_search_params(
            query, recency, limit, max_tokens, temperature, num_search_results
        )
        client = self.web_search or self._clients.get(self.new_client)
        try:
            result = client.run_sync(params)
        except ConfigurationError as error:
            raise ToolException(f"Error: {error}") from error
        return result.text, result.to_metadata()

    async def _arun(
        self,
        query: str,
        recency: Recency | None = None,
        limit: int | None = None,
        max_tokens: int | None = None,
        temperature: float | None = None,
        num_search_results: int | None = None,
    ) -> tuple[str, dict[str, Any]]:
        """Search natively on the running loop, reusing the tool's HTTP session."""
        params = tool_search_params(
            query, recency, limit, max_tokens, temperature, num_search_results
        )
        client = self.web_search or self._clients.for_running_loop(self.new_client)
        try:
            result = await client.run(params)
        except ConfigurationError as error:
            raise ToolException(f"Error: {error}") from error
        return result.text, result.to_metadata()

    async def aclose(self) -> None:
        """Close the HTTP session the tool opened (a given ``web_search`` is left open)."""
        await self._clients.aclose()
