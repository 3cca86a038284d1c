"""Every example runs offline, as written, against the bundled simulator and fake models.

Each runs as its own process with warnings as errors, so an example that leaves a session
open or trips a deprecation fails here. A new example needs its own check below: the first
test fails until it has one.

The runs are forked children of one :mod:`tests.cli_runs` interpreter that imported the
frameworks once (under the same ``-W`` options, which the children inherit): thirteen fresh
interpreters spent 2-5 s each importing LangChain and LlamaIndex. A child still runs the
example as ``python EXAMPLE ARGS`` would, to its own interpreter's exit.
"""

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.cli_runs import run_all
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


PRELOAD = (
    "langchain_core.language_models.fake_chat_models",
    "langchain_core.prompts",
    "langchain_core.runnables",
    "langchain_core.output_parsers",
    "langchain_websearch",
    "llama_index.core.agent.workflow",
    "llama_index.core.llms.mock",
    "llama_index.core.query_engine",
    "llamaindex_websearch",
    "websearch_core.testing",
)
"""What the examples import, imported once before the runs are forked."""


@dataclass(frozen=True)
class Run:
    """One run of an example: its arguments, and the environment if not this process's."""

    name: str
    args: tuple[str, ...]
    own_env: bool = False  # a failed search's environment (_failing_env)


def _failing_env(home: Path) -> dict[str, str]:
    """Brave alone, at a closed port: the search fails."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("WEBSEARCH_", "LANGCHAIN_", "OPENAI_"))
    }
    return env | {
        "HOME": str(home),
        "WEBSEARCH_STATE_DIR": str(home / "state"),
        "WEBSEARCH_CREDENTIALS_FILE": str(home / "credentials.json"),
        "WEBSEARCH_PROVIDERS": "brave",
        "BRAVE_API_KEY": "BSA-example-key-for-a-closed-port",
        "WEBSEARCH_BRAVE_BASE_URL": f"http://127.0.0.1:{refused_port()}",
    }


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[Run, dict[str, object]]:
    """Every run this file makes, each a forked child of one interpreter."""
    root = tmp_path_factory.mktemp("examples")
    runs = [
        *[Run(name, ("--offline",)) for name in CHECKS],
        *[Run(name, ("--help",)) for name in CHECKS],
        Run("langchain_rag.py", ("--offline", "free-threaded CPython")),
        *[Run(name, (), own_env=True) for name in FAILING],
    ]
    listed = [
        {
            "id": str(number),
            "script": str(EXAMPLES / run.name),
            "args": list(run.args),
            "env": _failing_env(root / str(number)) if run.own_env else dict(os.environ),
            "stdin": "",
            "stdout": "pipe",
        }
        for number, run in enumerate(runs)
    ]
    said = run_all(listed, root, dict(os.environ), preload=PRELOAD, python_options=tuple(WARNINGS))
    return {run: said[str(number)] for number, run in enumerate(runs)}


def _run(outcomes: dict[Run, dict[str, object]], run: Run) -> str:
    """What ``run`` printed, once it exited 0 (and, in this process's environment, said
    nothing on stderr)."""
    done = outcomes[run]
    assert done["status"] == 0, done["stderr"]
    if not run.own_env:
        assert done["stderr"] == ""
    return str(done["stdout"])


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


FAILING = ["langchain_agent.py", "llamaindex_agent.py"]


@pytest.mark.parametrize("name", list(CHECKS))
def test_example_runs_offline(name: str, outcomes: dict[Run, dict[str, object]]) -> None:
    CHECKS[name](_run(outcomes, Run(name, ("--offline",))))


@pytest.mark.parametrize("name", list(CHECKS))
def test_help_describes_the_example_instead_of_running_it(
    name: str, outcomes: dict[Run, dict[str, object]]
) -> None:
    # offline_fallback.py ignored its arguments: --help ran the whole demo.
    out = _run(outcomes, Run(name, ("--help",)))
    assert out.startswith(f"usage: {name} [-h]")
    assert "served by" not in out and "Simulated answer" not in out


def test_an_example_answers_another_question_offline(
    outcomes: dict[Run, dict[str, object]],
) -> None:
    out = _run(outcomes, Run("langchain_rag.py", ("--offline", "free-threaded CPython")))
    assert out.rstrip().endswith("Question: free-threaded CPython")


@pytest.mark.parametrize("name", FAILING)
def test_an_agent_example_whose_search_failed_names_no_provider(
    name: str, outcomes: dict[Run, dict[str, object]]
) -> None:
    """A failed search's response names the last provider tried: not one that answered."""
    lines = _run(outcomes, Run(name, (), own_env=True)).splitlines()
    assert lines[0] == "web_search('What is new in Python 3.13?') -> error"
    assert lines[1] == "provider: - (the search failed; the error follows)"
    assert lines[2].startswith("Error: ")
    # The scripted model may not hold up a source the failed search never gave.
    assert lines[-1].startswith("model: ") and "[1]" not in lines[-1], lines[-1]
