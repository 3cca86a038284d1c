"""``web_search`` as a LangChain tool: one ``BaseTool`` over every configured provider.

The model sees the formatted search text; the program gets the structured response as the
``ToolMessage`` artifact. Provider failures come back as ``Error: ...`` content with the
failure in the artifact and ``status="error"``, never as an exception the agent loop must
catch. Invalid arguments and bad configuration come back the same way, as the one-line
texts of :mod:`websearch_core.tool_errors` (without an artifact: no search ran).
"""

import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from langchain_core.tools import ToolException
from pydantic import BaseModel, ValidationError
from pydantic.v1 import ValidationError as ValidationErrorV1

from websearch_core import TOOL_DESCRIPTION, ConfigurationError
from websearch_core.build_deadline import BuildImportsOutlastedError
from websearch_core.client_options import ClientOptions
from websearch_core.deadline import CallClock
from websearch_core.models import SearchToolResult
from websearch_core.search_closing import SearchClosing
from websearch_core.tool_errors import configuration_error_text, invalid_arguments_text
from websearch_core.tool_schema import ToolArguments, tool_search_params

from ._json_input import unpacked_input
from ._run_methods import hand_out_plain
from ._tool_calls import ToolCallAwareTool, in_tool_call

if TYPE_CHECKING:
    from typing import Unpack

    from ._keywords import ToolKeywords

__all__ = ["WebSearchInput", "WebSearchTool"]


class WebSearchInput(ToolArguments):
    """The arguments a model may give ``web_search`` (bounds as in ``SearchParams``)."""


def _plain_signature(model: type[BaseModel]) -> inspect.Signature:
    """``model``'s signature with each field's type written out, its constraints left out.

    LangChain reads the args schema's signature twice on every call (looking for injected
    arguments) and rebuilds every generic annotation it finds, argument by argument: each
    ``int | None`` becomes a new ``Union``, ``Optional[Literal[...]]`` a new ``Union`` of a
    new ``Literal``. Pydantic's signature also wraps every bounded field in
    ``Annotated[int | None, Strict(), Ge(), Le()]``. Written as text (as under ``from
    __future__ import annotations``) each type still reads the same to a person and costs
    those reads nothing; no field is an injected argument, which is all LangChain looks
    for there. The parameters, kinds and defaults stay pydantic's; validation and the JSON
    schema the model sees are untouched.
    """
    signature = inspect.signature(model)
    fields = model.model_fields
    return signature.replace(
        parameters=[
            parameter.replace(annotation=inspect.formatannotation(fields[name].annotation))
            for name, parameter in signature.parameters.items()
        ]
    )


WebSearchInput.__signature__ = _plain_signature(WebSearchInput)


class WebSearchTool(ToolCallAwareTool, ClientOptions, SearchClosing):
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
            # any WebSearch option, checked now and kept out of the tool's schema:
            tool = WebSearchTool(deadline_seconds=30, exclude="bing", cache=False)
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

            async with WebSearchTool() as tool:  # closes its HTTP session on exit
                text = await tool.ainvoke({"query": "aiohttp latest release"})  # a str

        Without ``async with`` (or ``await tool.aclose()``) the session is closed when
        the event loop that opened it shuts down (the end of ``asyncio.run``). Entering
        the tool also imports the search chain off the loop, so the first call ends by
        its deadline; without it that call imports the chain first (0.2 s or more).

    Copies:
        ``copy.copy``, ``copy.deepcopy`` and ``model_copy`` give a tool that shares the
        configuration (and a given ``web_search`` client) and opens its own session on
        first use; closing one never closes the other's.
        ``pickle`` keeps the configuration the same way; a tool holding a secret given in
        code (``api_keys=``) or a ``web_search`` client refuses, saying what to do.

    Errors:
        A search that failed after every fallback, invalid arguments and bad configuration
        all come back as ``Error: ...`` content; called with a ``ToolCall`` the message has
        ``status="error"`` (a failed search keeps its details in the artifact).
    """

    name: str = "web_search"
    description: str = TOOL_DESCRIPTION
    args_schema: type[BaseModel] = WebSearchInput
    response_format: Literal["content", "content_and_artifact"] = "content_and_artifact"
    handle_tool_error: bool | str | Callable[[ToolException], Any] | None = True
    """Configuration errors reach the model as ``Error: configuration: ...`` text."""
    handle_validation_error: (
        bool | str | Callable[[ValidationError | ValidationErrorV1], str] | None
    ) = invalid_arguments_text
    """Invalid arguments reach the model as error text naming each bad field."""

    if TYPE_CHECKING:
        # For type checkers alone (BaseTool's ``**kwargs: Any`` let a misspelt option
        # through): at run time pydantic's ``__init__`` stays (see ``_keywords``).
        def __init__(self, **keywords: "Unpack[ToolKeywords]") -> None: ...

    # ``_run`` and ``_arun`` take the arguments as ``*args, **kwargs`` (BaseTool's own
    # signature) on purpose. LangChain reads the running method's signature and resolves
    # its type hints on every call (looking for ``run_manager`` and a ``RunnableConfig``
    # parameter); six typed parameters and a typed tuple return cost ~2-3x what ``Any``
    # does there. The arguments are the args schema's, already validated by LangChain,
    # and ``tool_search_params`` takes them in the same order and names.

    def _parse_input(
        self, tool_input: str | dict[str, Any], *args: Any, **kwargs: Any
    ) -> str | dict[str, Any]:
        """The input, a ``query`` that writes every argument as JSON read as those arguments.

        LangChain hands ``invoke('{"query": "x", "limit": 3}')`` to ``query`` whole, and
        keeps only the names a dict input gave (``query`` alone, though the schema read
        ``limit`` out of it), so the arguments are unpacked before LangChain parses them
        (:mod:`websearch_core.tool_json_arguments`). One named twice is left to the
        schema, which refuses it by name.
        """
        return super()._parse_input(unpacked_input(tool_input, "query"), *args, **kwargs)

    def _run(self, *args: Any, **kwargs: Any) -> Any:
        """Search from synchronous code (on its own loop and HTTP session)."""
        params = tool_search_params(*args, **kwargs)
        try:
            with CallClock():  # the deadline counts from here: building a client imports
                clients = self._own_clients()
                client = (
                    self.web_search
                    or clients.built()
                    or clients.get(self.new_client, self.build_bound())
                )
                result = client.run_sync(params)
        except BuildImportsOutlastedError as error:  # a search's failure, worded as one
            result = error.tool_result()
        except ConfigurationError as error:
            raise ToolException(configuration_error_text(error)) from error
        return self._output(result)

    async def _arun(self, *args: Any, **kwargs: Any) -> Any:
        """Search natively on the running loop, reusing the tool's HTTP session."""
        params = tool_search_params(*args, **kwargs)
        try:
            with CallClock():  # the deadline counts from here: building a client imports
                clients = self._own_clients()
                client = (
                    self.web_search
                    or clients.built_for_running_loop()
                    or await clients.for_running_loop(self.new_client, self.build_bound())
                )
                result = await client.run(params)
        except BuildImportsOutlastedError as error:  # a search's failure, worded as one
            result = error.tool_result()
        except ConfigurationError as error:
            raise ToolException(configuration_error_text(error)) from error
        return self._output(result)

    def _output(self, result: SearchToolResult) -> Any:
        """The ``(content, artifact)`` pair; a failure inside a tool call is its own message.

        LangChain keeps an artifact only in a tool call's ``ToolMessage``: invoked with
        plain arguments it returns the content alone. So the artifact, a JSON dump of the
        whole response, is built only when a tool call will carry it.
        """
        carried = in_tool_call() and self.response_format == "content_and_artifact"
        artifact = result.to_metadata() if carried else {}
        return self._answer(result.text, artifact, is_error=result.is_error)

    async def aclose(self) -> None:
        """Close the HTTP session the tool opened (a given ``web_search`` is left open).

        Optional: the session of a loop is also closed when that loop shuts down.
        """
        await self._own_clients().aclose()


def _keep_signature(*functions: Callable[..., Any]) -> None:
    """Store each function's own signature on it, and leave it no type hints to resolve.

    LangChain reads the running method's signature (does it take a ``run_manager``?) and
    resolves its type hints (does it take a ``RunnableConfig``?) on every call. A function
    carrying ``__signature__`` is answered from it rather than from its code object again:
    the same signature, about half the cost. With its ``__annotations__`` emptied, the
    hints resolve to nothing at once instead of ``Any`` three times over (~4 us a call).
    The annotations stay in the source for type checkers and in the stored signature for
    ``inspect``; nothing else reads them at run time.
    """
    for function in functions:
        function.__signature__ = inspect.signature(function)  # type: ignore[attr-defined]
        function.__annotations__ = {}


_keep_signature(WebSearchTool._run, WebSearchTool._arun)
hand_out_plain(WebSearchTool, "_run", "_arun")  # read by LangChain per call: see the module
