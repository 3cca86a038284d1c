"""``websearch`` ending in a bug prints the traceback with no key in it.

A search answers a provider's failure as text, but an error no layer expected (a bug on
the way, a library's error on a value it met) left the command as Python's traceback,
which prints the message of every error in the chain: ``int('<key>')`` failing put the
key on stderr. Driven here as a user meets it: ``websearch`` in a subprocess, its key
from the variable, against the loopback simulator, with a bug put into the formatting of
the answer (the one thing replaced: the command's handling of it is what is tested).
"""

import pathlib

import pytest

from tests.conformance._leaks import echo_forms_seen, shapes_seen
from tests.conformance._wrapped_runs import Case, Ran, run_cases
from tests.conformance.test_secret_audit import sentinel
from websearch_core.providers import get_provider

PROVIDER = "brave"
BUGS = {
    "cause_quotes_the_key": (
        "    try:\n"
        "        int(os.environ[VARIABLE])\n"
        "    except ValueError as error:\n"
        "        raise RuntimeError('formatting failed') from error\n"
    ),
    "message_is_the_key": "    raise KeyError(os.environ[VARIABLE])\n",
}
"""The body of the replaced formatter: a library's error quoting a value it met."""
WRAPPER = """
import os, sys
import websearch_core.client as client
VARIABLE = {variable!r}
def broken(response, notes):
{bug}
client.format_for_llm = broken
from websearch_core.__main__ import main
sys.exit(main())
"""


ARGUMENTS = {"plain": [], "verbose": ["-v"], "json": ["--json"]}
"""The command lines each bug is met with (before the query)."""


def _with_key(env: dict[str, str], home: pathlib.Path) -> None:
    """The key in its variable: the one place the command reads it from here."""
    env[get_provider(PROVIDER).info.env_vars[0]] = sentinel(PROVIDER)


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Ran]:
    """Each bug met with each command line, every run forked from one interpreter."""
    variable = get_provider(PROVIDER).info.env_vars[0]
    cases = {
        f"{bug}-{name}": Case(
            WRAPPER.format(variable=variable, bug=BUGS[bug]),
            [*arguments, "python asyncio"],
            _with_key,
        )
        for bug in BUGS
        for name, arguments in ARGUMENTS.items()
    }
    return run_cases(PROVIDER, cases, tmp_path_factory.mktemp("crash"))


@pytest.mark.parametrize("arguments", sorted(ARGUMENTS))
@pytest.mark.parametrize("bug", sorted(BUGS))
def test_a_bug_in_a_search_ends_with_a_masked_traceback(
    bug: str, arguments: str, ran: dict[str, Ran]
) -> None:
    """Failed before for each bug and option: Python's traceback quoted the key whole."""
    key = sentinel(PROVIDER)
    done, requests = ran[f"{bug}-{arguments}"]
    assert requests, "the search reached the provider before the bug"
    assert done.returncode == 1, done.stderr
    assert "Traceback" in done.stderr and "in broken" in done.stderr, "the report is whole"
    seen = [done.stdout, done.stderr]
    assert shapes_seen(key, seen) == []
    assert echo_forms_seen(key, seen) == []
