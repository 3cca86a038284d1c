"""An error status for tool calls that failed without raising: one place for both tools.

LangChain marks a ``ToolMessage`` ``status="error"`` only when the tool raises, and then
drops the artifact. Our tools answer a failure (every provider failed, a page that could
not be fetched) with readable ``Error: ...`` text and the failure's details as the artifact,
so they build the error message themselves; LangChain tells ``_run`` nothing about the call
it answers, so :class:`ToolCallAwareTool` hands the call's id over in a context variable.
"""

from contextvars import ContextVar
from typing import Any

from langchain_core.messages import ToolMessage
from langchain_core.tools import BaseTool
from pydantic import BaseModel

__all__ = ["ToolCallAwareTool", "in_tool_call"]

_TOOL_CALL_ID: ContextVar[str | None] = ContextVar("websearch_tool_call_id", default=None)
"""The id of the tool call being run (``None``: invoked with plain arguments)."""

_SHOWN: dict[tuple[type[BaseTool], type[BaseModel], frozenset[str]], frozenset[str]] = {}
"""LangChain's answer to "which of these arguments may callbacks see", per tool class, args
schema and set of argument names (names of the schema only, so it stays small)."""


def in_tool_call() -> bool:
    """Whether the tool runs for a tool call (only then does LangChain keep an artifact)."""
    return _TOOL_CALL_ID.get() is not None


class ToolCallAwareTool(BaseTool):
    """A tool whose failures answer a tool call with ``status="error"`` and an artifact."""

    def run(
        self, tool_input: Any, *args: Any, tool_call_id: str | None = None, **kwargs: Any
    ) -> Any:
        """Run as :meth:`BaseTool.run` does, knowing the tool call it answers."""
        token = _TOOL_CALL_ID.set(tool_call_id)
        try:
            return super().run(tool_input, *args, tool_call_id=tool_call_id, **kwargs)
        finally:
            _TOOL_CALL_ID.reset(token)

    async def arun(
        self, tool_input: Any, *args: Any, tool_call_id: str | None = None, **kwargs: Any
    ) -> Any:
        """Run as :meth:`BaseTool.arun` does, knowing the tool call it answers."""
        token = _TOOL_CALL_ID.set(tool_call_id)
        try:
            return await super().arun(tool_input, *args, tool_call_id=tool_call_id, **kwargs)
        finally:
            _TOOL_CALL_ID.reset(token)

    def _filter_injected_args(self, tool_input: dict[str, Any]) -> dict[str, Any]:
        """LangChain's own filter, its answer kept for the next call with the same names.

        LangChain works out which arguments are injected (kept from callbacks) by reading
        every annotation of the args schema, on every call: 12.5 us for our six fields
        against 6.7 us for a one-argument tool, the largest part of what our tool added
        beyond a trivial one. The answer depends only on the tool's class (its ``_run``),
        the schema and the names given, so it is worked out once for each. Names outside
        the schema (a model may send any) go to LangChain every time and are never kept.
        """
        schema = self.args_schema
        names = frozenset(tool_input)
        if not (
            isinstance(schema, type)
            and issubclass(schema, BaseModel)
            and names <= schema.model_fields.keys()
        ):
            return super()._filter_injected_args(tool_input)
        key = (type(self), schema, names)
        shown = _SHOWN.get(key)
        if shown is None:
            shown = _SHOWN[key] = frozenset(super()._filter_injected_args(tool_input))
        return {name: value for name, value in tool_input.items() if name in shown}

    def _answer(self, text: str, artifact: dict[str, Any], *, is_error: bool) -> Any:
        """The ``(content, artifact)`` pair; a failure inside a tool call is its own message."""
        tool_call_id = _TOOL_CALL_ID.get()
        if not is_error or tool_call_id is None:
            return self._shaped(text, artifact)
        message = ToolMessage(
            text, artifact=artifact, tool_call_id=tool_call_id, name=self.name, status="error"
        )
        return self._shaped(message, artifact)

    def _shaped(self, content: str | ToolMessage, artifact: dict[str, Any]) -> Any:
        """What ``response_format`` asks ``_run`` for: the pair, or the content alone.

        With ``response_format="content"`` (a public field of every tool) LangChain takes
        whatever ``_run`` returns as the content: the pair became the model's text, the
        artifact's JSON included, and a plain ``invoke`` returned a tuple.
        """
        if self.response_format == "content_and_artifact":
            return content, artifact
        return content
