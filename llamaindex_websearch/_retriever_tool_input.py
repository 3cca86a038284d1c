r"""The query LlamaIndex's tools meant, out of the text they write for the retriever.

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

``QueryEngineTool`` over a ``RetrieverQueryEngine`` passes its ``input`` on, but a model
that names the argument ``query`` gets Python's text of the keywords, ``{'query':
'python'}``, searched braces and all. That is read as the JSON object ``{"query":
"python"}`` would be (:func:`~websearch_core.tool_json_arguments.retriever_query`: the
query searched, other keys refused by name).
"""

import ast
import json
import re

__all__ = ["retriever_tool_query"]

_ONE_KEYWORD = re.compile(r"\A\n[A-Za-z_][A-Za-z0-9_]* is (?P<value>.+)\n\Z", re.DOTALL)
"""``RetrieverTool``'s text for one keyword and no positional argument."""

_ANOTHER_KEYWORD = re.compile(r", [A-Za-z_][A-Za-z0-9_]* is ")
"""Where a second keyword's pair would start in the value."""

_KEYWORDS_TEXT = re.compile(r"\A\{'query': .*\}\Z", re.DOTALL)
"""``str(kwargs)`` of keywords that start with ``query``, as ``QueryEngineTool`` writes it."""


def retriever_tool_query(query: str) -> str:
    r"""The query a LlamaIndex tool wrapped in ``query``, or ``query`` as given.

    Returns:
        ``RetrieverTool``'s one keyword's value; ``QueryEngineTool``'s keywords text as
        the JSON object it stands for (read, and refused for other keys, as one); else
        ``query`` unchanged.

    Examples:
        >>> retriever_tool_query("\ninput is what is PEP 703?\n")
        'what is PEP 703?'
        >>> retriever_tool_query("input is python")
        'input is python'
        >>> retriever_tool_query("\ninput is python, limit is 3\n")
        '\ninput is python, limit is 3\n'
        >>> retriever_tool_query("{'query': 'python'}")
        '{"query": "python"}'
    """
    wrapped = _ONE_KEYWORD.match(query)
    if wrapped is not None and not _ANOTHER_KEYWORD.search(wrapped["value"]):
        return wrapped["value"]
    if _KEYWORDS_TEXT.match(query):
        return _keywords_as_json(query) or query
    return query


def _keywords_as_json(text: str) -> str | None:
    """``text``, Python's text of a dict of plain values, as JSON (``None``: it is not)."""
    try:
        keywords = ast.literal_eval(text)  # literals only: nothing is run
        return json.dumps(keywords) if isinstance(keywords, dict) else None
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
