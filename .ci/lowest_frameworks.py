"""Print pip constraints that pin each framework extra to the lower bound it declares.

pyproject.toml says its lower bounds are the oldest releases the code and its tests work
with; a bound nobody installs drifts out of date unnoticed (it said langchain-core 0.3 and
llama-index-core 0.12.3 long after neither passed). CI installs the package with these
constraints in a second environment and runs the framework tests there, so a bound that
stops being true fails the build. The test extra repeats the framework bounds (pip cannot
refer one extra to another's pins), so a difference between them is refused here too.

Usage: ``python .ci/lowest_frameworks.py > constraints.txt``.
"""

import sys
import tomllib
from pathlib import Path

FRAMEWORK_EXTRAS = ("langchain", "llamaindex")
"""The extras whose every requirement is a framework pinned to its lower bound."""


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


if __name__ == "__main__":
    root = Path(__file__).resolve().parent.parent
    sys.stdout.write("".join(f"{pin}\n" for pin in lowest_pins(root / "pyproject.toml")))
