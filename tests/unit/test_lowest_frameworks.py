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
