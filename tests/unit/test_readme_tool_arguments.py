"""The tool's arguments, as the README lists them for a newcomer, are the schema's.

The framework section showed how to build and call the tool but never said what the model
fills in; "the six arguments" appeared only in the Filters section, unnamed. The sentence
that names them states bounds and choices, which drift with ``ToolArguments``: each is read
back from the schema here.
"""

import re
from pathlib import Path
from typing import Any, get_args

from websearch_core.tool_schema import ToolArguments

README = Path(__file__).resolve().parents[2] / "README.md"


def _sentence() -> str:
    """The paragraph that lists the arguments, its lines joined."""
    text = " ".join(README.read_text(encoding="utf-8").split())
    found = re.search(r"The model fills (\w+) arguments: (.*?)\. The schema's", text)
    assert found, "the framework section no longer lists the tool's arguments"
    return found[0]


def _bound(name: str, kind: str) -> Any:
    """The ``ge``/``le`` or ``min_length``/``max_length`` of one field."""
    for rule in ToolArguments.model_fields[name].metadata:
        value = getattr(rule, kind, None)
        if value is not None:
            return value
    raise AssertionError(f"{name} has no {kind}")


def test_the_readme_names_each_argument_in_the_schema_s_order() -> None:
    """Failed before: the README named none of the tool's arguments."""
    sentence = _sentence()
    named = [n for n in re.findall(r"`([a-z_]+)`", sentence) if n in ToolArguments.model_fields]
    assert list(dict.fromkeys(named)) == list(ToolArguments.model_fields)
    count = re.search(r"fills (\w+) arguments", sentence)
    assert count is not None
    words = {"five": 5, "six": 6, "seven": 7}
    assert words[count[1]] == len(ToolArguments.model_fields)


def test_the_stated_bounds_and_choices_are_the_schema_s() -> None:
    """Failed before: as above; then it holds each stated bound to the field's."""
    sentence = _sentence()
    assert f"1 to {_bound('query', 'max_length')} characters" in sentence
    assert _bound("query", "min_length") == 1
    assert ToolArguments.model_fields["query"].is_required()
    for name in ("limit", "num_search_results", "max_tokens", "temperature"):
        low, high = _bound(name, "ge"), _bound(name, "le")
        assert f"`{name}` ({low:g}-{high:g})" in sentence, name
    recency = ToolArguments.model_fields["recency"].annotation
    (choices,) = [a for a in get_args(recency) if a is not type(None)]
    listed = re.search(r"`recency` \(([^)]*)\)", sentence)
    assert listed is not None
    assert re.findall(r"`(\w+)`", listed[1]) == list(get_args(choices))
