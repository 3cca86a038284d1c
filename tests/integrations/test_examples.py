"""Every example runs with ``--offline``, as README promises: no network, keys or model.

Each runs in a fresh interpreter, the way a reader starts it, against the loopback
simulator and the framework's fake model; a new file in ``examples/`` is picked up here.
"""

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SCRIPTS = sorted(path.name for path in EXAMPLES.glob("*.py") if not path.name.startswith("_"))


def test_the_examples_are_found() -> None:
    assert {"langchain_agent.py", "llamaindex_rag.py", "offline_fallback.py"} <= set(SCRIPTS)


@pytest.mark.parametrize("script", SCRIPTS)
def test_an_example_runs_offline_to_the_end(script: str) -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / script), "--offline"],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=EXAMPLES.parent,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    assert "Unclosed" not in done.stderr
    assert "Error:" not in done.stdout  # a search that failed is no example
    assert done.stdout.strip()
