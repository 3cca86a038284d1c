"""LangChain integration of websearch-tools: the ``web_search`` tool and a retriever.

Example:
    >>> from langchain_websearch import WebSearchRetriever, WebSearchTool  # doctest: +SKIP
    >>> WebSearchTool().invoke({"query": "python 3.13 release notes"})  # doctest: +SKIP
    >>> WebSearchRetriever(k=3).invoke("python 3.13 release notes")  # doctest: +SKIP
"""

try:
    import langchain_core  # noqa: F401  (fail early, with the install hint)
except ImportError as error:  # pragma: no cover - exercised in a subprocess test
    raise ImportError(
        "langchain_websearch needs langchain-core, which is not installed. "
        'Install it with: pip install "websearch-tools[langchain]"'
    ) from error

from websearch_core import __version__

from .fetch_tool import WebFetchInput, WebFetchTool
from .retriever import WebSearchRetriever
from .tool import WebSearchInput, WebSearchTool

__all__ = [
    "WebFetchInput",
    "WebFetchTool",
    "WebSearchInput",
    "WebSearchRetriever",
    "WebSearchTool",
    "__version__",
]
