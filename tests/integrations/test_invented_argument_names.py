"""A model's invented name for the main argument is answered with ``did you mean query?``.

``{"q": "rust"}``, ``search_query``, ``question``, ``text`` or ``input`` got ``query: Field
required; q: not an argument; the arguments are query, ...`` from both frameworks' tools:
too unlike ``query`` by spelling for the nearest-name guess, so nothing said which argument
was meant. ``web_fetch`` given ``link`` or ``href`` was answered alike without ``url``.
"""

from typing import Any

import pytest
from langchain_core.messages import ToolMessage

from langchain_websearch import WebFetchTool, WebSearchTool
from llamaindex_websearch import create_web_fetch_tool, create_web_search_tool
from websearch_core.testing import Simulator

from ._helpers import MODEL_FIELDS, sim_settings

_SEARCH_NAMES = ["q", "search_query", "question", "text", "input", "Q", "keywords"]
_FETCH_NAMES = ["link", "address", "href", "page_url"]


def _search_refusal(name: str) -> str:
    return (
        f"Error: invalid web_search arguments: query: Field required; {name}: not an "
        f"argument (did you mean query?); the arguments are {', '.join(MODEL_FIELDS)}"
    )


def _tool_call(name: str, args: dict[str, Any]) -> dict[str, Any]:
    return {"type": "tool_call", "id": "call-1", "name": name, "args": args}


@pytest.mark.parametrize("name", _SEARCH_NAMES)
async def test_both_search_tools_name_query(sim: Simulator, name: str) -> None:
    options: dict[str, Any] = {"settings": sim_settings(sim), "api_keys": sim.api_keys()}
    async with WebSearchTool(**options) as chain_tool, create_web_search_tool(**options) as tool:
        message = await chain_tool.ainvoke(_tool_call("web_search", {name: "rust async"}))
        output = await tool.acall(**{name: "rust async"})
        synchronous = tool.call(**{name: "rust async"})
    assert isinstance(message, ToolMessage) and message.status == "error"
    assert message.content == _search_refusal(name)
    assert output.is_error and output.content == _search_refusal(name)
    assert synchronous.content == output.content
    assert sim["brave"].requests == [] and sim["duckduckgo"].requests == []


@pytest.mark.parametrize("name", _FETCH_NAMES)
async def test_both_fetch_tools_name_url(name: str) -> None:
    refusal = (
        f"Error: invalid web_fetch arguments: url: Field required; {name}: not an argument "
        "(did you mean url?); the arguments are url, max_chars"
    )
    given = {name: "https://example.org/"}
    async with WebFetchTool() as chain_tool, create_web_fetch_tool() as tool:
        message = await chain_tool.ainvoke(_tool_call("web_fetch", given))
        output = await tool.acall(**given)
    assert isinstance(message, ToolMessage) and message.status == "error"
    assert message.content == refusal
    assert output.is_error and output.content == refusal


async def test_a_name_meant_for_the_other_tool_gets_no_such_hint(sim: Simulator) -> None:
    """A guard (passes before and after): ``web_search`` has no ``url`` to point ``link``
    at, nor ``web_fetch`` a ``query`` for ``q``; a filter's name keeps its directive."""
    options: dict[str, Any] = {"settings": sim_settings(sim), "api_keys": sim.api_keys()}
    async with create_web_search_tool(**options) as tool, create_web_fetch_tool() as fetch:
        link = await tool.acall(query="rust", link="https://example.org/")
        site = await tool.acall(query="rust", site="example.org")
        q = await fetch.acall(url="https://example.org/", q="rust")
    assert link.content == (
        "Error: invalid web_search arguments: link: not an argument; "
        f"the arguments are {', '.join(MODEL_FIELDS)}"
    )
    assert "site: not an argument (write site:<domain> in the query)" in site.content
    assert q.content == (
        "Error: invalid web_fetch arguments: q: not an argument; the arguments are url, max_chars"
    )
