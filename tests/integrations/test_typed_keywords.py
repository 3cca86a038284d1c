"""LangChain's retriever and fetch tool have a typed ``__init__`` for mypy, as the search tool.

``BaseRetriever.__init__`` and ``BaseTool.__init__`` take ``**kwargs: Any``: mypy passed
``WebFetchTool(deadline_second=3)`` and ``WebSearchRetriever(k="5")``; only building the
object found them. Each now declares a ``TYPE_CHECKING``-only ``__init__`` over a TypedDict
(``langchain_websearch._keywords``). The shape is ``test_builders_alike``'s for
``WebSearchTool``: the TypedDict's keys are the class's fields plus ``WebSearch``'s options,
each option typed as ``WebSearch`` types it, and a misspelt keyword carries a
``type: ignore[call-arg]`` that ``warn_unused_ignores`` checks (an unused one is an error).
"""

from typing import Any, get_type_hints

import aiohttp
import pytest
from pydantic import BaseModel

from langchain_websearch import WebFetchTool, WebSearchRetriever
from websearch_core import ConfigurationError
from websearch_core.browser import HeadlessBrowser
from websearch_core.client import WebSearchOptions


def _keywords(name: str) -> Any:
    """The TypedDict ``name`` in ``langchain_websearch._keywords`` (a type checkers' module)."""
    from langchain_websearch import _keywords

    return getattr(_keywords, name)


@pytest.mark.parametrize(
    ("model", "typed_dict"),
    [(WebFetchTool, "FetchToolKeywords"), (WebSearchRetriever, "RetrieverKeywords")],
)
def test_the_typed_keywords_are_the_fields_and_the_web_search_options(
    model: type[BaseModel], typed_dict: str
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
    own = ("k", "include_answer", "include_content", "recency", "allow_private_addresses")
    fields = {name: model.model_fields[name].annotation for name in own if name in typed}
    assert fields and {name: typed[name] for name in fields} == fields


def test_a_misspelt_or_mistyped_keyword_is_a_type_error_and_refused_when_run() -> None:
    assert WebFetchTool(deadline_seconds=3, allow_private_addresses=True).allow_private_addresses
    assert WebSearchRetriever(deadline_seconds=3, k=3, recency="week").k == 3
    # mypy errors now (the ignores are checked by warn_unused_ignores), refused when run too.
    with pytest.raises(ConfigurationError):
        WebFetchTool(deadline_second=3)  # type: ignore[call-arg]
    with pytest.raises(ConfigurationError):
        WebSearchRetriever(deadline_second=3)  # type: ignore[call-arg]
    with pytest.raises(ConfigurationError):
        WebSearchRetriever(k="5")  # type: ignore[arg-type]
