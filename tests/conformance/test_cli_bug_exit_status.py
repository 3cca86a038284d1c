"""What ``websearch`` exits with after a bug, in each command, and what its help says of it.

``websearch --help`` said status 1 came of "a bug ended the search". Each path was driven
here in a subprocess against the loopback simulator, the key in a config file only, a
bug quoting the key put in one place (the one thing replaced): the search, ``auth list``,
``providers`` and ``fetch`` each end in the one ``internal error`` line, the traceback
masked, and status 1; so the help's line was narrower than the command. A bug before the
command's own handling (setting up its output) was Python's traceback, the key whole in
it, status 1 too: the one path that leaked. The runs fork from one interpreter
(:mod:`tests.conformance._wrapped_runs`).
"""

import pathlib

import pytest

from tests.conformance._leaks import echo_forms_seen, shapes_seen
from tests.conformance._wrapped_runs import Case, Ran, key_in_config, run_cases

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


HELP = "import sys\nfrom websearch_core.__main__ import main\nsys.exit(main())\n"
"""``websearch`` as installed, nothing replaced: for ``--help``."""


def _config_key(env: dict[str, str], home: pathlib.Path) -> None:
    """Brave's key in a config file only."""
    key_in_config(env, home, PROVIDER, KEY)


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Ran]:
    """``websearch`` with a bug quoting the key at each place, and ``--help``, by id: every
    run forked from one interpreter."""
    cases = {
        place: Case(WRAPPER.format(key=KEY, module=module, name=name), arguments, _config_key)
        for place, (module, name, arguments) in PLACES.items()
    }
    cases["help"] = Case(HELP, ["--help"])
    return run_cases(PROVIDER, cases, tmp_path_factory.mktemp("bug-status"))


def test_a_bug_before_the_command_s_handling_is_reported_masked(ran: dict[str, Ran]) -> None:
    """Failed before: Python's own traceback, the key whole in its ``KeyError``."""
    done = ran["before_the_command"].done
    seen = [done.stdout, done.stderr]
    assert shapes_seen(KEY, seen) == []
    assert echo_forms_seen(KEY, seen) == []
    assert "internal error" in done.stderr and "in bug" in done.stderr, done.stderr
    assert done.returncode == 1


@pytest.mark.parametrize("place", ["search", "auth_list", "providers", "fetch"])
def test_guard_a_bug_in_each_command_exits_1_with_the_masked_report(
    place: str, ran: dict[str, Ran]
) -> None:
    """A guard (passed before): in every command a bug is the internal-error line, the
    traceback masked, and status 1: what the help's line must say."""
    done = ran[place].done
    assert done.returncode == 1, done.stderr
    assert "internal error" in done.stderr and "in bug" in done.stderr, done.stderr
    seen = [done.stdout, done.stderr]
    assert shapes_seen(KEY, seen) == []


def test_the_help_s_status_1_names_a_bug_in_any_command(ran: dict[str, Ran]) -> None:
    """Failed before: the help gave status 1 to "a bug ended the search", where a bug in
    any command exits 1 (the guard above runs each), and said a traceback always follows,
    where a report that failed in turn is a fixed line (test_secret_cli_crash_report_bug).
    """
    done = ran["help"].done
    status = " ".join(done.stdout.split()).split("exit status: ", 1)[1].split(", 2 ", 1)[0]
    assert "a bug in any command" in status
    assert "internal error" in status and "keys masked" in status
    assert "a fixed line if that report failed" in status
