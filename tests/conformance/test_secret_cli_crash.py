"""``websearch`` ending in a bug prints the traceback with no key in it.

A search answers a provider's failure as text, but an error no layer expected (a bug on
the way, a library's error on a value it met) left the command as Python's traceback,
which prints the message of every error in the chain: ``int('<key>')`` failing put the
key on stderr. Driven here as a user meets it: ``websearch`` in a subprocess, its key
from the variable, against the loopback simulator, with a bug put into the formatting of
the answer (the one thing replaced: the command's handling of it is what is tested).
"""

import pathlib
import subprocess
import sys

import pytest

from tests.conformance._leaks import echo_forms_seen, shapes_seen
from tests.conformance.test_secret_audit import _cli_environment, sentinel
from websearch_core.providers import get_provider
from websearch_core.testing import Simulator

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


def run_wrapped(
    code: str, arguments: list[str], env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    """``websearch <arguments> "python asyncio"`` run by ``code`` (which puts the bug in)."""
    return subprocess.run(
        [sys.executable, "-c", code, *arguments, "python asyncio"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("arguments", [[], ["-v"], ["--json"]])
@pytest.mark.parametrize("bug", sorted(BUGS))
def test_a_bug_in_a_search_ends_with_a_masked_traceback(
    bug: str, arguments: list[str], tmp_path: pathlib.Path
) -> None:
    """Failed before for each bug and option: Python's traceback quoted the key whole."""
    key = sentinel(PROVIDER)
    variable = get_provider(PROVIDER).info.env_vars[0]
    code = WRAPPER.format(variable=variable, bug=BUGS[bug])
    with Simulator([PROVIDER]).running_in_thread() as sim:
        env = _cli_environment(PROVIDER, tmp_path, sim[PROVIDER].base_url)
        env[variable] = key
        done = run_wrapped(code, arguments, env)
        assert sim[PROVIDER].requests, "the search reached the provider before the bug"
    assert done.returncode == 1, done.stderr
    assert "Traceback" in done.stderr and "in broken" in done.stderr, "the report is whole"
    seen = [done.stdout, done.stderr]
    assert shapes_seen(key, seen) == []
    assert echo_forms_seen(key, seen) == []
