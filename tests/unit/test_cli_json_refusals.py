"""A refusal under ``--json`` prints the refusal as JSON on stdout, beside its line.

``websearch --json ""`` (an empty query a script took from a model), ``--limit 0``, an
unknown provider or a bad ``WEBSEARCH_`` variable exited 2 with one line on stderr and
printed nothing on stdout, where a failed search prints ``"failed": true`` there: a script
reading ``websearch --json ... | jq .error`` had no document and no reason to log.
"""

import json

import pytest

from websearch_core.cli import EXIT_OK, EXIT_USAGE, main
from websearch_core.testing import Simulator

_REFUSED = {
    "empty-query": ["--json", ""],
    "limit-0": ["--json", "python", "--limit", "0"],
    "unknown-provider": ["python", "--provider", "bravee", "--json"],
    "bad-recency": ["--json", "python", "--recency", "fortnight"],
    "value-missing": ["python", "--json", "--limit"],
}


@pytest.mark.parametrize("argv", list(_REFUSED.values()), ids=list(_REFUSED))
def test_a_refused_search_prints_its_refusal_as_json(
    brave: Simulator, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    assert main(["--no-cache", *argv]) == EXIT_USAGE
    out, err = capsys.readouterr()
    (line,) = err.splitlines()
    assert json.loads(out) == {"error": line.removeprefix("websearch: "), "failed": True}
    assert brave["brave"].requests == []


def test_a_refused_setting_prints_its_refusal_as_json(
    brave: Simulator, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEBSEARCH_TIMEOUT_SECONDS", "0")
    assert main(["--no-cache", "--json", "python"]) == EXIT_USAGE
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert data["failed"] is True and data["error"].startswith("WEBSEARCH_TIMEOUT_SECONDS: ")
    assert err.splitlines()[-1] == f"websearch: {data['error']}"


@pytest.mark.parametrize("argv", list(_REFUSED.values())[:3], ids=list(_REFUSED)[:3])
def test_without_json_a_refusal_prints_nothing_on_stdout(
    brave: Simulator, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """A guard (passes before and after): without ``--json`` stdout stays empty."""
    assert main(["--no-cache", *(word for word in argv if word != "--json")]) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1


def test_an_answer_under_json_has_no_failed_key(
    brave: Simulator, capsys: pytest.CaptureFixture[str]
) -> None:
    """A guard (passes before and after): an answer's JSON is the details alone."""
    assert main(["--no-cache", "--json", "python"]) == EXIT_OK
    data = json.loads(capsys.readouterr().out)
    assert "failed" not in data and data["response"]["provider"] == "brave"


def test_json_after_double_dash_is_a_query_word() -> None:
    """``websearch -- --json`` searches for ``--json``: a refusal there is not asked as JSON."""
    from websearch_core.cli_refusals import asks_for_json  # new: the rest run before it too

    assert asks_for_json(["--limit", "3", "--json", "x"])
    assert not asks_for_json(["--", "--json"])
    assert not asks_for_json(["x", "--limit", "0"])
