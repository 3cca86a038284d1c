"""The examples run as written (offline, against the simulator)."""

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _run(name: str) -> str:
    completed = subprocess.run(
        [sys.executable, str(EXAMPLES / name)], capture_output=True, text=True, timeout=120
    )
    assert completed.returncode == 0, completed.stderr
    return completed.stdout


def test_offline_fallback_example() -> None:
    out = _run("offline_fallback.py")
    assert "served by: tavily" in out
    assert "brave: skipped Brave is out of quota until" in out
    assert "requests Brave received: 1" in out


def test_langchain_agent_example() -> None:
    pytest.importorskip("langchain_core")
    out = _run("langchain_agent.py")
    assert "provider: duckduckgo" in out
    assert "model: Done." in out
