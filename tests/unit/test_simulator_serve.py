"""``python -m websearch_core.testing serve``: the simulator for a person trying ``websearch``.

Each server runs as a user would start it, in a process of its own, and its printed lines
are run by a real shell, exactly as pasted, before ``websearch`` runs with the environment
the shell was left with; so a line that does not point the command at the simulator (or lets
it reach the network) fails here. Ctrl-C is a real SIGINT. The servers run together from
module fixtures, and the searches and refusals fork from one interpreter
(:mod:`tests.cli_runs`): each test still reads its own server's runs.
"""

import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from tests.cli_runs import run_all
from websearch_core.cli_status import EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE
from websearch_core.testing import Simulator

pytestmark = pytest.mark.skipif(not Path("/bin/sh").exists(), reason="pastes into /bin/sh")

SERVING = "# Serving until Ctrl-C."
"""The command's last line once every server listens."""
_WAIT = 60.0
"""Seconds a step may take on a loaded machine before the test gives up (not a timing)."""


class Served:
    """A running ``serve`` process, the lines it printed, and its end."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "websearch_core.testing", "serve", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._lines.put(line.rstrip("\n"))
        self._lines.put(None)

    def printed(self) -> list[str]:
        """Every line up to the one saying it serves; fails if the command ends first."""
        lines = self.printed_unless_ended()
        assert lines is not None, f"serve ended early: {self.stop()}"
        return lines

    def printed_unless_ended(self) -> list[str] | None:
        """Every line up to the one saying it serves, or ``None`` if the command ends first."""
        lines: list[str] = []
        while True:
            line = self._lines.get(timeout=_WAIT)
            if line is None:
                return None
            lines.append(line)
            if line == SERVING:
                return lines

    def finished(self) -> tuple[int, str]:
        """Its exit status and stderr once it ends by itself (a refusal)."""
        assert self.process.stderr is not None
        err = self.process.stderr.read()
        return self.process.wait(timeout=_WAIT), err

    def stop(self) -> tuple[int, str]:
        """Send Ctrl-C (SIGINT) if it still runs; its exit status and stderr."""
        self.interrupt()
        return self.ended()

    def interrupt(self) -> None:
        """Send one Ctrl-C (SIGINT) if it still runs; a second would cut its shutdown short."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)

    def ended(self) -> tuple[int, str]:
        """Its exit status and stderr once it ends (after :meth:`interrupt`)."""
        assert self.process.stderr is not None
        err = self.process.stderr.read()
        return self.process.wait(timeout=_WAIT), err

    def close(self) -> None:
        """End the process whatever state it is in, and close its pipes."""
        self.process.kill()
        self.process.wait(timeout=_WAIT)
        self._reader.join(timeout=_WAIT)
        for pipe in (self.process.stdout, self.process.stderr):
            if pipe is not None:
                pipe.close()


class Searched(NamedTuple):
    """One ``websearch`` run after the pasted lines: what a finished process gives."""

    status: int
    stdout: str
    stderr: str


class Serving(NamedTuple):
    """One ``serve`` run: the lines it printed, its port, its searches and its end."""

    lines: list[str]
    port: int | None
    searched: list[Searched]
    stopped: tuple[int, str]


_SERVES: dict[str, tuple[str, ...]] = {
    "default": (),
    "brave": ("brave",),
    "gemini": ("gemini",),
    "searxng": ("searxng",),
    "perplexity": ("perplexity",),
    "undo": ("brave", "searxng", "codex"),
}
"""Each ``serve`` the tests read, by name: its providers, on ports the command picks."""
_ON_FREE_PORTS: dict[str, tuple[str, ...]] = {"port": ("brave",), "readme": ()}
"""Each ``serve --port P`` the tests read, by name: its providers."""
_BAD_INPUT = [
    (["bravo"], "no simulator protocol for provider 'bravo'; did you mean brave?"),
    (["--port", "65535", "brave", "bing"], "--port: 65535-65536 (one port per provider) is"),
    (["--port", "x"], "--port: invalid int value: 'x'"),
]
"""Input ``serve`` refuses, and the start of the one line saying why."""
_SEARCHES: dict[str, list[list[str]]] = {
    "default": [["python"], ["python", "--provider", "duckduckgo", "--json"]],
    "brave": [["python", "--provider", "bing", "--json"]],
    "gemini": [["python", "--json"]],
    "searxng": [["python", "--json"]],
    "perplexity": [["python", "--json"]],
    "port": [["python"]],
}
"""The ``websearch ARGS`` run after each serve's pasted lines, in order, while it serves."""


def pasted_env(lines: list[str]) -> dict[str, str]:
    """The environment ``lines`` leave in /bin/sh, pasted as printed: what ``websearch``
    started next in that shell gets (the shell itself reads the lines, not this test)."""
    shell = subprocess.run(
        ["/bin/sh", "-c", "\n".join([*lines, "exec env -0"])],
        capture_output=True,
        text=True,
        timeout=_WAIT,
        env={**os.environ, "WEBSEARCH_STATE_WAIT_SECONDS": "20"},
    )
    assert shell.returncode == 0, shell.stderr
    pairs = (entry.split("=", 1) for entry in shell.stdout.split("\0") if entry)
    return {name: value for name, value in pairs}


def free_port() -> int:
    """A loopback port nothing listens on now (the OS's choice, released at once)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def served_on_free_ports(
    serve: Callable[..., Served], *providers: str
) -> tuple[Served, int, list[str]]:
    """``serve --port P PROVIDERS`` from a free port P: the process, P and its lines.

    ``--port`` takes one port per provider in a row, and only the first is the OS's choice:
    the next may be taken by another process (the whole suite binds loopback ports), or the
    first taken again after :func:`free_port` released it. The command then refuses the
    port, naming it, and the test asks again on another; it never waits on time.
    """
    for _ in range(20):
        port = free_port()
        served = serve("--port", str(port), *providers)
        lines = served.printed_unless_ended()
        if lines is not None:
            return served, port, lines
        status, err = served.finished()
        assert status == EXIT_USAGE and "is in use" in err, err
    raise AssertionError("no run of free loopback ports in 20 tries")


@pytest.fixture(scope="module")
def serving(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Serving]]:
    """Every ``serve`` of :data:`_SERVES` and :data:`_ON_FREE_PORTS`, searched and stopped.

    Each test had its own ``serve`` and ``websearch`` interpreters, one after the other (about
    2 s a test). Here the servers start together, every search runs in one forking
    interpreter (:mod:`tests.cli_runs`) with the environment its pasted lines left, then
    each server gets its Ctrl-C. No two tests read one server; nothing a test does changes
    what another reads.
    """
    started: list[Served] = []

    def serve(*args: str) -> Served:
        served = Served(*args)
        started.append(served)
        return served

    try:
        running = {name: (serve(*args), None) for name, args in _SERVES.items()}
        printed: dict[str, list[str]] = {}
        processes: dict[str, tuple[Served, int | None]] = {}
        for name, providers in _ON_FREE_PORTS.items():
            served, port, printed[name] = served_on_free_ports(serve, *providers)
            processes[name] = (served, port)
        for name, (served, _) in running.items():
            printed[name] = served.printed()
            processes[name] = (served, None)
        runs = [
            {
                "id": f"{name}:{number}",
                "args": args,
                "env": pasted_env(printed[name]),
                "stdin": "",
                "stdout": "pipe",
            }
            for name, searches in _SEARCHES.items()
            for number, args in enumerate(searches)
        ]
        ran = run_all(runs, tmp_path_factory.mktemp("serve"), dict(os.environ))
        for served, _ in processes.values():  # all at once: each shuts down while the next is told
            served.interrupt()
        yield {
            name: Serving(
                printed[name],
                port,
                [
                    Searched(*(ran[f"{name}:{number}"][key] for key in Searched._fields))
                    for number in range(len(_SEARCHES.get(name, [])))
                ],
                served.ended(),
            )
            for name, (served, port) in processes.items()
        }
    finally:
        for served in started:
            served.close()


@pytest.fixture(scope="module")
def refused(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """Each refusal of ``python -m websearch_core.testing``, by id, from one forking
    interpreter: none of them serves, so none needs its own process to stop."""
    runs = [
        {
            "id": " ".join(args),
            "module": "websearch_core.testing",
            "args": args,
            "env": dict(os.environ),
            "stdin": "",
            "stdout": "pipe",
        }
        for args in [["serve", *bad] for bad, _ in _BAD_INPUT] + [["srve"]]
    ]
    with socket.socket() as taken:  # listening until every run is done
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        in_use = ["serve", "--port", str(port), "brave"]
        runs.append({**runs[-1], "id": "in use", "args": in_use})
        ran = run_all(
            runs,
            tmp_path_factory.mktemp("refused"),
            dict(os.environ),
            preload=("websearch_core.testing.serve",),
        )
    ran["in use"]["port"] = port
    return ran


def test_the_printed_lines_make_websearch_answer_from_the_simulator(
    serving: dict[str, Serving],
) -> None:
    lines, _, (searched, forced), stopped = serving["default"]  # default providers, free ports
    assert any(
        line.startswith("export WEBSEARCH_BRAVE_BASE_URL=http://127.0.0.1:") for line in lines
    )
    assert "export BRAVE_API_KEY=sim-key-brave" in lines
    assert "export WEBSEARCH_STATE_BACKEND=memory" in lines

    assert searched.status == EXIT_OK, searched.stderr
    assert searched.stderr == ""  # no variable pasted is unknown, no provider failed first
    assert "[1] python result 1" in searched.stdout
    assert "https://site1.example.org/python" in searched.stdout

    # The free engine it serves answers too, when it is the one asked.
    assert forced.status == EXIT_OK, forced.stderr
    assert '"provider": "duckduckgo"' in forced.stdout

    assert stopped == (EXIT_INTERRUPTED, "websearch simulator: interrupted\n")


def test_nothing_the_lines_leave_unsimulated_is_asked(serving: dict[str, Serving]) -> None:
    # Forced to a provider it does not serve, the search must not reach the real one: it is
    # excluded, so the simulated provider answers instead (the network is blocked here, so
    # a search sent to Bing would have failed, not answered).
    (searched,) = serving["brave"].searched
    assert searched.status == EXIT_OK, searched.stderr
    assert "bing" in searched.stderr and "WEBSEARCH_EXCLUDE" in searched.stderr
    assert '"provider": "brave"' in searched.stdout


@pytest.mark.parametrize("provider_id", ["gemini", "searxng", "perplexity"])
def test_providers_with_their_own_variables_answer_from_the_lines(
    serving: dict[str, Serving], provider_id: str
) -> None:
    # SearXNG's endpoint, Gemini's token route and key variable, Perplexity's key variable.
    (searched,) = serving[provider_id].searched
    assert searched.status == EXIT_OK, searched.stderr
    assert f'"provider": "{provider_id}"' in searched.stdout


def test_a_port_given_is_the_one_served(serving: dict[str, Serving]) -> None:
    lines, port, (searched,), _ = serving["port"]
    assert f"export WEBSEARCH_BRAVE_BASE_URL=http://127.0.0.1:{port}" in lines
    assert searched.status == EXIT_OK


def test_a_port_in_use_is_named_with_its_provider(refused: dict[str, dict[str, Any]]) -> None:
    ran = refused["in use"]
    assert ran["status"] == EXIT_USAGE
    assert ran["stderr"] == (
        f"websearch simulator: --port: port {ran['port']} on 127.0.0.1 (for brave) is in use; "
        f"give another --port, or leave it out for free ports\n"
    )


@pytest.mark.parametrize(("args", "named"), _BAD_INPUT)
def test_bad_input_is_one_line_naming_it(
    refused: dict[str, dict[str, Any]], args: list[str], named: str
) -> None:
    ran = refused[" ".join(["serve", *args])]
    err = ran["stderr"]
    assert ran["status"] == EXIT_USAGE
    assert err.startswith(f"websearch simulator: {named}") and err.count("\n") == 1, err


def test_a_command_other_than_serve_is_refused_naming_serve(
    refused: dict[str, dict[str, Any]],
) -> None:
    ran = refused["srve"]
    assert ran["status"] == EXIT_USAGE
    assert ran["stderr"] == (
        "websearch simulator: the command is serve, not 'srve': "
        "python -m websearch_core.testing serve [--port N] [PROVIDER ...]\n"
    )


async def test_a_fixed_port_in_use_leaves_no_server_behind() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        sim = Simulator(["brave", "bing"], ports={"bing": port})
        with pytest.raises(OSError):
            await sim.start()
        await sim.close()
    assert sim["brave"].base_url  # bound before bing failed, and closed by close()
    with socket.socket() as again:  # brave's port is free again
        again.bind(("127.0.0.1", int(sim["brave"].base_url.rsplit(":", 1)[1])))


def test_ports_for_a_provider_not_simulated_are_refused() -> None:
    with pytest.raises(KeyError, match="ports given for 'bing', not simulated here"):
        Simulator(["brave"], ports={"bing": 8080})


def test_the_undo_line_takes_back_every_pasted_variable(serving: dict[str, Serving]) -> None:
    # Once the simulator stopped, the pasted lines left each provider pointed at a port
    # where nothing listens and every other one excluded: every search in that shell
    # failed as a blocked network. The printed unset line, run after them, leaves none.
    lines = serving["undo"].lines
    exported = {
        line.removeprefix("export ").split("=", 1)[0]
        for line in lines
        if line.startswith("export ")
    }
    assert {"WEBSEARCH_BRAVE_BASE_URL", "SEARXNG_ENDPOINT", "WEBSEARCH_EXCLUDE"} <= exported
    undo = [line[line.index("unset ") :] for line in lines if ": unset " in line]
    assert len(undo) == 1 and lines[lines.index(SERVING) - 1].startswith("# "), lines
    clean = {name: value for name, value in os.environ.items() if name not in exported}
    shell = subprocess.run(
        ["/bin/sh", "-c", "\n".join([*lines, undo[0], "exec env"])],
        capture_output=True,
        text=True,
        timeout=_WAIT,
        env=clean,
    )
    left = {line.split("=", 1)[0] for line in shell.stdout.splitlines()} & exported
    assert shell.returncode == 0 and not left, (shell.stderr, left)


def test_the_lines_say_the_results_dates_which_a_recency_leaves_in(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # `websearch --recency week` against the served simulator showed results eleven months
    # old and nothing said why: the served results carry fixed dates, served whatever
    # date is asked (honour_dates is off). The printed lines now say both.
    from websearch_core.cli import main
    from websearch_core.testing.serve import paste_lines
    from websearch_core.testing.simulator import default_results

    dates = sorted(str(result.published)[:10] for result in default_results("python"))
    with Simulator(["brave"]).running_in_thread() as sim:
        comments = " ".join(
            line.removeprefix("# ") for line in paste_lines(sim) if line.startswith("# ")
        )
        assert f"dated {dates[0]} to {dates[-1]}" in comments
        assert "served whatever --recency, --after or --before asks" in comments
        assert "honour_dates" in comments
        # What the lines say holds: a week asked of Brave, every result still served.
        monkeypatch.setenv("WEBSEARCH_BRAVE_BASE_URL", sim["brave"].base_url)
        monkeypatch.setenv("BRAVE_API_KEY", "sim-key-brave")
        monkeypatch.setenv("WEBSEARCH_STATE_BACKEND", "memory")
        argv = ["--no-cache", "--provider", "brave", "--recency", "week", "--json", "python"]
        assert main(argv) == EXIT_OK
        (request,) = sim["brave"].requests
    assert request.query_dict()["freshness"] == "pw"
    sources = json.loads(capsys.readouterr().out)["response"]["sources"]
    assert len(sources) == len(dates)


def test_the_readme_shows_what_the_command_prints(serving: dict[str, Serving]) -> None:
    """Failed before: the README gave the results' dates by hand, and no printed line.

    The command the README shows is run as typed, on a free port in place of its 8080
    (taken here), and its lines are compared with the README's, port for port.
    """
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Testing your agent offline\n", 1)[1].split("\n## ", 1)[0]
    block = section.split("```console\n", 1)[1].split("\n```", 1)[0].splitlines()
    command, shown = block[0], block[1:]
    assert command == "$ python -m websearch_core.testing serve --port 8080"
    printed, port, _, _ = serving["readme"]
    assert port is not None
    as_shown = [
        line.replace(f"127.0.0.1:{port + 1}", "127.0.0.1:8081").replace(
            f"127.0.0.1:{port}", "127.0.0.1:8080"
        )
        for line in printed
    ]
    assert shown == as_shown
