"""What ``websearch`` exits with after a bug, in each command, and what its help says of it.

``websearch --help`` said status 1 came of "a bug ended the search". Each path was driven
here in a subprocess against the loopback simulator, the key in a config file only, a
bug quoting the key put in one place (the one thing replaced): the search, ``auth list``,
``providers`` and ``fetch`` each end in the one ``internal error`` line, the traceback
masked, and status 1; so the help's line was narrower than the command. A bug before the
command's own handling (setting up its output) was Python's traceback, the key whole in
it, status 1 too: the one path that leaked.
"""

import pathlib
import subprocess
import sys

import pytest

from tests.conformance._leaks import echo_forms_seen, shapes_seen
from tests.conformance.test_secret_audit import _cli_environment
from websearch_core.testing import Simulator

PROVIDER = "brave"
KEY = "BSAp3Lk7Jh1Gf5Ds9Aq2Wz6Xc0Vb4Nm8"
"""Brave's key, in the config file only: Brave's shape, 32 characters."""
WRAPPER = """
import importlib, sys
def bug(*arguments, **options):
    raise KeyError({key!r})
setattr(importlib.import_module({module!r}), {name!r}, bug)
from websearch_core.__main__ import main
sys.exit(main())
"""
PLACES = {
    "before_the_command": ("websearch_core.cli", "tolerate_unencodable_output", ["q"]),
    "search": ("websearch_core.client", "format_for_llm", ["python asyncio"]),
    "auth_list": ("websearch_core.cli", "_auth_list", ["auth", "list"]),
    "providers": ("websearch_core.cli", "_providers", ["providers"]),
    "fetch": ("websearch_core.content.cli_fetch", "_fetch", ["fetch", "https://example.com"]),
}
"""Where the bug is put, and the command line that meets it."""


def _run(place: str, tmp_path: pathlib.Path) -> subprocess.CompletedProcess[str]:
    """``websearch`` with a bug quoting the key at ``place``."""
    module, name, arguments = PLACES[place]
    code = WRAPPER.format(key=KEY, module=module, name=name)
    with Simulator([PROVIDER]).running_in_thread() as sim:
        env = _cli_environment(PROVIDER, tmp_path, sim[PROVIDER].base_url)
        config = tmp_path / "config.toml"
        config.write_text(f'[api_keys]\n{PROVIDER} = "{KEY}"\n', encoding="utf-8")
        env["WEBSEARCH_CONFIG_FILE"] = str(config)
        return subprocess.run(
            [sys.executable, "-c", code, *arguments],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )


def test_a_bug_before_the_command_s_handling_is_reported_masked(tmp_path: pathlib.Path) -> None:
    """Failed before: Python's own traceback, the key whole in its ``KeyError``."""
    done = _run("before_the_command", tmp_path)
    seen = [done.stdout, done.stderr]
    assert shapes_seen(KEY, seen) == []
    assert echo_forms_seen(KEY, seen) == []
    assert "internal error" in done.stderr and "in bug" in done.stderr, done.stderr
    assert done.returncode == 1


@pytest.mark.parametrize("place", ["search", "auth_list", "providers", "fetch"])
def test_guard_a_bug_in_each_command_exits_1_with_the_masked_report(
    place: str, tmp_path: pathlib.Path
) -> None:
    """A guard (passed before): in every command a bug is the internal-error line, the
    traceback masked, and status 1: what the help's line must say."""
    done = _run(place, tmp_path)
    assert done.returncode == 1, done.stderr
    assert "internal error" in done.stderr and "in bug" in done.stderr, done.stderr
    seen = [done.stdout, done.stderr]
    assert shapes_seen(KEY, seen) == []


def test_the_help_s_status_1_names_a_bug_in_any_command(tmp_path: pathlib.Path) -> None:
    """Failed before: the help gave status 1 to "a bug ended the search", where a bug in
    any command exits 1 (the guard above runs each), and said a traceback always follows,
    where a report that failed in turn is a fixed line (test_secret_cli_crash_report_bug).
    """
    env = _cli_environment(PROVIDER, tmp_path, "http://127.0.0.1:9")
    done = subprocess.run(
        [sys.executable, "-m", "websearch_core", "--help"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    status = " ".join(done.stdout.split()).split("exit status: ", 1)[1].split(", 2 ", 1)[0]
    assert "a bug in any command" in status
    assert "internal error" in status and "keys masked" in status
    assert "a fixed line if that report failed" in status
