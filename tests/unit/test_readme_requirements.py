"""The versions the README asks for are the ones ``pyproject.toml`` declares.

The quick start names the oldest Python and the framework section the oldest langchain-core
and llama-index-core the adapters work with; the bounds live in ``pyproject.toml`` (and
``.ci/lowest_bounds.py`` tests them). Nothing tied the prose to them, so a raised bound
would have left the README promising a release that fails. Both checks are guards: they
passed on the README and project they were written against.
"""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _prose() -> str:
    """The README with its line breaks joined."""
    return " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())


def _project() -> dict[str, object]:
    """``[project]`` of ``pyproject.toml``."""
    with (ROOT / "pyproject.toml").open("rb") as file:
        project = tomllib.load(file)["project"]
    assert isinstance(project, dict)
    return project


def test_the_quick_start_s_python_is_the_project_s_lowest() -> None:
    """A guard: "Python 3.11 or later" is ``requires-python``'s bound."""
    stated = re.search(r"Python (\d+\.\d+) or later", _prose())
    assert stated is not None
    assert _project()["requires-python"] == f">={stated[1]}"


def test_the_framework_bounds_are_the_extras() -> None:
    """A guard: each framework's stated oldest release is its extra's lower bound."""
    extras = _project()["optional-dependencies"]
    assert isinstance(extras, dict)
    stated = re.search(
        r"The extras need langchain-core (\S+) or newer and llama-index-core (\S+) or newer",
        _prose(),
    )
    assert stated is not None
    assert extras["langchain"] == [f"langchain-core>={stated[1]}"]
    assert extras["llamaindex"] == [f"llama-index-core>={stated[2]}"]
