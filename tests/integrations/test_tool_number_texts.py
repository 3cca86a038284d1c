"""A number argument a model sent as something else is told what it sent, in both tools.

A model that wrote ``{"limit": "5"}`` was answered ``limit: Input should be a valid
integer``: it believed it had sent one, so nothing told it to drop the quotes (a string,
a bool or ``5.0`` all read alike). Both adapters now say what came and what to send,
through the loopback simulator and with no search sent.
"""

from collections.abc import AsyncIterator
from typing import Any

import pytest

from langchain_websearch import WebSearchTool
from llamaindex_websearch import create_web_search_tool
from websearch_core.testing import Simulator

PREFIX = "Error: invalid web_search arguments: "


@pytest.fixture
async def sim() -> AsyncIterator[Simulator]:
    async with Simulator(["brave"]) as simulator:
        yield simulator


@pytest.mark.parametrize(
    ("given", "said"),
    [
        (
            {"limit": "5"},
            "limit: Input should be a valid integer, got the string '5': send the number "
            "itself, not in quotes",
        ),
        (
            {"temperature": "0.7"},
            "temperature: Input should be a valid number, got the string '0.7': send the "
            "number itself, not in quotes",
        ),
        (
            {"num_search_results": "ten and then some more words"},
            "num_search_results: Input should be a valid integer, got a string: send the "
            "number itself, not in quotes",
        ),
        ({"limit": True}, "limit: Input should be a valid integer, got true: send a number"),
        ({"limit": 5.0}, "limit: Input should be a valid integer, got 5.0: send a whole number"),
    ],
)
async def test_both_tools_say_what_came_instead_of_a_number(
    sim: Simulator, given: dict[str, Any], said: str
) -> None:
    options: dict[str, Any] = {"settings": sim.settings(), "api_keys": sim.api_keys()}
    arguments = {"query": "rust", **given}
    texts = [
        str(await WebSearchTool(**options).ainvoke(arguments)),
        str(await create_web_search_tool(**options).acall(**arguments)),
    ]
    assert texts == [PREFIX + said] * 2
    assert sim["brave"].requests == []


async def test_a_list_for_a_number_keeps_pydantics_words(sim: Simulator) -> None:
    """Guard: what no quotes would fix is left as pydantic says it (before and after)."""
    tool = create_web_search_tool(settings=sim.settings(), api_keys=sim.api_keys())
    text = str(await tool.acall(query="rust", limit=[5]))
    assert text == f"{PREFIX}limit: Input should be a valid integer"
