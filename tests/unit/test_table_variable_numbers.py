"""A number where a table variable's JSON wants text (``WEBSEARCH_BUDGET='{"brave": 2000}'``).

It was answered with pydantic's ``Input should be a valid string``: true, but it does not
say that a budget is a count and its period, written ``"2000/month"``. The config file's
``brave = 2000`` was already told so; the variable (and a table given in code) now is too.
"""

import pytest
from pydantic import ValidationError

from websearch_core.cli import EXIT_USAGE, main
from websearch_core.settings import Settings


def _refusal(
    name: str, value: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> str:
    monkeypatch.setenv(name, value)
    assert main(["providers"]) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith(f"websearch: {name}: ")
    return err


@pytest.mark.parametrize(
    ("name", "value", "fixed"),
    [
        ("WEBSEARCH_BUDGET", '{"brave": 2000}', '{"brave": "2000/month"}'),
        ("WEBSEARCH_BUDGET", '{"tavily": "1000/month", "brave": 100}', '{"brave": "100/month"}'),
        ("WEBSEARCH_RATE", '{"brave": 2}', '{"brave": "2/s"}'),
    ],
)
def test_a_number_in_a_budget_or_rate_variable_is_shown_as_text(
    name: str,
    value: str,
    fixed: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    said = _refusal(name, value, monkeypatch, capsys)
    assert "valid string" not in said
    assert "brave: must be text in quotes" in said
    assert "period" in said  # what the text holds, not only that it is text
    assert f"as in {fixed}" in said


def test_a_number_in_the_keys_variable_is_not_repeated(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    said = _refusal("WEBSEARCH_API_KEYS", '{"brave": 918273645}', monkeypatch, capsys)
    assert "918273645" not in said  # a key, even a numeric one, is never shown
    assert 'brave: must be text in quotes, as in {"brave": "..."}' in said


def test_a_number_in_a_table_given_in_code_is_shown_as_text() -> None:
    with pytest.raises(ValidationError) as caught:
        Settings(budget={"brave": 2000})  # type: ignore[dict-item]  # the mistake under test
    assert '{"brave": "2000/month"}' in str(caught.value)


def test_text_entries_are_still_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    """A guard (passes before and after the change): the written form is accepted."""
    monkeypatch.setenv("WEBSEARCH_BUDGET", '{"brave": "2000/month"}')
    monkeypatch.setenv("WEBSEARCH_RATE", '{"brave": "1/s"}')
    settings = Settings()
    assert (settings.budget, settings.rate) == ({"brave": "2000/month"}, {"brave": "1/s"})
