"""A LangChain tool input whose main argument writes every argument as JSON, unpacked.

LangChain hands ``invoke('{"query": "x", "limit": 3}')`` to the first argument whole, and
keeps only the names a dict input gave (the main argument alone, though the args schema
read the others out of it), so a tool unpacks its input before LangChain parses it
(:mod:`websearch_core.tool_json_arguments` reads it). Shared by ``web_search`` (``query``)
and ``web_fetch`` (``url``).
"""

import contextlib
from typing import Any

from websearch_core.tool_json_arguments import arguments_in_query, unpacked_arguments

__all__ = ["unpacked_input"]


def unpacked_input(tool_input: str | dict[str, Any], key: str) -> str | dict[str, Any]:
    """``tool_input`` with a ``key`` argument that writes them all read as those arguments.

    One argument named both in the JSON and beside it is left as given: the args schema
    reads the same JSON and refuses it by name.

    Args:
        tool_input: What ``BaseTool.invoke`` was given: a string or the arguments by name.
        key: The tool's main argument, which a string input stands for.
    """
    if isinstance(tool_input, str):
        return arguments_in_query(tool_input, key) or tool_input
    with contextlib.suppress(ValueError):  # named twice: the schema says so
        return dict(unpacked_arguments(tool_input, key))
    return tool_input
