"""CI's pins for the declared lower bounds and what it runs with them (``.ci/lowest_bounds.py``)."""

import importlib.util
import re
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("lowest_bounds", ROOT / ".ci/lowest_bounds.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _pyproject(
    tmp_path: Path, langchain: str, test: list[str], core: tuple[str, ...] = ("aiohttp>=3.11",)
) -> Path:
    path = tmp_path / "pyproject.toml"
    path.write_text(
        "[project]\n"
        f"dependencies = [{', '.join(repr(r) for r in core)}]\n"
        "[project.optional-dependencies]\n"
        f'langchain = ["{langchain}"]\n'
        'llamaindex = ["llama-index-core>=0.14.12"]\n'
        f"test = [{', '.join(repr(r) for r in test)}]\n",
        encoding="utf-8",
    )
    return path


def test_the_pins_are_the_projects_declared_lower_bounds() -> None:
    # CI installs exactly what pyproject declares: one pin per core dependency and framework
    # requirement, each at its '>=' bound (extras in the name and upper caps dropped).
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    requirements = project["dependencies"] + extras["langchain"] + extras["llamaindex"]
    expected = []
    for requirement in requirements:
        name, _, rest = requirement.partition(">=")
        expected.append(f"{name.split('[')[0].strip()}=={rest.split(',')[0].strip()}")
    assert _script().lowest_pins(ROOT / "pyproject.toml") == expected


def test_a_core_dependency_with_extras_and_a_cap_is_pinned_to_its_bound(tmp_path: Path) -> None:
    path = _pyproject(
        tmp_path,
        "langchain-core>=1.2.5",
        ["langchain-core>=1.2.5", "llama-index-core>=0.14.12"],
        core=("lxml[html-clean]>=6.1.3", "trafilatura>=2.3,<3"),
    )
    assert _script().lowest_pins(path) == [
        "lxml==6.1.3",
        "trafilatura==2.3",
        "langchain-core==1.2.5",
        "llama-index-core==0.14.12",
    ]


def test_a_test_extra_that_differs_is_refused(tmp_path: Path) -> None:
    # The test extra repeats the framework bounds; one raised without the other would leave
    # CI's main run and the lowest run testing different floors.
    path = _pyproject(
        tmp_path, "langchain-core>=1.2.5", ["langchain-core>=1.0", "llama-index-core>=0.14.12"]
    )
    with pytest.raises(SystemExit, match=re.escape("'langchain-core>=1.2.5' but the test extra")):
        _script().lowest_pins(path)


@pytest.mark.parametrize(
    "requirement", ["langchain-core", "langchain-core>=1.2,!=1.3", "langchain-core~=1.2"]
)
def test_a_framework_without_one_lower_bound_is_refused(tmp_path: Path, requirement: str) -> None:
    # Only a single '>=' names the oldest release to install; anything else would be guessed.
    path = _pyproject(tmp_path, requirement, [requirement, "llama-index-core>=0.14.12"])
    with pytest.raises(SystemExit, match=r"extra 'langchain' requirement .* is not a single"):
        _script().lowest_pins(path)


@pytest.mark.parametrize("requirement", ["pypdf", "pypdf==4.0", "pypdf>=4.0,>=4.1"])
def test_a_core_dependency_without_one_lower_bound_is_refused(
    tmp_path: Path, requirement: str
) -> None:
    path = _pyproject(
        tmp_path,
        "langchain-core>=1.2.5",
        ["langchain-core>=1.2.5", "llama-index-core>=0.14.12"],
        core=(requirement,),
    )
    with pytest.raises(SystemExit, match=f"dependency requirement {re.escape(repr(requirement))}"):
        _script().lowest_pins(path)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_the_lowest_run_takes_every_directory_but_the_flows_and_their_framework_tests(
    tmp_path: Path,
) -> None:
    # Read from the tree: a new test directory, or a framework test among the end-to-end
    # flows, is run against the bounds without anyone editing CI.
    tests = tmp_path / "tests"
    _write(tests / "unit" / "test_core.py", "import websearch_core\n")
    _write(tests / "deep" / "er" / "test_tool.py", "from langchain_websearch import X\n")
    _write(tests / "helpers_only" / "_helpers.py", "import langchain_core\n")
    _write(tests / "functional" / "test_flow.py", "import websearch_core\n")
    _write(
        tests / "functional" / "test_inline.py",
        "def test_x():\n    from llama_index.core.tools import FunctionTool\n",
    )
    _write(tests / "functional" / "test_examples.py", 'RUN = ["llamaindex_rag.py"]\n')
    assert _script().lowest_tests(tests) == [
        "tests/deep",
        "tests/functional/test_examples.py",
        "tests/functional/test_inline.py",
        "tests/unit",
    ]


def test_a_tree_with_nothing_to_run_is_refused(tmp_path: Path) -> None:
    # An empty list would let the lowest run collect nothing (or, passed no paths, the whole
    # suite): either way the bounds would go untested without a failure.
    tests = tmp_path / "tests"
    _write(tests / "functional" / "test_flow.py", "import websearch_core\n")
    with pytest.raises(SystemExit, match="no test directory or framework test to run"):
        _script().lowest_tests(tests)


def test_the_projects_lowest_run_includes_the_parsers_content_and_tools() -> None:
    found = _script().lowest_tests(ROOT / "tests")
    for path in ("tests/providers", "tests/content", "tests/integrations", "tests/unit"):
        assert path in found
    assert "tests/functional" not in found
