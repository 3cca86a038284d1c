"""A bad value in a setting's variable is named as the variable was written, in any case.

The README: the ``WEBSEARCH_`` settings' names are read in any case of letters
(``websearch_timeout_seconds``), and a bad value is said in one line naming the variable.
A lower-case spelling was read but refused as ``timeout_seconds: ...``: the line named no
variable, and read as if the value came from code or the config file.
"""

import pytest

from websearch_core.cli import main
from websearch_core.settings import Settings


def _refusal(capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["providers"]) == 2
    return capsys.readouterr().err.strip()


@pytest.mark.parametrize(
    ("name", "value", "said"),
    [
        ("websearch_timeout_seconds", "0", "must be more than 0 and at most 300 seconds"),
        ("websearch_budget__brave", "lots", "budget.brave must look like '2000/month'"),
        ("Websearch_Searxng__Endpoint", "ftp://x", "must be an http(s) URL"),
    ],
)
def test_a_variable_in_another_case_is_named_as_written(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    name: str,
    value: str,
    said: str,
) -> None:
    """Failed before: named ``timeout_seconds``, ``budget.brave``, ``searxng.endpoint``."""
    monkeypatch.setenv(name, value)
    assert _refusal(capsys).startswith(f"websearch: {name}: {said}")


def test_of_two_spellings_the_one_read_is_named(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Failed before (named ``timeout_seconds``): the later spelling is the one read.

    ``monkeypatch`` sets the upper-case spelling first, then the lower-case one, which the
    environment then lists after it.
    """
    monkeypatch.setenv("WEBSEARCH_TIMEOUT_SECONDS", "5")
    monkeypatch.setenv("websearch_timeout_seconds", "0")
    assert _refusal(capsys).startswith("websearch: websearch_timeout_seconds: must be")


def test_the_upper_case_spelling_is_named_as_before(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Guard: ``WEBSEARCH_TIMEOUT_SECONDS=0`` was already named so."""
    monkeypatch.setenv("WEBSEARCH_TIMEOUT_SECONDS", "0")
    assert (
        _refusal(capsys)
        == "websearch: WEBSEARCH_TIMEOUT_SECONDS: must be more than 0 and at most 300 seconds"
    )


def test_a_provider_s_base_url_variable_is_read_in_any_case(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Failed before: ``websearch_brave_base_url`` was not read at all (exit 0, unused).

    The README's "read in any case of letters" covers ``WEBSEARCH_<ID>_BASE_URL`` as the
    variable table lists it among the settings' variables.
    """
    monkeypatch.setenv("websearch_brave_base_url", "http://127.0.0.1:8080")
    assert Settings().base_urls == {"brave": "http://127.0.0.1:8080"}
    monkeypatch.setenv("websearch_brave_base_url", "ftp://x")
    assert _refusal(capsys).startswith("websearch: websearch_brave_base_url: must be an http(s)")
