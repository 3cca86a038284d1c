"""Every adapter refuses a mistyped constructor argument with the argument probably meant.

``langchain_websearch.WebSearchTool(api_key=...)`` was refused with pydantic's bare
``Extra inputs are not permitted`` and ``llamaindex_websearch.WebSearchRetriever(api_key=...)``
with Python's bare ``unexpected keyword argument``: neither said ``api_keys``.
"""

from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from langchain_websearch import WebFetchTool, WebSearchTool
from langchain_websearch import WebSearchRetriever as LangChainRetriever
from llamaindex_websearch import WebSearchRetriever as LlamaIndexRetriever

SECRET = "sk-mistyped-test-91d0"


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ({"api_key": SECRET}, "'api_key'; did you mean api_keys?"),
        ({"timeout": 5}, "'timeout'; did you mean timeout_seconds?"),
        ({"incude_answer": True}, "'incude_answer'; did you mean include_answer?"),
        ({"colour": "red"}, "'colour'"),
    ],
)
def test_the_llamaindex_retriever_names_the_argument_meant(
    given: dict[str, Any], expected: str
) -> None:
    with pytest.raises(TypeError) as caught:
        LlamaIndexRetriever(**given)
    message = str(caught.value)
    assert message == f"WebSearchRetriever() got an unexpected keyword argument {expected}"
    assert SECRET not in message


def test_the_llamaindex_retriever_keeps_its_signature_and_arguments() -> None:
    import inspect

    assert "api_keys" in inspect.signature(LlamaIndexRetriever).parameters
    retriever = LlamaIndexRetriever(None, k=3, include_answer=True)
    assert (retriever.k, retriever.include_answer) == (3, True)


@pytest.mark.parametrize("adapter", [WebSearchTool, WebFetchTool, LangChainRetriever])
def test_the_langchain_adapters_name_the_argument_meant_beside_other_errors(
    adapter: type[BaseModel],
) -> None:
    with pytest.raises(ValidationError) as caught:
        adapter(api_key=SECRET, provider="brav")
    errors = [(".".join(map(str, e["loc"])), e["type"], e["msg"]) for e in caught.value.errors()]
    assert caught.value.title == adapter.__name__
    assert errors == [
        ("provider", "value_error", "Value error, Unknown search provider: brav " + _known()),
        ("api_key", "extra_forbidden", "unexpected keyword argument; did you mean api_keys?"),
    ]
    assert SECRET not in str(caught.value)


def test_a_mistyped_setting_in_given_settings_is_named_as_a_setting() -> None:
    with pytest.raises(ValidationError) as caught:
        WebSearchTool(settings={"timeout": 5})
    assert [(e["loc"], e["msg"]) for e in caught.value.errors()] == [
        (("settings", "timeout"), "not a setting; did you mean timeout_seconds?")
    ]


def _known() -> str:
    from websearch_core.provider_ids import unknown_provider_message

    return unknown_provider_message("brav").removeprefix("Unknown search provider: brav ")
