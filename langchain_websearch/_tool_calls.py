"""An error status for tool calls that failed without raising: one place for both tools.

LangChain marks a ``ToolMessage`` ``status="error"`` only when the tool raises, and then
drops the artifact. Our tools answer a failure (every provider failed, a page that could
not be fetched) with readable ``Error: ...`` text and the failure's details as the artifact,
so they build the error message themselves; LangChain tells ``_run`` nothing about the call
it answers, so :class:`ToolCallAwareTool` hands the call's id over in a context variable.

What rests on LangChain's private parts, each checked on langchain-core 1.2.5 to 1.8.3 (the
lowest bound in CI's lowest-bounds run, the newest here), and what a release that changes it
gets:

* ``BaseTool._parse_input`` and ``_filter_injected_args``, overridden to skip work LangChain
  repeats per call: a release that stops calling them loses only the saving; one that calls
  them in another shape gets its own methods (the overrides pass such calls on untouched).
* ``BaseTool._injected_args_keys`` (a cached property), read to know the tool has no
  injected argument: missing or not a set, every parse is LangChain's.
* What ``_parse_input`` returns for a plain schema: the first inputs are parsed both ways
  (:func:`_confirmed`), so a release that returns something else is followed.

Which schema fields LangChain would inject is read from pydantic's public field information,
not from LangChain's private ``_is_injected_arg_type``.
"""

from contextvars import ContextVar
from typing import Any, get_args

from langchain_core.messages import ToolCall, ToolMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, InjectedToolArg
from pydantic import BaseModel, ConfigDict

from websearch_core.pending_call import AwaitableMethod, awaitable_method

__all__ = ["ToolCallAwareTool", "in_tool_call"]

_TOOL_CALL_ID: ContextVar[str | None] = ContextVar("websearch_tool_call_id", default=None)
"""The id of the tool call being run (``None``: invoked with plain arguments)."""

_SHOWN: dict[tuple[type[BaseTool], type[BaseModel], frozenset[str]], frozenset[str]] = {}
"""LangChain's answer to "which of these arguments may callbacks see", per tool class, args
schema and set of argument names (names of the schema only, so it stays small)."""


_PLAIN: dict[type[BaseModel], bool] = {}
"""Per args schema: whether LangChain's parse of a dict input comes down to validating it
(``False`` too once LangChain answered one input otherwise, see :func:`_confirmed`)."""

_CONFIRMED: set[type[BaseModel]] = set()
"""The plain schemas whose quick parse LangChain's own parse has confirmed in this process."""


def _marks_injected(part: object) -> bool:
    """Whether ``part`` (an annotation or ``Annotated`` metadata) marks an injected argument.

    LangChain fills an argument annotated with an ``InjectedToolArg`` (instance or subclass,
    ``InjectedToolCallId`` among them) instead of taking it from the model; it looks at the
    top ``Annotated`` only, this at every level, so a schema it might fill is never plain.
    """
    return (
        isinstance(part, InjectedToolArg)
        or (isinstance(part, type) and issubclass(part, InjectedToolArg))
        or any(_marks_injected(inner) for inner in get_args(part))
    )


def _parses_plainly(schema: type[BaseModel]) -> bool:
    """Whether LangChain's ``_parse_input`` of a dict gives exactly the validated fields.

    LangChain looks through every annotation of the args schema on every call, for an
    ``InjectedToolCallId`` to fill in, dumps the validated model to learn its keys, then
    keeps each field the input gave (by name or alias), each with a default, and the
    extras a schema with ``extra="allow"`` kept: 37 of the 129 us our tool's layer cost
    around a search that costs nothing (12 us of it the annotations). For a schema with
    no such annotation, no alias, no extras and no computed field, that is every field of
    the validated model, in its order: a required field validated only if given, the rest
    each with a default. The annotations depend only on the schema, so they are read
    once, through pydantic's public field information (each field's annotation and the
    ``Annotated`` metadata pydantic keeps apart from it): no private LangChain function.
    """
    plain = _PLAIN.get(schema)
    if plain is None:
        fields = schema.model_fields.values()
        plain = _PLAIN[schema] = not (
            schema.model_config.get("extra") == "allow"
            or schema.model_computed_fields
            or any(field.alias or field.validation_alias for field in fields)
            or any(
                _marks_injected(part)
                for field in fields
                for part in (field.annotation, *field.metadata)
            )
        )
    return plain


def _confirmed(
    schema: type[BaseModel], tool_input: dict[str, Any], ours: dict[str, Any], theirs: object
) -> bool:
    """Whether LangChain's own parse of ``tool_input`` agreed with the quick one.

    The quick parse stands for what LangChain's (private, so free to change) parse did on
    the releases it was checked on. Until one input that leaves out a field has been
    parsed both ways and agreed, every quick parse is checked against LangChain's; one
    disagreement leaves the schema to LangChain for the rest of the process.
    """
    if theirs != ours:
        _PLAIN[schema] = False
        return False
    if tool_input.keys() != ours.keys():
        _CONFIRMED.add(schema)
    return True


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

    model_config = ConfigDict(ignored_types=(AwaitableMethod,))  # ainvoke: not a field

    @awaitable_method("invoke", holder="tool")
    async def ainvoke(
        self,
        /,
        input: str | dict[str, Any] | ToolCall,
        config: RunnableConfig | None = None,
        **kwargs: Any,
    ) -> Any:
        """:meth:`BaseTool.ainvoke`, as a call that names itself if it is not awaited.

        ``tool.ainvoke({...}).content`` said ``'coroutine' object has no attribute
        'content'``; the call now says ``tool.invoke`` is its synchronous twin
        (:mod:`websearch_core.pending_call`). Awaited, it is LangChain's.
        """
        return await super().ainvoke(input, config, **kwargs)

    async def arun(
        self, tool_input: Any, *args: Any, tool_call_id: str | None = None, **kwargs: Any
    ) -> Any:
        """Run as :meth:`BaseTool.arun` does, knowing the tool call it answers."""
        token = _TOOL_CALL_ID.set(tool_call_id)
        try:
            return await super().arun(tool_input, *args, tool_call_id=tool_call_id, **kwargs)
        finally:
            _TOOL_CALL_ID.reset(token)

    def _parse_input(
        self, tool_input: str | dict[str, Any], *args: Any, **kwargs: Any
    ) -> str | dict[str, Any]:
        """LangChain's parse of the input, without reading the schema's annotations again.

        For a dict input, a pydantic schema that :func:`_parses_plainly` and a tool with no
        injected argument of its own, this validates the input with the schema as LangChain
        does and returns what LangChain returns then: every field of the validated model.
        Anything else (a string input, a JSON-schema dict, a v1 model, an injected argument)
        is LangChain's own parse, as is every call LangChain makes in a shape other than
        ``(tool_input, tool_call_id)`` and every call on a LangChain whose private
        ``_injected_args_keys`` is missing or not a set (older ones kept only the fields
        given). Checked on langchain-core 1.2.5 to 1.8.3; on any other release the first
        inputs are parsed both ways too (:func:`_confirmed`), so a LangChain that parses
        otherwise is followed, not contradicted.
        """
        schema = self.args_schema
        injected = getattr(self, "_injected_args_keys", None)  # None: a LangChain before it
        if (
            len(args) == 1
            and not kwargs
            and isinstance(tool_input, dict)
            and isinstance(injected, frozenset | set)
            and not injected
            and isinstance(schema, type)
            and issubclass(schema, BaseModel)
            and _parses_plainly(schema)
        ):
            validated = schema.model_validate(tool_input)
            # Its fields, in order: a plain schema keeps no extras beside them (~1-2 us
            # less than reading each field by name through ``model_fields``'s property).
            ours = dict(validated.__dict__)
            if schema in _CONFIRMED:
                return ours
            theirs = super()._parse_input(dict(tool_input), *args)
            return ours if _confirmed(schema, tool_input, ours, theirs) else theirs
        return super()._parse_input(tool_input, *args, **kwargs)

    def _filter_injected_args(
        self, tool_input: dict[str, Any], *args: Any, **kwargs: Any
    ) -> dict[str, Any]:
        """LangChain's own filter, its answer kept for the next call with the same names.

        LangChain works out which arguments are injected (kept from callbacks) by reading
        every annotation of the args schema, on every call: 12.5 us for our six fields
        against 6.7 us for a one-argument tool, the largest part of what our tool added
        beyond a trivial one. The answer depends only on the tool's class (its ``_run``),
        the schema and the names given, so it is worked out once for each. Names outside
        the schema (a model may send any) go to LangChain every time and are never kept, as
        does a call in a shape other than the ``(tool_input)`` of langchain-core 1.2.5 to
        1.8.3 (a later release passing more is answered by its own filter).
        """
        schema = self.args_schema
        names = frozenset(tool_input)
        if args or kwargs:
            return super()._filter_injected_args(tool_input, *args, **kwargs)
        if not (
            isinstance(schema, type)
            and issubclass(schema, BaseModel)
            and names <= schema.__pydantic_fields__.keys()  # model_fields, less its property
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
