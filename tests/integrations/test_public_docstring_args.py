"""Each ``Args:`` section of the public API names parameters its callable takes.

A parameter renamed or dropped while its docstring kept the old name documents an
argument that is refused (or silently swallowed by ``**kwargs``). Read for every name the
three packages export, their public methods included; only code of these packages is
judged (a framework's inherited docstrings are its own). Guard: none differed when written.
"""

import importlib
import inspect
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

PACKAGES = ("websearch_core", "langchain_websearch", "llamaindex_websearch")


def _documented(doc: str) -> list[str] | None:
    """The names an ``Args:`` section lists (``None`` without one)."""
    section = re.search(r"^(\s*)Args:\n((?:\1    .*\n|\s*\n)+)", doc + "\n", re.M)
    if section is None:
        return None
    indent = len(section.group(1)) + 4
    names = []
    for line in section.group(2).splitlines():
        if len(line) - len(line.lstrip()) == indent:
            found = re.match(r"\s*\**(\w+)(?: \(.*?\))?:", line)
            if found:
                names.append(found.group(1))
    return names


def _ours(obj: object) -> bool:
    return getattr(obj, "__module__", "").split(".")[0] in PACKAGES


def _callables() -> Iterator[tuple[str, Callable[..., Any]]]:
    for package in PACKAGES:
        module = importlib.import_module(package)
        for name in module.__all__:
            exported = getattr(module, name)
            if inspect.isclass(exported):
                if _ours(exported):
                    yield f"{package}.{name}", exported
                for attribute, value in vars(exported).items():
                    if attribute.startswith("_") and attribute != "__init__":
                        continue
                    function = getattr(value, "__func__", value)
                    if inspect.isfunction(function) and _ours(function):
                        yield f"{package}.{name}.{attribute}", function
            elif inspect.isfunction(exported) and _ours(exported):
                yield f"{package}.{name}", exported


def test_every_documented_argument_is_a_parameter() -> None:
    pytest.importorskip("langchain_core")
    pytest.importorskip("llama_index.core")
    checked = 0
    wrong = []
    for qualified, target in _callables():
        names = _documented(inspect.getdoc(target) or "")
        if names is None:
            continue
        try:
            parameters = inspect.signature(target).parameters
        except (TypeError, ValueError):
            continue
        checked += 1
        stray = [name for name in names if name not in parameters]
        if stray:
            wrong.append((qualified, stray))
    assert checked >= 20  # the sections were found
    assert wrong == []
