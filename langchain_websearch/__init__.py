"""LangChain integration of websearch-tools: the ``web_search`` tool and a retriever.

Example:
    >>> from langchain_websearch import WebSearchRetriever, WebSearchTool  # doctest: +SKIP
    >>> WebSearchTool().invoke({"query": "python 3.13 release notes"})  # doctest: +SKIP
    >>> WebSearchRetriever(k=3).invoke("python 3.13 release notes")  # doctest: +SKIP
"""

# BaseTool before anything else of LangChain's: it fails early with the install hint, and
# LangChain loads faster when its tools come before its messages (``tool.py`` needs both).
# In fresh interpreters ``import langchain_websearch`` took 540-620 ms with the messages
# first, 473-485 ms this way, against 420-425 ms for importing BaseTool alone.
try:
    from langchain_core.tools import BaseTool  # noqa: F401
except ImportError as error:  # pragma: no cover - exercised in a subprocess test
    raise ImportError(
        "langchain_websearch needs langchain-core, which is not installed. "
        'Install it with: pip install "websearch-tools[langchain]"'
    ) from error

from typing import TYPE_CHECKING

from websearch_core import __version__
from websearch_core.lazy import lazy_exports

from .tool import WebSearchInput, WebSearchTool

if TYPE_CHECKING:
    from .fetch_tool import WebFetchInput, WebFetchTool
    from .retriever import WebSearchRetriever

# The tool is what most programs import this package for; the retriever (LangChain's
# retriever and document modules) and the fetch tool load on first use (PEP 562).
_LAZY: dict[str, str] = {
    "WebFetchInput": "fetch_tool",
    "WebFetchTool": "fetch_tool",
    "WebSearchRetriever": "retriever",
}


__getattr__, __dir__ = lazy_exports(__name__, _LAZY, globals())


__all__ = [
    "WebFetchInput",
    "WebFetchTool",
    "WebSearchInput",
    "WebSearchRetriever",
    "WebSearchTool",
    "__version__",
]
