"""LangChain integration of websearch-tools: the ``web_search`` tool.

Example:
    >>> from langchain_websearch import WebSearchTool  # doctest: +SKIP
    >>> WebSearchTool().invoke({"query": "python 3.13 release notes"})  # doctest: +SKIP
"""

try:
    import langchain_core  # noqa: F401  (fail early, with the install hint)
except ImportError as error:  # pragma: no cover - exercised in a subprocess test
    raise ImportError(
        "langchain_websearch needs langchain-core, which is not installed. "
        'Install it with: pip install "websearch-tools[langchain]"'
    ) from error

from websearch_core import __version__

from .tool import WebSearchInput, WebSearchTool

__all__ = ["WebSearchInput", "WebSearchTool", "__version__"]
