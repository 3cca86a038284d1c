"""``python -c SCRIPT`` runs forked from one waiting interpreter instead of each started anew.

The first-call tests run a script in an interpreter that has imported nothing of ours: what
a first call imports, and where, is what they check. Started anew, each case also paid for
the interpreter and for the frameworks its script imports before anything is measured
(LangChain's and LlamaIndex's own packages: 1-3 s of CPU a case, 3-14 s of wall time on a
loaded machine). Here one waiting interpreter (:mod:`tests.script_fork_server`) forks a
child per run. A server imports only what its runs say they may share: the third-party
modules a package of ours imports (which each such script imports before it measures
anything), never a module of ours, never a module a run says it must import itself. A
server told nothing holds what a fresh ``python -c`` holds (``test_script_forks`` compares
them). :func:`run_script` is the tests' side: one server per set of packages, kept for the
session and ended at exit.
"""

import atexit
import os
import select
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

from tests.script_fork_server import receive, send

_SERVER = Path(__file__).with_name("script_fork_server.py")


class _Server:
    """One waiting interpreter that imported one set of packages' third-party modules."""

    def __init__(self, packages: tuple[str, ...]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(_SERVER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
        self.lock = threading.Lock()
        self._send(list(packages))

    def _send(self, message: object) -> None:
        assert self.process.stdin is not None
        send(self.process.stdin.fileno(), message)

    def _receive(self, timeout: float) -> dict[str, Any]:
        assert self.process.stdout is not None
        fd = self.process.stdout.fileno()
        if not select.select([fd], [], [], timeout)[0]:
            raise TimeoutError(f"the script server said nothing in {timeout:g} s")
        reply = receive(fd)
        assert isinstance(reply, dict), "the script server ended (its error is above)"
        return reply

    def run(self, run: dict[str, Any], timeout: float) -> int:
        """Make ``run`` in a forked child; its exit status (killed after ``timeout`` s)."""
        with self.lock:
            self._send(run)
            started = self._receive(timeout)
            assert "error" not in started, started["error"]
            try:
                return int(self._receive(timeout)["status"])
            except TimeoutError:
                os.kill(started["pid"], 9)
                self._receive(timeout)
                raise

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)


_servers: dict[tuple[str, ...], _Server] = {}
_servers_lock = threading.Lock()


def _server(packages: tuple[str, ...]) -> _Server:
    with _servers_lock:
        if packages not in _servers:
            if not _servers:
                atexit.register(_close_servers)
            _servers[packages] = _Server(packages)
        return _servers[packages]


def _close_servers() -> None:
    for server in _servers.values():
        server.close()


def run_script(
    code: str,
    *,
    preload_imports_of: tuple[str, ...] = (),
    absent: tuple[str, ...] = (),
    timeout: float = 120,
) -> subprocess.CompletedProcess[str]:
    """As ``subprocess.run([python, "-c", code])`` in this process's environment and folder.

    Args:
        code: The script.
        preload_imports_of: Packages of ours (``langchain_websearch``) that the script
            imports before anything it measures: their third-party imports may be inherited
            (our own modules never are).
        absent: Modules the script must import itself (a held or slowed import): the run is
            refused by a server that has them.
        timeout: Seconds before the run is killed and ``TimeoutError`` raised.

    Returns:
        The run's exit status and what it printed, as ``subprocess.run`` gives them.
    """
    if not hasattr(os, "fork"):
        return subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout
        )
    with tempfile.TemporaryDirectory() as folder:
        stdout, stderr = Path(folder, "stdout"), Path(folder, "stderr")
        run = {
            "code": code,
            "env": dict(os.environ),
            "cwd": os.getcwd(),
            "absent": list(absent),
            "stdout": str(stdout),
            "stderr": str(stderr),
        }
        status = _server(tuple(preload_imports_of)).run(run, timeout)
        said = stdout.read_text(errors="replace") if stdout.exists() else ""
        errors = stderr.read_text(errors="replace") if stderr.exists() else ""
    return subprocess.CompletedProcess([sys.executable, "-c", code], status, said, errors)
