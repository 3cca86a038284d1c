"""CI's pins for the framework extras' lower bounds (``.ci/lowest_frameworks.py``)."""

import importlib.util
import re
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "lowest_frameworks", ROOT / ".ci/lowest_frameworks.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _pyproject(tmp_path: Path, langchain: str, test: list[str]) -> Path:
    path = tmp_path / "pyproject.toml"
    quoted = ", ".join(f'"{r}"' for r in test)
    path.write_text(
        "[project.optional-dependencies]\n"
        f'langchain = ["{langchain}"]\n'
        'llamaindex = ["llama-index-core>=0.14.12"]\n'
        f"test = [{quoted}]\n",
        encoding="utf-8",
    )
    return path


def test_the_pins_are_the_declared_lower_bounds() -> None:
    # CI installs exactly what the extras declare: each pin is the bound of the project's
    # own pyproject, one per framework requirement.
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]
    declared = [r.replace(">=", "==") for r in extras["langchain"] + extras["llamaindex"]]
    assert _script().lowest_pins(ROOT / "pyproject.toml") == declared


def test_a_test_extra_that_differs_is_refused(tmp_path: Path) -> None:
    # The test extra repeats the bounds; one raised without the other would leave CI's
    # main run and the lowest run testing different floors.
    path = _pyproject(
        tmp_path, "langchain-core>=1.2.5", ["langchain-core>=1.0", "llama-index-core>=0.14.12"]
    )
    with pytest.raises(SystemExit, match=re.escape("'langchain-core>=1.2.5' but the test extra")):
        _script().lowest_pins(path)


@pytest.mark.parametrize(
    "requirement", ["langchain-core", "langchain-core>=1.2,<2", "langchain-core~=1.2"]
)
def test_a_requirement_without_one_lower_bound_is_refused(tmp_path: Path, requirement: str) -> None:
    # Only a single '>=' names the oldest release to install; anything else would be guessed.
    path = _pyproject(tmp_path, requirement, [requirement, "llama-index-core>=0.14.12"])
    with pytest.raises(SystemExit, match="is not a single '>=' lower bound"):
        _script().lowest_pins(path)


def test_the_lowest_run_takes_every_test_that_names_a_framework(tmp_path: Path) -> None:
    # The list is read from the files: a framework test added anywhere is run against the
    # bounds without anyone editing CI, and a core-only test is left to the main run.
    tests = tmp_path / "tests"
    (tests / "unit").mkdir(parents=True)
    (tests / "deep" / "er").mkdir(parents=True)
    (tests / "unit" / "test_core.py").write_text("import websearch_core\n", encoding="utf-8")
    (tests / "unit" / "test_inline.py").write_text(
        "def test_x():\n    from llama_index.core.tools import FunctionTool\n", encoding="utf-8"
    )
    (tests / "deep" / "er" / "test_tool.py").write_text(
        "from langchain_websearch import WebSearchTool\n", encoding="utf-8"
    )
    (tests / "deep" / "test_examples.py").write_text(
        'RUN = ["llamaindex_rag.py"]\n', encoding="utf-8"
    )
    (tests / "deep" / "_helpers.py").write_text("import langchain_core\n", encoding="utf-8")
    assert _script().framework_tests(tests) == [
        "tests/deep/er/test_tool.py",
        "tests/deep/test_examples.py",
        "tests/unit/test_inline.py",
    ]


def test_a_tree_without_framework_tests_is_refused(tmp_path: Path) -> None:
    # An empty list would let the lowest run collect nothing (or, passed no paths, the whole
    # suite): either way the bounds would go untested without a failure.
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_core.py").write_text("import websearch_core\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="no test file names a framework"):
        _script().framework_tests(tests)


def test_the_projects_framework_tests_include_the_tools_and_examples() -> None:
    # The project's own tree: the tool tests and the examples' runs are in the lowest run.
    found = _script().framework_tests(ROOT / "tests")
    assert "tests/integrations/test_langchain_tool.py" in found
    assert "tests/integrations/test_llamaindex_tool.py" in found
    assert "tests/integrations/test_examples.py" in found
    assert not any(path.startswith("tests/state/") for path in found)
