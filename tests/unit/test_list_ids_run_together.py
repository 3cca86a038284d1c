"""Ids run together in a list setting are named with the separator the list is split at.

``WEBSEARCH_PROVIDERS="brave tavily"``, ``brave;tavily`` and ``exclude="bing duckduckgo"``
were refused as one unknown id (the last with ``did you mean duckduckgo?``): a first user
read that an id was mistyped, not that the list is split at commas. The fix the text now
names, applied as written, is accepted.
"""

from collections.abc import Iterator

import pytest
from pydantic import ValidationError

from websearch_core.cli import EXIT_OK, EXIT_USAGE, main
from websearch_core.settings import Settings
from websearch_core.testing import Simulator


@pytest.fixture
def brave(monkeypatch: pytest.MonkeyPatch) -> Iterator[Simulator]:
    """Brave on loopback with a key: keyed, it is asked first, before any engine."""
    monkeypatch.setenv("WEBSEARCH_STATE_WAIT_SECONDS", "20")  # a loaded machine's store
    with Simulator(["brave"]).running_in_thread() as sim:
        monkeypatch.setenv("WEBSEARCH_BRAVE_BASE_URL", sim["brave"].base_url)
        monkeypatch.setenv("BRAVE_API_KEY", "sim-key-brave")
        yield sim


@pytest.mark.parametrize(
    ("variable", "given", "fix"),
    [
        ("WEBSEARCH_PROVIDERS", "brave kagi", "brave,kagi"),
        ("WEBSEARCH_PROVIDERS", "Brave; Kagi", "brave,kagi"),
        ("WEBSEARCH_EXCLUDE", "bing duckduckgo", "bing,duckduckgo"),
    ],
)
def test_the_command_names_the_commas_and_the_fix_is_accepted(
    brave: Simulator,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    variable: str,
    given: str,
    fix: str,
) -> None:
    monkeypatch.setenv(variable, given)
    assert main(["--no-cache", "rust"]) == EXIT_USAGE
    (error,) = capsys.readouterr().err.splitlines()
    named = given.lower()  # ids are read lower-cased, as ever
    assert error.startswith(f"websearch: {variable}: unknown provider id {named} (known: ")
    assert error.endswith(f"; {named} holds 2 ids: separate them with commas, as {fix}")
    assert "did you mean" not in error  # no id was mistyped
    assert brave["brave"].requests == []
    monkeypatch.setenv(variable, error.rsplit(" as ", 1)[1])  # the fix, as written
    assert main(["--no-cache", "rust"]) == EXIT_OK
    assert [r.query_dict()["q"] for r in brave["brave"].requests] == ["rust"]


def test_a_python_list_setting_names_the_ids_run_together() -> None:
    with pytest.raises(ValidationError) as error:
        Settings(providers=["brave tavily", "kagi"])
    assert "; brave tavily holds 2 ids: separate them with commas, as brave,tavily" in str(
        error.value
    )


@pytest.mark.parametrize("given", ["bravo", "brave bravo", "bing duckduckgoo"])
def test_an_entry_with_an_unknown_word_keeps_its_text(given: str) -> None:
    """A guard (passes before and after): no id list is read into an entry with a typo."""
    with pytest.raises(ValidationError) as error:
        Settings(exclude=given)
    assert f"unknown provider id {given} (known: " in str(error.value)
    assert "separate them with commas" not in str(error.value)
