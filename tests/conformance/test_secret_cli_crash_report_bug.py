"""A bug in ``websearch``'s crash report itself fails closed: a fixed line, no key.

The command prints a bug's traceback masked (:mod:`websearch_core.cli_crash`). When the
report failed in turn (its mask, its reading of the key variables), the second error left
the command as Python's own traceback, chained to the first: the first error's message,
a key in it, whole on stderr. Driven as a user meets it: ``websearch`` in a subprocess
against the loopback simulator, its key from a config file only, with a bug quoting the
key put in the search or after it, and a second one in a part of the report (the two
things replaced; the command's handling of them is what is tested). The runs fork from
one interpreter (:mod:`tests.conformance._wrapped_runs`).
"""

import pathlib

import pytest

from tests.conformance._leaks import echo_forms_seen, shapes_seen
from tests.conformance._wrapped_runs import Case, Ran, key_in_config, run_cases

PROVIDER = "brave"
KEY = "BSAw4Nq8Zt2Xc6Vb0Mn5Lk9Jh3Gf7Ds1"
"""Brave's key, in the config file only: Brave's shape, 32 characters."""
WRAPPER = """
import importlib, sys
CONFIG_KEY = {key!r}
def bug(*arguments, **options):
    raise KeyError(CONFIG_KEY)
def report_bug(*arguments, **options):
    raise RuntimeError(f"the report broke on {{arguments!r}}")
setattr(importlib.import_module({bug_module!r}), {bug_name!r}, bug)
setattr(importlib.import_module("websearch_core.cli_crash"), {report_name!r}, report_bug)
from websearch_core.__main__ import main
sys.exit(main())
"""
BUGS = {
    "in_the_search": ("websearch_core.client", "format_for_llm"),
    "after_the_search": ("websearch_core.cli", "_say_what_gave_way"),
}
"""Where the first bug is: its ``KeyError`` quotes the key."""
REPORT_PARTS = ("Redactor", "variable_secrets")
"""The parts of the report the second bug is put in: the mask, the key variables' read."""


def _config_key(env: dict[str, str], home: pathlib.Path) -> None:
    """Brave's key in a config file only."""
    key_in_config(env, home, PROVIDER, KEY)


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Ran]:
    """``websearch "python asyncio"`` with each pair of bugs in, forked from one interpreter."""
    cases = {
        f"{bug}-{part}": Case(
            WRAPPER.format(
                key=KEY, bug_module=BUGS[bug][0], bug_name=BUGS[bug][1], report_name=part
            ),
            ["python asyncio"],
            _config_key,
        )
        for bug in BUGS
        for part in REPORT_PARTS
    }
    return run_cases(PROVIDER, cases, tmp_path_factory.mktemp("report-bug"))


@pytest.mark.parametrize("part", REPORT_PARTS)
@pytest.mark.parametrize("bug", sorted(BUGS))
def test_a_bug_in_the_crash_report_fails_closed(bug: str, part: str, ran: dict[str, Ran]) -> None:
    """Failed before for each place and part: Python's traceback of the report's error,
    chained to the first, printed the key whole.

    Still exit 1 with the internal-error line; the report is the fixed text instead.
    """
    done, requests = ran[f"{bug}-{part}"]
    assert requests, "the search reached the provider with the config's key"
    seen = [done.stdout, done.stderr]
    assert shapes_seen(KEY, seen) == []
    assert echo_forms_seen(KEY, seen) == []
    assert "Traceback" not in done.stderr and "report broke" not in done.stderr
    assert done.returncode == 1, done.stderr
    assert "internal error" in done.stderr, done.stderr
    from websearch_core.cli_crash import REPORT_FAILED  # named by the change

    assert REPORT_FAILED in done.stderr, done.stderr
