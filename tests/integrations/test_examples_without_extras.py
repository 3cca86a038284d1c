"""An example run without its framework's extra says what to install, not a traceback.

The Quick start's step 1 is ``pip install .``; step 3 names ``python
examples/langchain_agent.py --offline``. Run before the extra was installed, each framework
example stopped at its first import with a traceback ending ``ModuleNotFoundError: No
module named 'langchain_core'`` (the adapters name their extra, but the example imported
the framework first). Each run here hides the framework from a fresh interpreter, as a
virtual environment without the extra has it, and runs the example as ``python EXAMPLE
--offline`` would.
"""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"

_CHILD = """
import runpy, sys

class Missing:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] == {hidden!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None

sys.meta_path.insert(0, Missing())
sys.path.insert(0, {examples!r})
sys.argv = [{script!r}, "--offline"]
runpy.run_path({script!r}, run_name="__main__")
"""
"""``python EXAMPLE --offline`` in an interpreter where ``hidden`` is not installed."""

FRAMEWORK_EXAMPLES = {
    "langchain_agent.py": ("langchain_core", "langchain"),
    "langchain_rag.py": ("langchain_core", "langchain"),
    "llamaindex_agent.py": ("llama_index", "llamaindex"),
    "llamaindex_rag.py": ("llama_index", "llamaindex"),
}


def test_the_framework_examples_are_the_four() -> None:
    """A guard: every example but the plain one needs a framework's extra."""
    names = sorted(p.name for p in EXAMPLES.glob("*.py") if not p.name.startswith("_"))
    assert names == sorted([*FRAMEWORK_EXAMPLES, "offline_fallback.py"])


@pytest.mark.parametrize("name", sorted(FRAMEWORK_EXAMPLES))
def test_an_example_without_its_extra_says_what_to_install(name: str) -> None:
    """Failed before: a traceback ending ``No module named 'langchain_core'``."""
    hidden, extra = FRAMEWORK_EXAMPLES[name]
    script = str(EXAMPLES / name)
    child = _CHILD.format(hidden=hidden, examples=str(EXAMPLES), script=script)
    done = subprocess.run(
        [sys.executable, "-c", child],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=ROOT,
    )
    assert (done.returncode, done.stdout) == (1, ""), done.stderr
    assert done.stderr == (
        f"{name} needs {hidden}, which is not installed. Install it with: pip install "
        f'"websearch-tools[{extra}]" (from a checkout of the project: pip install ".[{extra}]")\n'
    )
