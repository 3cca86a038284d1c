"""``WebSearchToolSpec.to_tool_list`` refuses a name that is no function of the spec, saying so.

LlamaIndex looks each name up with ``getattr``: a text for the list (``"web_search"``) said
``'WebSearchToolSpec' object has no attribute 'w'``, a wrong name said the same of it, and a
``func_to_metadata_mapping`` keyed by the tool's new name instead of the function's was
ignored, the tool keeping the name ``web_search``.
"""

from typing import Any

import pytest

from llamaindex_websearch import WebSearchToolSpec, web_search_metadata
from websearch_core import WebSearchError
from websearch_core.testing import Simulator

from ._helpers import sim_settings

OWNER = "WebSearchToolSpec.to_tool_list()"
FUNCTIONS = "(its functions: web_search, aweb_search; the tool's name is set by its metadata, "
FUNCTIONS += "web_search_metadata('search'))"

REFUSED: list[tuple[dict[str, Any], str]] = [
    (
        {"spec_functions": "web_search"},
        f"{OWNER}: spec_functions must be a list of function names, such as ['web_search'] (or "
        "pairs of a function and its async form), got the text 'web_search': write ['web_search']",
    ),
    (
        {"spec_functions": ["search"]},
        f"{OWNER}: spec_functions names 'search', which is no function of the spec; did you "
        f"mean web_search? {FUNCTIONS}",
    ),
    (
        {"spec_functions": [("web_search", "aweb_searh")]},
        f"{OWNER}: spec_functions names 'aweb_searh', which is no function of the spec; did you "
        f"mean aweb_search? {FUNCTIONS}",
    ),
    (
        {"func_to_metadata_mapping": {"search": web_search_metadata("search")}},
        f"{OWNER}: func_to_metadata_mapping names 'search', which is no function of the spec; "
        f"did you mean web_search? {FUNCTIONS}",
    ),
    (
        {"func_to_metadata_mapping": [web_search_metadata("search")]},
        f"{OWNER}: func_to_metadata_mapping must map a function name to its ToolMetadata, such "
        "as {'web_search': web_search_metadata('search')}, got a value of type list",
    ),
]


@pytest.mark.parametrize(("given", "said"), REFUSED)
def test_a_name_that_is_no_function_is_refused_naming_the_functions(
    given: dict[str, Any], said: str
) -> None:
    with pytest.raises(WebSearchError) as caught:
        WebSearchToolSpec().to_tool_list(**given)
    assert isinstance(caught.value, TypeError)
    assert str(caught.value) == said


def test_guard_an_entry_of_another_shape_keeps_llamaindexs_value_error() -> None:
    """Guard: ``[5]`` is still LlamaIndex's ``ValueError``, as an old catch expects."""
    with pytest.raises(ValueError, match=r"spec_functions must be of type"):
        WebSearchToolSpec().to_tool_list([5])  # type: ignore[list-item]


def test_guard_the_functions_named_still_build_tools_that_search(threaded_sim: Simulator) -> None:
    """Guard: each accepted form builds one tool, renamed by its metadata, and it searches."""
    spec = WebSearchToolSpec(settings=sim_settings(threaded_sim), api_keys=threaded_sim.api_keys())
    mapping = {"web_search": web_search_metadata("search")}
    (renamed,) = spec.to_tool_list(["web_search"], func_to_metadata_mapping=mapping)
    (paired,) = spec.to_tool_list([("web_search", "aweb_search")])
    assert (renamed.metadata.name, paired.metadata.name) == ("search", "web_search")
    assert renamed.call(query="python asyncio").content.startswith("[1] python asyncio result 1")
    assert [r.query_dict()["q"] for r in threaded_sim["brave"].requests] == ["python asyncio"]
