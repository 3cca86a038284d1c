"""Where a setting comes from, and how a bad one names its source.

Each test here is a defect a user met: a table variable that is not JSON gave a
traceback, a config path set by hand was ignored when wrong, a path setting was not
expanded, a bad SearXNG endpoint was found only by the search, a budget variable was not
named, a key with a control character was taken.
"""

import pytest
from pydantic import ValidationError

from websearch_core import WebSearch
from websearch_core.errors import ConfigurationError
from websearch_core.settings import Settings
from websearch_core.settings_errors import configuration_errors

SECRET = "sk-sources-test-77a1"


# --- a table variable that is not JSON ------------------------------------------------------


def test_a_table_variable_that_is_not_json_is_a_validation_error_of_its_field(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("WEBSEARCH_API_KEYS", f'{{"brave": "{SECRET}"')
    with pytest.raises(ValidationError) as caught:
        Settings()
    (error,) = caught.value.errors()
    assert error["loc"] == ("api_keys",)
    assert SECRET not in str(caught.value)


def test_a_client_made_within_configuration_errors_names_the_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # What a tool adapter does: the one line, as a ConfigurationError.
    monkeypatch.setenv("WEBSEARCH_BUDGET", "{bad")
    with pytest.raises(ConfigurationError) as caught, configuration_errors():
        WebSearch()
    assert str(caught.value).startswith("WEBSEARCH_BUDGET: not valid JSON (")
