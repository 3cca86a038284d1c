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

from typing import TYPE_CHECKING

from websearch_core import __version__
from websearch_core.lazy import lazy_exports

from .tool import (
    WebSearchArgs,
    WebSearchFunctionTool,
    WebSearchToolSpec,
    create_web_search_tool,
    web_search_metadata,
)

if TYPE_CHECKING:
    from .fetch_tool import (
        WebFetchArgs,
        WebFetchFunctionTool,
        create_web_fetch_tool,
        web_fetch_metadata,
    )
    from .retriever import WebSearchRetriever

# The search tool is what most programs import this package for; the retriever (LlamaIndex's
# retriever and node modules) and the fetch tool load on first use (PEP 562).
_LAZY: dict[str, str] = {
    "WebFetchArgs": "fetch_tool",
    "WebFetchFunctionTool": "fetch_tool",
    "create_web_fetch_tool": "fetch_tool",
    "web_fetch_metadata": "fetch_tool",
    "WebSearchRetriever": "retriever",
}


__getattr__, __dir__ = lazy_exports(__name__, _LAZY, globals())


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
