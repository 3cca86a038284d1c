"""LlamaIndex integration of websearch-tools: the ``web_search`` tool, tool spec and retriever.

Example:
    >>> from llamaindex_websearch import create_web_search_tool  # doctest: +SKIP
    >>> tool = create_web_search_tool()  # doctest: +SKIP
    >>> print(tool.call(query="python 3.13 release notes").content)  # doctest: +SKIP
    >>> from llamaindex_websearch import WebSearchRetriever  # doctest: +SKIP
    >>> nodes = WebSearchRetriever(k=3).retrieve("python 3.13")  # doctest: +SKIP
"""

try:
    import llama_index.core  # noqa: F401  (fail early, with the install hint)
except ImportError as error:  # pragma: no cover - exercised in a subprocess test
    raise ImportError(
        "llamaindex_websearch needs llama-index-core, which is not installed. "
        'Install it with: pip install "websearch-tools[llamaindex]"'
    ) from error

from websearch_core import __version__

from .fetch_tool import (
    WebFetchArgs,
    WebFetchFunctionTool,
    create_web_fetch_tool,
    web_fetch_metadata,
)
from .retriever import WebSearchRetriever
from .tool import (
    WebSearchArgs,
    WebSearchFunctionTool,
    WebSearchToolSpec,
    create_web_search_tool,
    web_search_metadata,
)

__all__ = [
    "WebFetchArgs",
    "WebFetchFunctionTool",
    "WebSearchArgs",
    "WebSearchFunctionTool",
    "WebSearchRetriever",
    "WebSearchToolSpec",
    "__version__",
    "create_web_fetch_tool",
    "create_web_search_tool",
    "web_fetch_metadata",
    "web_search_metadata",
]
