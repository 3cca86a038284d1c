"""Many ``websearch`` runs with a bug put in, each against its own simulator, one import.

The crash-report tests ran ``python -c WRAPPER ARGS`` once a case: the wrapper puts a bug
into one function of the command, then runs it, and each run paid for a fresh interpreter
importing the command (about a second on a loaded machine). Here each case's wrapper is a
script run by :mod:`tests.cli_runs`, which imports the command once and forks a child a
run: the child puts its bug in and runs the command as the fresh interpreter did, in its
own process, environment and home. Each case still has a loopback simulator of its own,
so what a case asserts about the requests its provider got is its run's alone.
"""

import pathlib
import subprocess
from collections.abc import Callable
from contextlib import ExitStack
from typing import NamedTuple

from tests.cli_runs import run_all
from tests.conformance.test_secret_audit import _cli_environment
from websearch_core.testing import Simulator
from websearch_core.testing.simulator import RecordedRequest


def key_in_config(env: dict[str, str], home: pathlib.Path, provider: str, key: str) -> None:
    """``provider``'s ``key`` in a config file in ``home`` only, named by the environment."""
    config = home / "config.toml"
    config.write_text(f'[api_keys]\n{provider} = "{key}"\n', encoding="utf-8")
    env["WEBSEARCH_CONFIG_FILE"] = str(config)


class Case(NamedTuple):
    """One run: the wrapper's code, the command line, and what its home needs first."""

    code: str
    arguments: list[str]
    prepare: Callable[[dict[str, str], pathlib.Path], None] | None = None


class Ran(NamedTuple):
    """One run's end as a subprocess would give it, and the requests its simulator got."""

    done: subprocess.CompletedProcess[str]
    requests: list[RecordedRequest]


def run_cases(provider: str, cases: dict[str, Case], directory: pathlib.Path) -> dict[str, Ran]:
    """Run every case in order, each against a simulator of ``provider`` of its own.

    Args:
        provider: The one provider each run is routed to (the others excluded).
        cases: The runs, by the id a test reads.
        directory: Where each case's home (state, credentials, config, script) is made.

    Returns:
        Each case's end and the requests its simulator got, by id.
    """
    with ExitStack() as stack:
        sims = {
            name: stack.enter_context(Simulator([provider]).running_in_thread())[provider]
            for name in cases
        }
        runs = []
        for number, (name, case) in enumerate(cases.items()):
            home = directory / f"case{number}"
            home.mkdir()
            env = _cli_environment(provider, home, sims[name].base_url)
            if case.prepare is not None:
                case.prepare(env, home)
            script = home / "wrapped.py"
            script.write_text(case.code, encoding="utf-8")
            runs.append(
                {
                    "id": name,
                    "script": str(script),
                    "args": case.arguments,
                    "env": env,
                    "stdin": "",
                    "stdout": "pipe",
                }
            )
        runner = directory / "runner"
        runner.mkdir()
        ran = run_all(runs, directory, _cli_environment(provider, runner, "http://127.0.0.1:9"))
        requests = {name: list(sim.requests) for name, sim in sims.items()}
    return {
        name: Ran(
            subprocess.CompletedProcess(
                [name], ran[name]["status"], ran[name]["stdout"], ran[name]["stderr"]
            ),
            requests[name],
        )
        for name in cases
    }
