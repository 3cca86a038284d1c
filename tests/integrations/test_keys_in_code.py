"""A key given to an adapter in code that can never work is refused when it is built.

The adapters build their client at the first search, so ``WebSearchTool(api_keys={"brave":
'"BSA..."'})`` was built without a word and its key skipped at every search (or, before
the key check, refused by Brave with an error naming no cause). The rule is the one every
sent key is checked by; the error names the entry and the flaw, never the key.
"""

from collections.abc import Callable
from typing import Any

import pytest
from pydantic import ValidationError

from langchain_websearch import WebFetchTool, WebSearchRetriever, WebSearchTool
from llamaindex_websearch import WebSearchRetriever as LlamaRetriever
from llamaindex_websearch import WebSearchToolSpec, create_web_fetch_tool, create_web_search_tool
from websearch_core import ConfigurationError

KEY = "BSAq1w2e3r4CANARY"
BAD = {"brave": f'"{KEY}"'}
PROBLEM = (
    'api_keys["brave"]: the API key contains a quote mark (") that would be sent as part of it'
)

ADAPTERS: dict[str, Callable[..., Any]] = {
    "langchain tool": WebSearchTool,
    "langchain retriever": WebSearchRetriever,
    "langchain fetch tool": WebFetchTool,
    "llamaindex tool spec": WebSearchToolSpec,
    "llamaindex tool": create_web_search_tool,
    "llamaindex fetch tool": create_web_fetch_tool,
    "llamaindex retriever": LlamaRetriever,
}


@pytest.mark.parametrize("name", list(ADAPTERS))
def test_a_bad_key_is_refused_when_the_adapter_is_built(name: str) -> None:
    with pytest.raises((ConfigurationError, ValidationError)) as caught:
        ADAPTERS[name](api_keys=BAD)
    assert PROBLEM in str(caught.value)
    assert KEY not in str(caught.value)


@pytest.mark.parametrize("name", list(ADAPTERS))
def test_a_good_key_builds_the_adapter(name: str) -> None:
    """A key with the surrounding whitespace it is used without is no problem."""
    assert ADAPTERS[name](api_keys={"brave": f" {KEY}\n"}) is not None
