"""A mistyped keyword or setting is refused with the name probably meant.

``WebSearch(timeout=5)`` was refused with pydantic's bare ``Extra inputs are not
permitted``; the config file and the LlamaIndex tool already said ``did you mean
timeout_seconds?``, the constructor did not.
"""

from typing import Any

import pytest
from pydantic import ValidationError

from websearch_core import WebSearch
from websearch_core.errors import ConfigurationError
from websearch_core.settings import Settings
from websearch_core.settings_errors import configuration_errors

SECRET = "sk-mistyped-test-4c1e"


def _errors(error: ValidationError) -> list[tuple[str, str, str]]:
    return [(".".join(map(str, e["loc"])), e["type"], e["msg"]) for e in error.errors()]


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({"timeout": 5}, ("timeout", "not a setting; did you mean timeout_seconds?")),
        ({"api_key": SECRET}, ("api_key", "not a setting; did you mean api_keys?")),
        ({"fence_result": True}, ("fence_result", "not a setting; did you mean fence_results?")),
        (
            {"searxng": {"endpont": "x"}},
            ("searxng.endpont", "not a setting; did you mean endpoint?"),
        ),
        ({"colour": "red"}, ("colour", "not a setting")),
    ],
)
def test_an_unknown_override_names_the_setting_meant(
    overrides: dict[str, Any], expected: tuple[str, str]
) -> None:
    with pytest.raises(ValidationError) as caught:
        WebSearch(**overrides)
    location, message = expected
    # Still pydantic's error, of its type: only the message is new.
    assert caught.value.title == "Settings"
    assert _errors(caught.value) == [(location, "extra_forbidden", message)]
    assert SECRET not in str(caught.value)


def test_an_unknown_override_beside_given_settings_is_named_too() -> None:
    with pytest.raises(ValidationError, match="did you mean timeout_seconds"):
        WebSearch(Settings(), timeout=5)  # type: ignore[call-arg]


def test_the_other_errors_of_the_call_are_kept_as_they_were() -> None:
    with pytest.raises(ValidationError) as unnamed:
        Settings(deadline_seconds=-1, proxy="ftp://x", providers="brav")
    with pytest.raises(ValidationError) as named:
        Settings(deadline_seconds=-1, proxy="ftp://x", providers="brav", timout_seconds=5)  # type: ignore[call-arg]
    kept = named.value.errors()[:-1]
    assert [(e["loc"], e["type"], e["msg"]) for e in kept] == [
        (e["loc"], e["type"], e["msg"]) for e in unnamed.value.errors()
    ]
    assert _errors(named.value)[-1] == (
        "timout_seconds",
        "extra_forbidden",
        "not a setting; did you mean timeout_seconds?",
    )


def test_a_one_line_configuration_error_says_it_once() -> None:
    # The tools' and the CLI's line for the same mistake: unchanged, and not doubled.
    with pytest.raises(ConfigurationError) as caught, configuration_errors({"timeout": "timeout"}):
        Settings(timeout=5)  # type: ignore[call-arg]
    assert str(caught.value) == "timeout: not a setting; did you mean timeout_seconds?"


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"limt": 3}, ("limt", "not a search parameter; did you mean limit?")),
        (
            {"include_domain": ["a.org"]},
            ("include_domain", "not a search parameter; did you mean include_domains?"),
        ),
        # --site on the command line: the parameter that does its job (param_names).
        ({"site": "a.org"}, ("site", "not a search parameter; did you mean include_domains?")),
    ],
)
async def test_an_unknown_search_parameter_names_the_one_meant(
    params: dict[str, Any], expected: tuple[str, str]
) -> None:
    # Refused before any provider is asked: no simulator needed, none is reached.
    async with WebSearch(state_backend="memory", providers=("duckduckgo",)) as ws:
        with pytest.raises(ValidationError) as caught:
            await ws.run("python", recency="decade", **params)
    location, message = expected
    errors = _errors(caught.value)
    assert errors[0][:2] == ("recency", "literal_error")  # the call's other error, kept
    assert errors[1:] == [(location, "extra_forbidden", message)]
