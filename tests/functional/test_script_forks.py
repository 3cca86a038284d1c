"""The forked ``python -c`` runs the first-call tests use hold what a fresh interpreter holds.

Guards of the test harness (:mod:`tests.script_forks`): a first-call test proves something
only if its script starts with nothing of ours imported, as a user's fresh interpreter does,
and ends as that interpreter would.
"""

import ast
import subprocess
import sys

import pytest

from tests.script_forks import run_script

_MODULES = "import sys; print(sorted(sys.modules))"


def test_a_run_told_nothing_holds_the_modules_a_fresh_interpreter_holds() -> None:
    fresh = subprocess.run(
        [sys.executable, "-c", _MODULES], capture_output=True, text=True, timeout=120
    )
    forked = run_script(_MODULES)
    assert (forked.returncode, forked.stderr) == (0, "")
    assert forked.stdout == fresh.stdout


def test_a_preloaded_run_holds_the_frameworks_third_party_modules_and_nothing_of_ours() -> None:
    held = "import sys; print(sorted({name.split('.')[0] for name in sys.modules}))"
    forked = run_script(held, preload_imports_of=("langchain_websearch",))
    assert forked.returncode == 0, forked.stderr
    roots = ast.literal_eval(forked.stdout)
    assert "langchain_core" in roots
    assert not {"websearch_core", "langchain_websearch", "llamaindex_websearch"} & set(roots)


def test_a_run_ends_as_python_c_would() -> None:
    script = (
        "import atexit, os, sys, threading, time\n"
        "atexit.register(lambda: print('at exit'))\n"
        "threading.Thread(target=lambda: (time.sleep(0.2), print('thread'))).start()\n"
        "print(sys.argv, repr(sys.path[0]), os.getcwd(), os.environ.get('SCRIPT_FORKS_SEEN'))\n"
        "raise SystemExit(3)\n"
    )
    forked = run_script(script)
    fresh = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert forked.returncode == fresh.returncode == 3
    assert forked.stdout == fresh.stdout
    assert fresh.stdout == f"['-c'] '' {fresh.stdout.split()[2]} None\nthread\nat exit\n"
    failing = "import os\nraise ValueError(os.environ['SCRIPT_FORKS_SEEN'])"
    failed = run_script(failing)
    fresh = subprocess.run(
        [sys.executable, "-c", failing], capture_output=True, text=True, timeout=120
    )
    assert failed.returncode == fresh.returncode == 1
    assert failed.stderr == fresh.stderr
    assert fresh.stderr.endswith("KeyError: 'SCRIPT_FORKS_SEEN'\n"), fresh.stderr


def test_a_run_sees_the_callers_environment_at_the_call(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCRIPT_FORKS_SEEN", "yes")
    forked = run_script("import os; print(os.environ['SCRIPT_FORKS_SEEN'])")
    assert forked.stdout == "yes\n"


def test_a_module_the_run_must_import_itself_is_never_inherited() -> None:
    with pytest.raises(AssertionError, match=r"already imported in the server: \['os'\]"):
        run_script("pass", absent=("os",))
