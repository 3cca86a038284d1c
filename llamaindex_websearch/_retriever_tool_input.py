r"""The query LlamaIndex's ``RetrieverTool`` meant, out of the text it writes for the retriever.

``RetrieverTool.from_defaults(retriever=WebSearchRetriever())`` is how LlamaIndex hands a
retriever to an agent. The model answers its schema (one ``input`` argument) with
``{"input": "python"}``, and the tool turns its keywords into one text for the retriever,
``"\ninput is python\n"`` (``name is value`` pairs between two line breaks; a vector
store embeds that as well as the bare words): the web was searched for ``input is
python``, every time, the engines' results for it returned as if they answered the
question. The tool's own wrapping of one keyword is recognised exactly (no typed query
starts with a line break), and its value is searched. Several keywords (``input is python,
limit is 3``) cannot be told apart from a value holding ``, x is`` and are searched as
written.
"""

import re

__all__ = ["retriever_tool_query"]

_ONE_KEYWORD = re.compile(r"\A\n[A-Za-z_][A-Za-z0-9_]* is (?P<value>.+)\n\Z", re.DOTALL)
"""``RetrieverTool``'s text for one keyword and no positional argument."""

_ANOTHER_KEYWORD = re.compile(r", [A-Za-z_][A-Za-z0-9_]* is ")
"""Where a second keyword's pair would start in the value."""


def retriever_tool_query(query: str) -> str:
    r"""The value ``RetrieverTool`` wrapped in ``query`` for one keyword, or ``query`` as given.

    Examples:
        >>> retriever_tool_query("\ninput is what is PEP 703?\n")
        'what is PEP 703?'
        >>> retriever_tool_query("input is python")
        'input is python'
        >>> retriever_tool_query("\ninput is python, limit is 3\n")
        '\ninput is python, limit is 3\n'
    """
    wrapped = _ONE_KEYWORD.match(query)
    if wrapped is None or _ANOTHER_KEYWORD.search(wrapped["value"]):
        return query
    return wrapped["value"]
