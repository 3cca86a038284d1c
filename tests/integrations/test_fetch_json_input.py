"""``web_fetch`` input written whole as one JSON string is read as its arguments, as search's is.

A model that sends ``'{"url": "http://.../page", "max_chars": 300}'`` where the URL goes
(or as LangChain's whole string input, or LlamaIndex's positional one) had that text
fetched: refused as a URL with no scheme, told to write ``https://{"url": ...}``. The same
reading as ``web_search``'s query (``websearch_core.tool_json_arguments``) now applies to
``url``. And ``WebSearchToolSpec.web_search(...)``, which a model reaches without the
spec's tools (``FunctionTool.from_defaults(spec.web_search)``), reads its query so too.
Pages come from a loopback server; searches from the loopback simulator.
"""

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from llama_index.core.tools import FunctionTool

from langchain_websearch import WebFetchTool
from llamaindex_websearch import WebSearchToolSpec, create_web_fetch_tool
from tests.content._server import PageServer, serve
from websearch_core.testing import Simulator

PREFIX = "Error: invalid web_fetch arguments: "
_WORDS = "A page the agent asked for, with enough words to be read as an article. " * 30
_PAGE = f"<html><head><title>Asked</title></head><body><article><p>{_WORDS}</p></article>"

Call = Callable[[Any], Awaitable[str]]


@pytest.fixture
async def server() -> AsyncIterator[PageServer]:
    async for running in serve():
        running.page("/asked", _PAGE + "</body></html>")
        yield running


async def _langchain_whole(written: Any) -> str:
    return str(await WebFetchTool(allow_private_addresses=True).ainvoke(written))


async def _langchain_url(written: Any) -> str:
    return str(await WebFetchTool(allow_private_addresses=True).ainvoke({"url": written}))


async def _langchain_tool_call(written: Any) -> str:
    call = {"args": {"url": written}, "id": "call_1", "name": "web_fetch", "type": "tool_call"}
    message = await WebFetchTool(allow_private_addresses=True).ainvoke(call)
    return str(message.content)


async def _llamaindex_positional(written: Any) -> str:
    tool = create_web_fetch_tool(allow_private_addresses=True)
    return str((await tool.acall(written)).content)


async def _llamaindex_url(written: Any) -> str:
    tool = create_web_fetch_tool(allow_private_addresses=True)
    return str((await tool.acall(url=written)).content)


CALLS = [_langchain_whole, _langchain_url, _langchain_tool_call, _llamaindex_positional]
CALLS += [_llamaindex_url]


@pytest.mark.parametrize("call", CALLS)
async def test_a_url_writing_every_argument_is_read_as_them(server: PageServer, call: Call) -> None:
    written = json.dumps({"url": server.url("/asked"), "max_chars": 300})
    text = await call(f" {written}\n")
    assert "Asked" in text
    assert server.hits["/asked"] == 1
    # max_chars was read: the page's ~2,000 characters are cut to 300.
    assert text.count("A page the agent asked for") < 10


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        ({"max_chars": "300"}, "max_chars: Input should be a valid integer"),
        ({"max_chars": 5}, "max_chars: must be at least 200 and at most 200000 characters"),
        ({"timeout": 3}, "timeout: "),
    ],
)
@pytest.mark.parametrize("call", CALLS)
async def test_the_arguments_a_url_writes_are_checked_as_given_ones(
    server: PageServer, call: Call, extra: dict[str, Any], said: str
) -> None:
    text = await call(json.dumps({"url": server.url("/asked"), **extra}))
    assert text.startswith(PREFIX + said)
    assert server.hits["/asked"] == 0


async def test_an_argument_given_twice_is_named_in_both_fetch_tools(server: PageServer) -> None:
    written = json.dumps({"url": server.url("/asked"), "max_chars": 300})
    langchain = WebFetchTool(allow_private_addresses=True)
    llamaindex = create_web_fetch_tool(allow_private_addresses=True)
    texts = [
        str(await langchain.ainvoke({"url": written, "max_chars": 400})),
        str((await llamaindex.acall(url=written, max_chars=400)).content),
    ]
    said = (
        "url is the arguments written as one JSON object, and some are also given by "
        "themselves (max_chars); send each argument once, url as the page's URL alone"
    )
    assert texts == [PREFIX + said] * 2
    assert server.hits["/asked"] == 0


@pytest.mark.parametrize("call", CALLS)
async def test_a_url_that_is_not_a_json_object_is_fetched_as_typed(call: Call) -> None:
    """A guard: only an exact object with a ``url`` key is read; other text is a URL."""
    for typed in ('{"href": "https://a.example/"}', '{"url": "https://a.example/"} x'):
        assert "the URL has no scheme" in await call(typed)


# --- WebSearchToolSpec.web_search, reached by a model without the spec's tools ----------------


@pytest.fixture
async def sim() -> AsyncIterator[Simulator]:
    async with Simulator(["brave"]) as simulator:
        yield simulator


async def test_the_specs_function_reads_a_query_writing_every_argument(sim: Simulator) -> None:
    spec = WebSearchToolSpec(settings=sim.settings(cache=False), api_keys=sim.api_keys())
    # A plain FunctionTool over the spec's function: how a model reaches it untouched.
    tool = FunctionTool.from_defaults(async_fn=spec.aweb_search, name="web_search")
    output = await tool.acall(query='{"query": "rust async", "limit": 3}')
    assert output.raw_output.text.startswith("[1] rust async result 1")
    # From a thread of its own: run_sync would block the loop serving the simulator.
    synchronous = await asyncio.to_thread(spec.web_search, '{"query": "rust sync", "limit": 2}')
    assert synchronous.text.startswith("[1] rust sync result 1")
    sent = [request.query_dict() for request in sim["brave"].requests]
    assert [(one["q"], one["count"]) for one in sent] == [("rust async", "3"), ("rust sync", "2")]


async def test_the_specs_function_checks_what_the_query_writes(sim: Simulator) -> None:
    spec = WebSearchToolSpec(settings=sim.settings(cache=False), api_keys=sim.api_keys())
    for written in ('{"query": "rust", "limit": "3"}', '{"query": "rust", "site": "a.b"}'):
        with pytest.raises(ValueError, match=r"limit|site"):
            await spec.aweb_search(written)
    with pytest.raises(ValueError, match=r"query is the arguments written .*\(limit\)"):
        await spec.aweb_search('{"query": "rust", "limit": 3}', limit=4)
    assert sim["brave"].requests == []
