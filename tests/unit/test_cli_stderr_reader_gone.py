"""The command's exit status survives a closed standard error (``2>&1 | head -1``).

The README gives the exit statuses (1 when every provider failed or ``auth remove`` found
nothing, 2 for invalid input) and says piping into ``head`` ends quietly. With the reader
of stderr gone, Python raised ``BrokenPipeError`` writing the message and again flushing
stderr at exit, so the process ended with status 120 whatever happened. Each command runs
here as its own process of ``python -m websearch_core``, its stderr a pipe whose reading
end is closed before it starts, with nothing but loopback to reach: forked children of one
:mod:`tests.cli_runs` interpreter (six fresh interpreters cost most of this file's time).
"""

import socket
from typing import Any

import pytest

from tests.cli_runs import run_all
from tests.integrations._readme_scripts import user_env


def _closed_port() -> int:
    """A loopback port nothing listens on (bound, then let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


RUNS: dict[str, tuple[list[str], dict[str, str]]] = {
    "invalid input": (["--limit", "0", "rust"], {}),
    "nothing to remove": (["auth", "remove", "brave"], {}),
    "failed search": (["--provider", "brave", "rust"], {"BRAVE_API_KEY": "BSA-test-key"}),
    "no provider": (["rust"], {"WEBSEARCH_PROVIDERS": "brave"}),
    "empty store": (["auth", "list"], {}),
    "providers": (["providers"], {}),
}
"""Each test's command and extra environment; the failed search's Brave is given a closed
port when the runs are made."""


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """Each of :data:`RUNS`, its stderr a pipe nobody reads: its status and stdout."""
    root = tmp_path_factory.mktemp("stderr-gone")
    closed = {"WEBSEARCH_BRAVE_BASE_URL": f"http://127.0.0.1:{_closed_port()}"}
    runs = [
        {
            "id": name,
            "args": args,
            "env": user_env(
                root / str(number), **extra, **(closed if "BRAVE_API_KEY" in extra else {})
            ),
            "stdin": "",
            "stdout": "pipe",
            "stderr": "gone",  # the reader went away before the first message
        }
        for number, (name, (args, extra)) in enumerate(RUNS.items())
    ]
    return run_all(runs, root, user_env(root))


def _outcome(ran: dict[str, dict[str, Any]], name: str) -> tuple[int, str]:
    return ran[name]["status"], ran[name]["stdout"]


def test_invalid_input_still_exits_2(ran: dict[str, dict[str, Any]]) -> None:
    """Failed before: 120 (the refusal's line raised ``BrokenPipeError`` out of main)."""
    assert _outcome(ran, "invalid input") == (2, "")


def test_nothing_to_remove_still_exits_1(ran: dict[str, dict[str, Any]]) -> None:
    """Failed before: 120 (``auth remove`` of an id with nothing stored)."""
    assert _outcome(ran, "nothing to remove") == (1, "")


def test_a_failed_search_still_exits_1(ran: dict[str, dict[str, Any]]) -> None:
    """Failed before: 120 (a forced Brave on a loopback port that refuses connections)."""
    assert _outcome(ran, "failed search") == (1, "")


def test_no_provider_configured_still_exits_2(ran: dict[str, dict[str, Any]]) -> None:
    """Failed before: 120 (the search's own ``No web search provider configured.``)."""
    assert _outcome(ran, "no provider") == (2, "")


def test_an_empty_store_s_listing_still_exits_0(ran: dict[str, dict[str, Any]]) -> None:
    """Failed before: 120 (``auth list`` says on stderr that nothing is stored)."""
    assert _outcome(ran, "empty store") == (0, "")


def test_a_listing_on_stdout_is_untouched(ran: dict[str, dict[str, Any]]) -> None:
    """A guard: ``providers`` still prints its table and exits 0 with stderr gone."""
    status, out = _outcome(ran, "providers")
    assert status == 0
    assert out.startswith("ID ")
