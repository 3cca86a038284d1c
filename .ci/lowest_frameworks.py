"""Print pip constraints that pin each framework extra to the lower bound it declares.

pyproject.toml says its lower bounds are the oldest releases the code and its tests work
with; a bound nobody installs drifts out of date unnoticed (it said langchain-core 0.3 and
llama-index-core 0.12.3 long after neither passed). CI installs the package with these
constraints in a second environment and runs the framework tests there, so a bound that
stops being true fails the build. The test extra repeats the framework bounds (pip cannot
refer one extra to another's pins), so a difference between them is refused here too.

Usage: ``python .ci/lowest_frameworks.py > constraints.txt`` for the pins, and
``python .ci/lowest_frameworks.py --tests`` for the test files to run against them: every file
under ``tests/`` that names a framework, one of our framework packages or an example built on
them. The list is read
from the files rather than kept by hand, so a new framework test is never left out of the
lowest run.
"""

import re
import sys
import tomllib
from pathlib import Path

FRAMEWORK_EXTRAS = ("langchain", "llamaindex")
"""The extras whose every requirement is a framework pinned to its lower bound."""

FRAMEWORK_NAMES = re.compile(r"\b(?:langchain|llama_?index)")
"""What marks a test file as exercising a framework: ``langchain_core``, ``llama_index``,
``langchain_websearch``, ``llamaindex_websearch`` or an example such as ``langchain_rag.py``."""


def lowest_pins(pyproject: Path) -> list[str]:
    """The ``name==version`` pins for the framework extras' lower bounds.

    Args:
        pyproject: The project's ``pyproject.toml``.

    Returns:
        One pin per requirement of the framework extras, in the order they are declared.

    Raises:
        SystemExit: A requirement is not a single ``>=`` bound, or the test extra does not
            repeat it word for word (either way CI would test something not declared).
    """
    extras = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]
    pins = []
    for extra in FRAMEWORK_EXTRAS:
        for requirement in extras[extra]:
            name, sep, version = requirement.partition(">=")
            if not sep or not version.strip() or any(c in version for c in ",;<>=!~["):
                raise SystemExit(
                    f"{pyproject}: extra {extra!r} requirement {requirement!r} is not a single"
                    " '>=' lower bound"
                )
            if requirement not in extras["test"]:
                raise SystemExit(
                    f"{pyproject}: extra {extra!r} requires {requirement!r} but the test extra"
                    " does not repeat it"
                )
            pins.append(f"{name.strip()}=={version.strip()}")
    return pins


def framework_tests(tests: Path) -> list[str]:
    """The test files that name a framework, relative to the project, sorted.

    A mention anywhere counts (an import inside a test function too): running a test that
    turns out not to need the framework costs a second; leaving one out lets a bound rot.

    Args:
        tests: The project's ``tests`` directory.

    Returns:
        Paths such as ``tests/integrations/test_langchain_tool.py``.

    Raises:
        SystemExit: No test file names a framework (the lowest run would test nothing).
    """
    found = sorted(
        path.relative_to(tests.parent).as_posix()
        for path in tests.rglob("test_*.py")
        if FRAMEWORK_NAMES.search(path.read_text(encoding="utf-8"))
    )
    if not found:
        raise SystemExit(f"{tests}: no test file names a framework")
    return found


if __name__ == "__main__":
    root = Path(__file__).resolve().parent.parent
    if sys.argv[1:] == ["--tests"]:
        lines = framework_tests(root / "tests")
    elif not sys.argv[1:]:
        lines = lowest_pins(root / "pyproject.toml")
    else:
        raise SystemExit(f"usage: {sys.argv[0]} [--tests]")
    sys.stdout.write("".join(f"{line}\n" for line in lines))
