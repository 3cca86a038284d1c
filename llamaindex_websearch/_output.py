"""What both LlamaIndex tools hand back: the model's text, with the result as plain data.

``FunctionTool`` keeps the function's return value as ``raw_output``; the tools return a
core result object, which is swapped here for its metadata dict (JSON-ready, as agent
loggers and callbacks expect) and whose error flag becomes the output's ``is_error``.
"""

from typing import Any, Protocol

from llama_index.core.tools import ToolOutput

__all__ = ["with_metadata_output"]


class _ToolResult(Protocol):
    """What the core's tool results share (``SearchToolResult``, ``FetchToolResult``)."""

    @property
    def is_error(self) -> bool: ...

    def to_metadata(self) -> dict[str, Any]: ...


def with_metadata_output(output: ToolOutput, result_type: type[_ToolResult]) -> ToolOutput:
    """``output`` with a ``result_type`` raw output replaced by its metadata and error flag.

    Any other raw output (an error text built before a search ran) is left as it is. The
    output is updated in place: it is the one ``FunctionTool`` just built for this call
    (every field already set), and building a second one cost more than the swap.
    """
    result = output.raw_output
    if isinstance(result, result_type):
        output.raw_output = result.to_metadata()
        output.is_error = result.is_error
    return output
