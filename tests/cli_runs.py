"""Many ``python -m websearch_core`` runs for the price of one interpreter start.

A fresh interpreter costs about half a second, most of it importing the command; a test
file that ran 59 of them spent most of its minutes there. This script imports the command
once, then forks one child per run: each child has its own process, environment, standard
streams and exit, so what a run proves is what a fresh ``python -m websearch_core`` would
(the exit status comes from the interpreter's own shutdown, a failed flush of stdout
included), without paying for the import again. Nothing of the command runs before a fork,
so no cache or state carries from one run to the next.

Usage: ``python -m tests.cli_runs RUNS.json OUT_DIR``. ``RUNS.json`` is a list of runs in
the order to make them, each ``{"id", "args", "env", "stdin", "stdout"}`` where ``stdout``
is ``"pipe"`` (read by this script), ``"null"``, ``"full"`` (``/dev/full``) or ``"gone"``
(a pipe whose reader is closed). One JSON object goes to stdout: each id's ``status`` and
``stderr``.
"""

import json
import os
import runpy
import subprocess
import sys
from pathlib import Path
from typing import Any

import websearch_core.cli  # the import every child would otherwise repeat
import websearch_core.content.cli_fetch  # noqa: F401  # and the one ``fetch`` adds


def _target(kind: str) -> tuple[int, int | None]:
    """The descriptor a run's stdout goes to, and the read end this script drains (if any)."""
    if kind == "pipe":
        read_end, write_end = os.pipe()
        return write_end, read_end
    if kind == "gone":
        read_end, write_end = os.pipe()
        os.close(read_end)
        return write_end, None
    device = "/dev/full" if kind == "full" else os.devnull
    return os.open(device, os.O_WRONLY), None


def _stdin(text: str) -> int:
    """A descriptor reading ``text`` then end of file (the runs' input is a few bytes)."""
    read_end, write_end = os.pipe()
    os.write(write_end, text.encode())
    os.close(write_end)
    return read_end


def _child(run: dict[str, Any], stdin: int, stdout: int, stderr: int) -> None:
    """Become ``python -m websearch_core ARGS``: the module's own ``sys.exit`` ends us."""
    for descriptor, standard in ((stdin, 0), (stdout, 1), (stderr, 2)):
        os.dup2(descriptor, standard)
    os.environ.clear()
    os.environ.update(run["env"])
    sys.argv = ["websearch_core", *run["args"]]
    runpy.run_module("websearch_core", run_name="__main__", alter_sys=True)
    sys.exit(0)  # not reached: the module exits with the command's status


def _forked(run: dict[str, Any], stderr_path: Path) -> int:
    """Run ``run`` in a forked child; its exit status as a fresh interpreter would give it."""
    stdout, drain = _target(run["stdout"])
    stdin = _stdin(run["stdin"])
    stderr = os.open(stderr_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # no ``with`` or ``finally`` above this: the child's exit unwinds through
        _child(run, stdin, stdout, stderr)
    for descriptor in (stdin, stdout, stderr):
        os.close(descriptor)
    if drain is not None:
        while os.read(drain, 65536):
            pass
        os.close(drain)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


def _spawned(run: dict[str, Any], stderr_path: Path) -> int:
    """Where there is no fork: the same run in a fresh interpreter."""
    stdout, drain = _target(run["stdout"])
    with stderr_path.open("w") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "websearch_core", *run["args"]],
            env=run["env"],
            stdin=subprocess.PIPE,
            stdout=stdout,
            stderr=stderr,
        )
        os.close(stdout)
        process.communicate(run["stdin"].encode())
    if drain is not None:
        while os.read(drain, 65536):
            pass
        os.close(drain)
    return process.returncode


def main() -> None:
    """Make every run of ``argv[1]`` in order; print each one's status and stderr."""
    runs: list[dict[str, Any]] = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    out_dir = Path(sys.argv[2])
    make = _forked if hasattr(os, "fork") else _spawned
    said: dict[str, dict[str, object]] = {}
    for number, run in enumerate(runs):
        stderr_path = out_dir / f"{number}.stderr"
        status = make(run, stderr_path)
        said[run["id"]] = {"status": status, "stderr": stderr_path.read_text(errors="replace")}
    print(json.dumps(said))


if __name__ == "__main__":
    main()
