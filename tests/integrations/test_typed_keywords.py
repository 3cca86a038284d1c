"""LangChain's tools and retriever have a typed ``__init__`` for mypy.

``BaseRetriever.__init__`` and ``BaseTool.__init__`` take ``**kwargs: Any``: mypy passed
``WebSearchTool(deadline_second=3)``, ``WebFetchTool(deadline_second=3)`` and
``WebSearchRetriever(k="5")``; only building the object found them. Each now declares a
``TYPE_CHECKING``-only ``__init__`` over a TypedDict (``langchain_websearch._keywords``):
its keys are the class's fields plus ``WebSearch``'s options,
each option typed as ``WebSearch`` types it, and a misspelt keyword carries a
``type: ignore[call-arg]`` that ``warn_unused_ignores`` checks (an unused one is an error).
"""

from typing import Any, get_type_hints

import aiohttp
import pytest
from pydantic import BaseModel

from langchain_websearch import WebFetchTool, WebSearchRetriever, WebSearchTool
from websearch_core import ConfigurationError
from websearch_core.browser import HeadlessBrowser
from websearch_core.client import WebSearchOptions


def _keywords(name: str) -> Any:
    """The TypedDict ``name`` in ``langchain_websearch._keywords`` (a type checkers' module)."""
    from langchain_websearch import _keywords

    return getattr(_keywords, name)


@pytest.mark.parametrize(
    ("model", "typed_dict", "own"),
    [
        (WebSearchTool, "ToolKeywords", ()),  # its own fields are WebSearch's options
        (WebFetchTool, "FetchToolKeywords", ("allow_private_addresses",)),
        (
            WebSearchRetriever,
            "RetrieverKeywords",
            ("k", "include_answer", "include_content", "recency"),
        ),
    ],
)
def test_the_typed_keywords_are_the_fields_and_the_web_search_options(
    model: type[BaseModel], typed_dict: str, own: tuple[str, ...]
) -> None:
    keywords = _keywords(typed_dict)
    assert set(keywords.__optional_keys__) == (
        set(WebSearchOptions.__optional_keys__) | set(model.model_fields)
    )
    names = {"aiohttp": aiohttp, "HeadlessBrowser": HeadlessBrowser}
    typed = get_type_hints(keywords)
    options = get_type_hints(WebSearchOptions, localns=names)
    assert [name for name in options if options[name] != typed[name]] == ["settings"]
    # The class's own fields are typed as declared (LangChain's are its bases' types).
    fields = {name: model.model_fields[name].annotation for name in own}
    assert {name: typed[name] for name in fields} == fields


def test_a_misspelt_or_mistyped_keyword_is_a_type_error_and_refused_when_run() -> None:
    assert WebSearchTool(deadline_seconds=3, name="search", return_direct=True).return_direct
    assert WebFetchTool(deadline_seconds=3, allow_private_addresses=True).allow_private_addresses
    assert WebSearchRetriever(deadline_seconds=3, k=3, recency="week").k == 3
    # mypy errors now (the ignores are checked by warn_unused_ignores), refused when run too.
    with pytest.raises(ConfigurationError):
        WebSearchTool(deadline_second=3)  # type: ignore[call-arg]
    with pytest.raises(ConfigurationError):
        WebFetchTool(deadline_second=3)  # type: ignore[call-arg]
    with pytest.raises(ConfigurationError):
        WebSearchRetriever(deadline_second=3)  # type: ignore[call-arg]
    with pytest.raises(ConfigurationError):
        WebSearchRetriever(k="5")  # type: ignore[arg-type]
