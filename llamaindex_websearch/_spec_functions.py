"""``to_tool_list``'s arguments checked against the spec's functions, in the spec's words.

``BaseToolSpec.to_tool_list`` looks each name up with ``getattr``: ``to_tool_list(
"web_search")`` (a text, not a list) asked for the attributes ``w``, ``e``, ... and said
``'WebSearchToolSpec' object has no attribute 'w'``; ``to_tool_list(["search"])`` said the
same of ``search``; and a ``func_to_metadata_mapping`` keyed by a name that is no function
(``{"search": web_search_metadata("search")}``, the new tool name instead of the
function's) was ignored without a word, the tool keeping its default name. Each is now a
:class:`~websearch_core.call_errors.CallTypeError` (a ``TypeError``) that names the argument,
what was given and the spec's functions.
"""

from collections.abc import Collection, Mapping

from websearch_core.call_errors import CallTypeError

__all__ = ["check_tool_list_arguments"]


def check_tool_list_arguments(
    owner: str, functions: Collection[str], spec_functions: object, mapping: object
) -> None:
    """Refuse ``spec_functions`` or ``func_to_metadata_mapping`` naming no function of the spec.

    Args:
        owner: The method as its caller wrote it (``WebSearchToolSpec.to_tool_list``).
        functions: The names of the spec's functions (``web_search``, ``aweb_search``).
        spec_functions: What was given as ``spec_functions`` (``None``: the spec's own).
        mapping: What was given as ``func_to_metadata_mapping`` (``None``: none).

    Raises:
        CallTypeError: Either is not of its kind, or names something that is no function.

    Example:
        >>> check_tool_list_arguments("Spec.to_tool_list", ["web_search"], "web_search", None)
        Traceback (most recent call last):
        ...
        websearch_core.call_errors.CallTypeError: Spec.to_tool_list(): spec_functions must be a list of function names, such as ['web_search'] (or pairs of a function and its async form), got the text 'web_search': write ['web_search']
    """  # noqa: E501
    listed = ", ".join(functions)
    if spec_functions is not None:
        if isinstance(spec_functions, str) or not isinstance(spec_functions, list | tuple):
            given = (
                f"the text {spec_functions!r}: write [{spec_functions!r}]"
                if isinstance(spec_functions, str)
                else f"a value of type {type(spec_functions).__name__}"
            )
            raise CallTypeError(
                f"{owner}(): spec_functions must be a list of function names, such as "
                f"['web_search'] (or pairs of a function and its async form), got {given}"
            )
        for entry in spec_functions:  # other shapes: LlamaIndex's ValueError, as before
            names = entry if isinstance(entry, tuple) and len(entry) == 2 else (entry,)
            for name in names:
                if isinstance(name, str):
                    _refuse_unknown(owner, "spec_functions", name, functions, listed)
    if mapping is not None:
        if not isinstance(mapping, Mapping):
            raise CallTypeError(
                f"{owner}(): func_to_metadata_mapping must map a function name to its "
                f"ToolMetadata, such as {{'web_search': web_search_metadata('search')}}, "
                f"got a value of type {type(mapping).__name__}"
            )
        for name in mapping:
            _refuse_unknown(owner, "func_to_metadata_mapping", name, functions, listed)


def _refuse_unknown(
    owner: str, argument: str, name: object, functions: Collection[str], listed: str
) -> None:
    """Refuse ``name`` when it is no function of the spec, with the one probably meant."""
    if name in functions:
        return
    from websearch_core.meant_names import closest_name  # only for a wrong name

    close = closest_name(name, functions) if isinstance(name, str) else None
    meant = f"; did you mean {close}?" if close is not None else ""
    raise CallTypeError(
        f"{owner}(): {argument} names {name!r}, which is no function of the spec{meant} "
        f"(its functions: {listed}; the tool's name is set by its metadata, "
        f"web_search_metadata('search'))"
    )
