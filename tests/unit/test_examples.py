"""The examples as a first-time user meets them: ``--help`` explains, it does not run."""

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize(
    "example", sorted(p.name for p in EXAMPLES.glob("*.py") if not p.name.startswith("_"))
)
def test_help_describes_the_example_instead_of_running_it(example: str) -> None:
    # offline_fallback.py ignored its arguments: --help ran the whole demo.
    pytest.importorskip("langchain_core" if "langchain" in example else "websearch_core")
    pytest.importorskip("llama_index.core" if "llamaindex" in example else "websearch_core")
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / example), "--help"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith(f"usage: {example} [-h]")
    assert "served by" not in done.stdout and "Simulated answer" not in done.stdout
