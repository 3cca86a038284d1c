"""Many ``python -m websearch_core`` runs for the price of one interpreter start.

A fresh interpreter costs about half a second, most of it importing the command; a test
file that ran 59 of them spent most of its minutes there. This script imports the command
once, then forks one child per run: each child has its own process, environment, standard
streams and exit, so what a run proves is what a fresh ``python -m websearch_core`` would
(the exit status comes from the interpreter's own shutdown, a failed flush of stdout
included), without paying for the import again. Nothing of the command runs before a fork,
so no cache or state carries from one run to the next.

Usage: ``python -m tests.cli_runs RUNS.json OUT_DIR [MODULE ...]``, each ``MODULE`` imported
before the first fork too (what a script run imports: an example's framework). ``RUNS.json``
is a list of runs in the order to make them, each ``{"id", "args", "env", "stdin",
"stdout"}``, and ``"script"`` for a run of that file instead of the command (or ``"module"``
for ``python -m MODULE``, the simulator's ``websearch_core.testing``), where ``stdout``
is ``"pipe"`` (read by this script), ``"null"``, ``"full"`` (``/dev/full``) or ``"gone"``
(a pipe whose reader is closed), and ``"stderr": "gone"`` for a stderr whose reader is closed
(a file of this script's otherwise), and ``"cwd"`` for a run in that folder (this script's
otherwise). One JSON object goes to stdout: each id's ``status``,
``stdout`` (what a ``"pipe"`` run printed) and ``stderr``. :func:`run_all` is the tests'
side: it starts this script and reads that object.
"""

import gc
import importlib
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


def _stderr(run: dict[str, Any], path: Path) -> int:
    """The descriptor a run's stderr goes to: ``path``, or a pipe nobody reads."""
    if run.get("stderr") == "gone":
        return _target("gone")[0]
    return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)


def _stdin(text: str) -> int:
    """A descriptor reading ``text`` then end of file (the runs' input is a few bytes)."""
    read_end, write_end = os.pipe()
    os.write(write_end, text.encode())
    os.close(write_end)
    return read_end


def _child(run: dict[str, Any], stdin: int, stdout: int, stderr: int) -> None:
    """Become ``python -m MODULE ARGS`` (or ``SCRIPT``): the module's ``sys.exit`` ends us."""
    for descriptor, standard in ((stdin, 0), (stdout, 1), (stderr, 2)):
        os.dup2(descriptor, standard)
    os.environ.clear()
    os.environ.update(run["env"])
    if "cwd" in run:
        os.chdir(run["cwd"])
    script = run.get("script")
    if script is not None:  # as ``python SCRIPT ARGS``: its folder first on the path
        sys.argv = [script, *run["args"]]
        sys.path[0] = str(Path(script).parent)
        runpy.run_path(script, run_name="__main__")
        sys.exit(0)  # a script that ends without sys.exit exits 0, as a fresh one would
    module = run.get("module", "websearch_core")
    sys.argv = [module, *run["args"]]
    runpy.run_module(module, run_name="__main__", alter_sys=True)
    sys.exit(0)  # a module that ends without sys.exit exits 0, as a fresh one would


def _drained(drain: int | None) -> str:
    """Everything a run printed to its ``"pipe"`` stdout, read until the run closed it."""
    if drain is None:
        return ""
    chunks = []
    while chunk := os.read(drain, 65536):
        chunks.append(chunk)
    os.close(drain)
    return b"".join(chunks).decode(errors="replace")


def _forked(run: dict[str, Any], stderr_path: Path) -> tuple[int, str]:
    """Run ``run`` in a forked child; its exit status as a fresh interpreter would give it,
    and its stdout."""
    stdout, drain = _target(run["stdout"])
    stdin = _stdin(run["stdin"])
    stderr = _stderr(run, stderr_path)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # no ``with`` or ``finally`` above this: the child's exit unwinds through
        _child(run, stdin, stdout, stderr)
    for descriptor in (stdin, stdout, stderr):
        os.close(descriptor)
    printed = _drained(drain)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), printed


def _spawned(run: dict[str, Any], stderr_path: Path) -> tuple[int, str]:
    """Where there is no fork: the same run in a fresh interpreter."""
    stdout, drain = _target(run["stdout"])
    stderr = _stderr(run, stderr_path)
    module = run.get("module", "websearch_core")
    started = ["-m", module] if run.get("script") is None else [run["script"]]
    process = subprocess.Popen(
        [sys.executable, *_python_options(), *started, *run["args"]],
        env=run["env"],
        cwd=run.get("cwd"),
        stdin=subprocess.PIPE,
        stdout=stdout,
        stderr=stderr,
    )
    os.close(stdout)
    os.close(stderr)
    assert process.stdin is not None
    process.stdin.write(run["stdin"].encode())
    process.stdin.close()
    printed = _drained(drain)
    process.wait()
    return process.returncode, printed


def _python_options() -> list[str]:
    """This interpreter's ``-W`` options, for a run spawned where there is no fork."""
    return [f"-W{option}" for option in sys.warnoptions]


def main() -> None:
    """Make every run of ``argv[1]`` in order; print each one's status and stderr."""
    for module in sys.argv[3:]:
        importlib.import_module(module)
    # A child's exit collects every object it holds, writing to each: with the frameworks
    # imported that copied the whole inherited heap and took ~1-2 s a child (``--help``
    # included). Frozen, what was imported here is left out of the child's collections;
    # what the child makes itself (a session it leaves open) is collected as before.
    gc.freeze()
    runs: list[dict[str, Any]] = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    out_dir = Path(sys.argv[2])
    make = _forked if hasattr(os, "fork") else _spawned
    said: dict[str, dict[str, object]] = {}
    for number, run in enumerate(runs):
        stderr_path = out_dir / f"{number}.stderr"
        status, printed = make(run, stderr_path)
        stderr = stderr_path.read_text(errors="replace") if stderr_path.exists() else ""
        said[run["id"]] = {"status": status, "stdout": printed, "stderr": stderr}
    print(json.dumps(said))


def run_all(
    runs: list[dict[str, Any]],
    directory: Path,
    env: dict[str, str],
    *,
    preload: tuple[str, ...] = (),
    python_options: tuple[str, ...] = (),
) -> dict[str, dict[str, Any]]:
    """Make ``runs`` in order in one interpreter of this script; each id's outcome.

    Args:
        runs: The runs, as the module's docstring says; each id once.
        directory: Where the list of runs and each run's stderr are written.
        env: This script's own environment (a user's, as each run's is): it imports the
            command under it.
        preload: Modules to import before the first fork (a script's heavy imports).
        python_options: Interpreter options (``-W error``): the children inherit them.

    Returns:
        Each run's ``status``, ``stdout`` and ``stderr``, by its id.
    """
    assert len({run["id"] for run in runs}) == len(runs), "two runs with one id"
    listed = directory / "runs.json"
    listed.write_text(json.dumps(runs), encoding="utf-8")
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run(
        [
            sys.executable,
            *python_options,
            "-m",
            "tests.cli_runs",
            str(listed),
            str(directory),
            *preload,
        ],
        env={**env, "PYTHONPATH": str(root)},
        cwd=root,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr
    outcomes: dict[str, dict[str, Any]] = json.loads(done.stdout)
    return outcomes


if __name__ == "__main__":
    main()
