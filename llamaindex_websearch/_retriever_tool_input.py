r"""The query LlamaIndex's tools meant, out of the text they write for the retriever.

``RetrieverTool.from_defaults(retriever=WebSearchRetriever())`` is how LlamaIndex hands a
retriever to an agent. The model answers its schema (one ``input`` argument) with
``{"input": "python"}``, and the tool turns its keywords into one text for the retriever,
``"\ninput is python\n"`` (``name is value`` pairs between two line breaks; a vector
store embeds that as well as the bare words): the web was searched for ``input is
python``, every time, the engines' results for it returned as if they answered the
question. The tool's own wrapping is recognised exactly (no typed query starts with a line
break and a ``name is``), and what follows the first name is searched. That holds for a
value with ``, x is`` in it (``rust, which is fast``: ordinary prose), which was searched
wrapping and all, because several keywords (``input is python, k is 3``) write the same
text and a pair cannot be told from a value's words. So for those the later pairs are
searched as words after the first value (``python, k is 3``): a retriever's ``k`` and
``recency`` are set when it is built, so no pair could be honoured, and the text the model
gave is still searched rather than the tool's wrapping.

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

_KEYWORDS = re.compile(r"\A\n[A-Za-z_][A-Za-z0-9_]* is (?P<value>.+)\n\Z", re.DOTALL)
"""``RetrieverTool``'s text for its keywords and no positional argument: the first's value on."""

_KEYWORDS_TEXT = re.compile(r"\A\{'query': .*\}\Z", re.DOTALL)
"""``str(kwargs)`` of keywords that start with ``query``, as ``QueryEngineTool`` writes it."""


def retriever_tool_query(query: str) -> str:
    r"""The query a LlamaIndex tool wrapped in ``query``, or ``query`` as given.

    Returns:
        ``RetrieverTool``'s text past its first keyword's name; ``QueryEngineTool``'s
        keywords text as the JSON object it stands for (read, and refused for other keys,
        as one); else ``query`` unchanged.

    Examples:
        >>> retriever_tool_query("\ninput is what is PEP 703?\n")
        'what is PEP 703?'
        >>> retriever_tool_query("input is python")
        'input is python'
        >>> retriever_tool_query("\ninput is rust, which is fast\n")
        'rust, which is fast'
        >>> retriever_tool_query("\ninput is python, k is 3\n")
        'python, k is 3'
        >>> retriever_tool_query("{'query': 'python'}")
        '{"query": "python"}'
    """
    wrapped = _KEYWORDS.match(query)
    if wrapped is not None:
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
