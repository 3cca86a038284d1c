"""The test functions a file defines, for README claims held to the tests named beside them.

The README's claim tables name, for each claim, the tests that hold it; a renamed or
removed test would leave a claim held by nothing. Read from the file's syntax tree, so a
name is checked without importing (or running) its module.
"""

import ast
from functools import cache
from pathlib import Path

__all__ = ["ROOT", "defined_tests"]

ROOT = Path(__file__).resolve().parents[2]
"""The repository's root, which the tables' paths are relative to."""


@cache
def defined_tests(path: str) -> frozenset[str]:
    """The names of the test functions defined at the top of ``path`` (from :data:`ROOT`)."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    return frozenset(
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test")
    )
