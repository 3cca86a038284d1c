"""Files and dotted names the README and CONTRIBUTING point at exist.

Both send readers to ``websearch_core/format.py``, ``tests/unit/test_format.py``,
``websearch_core.content.resolver`` and the like; a module moved or renamed would leave
the pointer behind. Guards: every reference resolved when they were written.
"""

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ("README.md", "CONTRIBUTING.md")
PACKAGES = ("websearch_core", "langchain_websearch", "llamaindex_websearch")
_PATH = re.compile(
    r"`((?:websearch_core|langchain_websearch|llamaindex_websearch|tests|examples|benchmarks)"
    r"/[\w/.-]+)`"
)
_DOTTED = re.compile(rf"`((?:{'|'.join(PACKAGES)})(?:\.\w+)+)`")


def _resolve(dotted: str) -> object:
    """The module or attribute ``dotted`` names: the longest importable prefix, then getattr."""
    parts = dotted.split(".")
    for split in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:split]))
        except ModuleNotFoundError:
            continue
        for name in parts[split:]:
            found = getattr(found, name)
        return found
    raise ModuleNotFoundError(dotted)


@pytest.mark.parametrize("doc", DOCS)
def test_every_path_named_exists(doc: str) -> None:
    """A guard: each backquoted path into the repository is a file or folder there."""
    named = set(_PATH.findall((ROOT / doc).read_text(encoding="utf-8")))
    assert named, doc
    assert sorted(path for path in named if not (ROOT / path).exists()) == []


@pytest.mark.parametrize("doc", DOCS)
def test_every_dotted_name_resolves(doc: str) -> None:
    """A guard: each backquoted ``websearch_core.x.y`` is a module or one's attribute."""
    named = set(_DOTTED.findall((ROOT / doc).read_text(encoding="utf-8")))
    assert named, doc
    for dotted in sorted(named):
        _resolve(dotted)  # ModuleNotFoundError or AttributeError, naming it, when gone
