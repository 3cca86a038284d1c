"""The command's exit status survives a closed standard error (``2>&1 | head -1``).

The README gives the exit statuses (1 when every provider failed or ``auth remove`` found
nothing, 2 for invalid input) and says piping into ``head`` ends quietly. With the reader
of stderr gone, Python raised ``BrokenPipeError`` writing the message and again flushing
stderr at exit, so the process ended with status 120 whatever happened. Each command runs
here in a fresh interpreter, its stderr a pipe whose reading end is closed before it
starts, with nothing but loopback to reach.
"""

import os
import socket
import subprocess
import sys
from pathlib import Path

from tests.integrations._readme_scripts import user_env


def _closed_port() -> int:
    """A loopback port nothing listens on (bound, then let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def _run_with_stderr_gone(args: list[str], env: dict[str, str]) -> tuple[int, str]:
    """``python -m websearch_core args`` with a stderr nobody reads: its status and stdout."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader went away before the first message
    try:
        done = subprocess.run(
            [sys.executable, "-m", "websearch_core", *args],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=write_end,
            text=True,
            timeout=120,
        )
    finally:
        os.close(write_end)
    return done.returncode, done.stdout


def test_invalid_input_still_exits_2(tmp_path: Path) -> None:
    """Failed before: 120 (the refusal's line raised ``BrokenPipeError`` out of main)."""
    status, out = _run_with_stderr_gone(["--limit", "0", "rust"], user_env(tmp_path))
    assert (status, out) == (2, "")


def test_nothing_to_remove_still_exits_1(tmp_path: Path) -> None:
    """Failed before: 120 (``auth remove`` of an id with nothing stored)."""
    status, out = _run_with_stderr_gone(["auth", "remove", "brave"], user_env(tmp_path))
    assert (status, out) == (1, "")


def test_a_failed_search_still_exits_1(tmp_path: Path) -> None:
    """Failed before: 120 (a forced Brave on a loopback port that refuses connections)."""
    env = user_env(
        tmp_path,
        BRAVE_API_KEY="BSA-test-key",
        WEBSEARCH_BRAVE_BASE_URL=f"http://127.0.0.1:{_closed_port()}",
    )
    status, out = _run_with_stderr_gone(["--provider", "brave", "rust"], env)
    assert (status, out) == (1, "")


def test_no_provider_configured_still_exits_2(tmp_path: Path) -> None:
    """Failed before: 120 (the search's own ``No web search provider configured.``)."""
    env = user_env(tmp_path, WEBSEARCH_PROVIDERS="brave")
    status, out = _run_with_stderr_gone(["rust"], env)
    assert (status, out) == (2, "")


def test_an_empty_store_s_listing_still_exits_0(tmp_path: Path) -> None:
    """Failed before: 120 (``auth list`` says on stderr that nothing is stored)."""
    status, out = _run_with_stderr_gone(["auth", "list"], user_env(tmp_path))
    assert (status, out) == (0, "")


def test_a_listing_on_stdout_is_untouched(tmp_path: Path) -> None:
    """A guard: ``providers`` still prints its table and exits 0 with stderr gone."""
    status, out = _run_with_stderr_gone(["providers"], user_env(tmp_path))
    assert status == 0
    assert out.startswith("ID ")
