"""Every example runs offline, as written, against the bundled simulator and fake models.

Each runs in a fresh interpreter with warnings as errors, so an example that leaves a session
open or trips a deprecation fails here. A new example needs its own check below: the first
test fails until it has one.
"""

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.refused_port import refused_port

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

TOP_SOURCE = "[1] What's New In Python 3.13"
TOP_URL = "https://docs.python.org/3/whatsnew/3.13.html"


WARNINGS = [
    "-W",
    "error",
    # llama-index-workflows inspects an agent with inspect.getmembers, which touches
    # pydantic's deprecated attributes: the library's noise, not the example's.
    "-W",
    "ignore::DeprecationWarning:inspect",
]


def _run(name: str, *args: str, env: dict[str, str] | None = None) -> str:
    completed = subprocess.run(
        [sys.executable, *WARNINGS, str(EXAMPLES / name), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert completed.returncode == 0, completed.stderr
    if env is None:
        assert completed.stderr == ""
    return completed.stdout


def _offline_fallback(out: str) -> None:
    assert "first search, served by tavily:\n  brave: failed - brave: 402" in out
    assert "second search, served by tavily:\n  brave: skipped - Brave is out of quota until" in out
    assert "requests Brave received: 1" in out


def _langchain_agent(out: str) -> None:
    lines = out.splitlines()
    assert lines[:3] == [
        "web_search('What is new in Python 3.13?') -> success",
        "provider: duckduckgo",
        lines[2],
    ]
    assert lines[2].startswith(TOP_SOURCE)
    assert f"    {TOP_URL}" in lines
    assert "[3] PEP 744 - JIT Compilation" in out
    assert "[4]" not in out  # the model asked for three
    assert lines[-1] == "model: See the web_search result above."


def _llamaindex_agent(out: str) -> None:
    lines = out.splitlines()
    assert lines[:2] == [
        "web_search('What is new in Python 3.13?') -> success",  # as LangChain's says it
        "provider: duckduckgo",
    ]
    assert lines[2].startswith(TOP_SOURCE)
    assert "[4]" not in out
    assert lines[-1].startswith(f"model: The top source: {TOP_SOURCE}")


def _langchain_rag(out: str) -> None:
    # The fake model repeats its prompt: the retrieved documents reached the model.
    assert out.startswith("answer:\nSources:\n\n")
    assert f"{TOP_SOURCE} ({TOP_URL})\nPython 3.13 brings a new interactive interpreter" in out
    assert "[3] PEP 744 - JIT Compilation (https://peps.python.org/pep-0744/)" in out
    assert out.rstrip().endswith("Question: What is new in Python 3.13?")


def _llamaindex_rag(out: str) -> None:
    sources, _, answer = out.partition("answer:\n")
    assert sources.splitlines() == [
        "sources:",
        f"  1.00  What's New In Python 3.13 ({TOP_URL})",
        "  0.50  PEP 703 - Making the Global Interpreter Lock Optional in CPython "
        "(https://peps.python.org/pep-0703/)",
        "  0.33  PEP 744 - JIT Compilation (https://peps.python.org/pep-0744/)",
    ]
    # MockLLM repeats the query engine's prompt: the node texts reached the model.
    assert f"What's New In Python 3.13\n{TOP_URL}\nPython 3.13 brings" in answer
    assert "Query: What is new in Python 3.13?" in answer


CHECKS: dict[str, Callable[[str], None]] = {
    "offline_fallback.py": _offline_fallback,
    "langchain_agent.py": _langchain_agent,
    "llamaindex_agent.py": _llamaindex_agent,
    "langchain_rag.py": _langchain_rag,
    "llamaindex_rag.py": _llamaindex_rag,
}


def test_every_example_is_checked() -> None:
    examples = sorted(p.name for p in EXAMPLES.glob("*.py") if not p.name.startswith("_"))
    assert examples == sorted(CHECKS)


@pytest.mark.parametrize("name", list(CHECKS))
def test_example_runs_offline(name: str) -> None:
    CHECKS[name](_run(name, "--offline"))


@pytest.mark.parametrize("name", list(CHECKS))
def test_help_describes_the_example_instead_of_running_it(name: str) -> None:
    # offline_fallback.py ignored its arguments: --help ran the whole demo.
    out = _run(name, "--help")
    assert out.startswith(f"usage: {name} [-h]")
    assert "served by" not in out and "Simulated answer" not in out


def test_an_example_answers_another_question_offline() -> None:
    out = _run("langchain_rag.py", "--offline", "free-threaded CPython")
    assert out.rstrip().endswith("Question: free-threaded CPython")


@pytest.mark.parametrize("name", ["langchain_agent.py", "llamaindex_agent.py"])
def test_an_agent_example_whose_search_failed_names_no_provider(name: str, tmp_path: Path) -> None:
    """A failed search's response names the last provider tried: not one that answered."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("WEBSEARCH_", "LANGCHAIN_", "OPENAI_"))
    }
    env |= {
        "HOME": str(tmp_path),
        "WEBSEARCH_STATE_DIR": str(tmp_path / "state"),
        "WEBSEARCH_CREDENTIALS_FILE": str(tmp_path / "credentials.json"),
        "WEBSEARCH_PROVIDERS": "brave",
        "BRAVE_API_KEY": "BSA-example-key-for-a-closed-port",
        "WEBSEARCH_BRAVE_BASE_URL": f"http://127.0.0.1:{refused_port()}",
    }
    lines = _run(name, env=env).splitlines()
    assert lines[0] == "web_search('What is new in Python 3.13?') -> error"
    assert lines[1] == "provider: - (the search failed; the error follows)"
    assert lines[2].startswith("Error: ")
    # The scripted model may not hold up a source the failed search never gave.
    assert lines[-1].startswith("model: ") and "[1]" not in lines[-1], lines[-1]
