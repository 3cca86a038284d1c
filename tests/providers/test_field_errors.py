"""A wrong-typed field's parse error names the field and its JSON type, never its value."""

from typing import Any

import pytest

from websearch_core.errors import ResponseParseError
from websearch_core.providers._field_errors import field_error

TEXT = "Brave API returned an unexpected response shape"


@pytest.mark.parametrize(
    ("holder", "found"),
    [
        ({"results": None}, "null"),
        ({}, "missing"),
        ({"results": True}, "a boolean"),
        ({"results": 7}, "a number"),
        ({"results": 7.5}, "a number"),
        ({"results": {"k": "v"}}, "an object"),
        ({"results": "sk-secret-0123456789abcdef" * 4000}, "a string"),
    ],
)
def test_the_message_names_the_path_and_the_type(holder: dict[str, Any], found: str) -> None:
    error = field_error("brave", TEXT, holder, "results", "a list", parent="web")
    assert isinstance(error, ResponseParseError)
    assert (error.provider, error.status) == ("brave", 502)
    assert error.message == f"{TEXT} (web.results is {found}, not a list)"
    assert "sk-secret" not in error.message  # the value itself is never quoted
