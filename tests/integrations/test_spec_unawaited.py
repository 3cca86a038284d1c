"""``WebSearchToolSpec.aweb_search`` used without ``await`` names itself and ``web_search``.

``spec.aweb_search("q").text`` said ``'coroutine' object has no attribute 'text'``, naming
neither the call nor the spec's synchronous ``web_search``, as ``WebSearch.run`` did.
(``tool.acall(...)`` names itself too: test_retrievers_unawaited.py.)
"""

import inspect

import pytest

from llamaindex_websearch import WebSearchToolSpec
from websearch_core.testing import Simulator

from ._helpers import sim_settings


async def test_the_result_of_an_unawaited_search_names_the_call(sim: Simulator) -> None:
    spec = WebSearchToolSpec(settings=sim_settings(sim), api_keys=sim.api_keys())
    call = spec.aweb_search("python")
    with pytest.raises(AttributeError) as raised:
        _ = call.text
    call.close()
    text = str(raised.value)
    assert text.startswith("WebSearchToolSpec.aweb_search() was not awaited: ")
    assert "await spec.aweb_search(...)" in text and "spec.web_search(...)" in text
    assert sim["brave"].requests == []
    await spec.aclose()


async def test_awaited_and_through_its_tools_it_searches_as_before(sim: Simulator) -> None:
    """A guard (passes before and after): awaited, and as the async function of the
    spec's tool, it searches; LlamaIndex still sees a coroutine function."""
    spec = WebSearchToolSpec(settings=sim_settings(sim), api_keys=sim.api_keys())
    assert inspect.iscoroutinefunction(spec.aweb_search)
    result = await spec.aweb_search("one")
    (tool,) = spec.to_tool_list()
    output = await tool.acall(query="two")
    assert result.text.startswith("[1] one result 1")
    assert output.content.startswith("[1] two result 1") and not output.is_error
    await spec.aclose()
