"""Print pip constraints that pin every declared dependency to its lower bound.

pyproject.toml says its lower bounds are the oldest releases the code and its tests work
with; a bound nobody installs drifts out of date unnoticed (it said langchain-core 0.3 and
llama-index-core 0.12.3 long after neither passed, and readability-lxml 0.8.1, whose main
text scores below the content tests' bar). CI installs the package with these constraints in
a second environment and runs the tests that reach the dependencies there, so a bound that
stops being true fails the build. The pins cover the core dependencies and the framework
extras; the test extra repeats the framework bounds (pip cannot refer one extra to another's
pins), so a difference between them is refused here too.

Usage: ``python .ci/lowest_bounds.py > constraints.txt`` for the pins, and
``python .ci/lowest_bounds.py --tests`` for the tests to run against them: every test
directory but the end-to-end flows (``tests/functional``, which repeat the same calls into
the dependencies through the simulator and take most of the suite's time), and any test file
there that names a framework. Read from the tree rather than kept by hand, so a new
directory or framework test is never left out.
"""

import re
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

FRAMEWORK_EXTRAS = ("langchain", "llamaindex")
"""The extras whose every requirement is a framework pinned to its lower bound."""

FRAMEWORK_NAMES = re.compile(r"\b(?:langchain|llama_?index)")
"""What marks a test file as exercising a framework: ``langchain_core``, ``llama_index``,
``langchain_websearch``, ``llamaindex_websearch`` or an example such as ``langchain_rag.py``."""

FLOWS_ONLY = ("functional",)
"""Test directories left to the main run, but for their files that name a framework."""


def lower_bound_pin(requirement: str, where: str) -> str:
    """``name==version`` for a requirement's one ``>=`` bound (an upper cap may go with it).

    Args:
        requirement: A PEP 508 requirement such as ``lxml[html-clean]>=6.1.3``.
        where: What declares it, for the error.

    Raises:
        SystemExit: No single ``>=`` bound, or a specifier other than a ``<`` cap beside
            it (an ``==``, ``~=`` or ``!=`` would leave the oldest release to be guessed).
    """
    parsed = Requirement(requirement)
    lows = [spec.version for spec in parsed.specifier if spec.operator == ">="]
    others = [spec for spec in parsed.specifier if spec.operator not in (">=", "<")]
    if len(lows) != 1 or others:
        raise SystemExit(f"{where} requirement {requirement!r} is not a single '>=' lower bound")
    return f"{parsed.name}=={lows[0]}"


def lowest_pins(pyproject: Path) -> list[str]:
    """The ``name==version`` pins for the core dependencies and the framework extras.

    Args:
        pyproject: The project's ``pyproject.toml``.

    Returns:
        One pin per requirement, the core dependencies first, in the order declared.

    Raises:
        SystemExit: A requirement has no single ``>=`` bound, or the test extra does not
            repeat a framework's word for word (either way CI would test something not
            declared).
    """
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    pins = [lower_bound_pin(r, f"{pyproject}: dependency") for r in project["dependencies"]]
    for extra in FRAMEWORK_EXTRAS:
        for requirement in extras[extra]:
            pins.append(lower_bound_pin(requirement, f"{pyproject}: extra {extra!r}"))
            if requirement not in extras["test"]:
                raise SystemExit(
                    f"{pyproject}: extra {extra!r} requires {requirement!r} but the test extra"
                    " does not repeat it"
                )
    return pins


def lowest_tests(tests: Path) -> list[str]:
    """What the lowest run tests, relative to the project, sorted.

    A framework is matched by any mention (an import inside a test function too): running
    a test that turns out not to need it costs a second; leaving one out lets a bound rot.

    Args:
        tests: The project's ``tests`` directory.

    Returns:
        Directories such as ``tests/unit`` and files such as
        ``tests/functional/test_x.py``.

    Raises:
        SystemExit: Nothing would be tested (the lowest run would collect nothing, or,
            given no paths, the whole suite).
    """
    root = tests.parent
    found = [
        path.relative_to(root).as_posix()
        for path in tests.iterdir()
        if path.is_dir() and path.name not in FLOWS_ONLY and any(path.rglob("test_*.py"))
    ]
    found += [
        path.relative_to(root).as_posix()
        for name in FLOWS_ONLY
        for path in (tests / name).rglob("test_*.py")
        if FRAMEWORK_NAMES.search(path.read_text(encoding="utf-8"))
    ]
    if not found:
        raise SystemExit(f"{tests}: no test directory or framework test to run")
    return sorted(found)


if __name__ == "__main__":
    project_root = Path(__file__).resolve().parent.parent
    if sys.argv[1:] == ["--tests"]:
        lines = lowest_tests(project_root / "tests")
    elif not sys.argv[1:]:
        lines = lowest_pins(project_root / "pyproject.toml")
    else:
        raise SystemExit(f"usage: {sys.argv[0]} [--tests]")
    sys.stdout.write("".join(f"{line}\n" for line in lines))
