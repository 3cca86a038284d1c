"""``websearch fetch`` of a cloud metadata address says the command cannot allow it.

The refusal ends ``list 169.254.169.254 in allowed_networks to allow it``: an argument of
``fetch()`` in Python. A user of the command looked for such an option (``--allow-private``
does not open a metadata address either). A line of its own now says the command takes no
``allowed_networks`` and where it is; the refusal's text, and ``--json``'s ``error``, stay.
"""

import json

import pytest

from websearch_core.cli import main
from websearch_core.cli_status import EXIT_FAILED

_CANNOT = (
    "websearch fetch takes no allowed_networks, so it never fetches a cloud metadata "
    "address; from Python, fetch(url, allowed_networks=[...]) does."
)


@pytest.mark.parametrize(
    ("url", "listed"),
    [
        ("http://169.254.169.254/latest/meta-data/", "169.254.169.254"),
        ("http://metadata.google.internal/", "169.254.169.254 or fd20:ce::254"),
    ],
)
@pytest.mark.parametrize("allow_private", [True, False])
def test_a_metadata_refusal_says_the_command_cannot_allow_it(
    capsys: pytest.CaptureFixture[str], url: str, listed: str, allow_private: bool
) -> None:
    extra = ["--allow-private"] if allow_private else []
    assert main(["fetch", url, "--no-browser", "--no-cache", *extra]) == EXIT_FAILED
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 2, lines
    assert lines[0].startswith(f"websearch: cannot fetch {url}: ")
    assert lines[0].endswith(f"list {listed} in allowed_networks to allow it")
    assert lines[1] == _CANNOT


def test_the_json_error_keeps_the_refusal_alone(capsys: pytest.CaptureFixture[str]) -> None:
    """A guard: ``--json``'s ``error`` is the refusal's text, as before."""
    url = "http://169.254.169.254/"
    assert main(["fetch", url, "--json", "--no-browser", "--no-cache"]) == EXIT_FAILED
    out, _ = capsys.readouterr()
    error = json.loads(out)["error"]
    assert error.startswith(f"cannot fetch {url}: 169.254.169.254 is a cloud metadata address")
    assert error.endswith("in allowed_networks to allow it")


def test_another_refusal_gets_no_such_line(capsys: pytest.CaptureFixture[str]) -> None:
    """A guard: a loopback refusal has its own fix (--allow-private) and no second line."""
    assert main(["fetch", "http://127.0.0.1:9/", "--no-browser", "--no-cache"]) == EXIT_FAILED
    _, err = capsys.readouterr()
    assert len(err.splitlines()) == 1
    assert "--allow-private" in err
