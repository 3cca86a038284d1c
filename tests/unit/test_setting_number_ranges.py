"""A number setting out of range names its unit and its whole range, wherever it was set.

pydantic said ``WEBSEARCH_TIMEOUT_SECONDS: Input should be greater than 0``: the bound, not
that it counts seconds nor that 300 is the most, which a user met only as a second
refusal (``Input should be less than or equal to 300``). Each bounded setting is now
refused as ``must be more than 0 and at most 300 seconds`` (``... at least 1024 bytes``),
through a variable, an option, the config file or ``Settings(...)`` in code; pydantic's
error type (``greater_than``, ...) is kept, so code reading it reads the same.
"""

import os
from pathlib import Path

import annotated_types
import pytest
from pydantic import ValidationError

from tests.cli_refusals import refusal_line
from websearch_core import Settings

CASES = [
    # (variable, a value past a bound, pydantic's type, the words)
    ("WEBSEARCH_TIMEOUT_SECONDS", "0", "greater_than", "more than 0 and at most 300 seconds"),
    ("WEBSEARCH_TIMEOUT_SECONDS", "301", "less_than_equal", "more than 0 and at most 300 seconds"),
    ("WEBSEARCH_DEADLINE_SECONDS", "-1", "greater_than", "more than 0 and at most 900 seconds"),
    (
        "WEBSEARCH_CONNECT_TIMEOUT_SECONDS",
        "0",
        "greater_than",
        "more than 0 and at most 300 seconds",
    ),
    ("WEBSEARCH_STATE_WAIT_SECONDS", "0", "greater_than", "more than 0 and at most 60 seconds"),
    (
        "WEBSEARCH_RATE_LIMIT_WAIT_SECONDS",
        "-1",
        "greater_than_equal",
        "at least 0 and at most 60 seconds",
    ),
    (
        "WEBSEARCH_AUTH_COOLDOWN_SECONDS",
        "-1",
        "greater_than_equal",
        "at least 0 and at most 2678400 seconds",
    ),
    ("WEBSEARCH_CACHE_TTL_SECONDS", "0", "greater_than", "more than 0 seconds"),
    ("WEBSEARCH_CACHE_STALE_SECONDS", "-1", "greater_than_equal", "at least 0 seconds"),
    ("WEBSEARCH_MAX_RESPONSE_BYTES", "12", "greater_than_equal", "at least 1024 bytes"),
]


@pytest.mark.parametrize(("variable", "value", "kind", "words"), CASES)
def test_a_variable_out_of_range_names_its_unit_and_range(
    variable: str,
    value: str,
    kind: str,
    words: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Failed before on each: ``<VARIABLE>: Input should be greater than 0`` and the like."""
    monkeypatch.setenv(variable, value)
    assert refusal_line(["q"], capsys) == f"websearch: {variable}: must be {words}\n"


@pytest.mark.parametrize(("variable", "value", "kind", "words"), CASES)
def test_settings_in_code_say_the_same_and_keep_the_type(
    variable: str, value: str, kind: str, words: str
) -> None:
    """Failed before on each: ``Settings(timeout_seconds=0)`` said pydantic's words."""
    field = variable.removeprefix("WEBSEARCH_").lower()
    with pytest.raises(ValidationError) as caught:
        Settings(**{field: float(value)})
    (detail,) = caught.value.errors()
    assert detail["loc"] == (field,)
    assert (detail["type"], detail["msg"]) == (kind, f"must be {words}")


def test_an_option_and_the_config_file_say_the_same(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Failed before: ``... (--timeout): Input should be less than or equal to 300``."""
    option = refusal_line(["q", "--timeout", "301"], capsys)
    config = Path(os.environ["WEBSEARCH_CONFIG_FILE"])
    config.write_text("timeout_seconds = 0\n", encoding="utf-8")
    in_file = refusal_line(["q"], capsys)
    words = "must be more than 0 and at most 300 seconds"
    assert [option, in_file] == [
        f"websearch: timeout_seconds (--timeout): {words}\n",
        f"websearch: config file {config} (timeout_seconds): {words}\n",
    ]


def test_guard_every_bounded_number_setting_is_worded() -> None:
    """A guard: every setting with a bound is in the list the wording covers (imported
    here, so that the other tests run against code without the list)."""
    from websearch_core.setting_bounds import RANGE_ERROR_TYPES
    from websearch_core.settings import BOUNDED_NUMBERS

    bounded = [
        name
        for name, field in Settings.model_fields.items()
        if any(isinstance(m, annotated_types.BaseMetadata) and _bound(m) for m in field.metadata)
    ]
    assert sorted(bounded) == sorted(BOUNDED_NUMBERS)
    assert {"greater_than", "less_than_equal"} <= RANGE_ERROR_TYPES


def _bound(constraint: object) -> bool:
    return isinstance(
        constraint,
        annotated_types.Gt | annotated_types.Ge | annotated_types.Lt | annotated_types.Le,
    )


def test_guard_text_that_is_no_number_keeps_pydantic_s_words(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A guard: only a number past a bound is reworded; ``soon`` is no number at all."""
    monkeypatch.setenv("WEBSEARCH_TIMEOUT_SECONDS", "soon")
    assert refusal_line(["q"], capsys) == (
        "websearch: WEBSEARCH_TIMEOUT_SECONDS: Input should be a valid number, unable to parse "
        "string as a number, got 'soon'\n"
    )
