"""LlamaIndex's builders name every unknown keyword at once, each near-miss with its meaning.

``create_web_search_tool(api_key=..., provder="brave")`` said ``'api_key'; did you mean
api_keys?`` alone; fixed and run again, it was refused for ``provder``: a copy-paste of
several misspelt options took as many runs as there were mistakes. LangChain's tools name
them all (pydantic's one error per field); the LlamaIndex factories, tool spec, retriever
and tool classes now do too, with the one-keyword text as it was. Nothing is built, so
nothing is searched.
"""

from collections.abc import Callable
from typing import Any

import pytest

from llamaindex_websearch import (
    WebSearchFunctionTool,
    WebSearchRetriever,
    WebSearchToolSpec,
    create_web_fetch_tool,
    create_web_search_tool,
)
from websearch_core import ConfigurationError

_BUILDERS: dict[str, Callable[..., object]] = {
    "create_web_search_tool": create_web_search_tool,
    "create_web_fetch_tool": create_web_fetch_tool,
    "WebSearchToolSpec": WebSearchToolSpec,
    "WebSearchRetriever": WebSearchRetriever,
    "WebSearchFunctionTool.from_defaults": WebSearchFunctionTool.from_defaults,
}


def _refusal(builder: Callable[..., object], **given: Any) -> TypeError:
    with pytest.raises(TypeError) as refused:
        builder(**given)
    return refused.value


@pytest.mark.parametrize("owner", list(_BUILDERS))
def test_every_unknown_keyword_is_named_with_its_meaning(owner: str) -> None:
    builder = _BUILDERS[owner]
    alone = str(_refusal(builder, zzzz=1))  # no near-miss: its text ends with what it takes
    head = f"{owner}() got an unexpected keyword argument 'zzzz' ("
    assert alone.startswith(head)
    where = alone[len(head) :]
    both = _refusal(builder, api_key="sk-secret-value", provder="brave", zzzz=1)
    assert str(both) == (
        f"{owner}() got unexpected keyword arguments 'api_key', 'provder' and 'zzzz'; did "
        f"you mean api_keys for 'api_key', provider for 'provder'? ({where}"
    )
    assert "sk-secret-value" not in str(both)
    assert isinstance(both, ConfigurationError) is isinstance(_refusal(builder, zzzz=1),
                                                              ConfigurationError)  # fmt: skip


def test_guard_one_unknown_keyword_is_refused_as_before() -> None:
    """A guard (passes before and after): one keyword keeps its text."""
    refused = _refusal(create_web_search_tool, api_key="sk-secret-value")
    assert str(refused).startswith(
        "create_web_search_tool() got an unexpected keyword argument 'api_key'; did you mean "
        "api_keys? (create_web_search_tool() takes web_search, api_keys, "
    )
    assert isinstance(refused, ConfigurationError)
