"""A parameter's range is worded where a model's refusal is caught, not on every success.

Stop 58 (firstusers25) said ``limit: must be at least 1 and at most 100 results`` through a
``mode="wrap"`` validator on each bounded field, which every search passing ``limit`` paid
(``benchmarks/bench_param_ranges.py``). The words now come from ``SearchParams``' own
``mode="wrap"`` model validator and from the tools' error texts, on the error path only;
``test_parameter_ranges_said.py`` keeps the words through every entry point. These check
the models and texts directly, beside the other errors of the same refusal.
"""

from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from langchain_websearch.fetch_tool import WebFetchInput
from langchain_websearch.tool import WebSearchInput
from llamaindex_websearch.fetch_tool import WebFetchArgs
from llamaindex_websearch.tool import WebSearchArgs
from websearch_core import SearchParams
from websearch_core.content.tool_text import FetchArguments, invalid_fetch_arguments_text
from websearch_core.tool_errors import invalid_arguments_text
from websearch_core.tool_schema import ToolArguments

LIMIT = "must be at least 1 and at most 100 results"
MAX_CHARS = "must be at least 200 and at most 200000 characters"
BOUNDED = {"limit", "num_search_results", "max_tokens", "temperature", "max_chars"}


@pytest.mark.parametrize("model", [SearchParams, ToolArguments, FetchArguments])
def test_no_bounded_field_runs_a_validator_of_ours(model: type[BaseModel]) -> None:
    """Failed before: ``limit`` and the others each ran a wrap validator on every success."""
    validated = {
        field
        for decorator in model.__pydantic_decorators__.field_validators.values()
        for field in decorator.info.fields
    }
    assert validated & BOUNDED == set()


@pytest.mark.parametrize("model", [WebSearchInput, WebSearchArgs])
def test_the_search_tools_text_says_the_range(model: type[BaseModel]) -> None:
    """A guard (the words held before too): the model a framework validates, then its text."""
    with pytest.raises(ValidationError) as caught:
        model.model_validate({"query": "python asyncio", "limit": 0, "site": "a.example"})
    assert invalid_arguments_text(caught.value) == (
        f"Error: invalid web_search arguments: limit: {LIMIT}; "
        "site: not an argument (write site:<domain> in the query); "
        "the arguments are query, recency, limit, max_tokens, temperature, "
        "num_search_results"
    )


@pytest.mark.parametrize("model", [WebFetchInput, WebFetchArgs])
def test_the_fetch_tools_text_says_the_range(model: type[BaseModel]) -> None:
    """A guard: ``max_chars`` past its upper bound, in the fetch tools' text."""
    with pytest.raises(ValidationError) as caught:
        model.model_validate({"url": "https://example.invalid/", "max_chars": 10**7})
    assert invalid_fetch_arguments_text(caught.value) == (
        f"Error: invalid web_fetch arguments: max_chars: {MAX_CHARS}"
    )


def test_a_limit_inside_a_json_query_is_said_too() -> None:
    """A guard: the arguments unpacked from a JSON ``query`` are worded alike."""
    with pytest.raises(ValidationError) as caught:
        WebSearchInput.model_validate({"query": '{"query": "python asyncio", "limit": 500}'})
    assert invalid_arguments_text(caught.value) == (
        f"Error: invalid web_search arguments: limit: {LIMIT}"
    )


def test_each_bound_is_said_beside_the_other_errors() -> None:
    """A guard: two bounds and an unknown name in one call: each worded, none lost."""
    given: dict[str, Any] = {"query": "q", "limit": 0, "temperature": 3.5, "limt": 3}
    with pytest.raises(ValidationError) as caught:
        SearchParams(**given)
    said = {error["loc"]: (error["type"], error["msg"]) for error in caught.value.errors()}
    assert said == {
        ("limit",): ("greater_than_equal", LIMIT),
        ("temperature",): ("less_than_equal", "must be at least 0 and at most 2"),
        ("limt",): ("extra_forbidden", "not a search parameter; did you mean limit?"),
    }


def test_a_value_of_the_wrong_type_keeps_its_words() -> None:
    """A guard: only a number past a bound is reworded; a text for ``limit`` is not."""
    with pytest.raises(ValidationError) as caught:
        ToolArguments.model_validate({"query": "q", "limit": "many"})
    assert invalid_arguments_text(caught.value) == (
        "Error: invalid web_search arguments: limit: Input should be a valid integer, "
        "got the string 'many': send the number itself, not in quotes"
    )
