"""A tool input written whole as one JSON string is read as its arguments, in both tools.

Agents sometimes send ``'{"query": "rust async", "limit": 3}'`` where the query goes, or
pass it as the whole input: LangChain's ``invoke("...")`` gives a string to the first
argument, a LlamaIndex ``acall("...")`` takes it as ``query`` by position. Both tools
searched the JSON text itself, and the limit went unread. A query that is exactly a JSON
object with a ``query`` key is now read as the arguments it writes, checked as if given
one by one; a query that merely holds braces is searched as typed. Through the loopback
simulator, reading what Brave was sent.
"""

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from langchain_websearch import WebSearchTool
from llamaindex_websearch import create_web_search_tool
from websearch_core import WebSearch
from websearch_core.testing import Simulator

PREFIX = "Error: invalid web_search arguments: "
WRITTEN = '{"query": "rust async", "limit": 3}'

Call = Callable[[dict[str, Any], Any], Awaitable[object]]


@pytest.fixture
async def sim() -> AsyncIterator[Simulator]:
    async with Simulator(["brave"]) as simulator:
        yield simulator


def _options(sim: Simulator) -> dict[str, Any]:
    return {"settings": sim.settings(cache=False), "api_keys": sim.api_keys()}


async def _langchain_whole(options: dict[str, Any], written: Any) -> object:
    return await WebSearchTool(**options).ainvoke(written)


async def _langchain_query(options: dict[str, Any], written: Any) -> object:
    return await WebSearchTool(**options).ainvoke({"query": written})


async def _langchain_tool_call(options: dict[str, Any], written: Any) -> object:
    call = {"args": {"query": written}, "id": "call_1", "name": "web_search", "type": "tool_call"}
    message = await WebSearchTool(**options).ainvoke(call)
    return message.content


async def _llamaindex_positional(options: dict[str, Any], written: Any) -> object:
    return (await create_web_search_tool(**options).acall(written)).content


async def _llamaindex_query(options: dict[str, Any], written: Any) -> object:
    return (await create_web_search_tool(**options).acall(query=written)).content


CALLS = [
    _langchain_whole,
    _langchain_query,
    _langchain_tool_call,
    _llamaindex_positional,
    _llamaindex_query,
]


@pytest.mark.parametrize("written", [WRITTEN, f"  {WRITTEN}\n"])
@pytest.mark.parametrize("call", CALLS)
async def test_a_query_writing_every_argument_is_read_as_them(
    sim: Simulator, call: Call, written: str
) -> None:
    text = str(await call(_options(sim), written))
    assert text.startswith("[1] rust async result 1")
    (request,) = sim["brave"].requests
    sent = request.query_dict()
    assert (sent["q"], sent["count"]) == ("rust async", "3")


@pytest.mark.parametrize(
    ("written", "said"),
    [
        (
            '{"query": "rust", "limit": "3"}',
            "limit: Input should be a valid integer, got the string '3': send the number "
            "itself, not in quotes",
        ),
        ('{"query": "rust", "max_results": 3}', "max_results: not an argument"),
        ('{"query": ["rust"]}', "query: Input should be a valid string"),
    ],
)
@pytest.mark.parametrize("call", CALLS)
async def test_the_arguments_a_query_writes_are_checked_as_given_ones(
    sim: Simulator, call: Call, written: str, said: str
) -> None:
    text = str(await call(_options(sim), written))
    assert text.startswith(PREFIX + said)
    assert sim["brave"].requests == []


async def test_an_argument_given_twice_is_named_in_both_tools(sim: Simulator) -> None:
    options = _options(sim)
    texts = [
        str(await WebSearchTool(**options).ainvoke({"query": WRITTEN, "limit": 4})),
        str((await create_web_search_tool(**options).acall(query=WRITTEN, limit=4)).content),
    ]
    said = (
        "query is the arguments written as one JSON object, and some are also given by "
        "themselves (limit); send each argument once, query as the search text alone"
    )
    assert texts == [PREFIX + said] * 2
    assert sim["brave"].requests == []


@pytest.mark.parametrize(
    "typed",
    [
        "rust {} syntax",
        '{"a": 1} json',
        '{"q": "rust"}',
        '{"query": "rust"',
        '["query", "rust"]',
    ],
)
@pytest.mark.parametrize("call", CALLS)
async def test_a_query_that_only_holds_braces_is_searched_as_typed(
    sim: Simulator, call: Call, typed: str
) -> None:
    """Guard: no JSON object with a ``query`` key, so the text is the query (before and after).

    Sent as the client itself sends that query (its quotes read as phrases there too).
    """
    options = _options(sim)
    async with WebSearch(**options) as client:
        await client.search(typed)
    await call(options, typed)
    direct, through_the_tool = sim["brave"].requests
    assert through_the_tool.query_dict() == direct.query_dict()
