"""What both LlamaIndex tools hand back: the model's text, with the result as plain data.

``FunctionTool`` keeps the function's return value as ``raw_output``; the tools return a
core result object, which is swapped here for its metadata dict (JSON-ready, as agent
loggers and callbacks expect) and whose error flag becomes the output's ``is_error``.

The model's text comes from the tools' override of ``FunctionTool._parse_tool_output``, a
private hook (checked on llama-index-core 0.14.12, the lowest bound in CI's lowest-bounds
run, to 0.14.25 here). A release that stops calling it builds the text with ``str()`` of the
result: a search result's text, but a fetch result's whole dataclass repr. The text is put
right here, so the model reads the result's text whichever the release.
"""

from typing import Any, Protocol

from llama_index.core.base.llms.types import TextBlock
from llama_index.core.tools import ToolOutput

__all__ = ["with_metadata_output"]


class _ToolResult(Protocol):
    """What the core's tool results share (``SearchToolResult``, ``FetchToolResult``)."""

    @property
    def text(self) -> str: ...

    @property
    def is_error(self) -> bool: ...

    def to_metadata(self) -> dict[str, Any]: ...


def with_metadata_output(output: ToolOutput, result_type: type[_ToolResult]) -> ToolOutput:
    """``output`` with a ``result_type`` raw output replaced by its metadata and error flag.

    Any other raw output (an error text built before a search ran) is left as it is. The
    output is updated in place: it is the one ``FunctionTool`` just built for this call
    (every field already set), and building a second one cost more than the swap. Content
    that is ``str()`` of the result (``FunctionTool``'s own text for an object it does not
    know, see the module's docstring) becomes the result's text; any other, a callback's
    say, is kept.
    """
    result = output.raw_output
    if isinstance(result, result_type):
        blocks = output.blocks
        if not (
            len(blocks) == 1 and isinstance(blocks[0], TextBlock) and blocks[0].text == result.text
        ) and output.content == str(result):
            output.content = result.text
        output.raw_output = result.to_metadata()
        output.is_error = result.is_error
    return output
